"""ROIPooling: MXNet's box rounding (corners times spatial_scale rounded half away from zero,
end - start + 1 cells, floor / ceil bin edges), rois past the map, degenerate and empty ones,
batch indices outside the batch; the hidden maxidx output; gradients (rois get zeros) also
under grad_req='add'; listings, JSON, shapes, errors."""
import numpy as np

from _common import err
from _image import describe, dtypes, run_symbol, seeded, shapes

ROIS = [
    [0, 0, 0, 7, 5],        # the whole map at scale 1
    [1, 1, 1, 5, 6],        # .5 corners at scale 0.5
    [0, 3, 3, 3, 3],        # a single point
    [1, -3, -5, 2.5, 1.5],  # starts before the map, halves
    [0, 6, 4, 30, 40],      # runs past the map
    [1, 5, 5, 2, 2],        # x2 < x1: one cell
    [2, 0, 0, 4, 4],        # batch index past the batch: zeros
    [-1, 0, 0, 4, 4],       # negative batch index: zeros
    [0.9, 2, 1, 9, 9],      # a fractional batch index truncates
]


def run(mx):
    data, rois = mx.sym.Variable("data"), mx.sym.Variable("rois")
    res = {}
    x = seeded((2, 3, 6, 8), 0, -2, 2)
    boxes = np.array(ROIS, np.float32)
    for i, (pooled, scale) in enumerate([((2, 2), 1.0), ((3, 2), 0.5), ((2, 3), 0.7),
                                         ((4, 4), 0.25), ((1, 1), 1.0), ((5, 3), 0.6)]):
        sym = mx.sym.ROIPooling(data, rois, pooled_size=pooled, spatial_scale=scale,
                                name="roi")
        res[f"{pooled}_{scale}"] = run_symbol(mx, sym, {"data": x, "rois": boxes}, seed=i)
    sym = mx.sym.ROIPooling(data, rois, pooled_size=(2, 3), spatial_scale=0.5, name="roi")
    res["add"] = run_symbol(mx, sym, {"data": x, "rois": boxes}, seed=9, grad_req="add",
                            repeat=2)
    doc = mx.nd.array(np.arange(48.0).reshape(1, 1, 8, 6))
    res["doc_example"] = [mx.nd.ROIPooling(doc, mx.nd.array([[0, 0, 0, 4, 4]]), (2, 2),
                                           s).asnumpy() for s in (1.0, 0.7)]
    ties = mx.nd.array(np.ones((1, 1, 4, 4)))
    res["ties"] = run_symbol(mx, sym, {"data": np.ones((1, 2, 4, 4), np.float32),
                                       "rois": np.array([[0, 0, 0, 7, 7]], np.float32)})
    res["nd_ties"] = mx.nd.ROIPooling(ties, mx.nd.array([[0, 0, 0, 3, 3]]), (2, 2),
                                      1.0).asnumpy()
    res["symbol"] = describe(mx.sym.ROIPooling(data, rois, pooled_size=(7, 7),
                                               spatial_scale=0.0625))
    res["shapes"] = shapes(sym.infer_shape(data=(1, 512, 38, 50), rois=(128, 5)))
    res["types"] = dtypes(sym.infer_type(data="float32", rois="float32"))
    res["errors"] = {
        "rois_columns": err(mx, sym.infer_shape, data=(1, 3, 8, 8), rois=(4, 4)),
        "data_rank": err(mx, sym.infer_shape, data=(1, 3, 8), rois=(4, 5)),
        "scale_above_1": err(mx, mx.sym.ROIPooling, data, rois, pooled_size=(2, 2),
                             spatial_scale=2.0),
        "pooled_one_value": err(mx, mx.sym.ROIPooling, data, rois, pooled_size=(2,),
                                spatial_scale=0.5),
        "pooled_zero": err(mx, mx.sym.ROIPooling, data, rois, pooled_size=(0, 2),
                           spatial_scale=0.5),
        "no_scale": err(mx, mx.sym.ROIPooling, data, rois, pooled_size=(2, 2)),
    }
    return res
