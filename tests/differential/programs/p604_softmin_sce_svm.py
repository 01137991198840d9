"""softmin (axis, temperature, dtype), softmax_cross_entropy (one summed loss of shape (1,), a
label that is truncated to an int, no label gradient) and SVMOutput (identity forward; L2 and
L1 hinge gradients, margin, regularization_coefficient, 3-D data): values, shapes, errors."""
import numpy as np

from _common import err, f32, fwd_bwd


def _sce(mx, sce, data, label, head, label_req="null"):
    """Loss and gradients of softmax_cross_entropy, the label bound with ``label_req``."""
    ex = sce.simple_bind(mx.cpu(), x=data.shape, y=(len(label),),
                         grad_req={"x": "write", "y": label_req})
    ex.arg_dict["x"][:] = data
    ex.arg_dict["y"][:] = f32(label)
    ex.forward(is_train=True)
    ex.backward(mx.nd.array([head]))
    return {"out": ex.outputs[0].asnumpy(), "grad_x": ex.grad_dict["x"].asnumpy(),
            "grad_y": ex.grad_dict["y"]}


def run(mx):
    rs = np.random.RandomState(604)
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    data = f32(rs.randn(3, 4) * 2)
    res = {
        "softmin": fwd_bwd(mx, mx.sym.softmin(x), {"x": data}, rs),
        "softmin_axis0_t": fwd_bwd(mx, mx.sym.softmin(x, axis=0, temperature=2.0),
                                   {"x": data}, rs),
        "softmin_3d": fwd_bwd(mx, mx.sym.softmin(x, axis=1), {"x": f32(rs.randn(2, 3, 2))},
                              rs),
        "softmin_f64": [np.dtype(o.dtype).name for o in mx.sym.softmin(x, dtype="float64").eval(
            x=mx.nd.array(data))],
    }
    sce = mx.sym.softmax_cross_entropy(x, y)
    res["sce"] = _sce(mx, sce, data, [2, 0, 3], 2.0)
    res["sce_fractional_label"] = _sce(mx, sce, data, [1.7, 0.2, 3.9], 0.5)
    res["sce_label_write"] = err(mx, _sce, mx, sce, data, [2, 0, 3], 1.0, "write")
    res["sce_shapes"] = {
        "given": sce.infer_shape(x=(3, 4), y=(3,)),
        "label_missing": err(mx, sce.infer_shape, x=(3, 4)),
        "data_3d": err(mx, sce.infer_shape, x=(3, 4, 1), y=(3,)),
        "rows_differ": err(mx, sce.infer_shape, x=(3, 4), y=(2,)),
        "types": [None if p is None else [np.dtype(t).name for t in p]
                  for p in sce.infer_type(x="float64")],
        "types_label_int": err(mx, sce.infer_type, x="float32", y="int32"),
    }
    res["sce_nd"] = mx.nd.softmax_cross_entropy(mx.nd.array([[1, 2, 3], [11, 7, 5]]),
                                                mx.nd.array([2, 0])).asnumpy()
    svm_in = {"x": data, "y": f32([1, 3, 0])}
    for key, kw in (("svm_l2", {}), ("svm_l1", {"use_linear": True}),
                    ("svm_l2_params", {"margin": 2.0, "regularization_coefficient": 0.5}),
                    ("svm_l1_params", {"margin": 0.5, "regularization_coefficient": 3.0,
                                       "use_linear": True})):
        res[key] = fwd_bwd(mx, mx.sym.SVMOutput(x, y, **kw), svm_in, rs)
    res["svm_3d"] = fwd_bwd(mx, mx.sym.SVMOutput(x, y), {"x": f32(rs.randn(2, 2, 3)),
                                                        "y": f32([[0, 2], [1, 1]])}, rs)
    svm = mx.sym.SVMOutput(x, y)
    res["svm_shapes"] = {
        "two_d": svm.infer_shape(x=(3, 4)),
        "three_d": svm.infer_shape(x=(2, 3, 4)),
        "partial": svm.infer_shape_partial(x=(0, 4)),
        "label_wrong": err(mx, svm.infer_shape, x=(3, 4), y=(4,)),
        "types": [None if p is None else [np.dtype(t).name for t in p]
                  for p in svm.infer_type(x="float64")],
        "types_label_int": err(mx, svm.infer_type, x="float32", y="int32"),
        "types_label_only": err(mx, svm.infer_type, y="float32"),
    }
    return res
