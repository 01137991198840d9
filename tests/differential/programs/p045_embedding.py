"""Embedding with input_dim, output_dim, dtype: weight (input_dim, output_dim); types."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    e = mx.sym.Embedding(data, input_dim=10, output_dim=4, name="emb")
    e16 = mx.sym.Embedding(data, input_dim=7, output_dim=3, dtype="float16", name="emb16")
    return {
        "names": names(e),
        "attr_dict": e.attr_dict(),
        "tojson": e16.tojson(),
        "shape_2d": e.infer_shape(data=(2, 5)),
        "shape_1d": e.infer_shape(data=(6,)),
        "f16_shape": e16.infer_shape(data=(3, 2, 2)),
        "type_default": types(e.infer_type(data="float32")),
        "type_f16": types(e16.infer_type(data="float32")),
        "type_int_data": types(e.infer_type(data="int32")),
        "missing_output_dim": err(mx, mx.sym.Embedding, data, input_dim=3),
        "weight_mismatch": err(mx, e.infer_shape, data=(2, 5), emb_weight=(10, 5)),
    }
