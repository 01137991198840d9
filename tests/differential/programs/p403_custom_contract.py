"""The custom-operator contract as the operator sees it: ``req`` in forward and backward under
grad_req write / add / null / a dict (and the gradients after two backward calls under 'add'),
``is_train`` (an int 1 / 0), the shapes and integer dtype codes given to create_operator (args
then aux), ``in_shape`` given to infer_shape (unknowns as ``[]``), what backward gets for an
array it did not declare (empty, shape ``()``), keyword inputs matched by name, missing inputs
auto-created as ``{name}_{arg}`` and aux as ``{name}_{aux}``, and Custom nodes in attr_dict /
tojson / load_json (the loaded symbol runs again with the same results)."""
import json

import numpy as np
from _common import err, node_ops

LOG = []


def shapes_of(arrays):
    return [list(a.shape) for a in arrays]


def register(mx):
    class Probe(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            LOG.append({"call": "forward", "is_train": is_train,
                        "is_train_type": type(is_train).__name__, "req": list(req),
                        "in_data_first": [float(a.asnumpy().ravel()[0]) for a in in_data]})
            self.assign(out_data[0], req[0], in_data[0] * 2 + in_data[1])
            self.assign(out_data[1], req[1], in_data[0] - in_data[1])
            aux[0][:] = aux[0] + 1

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            entry = {"call": "backward", "req": list(req),
                     "out_grad": shapes_of(out_grad), "in_data": shapes_of(in_data),
                     "out_data": shapes_of(out_data), "in_grad": shapes_of(in_grad),
                     "aux": shapes_of(aux)}
            LOG.append(entry)
            if out_grad[0].shape == ():  # not declared: empty, and reading it fails
                entry["empty_out_grad"] = {"size": out_grad[0].size, "ndim": out_grad[0].ndim,
                                           "asnumpy": err(mx, out_grad[0].asnumpy),
                                           "times_two": err(mx, lambda: out_grad[0] * 2)}
                self.assign(in_grad[0], req[0], in_data[0] * 3)
                self.assign(in_grad[1], req[1], in_data[1] * 0 + 1)
                return
            self.assign(in_grad[0], req[0], out_grad[0] * 2 + out_grad[1])
            self.assign(in_grad[1], req[1], out_grad[0] - out_grad[1])

    @mx.operator.register("p403_probe")
    class ProbeProp(mx.operator.CustomOpProp):
        def __init__(self, need_top_grad="True", deps="default"):
            super(ProbeProp, self).__init__(need_top_grad=need_top_grad == "True")
            self.deps = deps

        def list_arguments(self):
            return ["data", "weight"]

        def list_outputs(self):
            return ["output", "extra"]

        def list_auxiliary_states(self):
            return ["state"]

        def infer_shape(self, in_shape):
            LOG.append({"call": "infer_shape", "in_shape": in_shape})
            known = in_shape[0] if in_shape[0] else in_shape[1]
            return [known, known], [known, known], [known]

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            if self.deps == "out_grad_only":
                return list(out_grad)
            return super(ProbeProp, self).declare_backward_dependency(out_grad, in_data,
                                                                      out_data)

        def create_operator(self, ctx, shapes, dtypes):
            LOG.append({"call": "create_operator", "ctx": str(ctx), "shapes": shapes,
                        "dtypes": list(dtypes), "dtype_types": [type(d).__name__ for d in dtypes]})
            return Probe()


def calls(kind):
    return [{k: v for k, v in c.items() if k != "call"} for c in LOG if c["call"] == kind]


def run(mx):
    register(mx)
    rs = np.random.RandomState(403)
    x = mx.sym.Variable("x")
    w = mx.sym.Variable("w")
    xv = rs.randn(2, 3).astype("float32")
    wv = rs.randn(2, 3).astype("float32")
    heads = [mx.nd.array(rs.randn(2, 3).astype("float32")) for _ in range(2)]
    res = {}

    # --- keyword inputs are matched by name; missing ones are created -----------------------
    kw = mx.sym.Custom(weight=w, data=x, op_type="p403_probe", name="my")
    res["keyword_names"] = {"arguments": kw.list_arguments(), "outputs": kw.list_outputs(),
                            "aux": kw.list_auxiliary_states()}
    res["positional_names"] = mx.sym.Custom(x, w, op_type="p403_probe",
                                            name="pos").list_arguments()
    res["missing_weight"] = mx.sym.Custom(x, op_type="p403_probe", name="L2").list_inputs()
    res["missing_data_auto_name"] = mx.sym.Custom(weight=w, op_type="p403_probe").list_inputs()
    res["all_missing_auto_name"] = mx.sym.Custom(op_type="p403_probe").list_inputs()

    # --- infer_shape sees lists of ints, [] for unknown ------------------------------------
    del LOG[:]
    res["partial_x_known"] = kw.infer_shape_partial(x=(2, 3))
    res["in_shape_x_known"] = calls("infer_shape")[0]["in_shape"]
    del LOG[:]
    res["partial_w_known"] = kw.infer_shape_partial(w=(4, 5))
    res["in_shape_w_known"] = calls("infer_shape")[0]["in_shape"]
    del LOG[:]
    res["partial_none_known"] = kw.infer_shape_partial()
    res["in_shape_none_known"] = calls("infer_shape")[0]["in_shape"]

    # --- req under each grad_req, two steps each ---------------------------------------------
    for label, grad_req in [("write", "write"), ("add", "add"), ("null", "null"),
                            ("dict", {"x": "add", "w": "null"}),
                            ("list", ["null", "write"])]:
        ex = kw.simple_bind(ctx=mx.cpu(), grad_req=grad_req, x=(2, 3))
        ex.arg_dict["x"][:] = xv
        ex.arg_dict["w"][:] = wv
        for g in ex.grad_arrays:
            if g is not None:
                g[:] = 10.0
        del LOG[:]
        for h in heads:
            ex.forward(is_train=True)
            ex.backward([h, h * 0.5])
        mx.nd.waitall()
        res["req_" + label] = {
            "forward_req": [c["req"] for c in calls("forward")],
            "backward_req": [c["req"] for c in calls("backward")],
            "grads": {k: None if v is None else v.asnumpy()
                      for k, v in sorted(ex.grad_dict.items())},
            "outputs": [o.asnumpy() for o in ex.outputs],
            "aux": ex.aux_dict["my_state"].asnumpy(),
        }
    # keyword inputs: in_data[0] is x, in_data[1] is w, whatever the keyword order
    res["keyword_in_data_first"] = calls("forward")[0]["in_data_first"]
    res["x_w_first"] = [float(xv[0, 0]), float(wv[0, 0])]

    # --- is_train is an int ------------------------------------------------------------------
    del LOG[:]
    for kwargs in ({"is_train": True}, {"is_train": False}, {}, {"is_train": 1}):
        ex.forward(**kwargs)
        mx.nd.waitall()  # MXNet's asynchronous custom operator may otherwise see a later flag
    res["is_train_seen"] = [[c["is_train"], c["is_train_type"]] for c in calls("forward")]

    # --- create_operator: shapes of args then aux, integer dtype codes, ctx -------------------
    del LOG[:]
    kw.simple_bind(ctx=mx.cpu(), x=(2, 3))
    res["create_float32"] = calls("create_operator")[-1]
    del LOG[:]
    kw.simple_bind(ctx=mx.cpu(), x=(4, 1), type_dict={"x": "float64", "w": "float64"})
    res["create_float64"] = calls("create_operator")[-1]

    # --- an array backward did not declare arrives empty --------------------------------------
    loss = mx.sym.Custom(x, w, op_type="p403_probe", name="loss", need_top_grad=False)
    ex = loss.simple_bind(ctx=mx.cpu(), x=(2, 3))
    ex.arg_dict["x"][:] = xv
    ex.arg_dict["w"][:] = wv
    del LOG[:]
    ex.forward(is_train=True)
    ex.backward()  # a loss head: no out_grads needed
    mx.nd.waitall()
    res["need_top_grad_false_backward"] = calls("backward")
    res["need_top_grad_false_grads"] = {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())}
    only = mx.sym.Custom(x, w, op_type="p403_probe", name="only", deps="out_grad_only")
    ex = only.simple_bind(ctx=mx.cpu(), x=(2, 3))
    del LOG[:]
    ex.forward(is_train=True)
    ex.backward([heads[0], heads[1]])
    mx.nd.waitall()
    res["out_grad_only_backward"] = calls("backward")

    # --- attr_dict, tojson and load_json of Custom nodes -----------------------------------
    net = mx.sym.Custom(weight=w, data=mx.sym.FullyConnected(x, num_hidden=3, name="fc"),
                        op_type="p403_probe", name="probe", need_top_grad="True", deps=0.5)
    res["attr_dict"] = net.attr_dict()
    res["node_ops"] = node_ops(net)
    res["json_heads"] = json.loads(net.tojson())["heads"]
    loaded = mx.sym.load_json(net.tojson())
    res["loaded_names"] = {"arguments": loaded.list_arguments(), "outputs": loaded.list_outputs(),
                           "aux": loaded.list_auxiliary_states()}
    res["loaded_tojson_same"] = loaded.tojson() == net.tojson()
    results = []
    fc_w = rs.randn(3, 3).astype("float32")
    for sym in (net, loaded):
        ex = sym.simple_bind(ctx=mx.cpu(), x=(2, 3))
        ex.arg_dict["x"][:] = xv
        ex.arg_dict["w"][:] = wv
        ex.arg_dict["fc_weight"][:] = fc_w
        ex.forward(is_train=True)
        ex.backward([heads[0], heads[1]])
        mx.nd.waitall()
        results.append({"outputs": [o.asnumpy() for o in ex.outputs],
                        "grads": {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())},
                        "aux": {k: v.asnumpy() for k, v in sorted(ex.aux_dict.items())}})
    res["run_original"], res["run_loaded"] = results
    return res
