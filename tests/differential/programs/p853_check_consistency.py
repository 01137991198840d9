"""mx.test_utils.check_consistency: the docstring examples on CPU contexts (float64 and
float32; float16 only for Concat, as MXNet has no float16 Convolution on the CPU), arg_params,
grad_req, the returned ground truth, a mismatch, errors."""
import numpy as np

from _common import err


def _summary(gt):
    return {k: [np.dtype(v.dtype).name, list(v.shape), v.asnumpy().astype(np.float64).tolist()]
            for k, v in sorted(gt.items())}


def run(mx):
    tu = mx.test_utils
    out = {}
    np.random.seed(0)
    sym = mx.sym.Convolution(num_filter=3, kernel=(3, 3), name="conv")
    ctx_list = [{"ctx": mx.cpu(0), "conv_data": (2, 2, 6, 6),
                 "type_dict": {"conv_data": np.float64}},
                {"ctx": mx.cpu(0), "conv_data": (2, 2, 6, 6),
                 "type_dict": {"conv_data": np.float32}},
                {"ctx": mx.cpu(0), "conv_data": (2, 2, 6, 6),
                 "type_dict": {"conv_data": np.float64}}]
    out["conv"] = _summary(tu.check_consistency(sym, ctx_list))
    sym = mx.sym.Concat(name="concat", num_args=2)
    ctx_list = [{"ctx": mx.cpu(0), "concat_arg1": (2, 10), "concat_arg0": (2, 10),
                 "type_dict": {"concat_arg0": np.float64, "concat_arg1": np.float64}},
                {"ctx": mx.cpu(0), "concat_arg1": (2, 10), "concat_arg0": (2, 10),
                 "type_dict": {"concat_arg0": np.float32, "concat_arg1": np.float32}},
                {"ctx": mx.cpu(0), "concat_arg1": (2, 10), "concat_arg0": (2, 10),
                 "type_dict": {"concat_arg0": np.float16, "concat_arg1": np.float16}}]
    out["concat"] = _summary(tu.check_consistency(sym, ctx_list))
    fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    shapes = {"data": (4, 5)}
    fc_list = [dict(ctx=mx.cpu(0), type_dict={"data": np.float32}, **shapes),
               dict(ctx=mx.cpu(0), type_dict={"data": np.float64}, **shapes)]
    params = {"data": np.ones((4, 5)), "fc_weight": np.full((3, 5), 0.5),
              "fc_bias": np.arange(3.0)}
    out["fc_params"] = _summary(tu.check_consistency(fc, fc_list, arg_params=params))
    out["fc_null"] = _summary(tu.check_consistency(fc, fc_list, grad_req="null",
                                                   arg_params=params))
    np.random.seed(1)
    out["fc_add_uniform"] = _summary(tu.check_consistency(fc, fc_list, grad_req="add",
                                                          use_uniform=True, scale=0.5))
    bn = mx.sym.BatchNorm(mx.sym.Variable("data"), name="bn", fix_gamma=False)
    np.random.seed(2)
    out["bn"] = _summary(tu.check_consistency(bn, [
        dict(ctx=mx.cpu(0), data=(4, 3), type_dict={"data": np.float64}),
        dict(ctx=mx.cpu(0), data=(4, 3), type_dict={"data": np.float32})]))
    truth = {"fc_output": mx.nd.zeros((4, 3))}
    out["wrong_truth"] = err(mx, tu.check_consistency, fc, fc_list, arg_params=params,
                             grad_req="null", ground_truth=truth)
    out["wrong_truth_quiet"] = err(mx, tu.check_consistency, fc, fc_list, arg_params=params,
                                   grad_req="null", ground_truth=truth, raise_on_err=False)
    out["one_entry"] = err(mx, tu.check_consistency, fc, fc_list[:1])
    out["sym_list"] = _summary(tu.check_consistency([fc, fc], fc_list, arg_params=params))
    return out
