"""The small VGG Faster R-CNN (programs/_rcnn.py, dropout 0) trained through mx.mod.Module as
example/rcnn/train.py sets it up: data_names (data, im_info, gt_boxes), label_names (the RPN's
label, bbox_target, bbox_weight), conv1 / conv2 fixed, SGD with momentum and weight decay;
two forward / backward / update steps: output names and shapes, the heads, the parameters
(fixed ones unchanged)."""
import numpy as np

from _rcnn import (SMALL_FC, SMALL_WIDTHS, faster_rcnn_train, parameters,
                   register_proposal_target, summary, train_inputs, vgg)

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
DATA_NAMES = ["data", "im_info", "gt_boxes"]
LABEL_NAMES = ["label", "bbox_target", "bbox_weight"]


def run(mx):
    register_proposal_target(mx)
    inputs = train_inputs(seed=21)
    net = faster_rcnn_train(mx, vgg(mx, SMALL_WIDTHS, SMALL_FC, dropout=0.0), seed=22)
    arg_shapes, _, _ = net.infer_shape(**{k: v.shape for k, v in inputs.items()})
    initial = parameters(list(zip(net.list_arguments(), arg_shapes)), inputs, seed=23)
    fixed = [n for n in net.list_arguments() if n.startswith(("conv1", "conv2"))]
    mod = mx.mod.Module(net, data_names=DATA_NAMES, label_names=LABEL_NAMES,
                        context=mx.cpu(), fixed_param_names=fixed)
    mod.bind(data_shapes=[(n, inputs[n].shape) for n in DATA_NAMES],
             label_shapes=[(n, inputs[n].shape) for n in LABEL_NAMES])
    mod.init_params(arg_params={k: mx.nd.array(v) for k, v in initial.items()}, aux_params={})
    mod.init_optimizer(optimizer="sgd", optimizer_params={
        "learning_rate": 0.01, "momentum": 0.9, "wd": 0.0005, "rescale_grad": 1.0})
    batch = mx.io.DataBatch(data=[mx.nd.array(inputs[n]) for n in DATA_NAMES],
                            label=[mx.nd.array(inputs[n]) for n in LABEL_NAMES])
    steps = []
    for _ in range(2):
        mod.forward(batch, is_train=True)
        mod.backward()
        mod.update()
        steps.append([summary(o.asnumpy()) for o in mod.get_outputs()])
    arg_params, aux_params = mod.get_params()
    return {
        "output_names": mod.output_names, "output_shapes": mod.output_shapes,
        "fixed": fixed, "steps": steps,
        "fixed_unchanged": all(np.array_equal(arg_params[n].asnumpy(), initial[n])
                               for n in fixed),
        "params": {n: summary(arg_params[n].asnumpy()) for n in sorted(arg_params)
                   if n not in fixed},
        "aux": sorted(aux_params),
    }
