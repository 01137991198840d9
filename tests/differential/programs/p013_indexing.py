"""Indexing symbols: by int, by output name, by slice; errors; iteration and len."""
from _common import err


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    sp = mx.sym.SliceChannel(a, num_outputs=3, name="sp")
    g = mx.sym.Group([a, b, a])
    return {
        "sp_len": len(sp),
        "sp_outputs": sp.list_outputs(),
        "sp_1": sp[1].list_outputs(),
        "sp_1_name": sp[1].name,
        "sp_by_name": sp["sp_output2"].list_outputs(),
        "sp_slice": sp[1:].list_outputs(),
        "sp_slice_step": sp[::2].list_outputs(),
        "sp_iter": [s.list_outputs()[0] for s in sp],
        "sp_index_args": sp[2].list_arguments(),
        "var_0": a[0].list_outputs(),
        "var_iter": [s.name for s in a],
        "out_of_range": err(mx, lambda: sp[3]),
        "var_out_of_range": err(mx, lambda: a[1]),
        "missing_name": err(mx, lambda: sp["nope"]),
        "ambiguous_name": err(mx, lambda: g["a"]),
        "float_index": err(mx, lambda: sp[1.0]),
        "none_index": err(mx, lambda: sp[None]),
        "group_len": len(g),
        "group_by_name": g["b"].list_outputs(),
    }
