"""mx.nd.to_dlpack_for_read / to_dlpack_for_write / from_dlpack and the NDArray methods: the
docstring examples, memory sharing both ways, dtypes, numpy capsules, a used capsule."""
import numpy as np

from _common import err


def run(mx):
    out = {}
    x = mx.nd.ones((2, 3))
    y = mx.nd.to_dlpack_for_read(x)
    out["read_type"] = [type(y).__name__, repr(y).split(" at ")[0]]
    z = mx.nd.from_dlpack(y)
    out["read_z"] = [repr(z).split("\n")[1:], type(z).__name__, repr(y).split(" at ")[0]]
    out["used_again"] = err(mx, mx.nd.from_dlpack, y)
    w = mx.nd.to_dlpack_for_write(x)
    u = mx.nd.from_dlpack(w)
    u += 1
    mx.nd.waitall()
    out["write_x"] = x.asnumpy().tolist()
    m = mx.nd.array([[1, 2], [3, 4]])
    v = mx.nd.from_dlpack(m.to_dlpack_for_read())
    v[:] = 5
    mx.nd.waitall()
    out["method_read_shares"] = m.asnumpy().tolist()
    m[0] = 9
    mx.nd.waitall()
    out["view_sees_writes"] = v.asnumpy().tolist()
    q = mx.nd.from_dlpack(m.to_dlpack_for_write())
    out["method_write"] = [q.shape, q.context.device_type, np.dtype(q.dtype).name]
    out["dtypes"] = {}
    for dt in ["float16", "float32", "float64", "uint8", "int8", "int32", "int64"]:
        r = mx.nd.from_dlpack(mx.nd.array([1, 2, 3], dtype=dt).to_dlpack_for_read())
        out["dtypes"][dt] = [np.dtype(r.dtype).name, r.asnumpy().tolist()]
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    fa = mx.nd.from_dlpack(a.__dlpack__())
    fa[:] = fa * 2
    mx.nd.waitall()
    out["from_numpy"] = [np.dtype(fa.dtype).name, fa.shape, a.tolist()]
    out["from_numpy_int"] = np.dtype(mx.nd.from_dlpack(
        np.arange(3, dtype=np.int64).__dlpack__()).dtype).name
    out["strided"] = err(mx, mx.nd.from_dlpack, a[:, 1:].__dlpack__())
    out["not_capsule"] = err(mx, mx.nd.from_dlpack, 5)
    out["numpy_in"] = err(mx, mx.nd.to_dlpack_for_read, np.ones(2))
    row = mx.nd.from_dlpack(mx.nd.ones((2, 3))[1].to_dlpack_for_read())
    out["row"] = [row.shape, row.asnumpy().tolist()]

    def make():
        src = mx.nd.array([1, 2, 3])
        return mx.nd.from_dlpack(src.to_dlpack_for_read())
    kept = make()
    out["outlives_source"] = kept.asnumpy().tolist()
    return out
