"""ROIPooling as Faster R-CNN uses it (MXNet's example/rcnn): a stride-16 feature map of a
600x800 image, 64 proposal boxes in image pixels, pooled to 7x7 at spatial_scale 1/16, inside
a small head (ROIPooling, Flatten, FullyConnected); summed outputs and gradients keep the
fixture small."""
import numpy as np

from _image import seeded


def run(mx):
    data, rois = mx.sym.Variable("data"), mx.sym.Variable("rois")
    pooled = mx.sym.ROIPooling(data, rois, pooled_size=(7, 7), spatial_scale=0.0625,
                               name="roi_pool5")
    head = mx.sym.FullyConnected(mx.sym.Flatten(pooled), num_hidden=5, name="fc6")
    net = mx.sym.Group([mx.sym.BlockGrad(pooled), head])
    rng = np.random.RandomState(3)
    x1, y1 = rng.uniform(-20, 780, 64), rng.uniform(-20, 580, 64)
    w, h = rng.uniform(8, 500, 64), rng.uniform(8, 400, 64)
    boxes = np.stack([np.zeros(64), x1, y1, x1 + w, y1 + h], axis=1).astype(np.float32)
    shape = (1, 6, 38, 50)
    ex = net.simple_bind(mx.cpu(), data=shape, rois=boxes.shape)
    ex.arg_dict["data"][:] = seeded(shape, 1, -1, 1)
    ex.arg_dict["rois"][:] = boxes
    ex.arg_dict["fc6_weight"][:] = seeded((5, 6 * 49), 2, -0.1, 0.1)
    ex.arg_dict["fc6_bias"][:] = 0
    ex.forward(is_train=True)
    out = ex.outputs[0].asnumpy()
    ex.backward([mx.nd.zeros(out.shape), mx.nd.array(seeded((64, 5), 4, -1, 1))])
    grad = ex.grad_dict["data"].asnumpy()
    return {"pooled_sum_over_channels": out.sum(axis=1), "pooled_max": out.max(axis=(2, 3)),
            "head": ex.outputs[1].asnumpy(), "grad_data_sum_over_channels": grad.sum(axis=1),
            "grad_rois": ex.grad_dict["rois"].asnumpy(),
            "shapes": [list(s) for s in net.infer_shape(data=shape, rois=boxes.shape)[1]]}
