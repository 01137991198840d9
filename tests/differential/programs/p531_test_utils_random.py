"""mx.test_utils random helpers draw from numpy's global generator, as in MXNet: after
np.random.seed, rand_shape_2d / 3d / nd and rand_ndarray (dense) give MXNet's exact values;
also their types, dtypes and contexts."""
import numpy as np


def run(mx):
    tu = mx.test_utils
    np.random.seed(0)
    s2, s3, sn = tu.rand_shape_2d(), tu.rand_shape_3d(), tu.rand_shape_nd(4)
    res = {
        "shape_2d": list(s2), "shape_3d": list(s3), "shape_nd": [int(d) for d in sn],
        "types": [type(s2).__name__, type(s3).__name__, type(sn).__name__],
        "shape_2d_small": list(tu.rand_shape_2d(2, 3)),
        "shape_3d_small": list(tu.rand_shape_3d(1, 2, 3)),
        "shape_nd_dim": [int(d) for d in tu.rand_shape_nd(3, dim=2)],
        "zero_size": list(tu.rand_shape_2d(0, 0, allow_zero_size=True)),
        "zero_size_nd": [int(d) for d in tu.rand_shape_nd(3, 1, allow_zero_size=True)],
    }
    np.random.seed(1)
    a = tu.rand_ndarray((2, 3))
    b = tu.rand_ndarray((4,), dtype=np.float64)
    c = tu.rand_ndarray((2, 2), dtype="float16", ctx=mx.cpu(1))
    res["rand_ndarray"] = [
        {"type": type(x).__name__, "shape": list(x.shape), "dtype": np.dtype(x.dtype).name,
         "context": str(x.context), "values": x.asnumpy()} for x in (a, b, c)]
    np.random.seed(2)
    r1, r2 = tu.random_arrays((2, 2), (3,))
    r0 = tu.random_arrays(())
    res["random_arrays"] = [[np.dtype(r.dtype).name, list(r.shape), r] for r in (r1, r2, r0)]
    return res
