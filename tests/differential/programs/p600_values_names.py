"""Value operators and the Python-level dispatch functions: auto-names, listings, JSON node
ops and attrs (identity is _copy, ElementWiseSum is add_n, zeros is _zeros), and parameter
errors (exception class only)."""
import numpy as np

from _common import err, names, node_ops


def run(mx):
    x, y, c = mx.sym.Variable("x"), mx.sym.Variable("y"), mx.sym.Variable("c")
    made = {
        "identity": mx.sym.identity(x),
        "Cast": mx.sym.Cast(x, dtype="float16"),
        "cast": mx.sym.cast(x, dtype=np.int32),
        "cast_bool": mx.sym.cast(x, dtype="bool"),
        "clip": mx.sym.clip(x, -1, 2.5),
        "where": mx.sym.where(c, x, y),
        "where_implicit_y": mx.sym.where(c, x),
        "add_n": mx.sym.add_n(x, y, c),
        "ElementWiseSum": mx.sym.ElementWiseSum(x, y),
        "add_n_num_args": mx.sym.add_n(x, y, num_args=3),
        "zeros": mx.sym.zeros((2, 3)),
        "zeros_int_shape": mx.sym.zeros(3),
        "zeros_list_shape": mx.sym.zeros([2, 3]),
        "ones_int8": mx.sym.ones((2,), dtype="int8"),
        "ones_np_dtype": mx.sym.ones((2,), dtype=np.float64),
        "zeros_named": mx.sym.zeros((2,), name="zz"),
        "zeros_ctx": mx.sym.zeros((2,), ctx="cpu(0)"),
        "zeros_like": mx.sym.zeros_like(x),
        "ones_like": mx.sym.ones_like(x),
        "maximum": mx.sym.maximum(x, y),
        "maximum_scalar": mx.sym.maximum(x, 2),
        "maximum_rscalar": mx.sym.maximum(2, x),
        "minimum": mx.sym.minimum(x, y),
        "minimum_scalar": mx.sym.minimum(x, 0.5),
        "minimum_rscalar": mx.sym.minimum(-1, x),
        "pow": mx.sym.pow(x, y),
        "pow_scalar": mx.sym.pow(x, 2),
        "pow_rscalar": mx.sym.pow(2, x),
        "power": mx.sym.power(x, y),
        "power_scalar": mx.sym.power(x, 3),
        "power_rscalar": mx.sym.power(3, x),
        "maximum_np_scalar": mx.sym.maximum(np.int64(2), x),
    }
    for op in ("sign", "round", "trunc", "rsqrt", "sin", "cos", "softsign", "logical_not",
               "hard_sigmoid", "smooth_l1", "softmin"):
        made[op] = getattr(mx.sym, op)(x)
    made["hard_sigmoid_params"] = mx.sym.hard_sigmoid(x, 0.3, beta=0.1)
    made["smooth_l1_scalar"] = mx.sym.smooth_l1(x, scalar=2.0)
    made["softmin_params"] = mx.sym.softmin(x, axis=0, temperature=2.0)
    made["softmin_dtype"] = mx.sym.softmin(x, dtype="float64")
    made["sce"] = mx.sym.softmax_cross_entropy(x, y)
    made["sce_implicit_label"] = mx.sym.softmax_cross_entropy(x)
    made["svm"] = mx.sym.SVMOutput(x)
    made["svm_params"] = mx.sym.SVMOutput(x, y, margin=2, regularization_coefficient=0.5,
                                          use_linear=True)
    out = {k: {"name": s.name, "arguments": s.list_arguments(), "outputs": s.list_outputs(),
               "nodes": [n for n in node_ops(s) if n[0] != "null"]}
           for k, s in made.items()}
    out["names_where"] = names(made["where_implicit_y"])
    out["tojson_zeros_graph"] = (mx.sym.zeros((2, 3)) * 2 + mx.sym.ones((2, 3))).tojson()
    out["numbers"] = [mx.sym.maximum(2, 3.5), mx.sym.minimum(2, 3.5), mx.sym.pow(2, 3),
                      mx.sym.power(2.0, 0.5)]
    out["errors"] = {
        "cast_no_dtype": err(mx, mx.sym.cast, x),
        "cast_bad_dtype": err(mx, mx.sym.cast, x, dtype="float33"),
        "zeros_bad_dtype": err(mx, mx.sym.zeros, (2,), dtype="float33"),
        "zeros_no_shape": err(mx, mx.sym.zeros),
        "clip_missing_a_max": err(mx, mx.sym.clip, x, a_min=0),
        "clip_text_bound": err(mx, mx.sym.clip, x, a_min="a", a_max=1),
        "hard_sigmoid_text": err(mx, mx.sym.hard_sigmoid, x, alpha="x"),
        "svm_text_margin": err(mx, mx.sym.SVMOutput, x, margin="a"),
        "add_n_nothing": err(mx, mx.sym.add_n),
        "add_n_too_many": err(mx, mx.sym.add_n, x, y, num_args=1),
        "maximum_text": err(mx, mx.sym.maximum, x, "a"),
        "pow_text": err(mx, mx.sym.pow, "a", x),
        "maximum_bool": err(mx, mx.sym.maximum, x, True),
        "unknown_param": err(mx, mx.sym.clip, x, a_min=0, a_max=1, a_mid=2),
    }
    return out
