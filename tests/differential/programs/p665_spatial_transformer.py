"""SpatialTransformer (affine grid over target_shape, bilinear sampling; points outside the
map read 0), GridGenerator (affine and warp) and BilinearSampler: listings with their hidden
outputs, JSON, shapes, forward and backward values to data and loc / grid, errors."""
import numpy as np

from _common import err
from _image import describe, dtypes, run_symbol, seeded, shapes

# affine matrices (a, b, tx, c, d, ty) chosen so that no sampling point falls exactly on a
# pixel: bilinear sampling has a kink there, and float32 rounding would pick the side
LOC = np.array([[0.91, 0.07, 0.04, -0.09, 0.83, 0.06],
                [0.62, -0.31, 0.21, 0.26, 1.13, -0.17],
                [1.37, 0.12, -0.23, -0.15, 1.29, 0.31]], np.float32)


def run(mx):
    data, loc, grid = mx.sym.Variable("data"), mx.sym.Variable("loc"), mx.sym.Variable("grid")
    res = {}
    x = seeded((3, 2, 5, 6), 0)
    for i, target in enumerate([(4, 3), (5, 6), (7, 9)]):
        sym = mx.sym.SpatialTransformer(data, loc, target_shape=target, transform_type="affine",
                                        sampler_type="bilinear", name="st")
        res[f"st_{target}"] = run_symbol(mx, sym, {"data": x, "loc": LOC}, seed=i)
    st = mx.sym.SpatialTransformer(data, loc, target_shape=(4, 3), transform_type="affine",
                                   sampler_type="bilinear", name="st")
    # (under grad_req='add' MXNet 1.9.1's SpatialTransformer overwrites both gradients;
    # minisym adds, as every operator does: not recorded)
    res["st_symbol"] = describe(mx.sym.SpatialTransformer(
        data, loc, target_shape=(5, 5), transform_type="affine", sampler_type="bilinear"))
    res["st_shapes"] = shapes(st.infer_shape(data=(3, 2, 5, 6), loc=(3, 6)))
    res["st_partial"] = {"data_only": shapes(st.infer_shape_partial(data=(3, 2, 5, 6))),
                         "loc_only": shapes(st.infer_shape_partial(loc=(3, 6)))}
    res["st_types"] = dtypes(st.infer_type(data="float32"))
    gen = mx.sym.GridGenerator(loc, transform_type="affine", target_shape=(3, 4), name="gg")
    res["grid_affine"] = run_symbol(mx, gen, {"loc": LOC}, seed=6)
    flow = seeded((2, 2, 3, 4), 7, -1.5, 1.5)
    warp = mx.sym.GridGenerator(grid, transform_type="warp", name="gw")
    res["grid_warp"] = run_symbol(mx, warp, {"grid": flow}, seed=7)
    res["grid_symbols"] = [describe(gen), describe(warp),
                           shapes(gen.infer_shape(loc=(3, 6))),
                           shapes(warp.infer_shape(grid=(2, 2, 3, 4)))]
    points = seeded((3, 2, 3, 4), 8, -1.2, 1.2)
    bs = mx.sym.BilinearSampler(data, grid, name="bs")
    res["sampler"] = run_symbol(mx, bs, {"data": x, "grid": points}, seed=8)
    res["sampler_add"] = run_symbol(mx, bs, {"data": x, "grid": points}, seed=9,
                                    grad_req="add", repeat=2)
    res["sampler_symbol"] = [describe(bs), shapes(bs.infer_shape(data=(3, 2, 5, 6),
                                                                 grid=(3, 2, 3, 4)))]
    res["nd"] = mx.nd.SpatialTransformer(mx.nd.array(x), mx.nd.array(LOC), target_shape=(2, 2),
                                         transform_type="affine",
                                         sampler_type="bilinear").asnumpy()
    res["errors"] = {
        "loc_columns": err(mx, st.infer_shape, data=(3, 2, 5, 6), loc=(3, 5)),
        "no_target_shape": err(mx, mx.sym.SpatialTransformer(
            data, loc, transform_type="affine", sampler_type="bilinear").infer_shape,
            data=(3, 2, 5, 6), loc=(3, 6)),
        "data_rank": err(mx, st.infer_shape, data=(3, 5, 6), loc=(3, 6)),
        "no_transform_type": err(mx, mx.sym.SpatialTransformer, data, loc,
                                 target_shape=(2, 2), sampler_type="bilinear"),
        "bad_sampler": err(mx, mx.sym.SpatialTransformer, data, loc, target_shape=(2, 2),
                           transform_type="affine", sampler_type="nearest"),
        "grid_affine_columns": err(mx, gen.infer_shape, loc=(3, 4)),
        "grid_warp_channels": err(mx, warp.infer_shape, grid=(2, 3, 3, 4)),
        "sampler_grid_channels": err(mx, bs.infer_shape, data=(3, 2, 5, 6), grid=(3, 3, 3, 4)),
        "sampler_batch": err(mx, bs.infer_shape, data=(3, 2, 5, 6), grid=(2, 2, 3, 4)),
    }
    return res
