"""SliceChannel / split: num_outputs, axis, squeeze_axis; both store op 'SliceChannel'."""
from _common import err, names, node_ops


def run(mx):
    data = mx.sym.Variable("data")
    sc = mx.sym.SliceChannel(data, num_outputs=3, name="sc")
    sp = mx.sym.split(data, num_outputs=2, axis=2, squeeze_axis=True, name="sp")
    sp_neg = mx.sym.split(data, num_outputs=4, axis=-1)
    return {
        "sc": names(sc),
        "sc_attr_dict": sc.attr_dict(),
        "sc_shape": sc.infer_shape(data=(2, 6, 4)),
        "sp": names(sp),
        "sp_nodes": node_ops(sp),
        "sp_shape": sp.infer_shape(data=(3, 4, 2)),
        "sp_tojson": sp.tojson(),
        "sp_neg": [sp_neg.name, sp_neg.list_outputs(), sp_neg.infer_shape(data=(2, 3, 8))],
        "one_output_shape": sp[1].infer_shape(data=(3, 4, 2)),
        "missing_num_outputs": err(mx, mx.sym.split, data, axis=1),
        "indivisible": err(mx, sc.infer_shape, data=(2, 5, 4)),
        "squeeze_needs_size_1": err(mx, sp.infer_shape, data=(3, 4, 4)),
    }
