"""mx.test_utils comparisons: the per-dtype default tolerances, get_tolerance / get_tols,
almost_equal and same (values), np_reduce (values), and which of assert_almost_equal /
assert_allclose raise (AssertionError, or ValueError when shapes cannot broadcast)."""
import numpy as np
from _common import err


def _by_name(tols):
    return {np.dtype(k).name: v for k, v in sorted(tols.items(), key=lambda kv: str(kv[0]))}


def run(mx):
    tu = mx.test_utils
    f32 = np.ones((2, 3), dtype=np.float32)
    f64 = np.ones((2, 3))
    res = {
        "default_dtype": np.dtype(tu.default_dtype()).name,
        "rtols": _by_name(tu.default_rtols()),
        "atols": _by_name(tu.default_atols()),
        "numeric_eps": _by_name(tu.default_numeric_eps()),
        "get_tolerance": [tu.get_tolerance(f32, None, tu.default_rtols()),
                          tu.get_tolerance(f32, 0.5, tu.default_rtols()),
                          tu.get_tolerance(f32, {np.dtype(np.float32): 0.25}, tu.default_rtols()),
                          tu.get_tolerance(f64, {np.dtype(np.float32): 0.25}, tu.default_atols())],
        "get_tols": [list(tu.get_tols(f32, f64, None, None)), list(tu.get_tols(1.0, 2, None, None)),
                     list(tu.get_tols(mx.nd.ones((2,)), f64, 0.1, None))],
        "get_atol_rtol": [tu.get_atol(), tu.get_rtol(), tu.get_atol(0.5), tu.get_rtol(0.25)],
    }
    a = np.arange(6.0).reshape(2, 3)
    res["almost_equal"] = [
        tu.almost_equal(a, a + 1e-6), tu.almost_equal(a, a + 1e-3),
        tu.almost_equal(a, a * 1.01, rtol=0.1), tu.almost_equal(a, a + 0.05, atol=0.1),
        tu.almost_equal(np.ones((2, 3)), np.ones(3)), tu.almost_equal(np.nan, np.nan),
        tu.almost_equal(np.nan, np.nan, equal_nan=True),
        tu.almost_equal(f32, f32 + 1e-4),
    ]
    res["almost_equal_errors"] = {
        "no_broadcast": err(mx, tu.almost_equal, np.ones((2, 3)), np.ones(3), use_broadcast=False),
        "bad_shapes": err(mx, tu.almost_equal, np.ones((2, 3)), np.ones(2)),
    }
    res["same"] = [tu.same(a, a.copy()), tu.same(a, a + 1), tu.same(np.ones(3), np.ones(2))]
    cube = np.arange(24.0).reshape(2, 3, 4)
    res["np_reduce"] = {
        "none": tu.np_reduce(cube, None, False, np.sum),
        "none_keep": tu.np_reduce(cube, None, True, np.sum),
        "int": tu.np_reduce(cube, 1, False, np.max),
        "list_keep": tu.np_reduce(cube, [0, 2], True, np.sum),
        "tuple": tu.np_reduce(cube, (2, 0), False, np.min),
    }
    nd_one = mx.nd.ones((2, 3))
    res["assert_almost_equal"] = {
        "equal": err(mx, tu.assert_almost_equal, a, a.copy()),
        "returns": tu.assert_almost_equal(a, a),
        "float64_off": err(mx, tu.assert_almost_equal, a, a + np.array([[0, 0, 0.1], [0, 0, 0]])),
        "float32_within": err(mx, tu.assert_almost_equal, f32, f32 + 5e-4),
        "mixed_dtypes_within": err(mx, tu.assert_almost_equal, f32, f64 + 5e-4),
        "ndarray_vs_numpy": err(mx, tu.assert_almost_equal, nd_one, f64),
        "ndarray_off": err(mx, tu.assert_almost_equal, nd_one, mx.nd.zeros((2, 3)),
                           names=("x", "y")),
        "explicit_tols": err(mx, tu.assert_almost_equal, a, a + 0.05, rtol=0, atol=0.1),
        "dict_rtol": err(mx, tu.assert_almost_equal, f32, f32 + 5e-3,
                         rtol={np.dtype(np.float32): 0.1}),
        "scalars_equal": err(mx, tu.assert_almost_equal, 1.0, 1.0),
        "scalars_off": err(mx, tu.assert_almost_equal, 1.0, 2.0),
        "ints_off": err(mx, tu.assert_almost_equal, np.array([1, 2]), np.array([1, 3])),
        "bools_off": err(mx, tu.assert_almost_equal, np.array([True, False]),
                         np.array([True, True])),
        "bools_equal": err(mx, tu.assert_almost_equal, np.array([True, False]),
                           np.array([True, False])),
        "nan": err(mx, tu.assert_almost_equal, np.array([np.nan]), np.array([np.nan])),
        "nan_equal_nan": err(mx, tu.assert_almost_equal, np.array([np.nan]), np.array([np.nan]),
                             equal_nan=True),
        "broadcast_ok": err(mx, tu.assert_almost_equal, np.ones((2, 3)), np.ones(3)),
        "no_broadcast": err(mx, tu.assert_almost_equal, np.ones((2, 3)), np.ones(3),
                            use_broadcast=False),
        "bad_shapes": err(mx, tu.assert_almost_equal, np.ones((2, 3)), np.ones((3, 2))),
    }
    res["assert_allclose"] = {
        "tiny_off": err(mx, tu.assert_allclose, np.ones(3), np.ones(3) + 1e-6),
        "equal": err(mx, tu.assert_allclose, np.ones(3), np.ones(3)),
        "nan": err(mx, tu.assert_allclose, np.array([np.nan]), np.array([np.nan])),
        "loose": err(mx, tu.assert_allclose, np.ones(3), np.ones(3) + 1e-6, rtol=1e-5),
    }
    return res
