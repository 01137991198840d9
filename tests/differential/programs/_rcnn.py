"""A Faster R-CNN shared by the programs p700-p709 (``from _rcnn import ...``): the network of
MXNet's example/rcnn/symnet/symbol_vgg.py, written in the project's own code, and its
``proposal_target`` custom operator, written for learners.

The network: VGG-16's convolutions (the shared feature map, stride 16); a region proposal
network (RPN) that scores ``num_anchors`` anchor boxes per cell of that map as object or
background and predicts 4 box deltas for each; ``mx.sym.contrib.MultiProposal`` turning those
into rois; in training, ``proposal_target`` choosing which rois to learn from and what each
should become; ROIPooling of every roi from the feature map; VGG-16's two fully connected
layers; a classifier and a box regressor per roi. ``widths`` makes the layers narrower (for a
quick run) without changing a single name, so that ``list_arguments()`` reads as VGG's.

Everything random is drawn from seeded ``numpy.random.Generator``s with ``random()`` only, whose
stream is the same in every NumPy version, so that MXNet and minisym (run by different NumPys)
draw the same parameters and sample the same rois.
"""
import numpy as np

VGG_WIDTHS = (64, 128, 256, 512, 512)  # channels of the five convolution groups
VGG_FC = 4096                          # units of fc6 and fc7
SMALL_WIDTHS = (4, 8, 8, 16, 16)
SMALL_FC = 32
RESNET_UNITS = (3, 4, 6, 3)            # ResNet-50, as symnet's train.py builds it
RESNET_FILTERS = (256, 512, 1024, 2048)
SMALL_RESNET = {"units": (1, 1, 1, 1), "filter_list": (8, 16, 16, 32)}
IMAGE = (1, 3, 160, 224)               # one small image: a 10 x 14 feature map

# The settings symnet's train.py passes to the network, scaled down to the small image.
CONFIG = {
    "anchor_scales": (2, 4, 8), "anchor_ratios": (0.5, 1, 2), "rpn_feature_stride": 16,
    "rpn_pre_topk": 300, "rpn_post_topk": 40, "rpn_nms_thresh": 0.7, "rpn_min_size": 16,
    "rpn_batch_rois": 64, "num_classes": 3, "rcnn_feature_stride": 16,
    "rcnn_pooled_size": (7, 7), "rcnn_batch_size": 1, "rcnn_batch_rois": 16,
    "rcnn_fg_fraction": 0.25, "rcnn_fg_overlap": 0.5, "rcnn_bbox_stds": (0.1, 0.1, 0.2, 0.2),
}
LAYERS_PER_GROUP = (2, 2, 3, 3, 3)


# --- the network ----------------------------------------------------------------------------
def vgg_feature(mx, data, widths=VGG_WIDTHS):
    """VGG-16's 13 convolutions (conv1_1 ... conv5_3, each with a ReLU) and 4 max poolings:
    (N, 3, H, W) -> (N, widths[4], H / 16, W / 16)."""
    body = data
    for group, (layers, width) in enumerate(zip(LAYERS_PER_GROUP, widths), start=1):
        for layer in range(1, layers + 1):
            name = f"{group}_{layer}"
            body = mx.sym.Convolution(data=body, kernel=(3, 3), pad=(1, 1), num_filter=width,
                                      workspace=2048, name=f"conv{name}")
            body = mx.sym.Activation(data=body, act_type="relu", name=f"relu{name}")
        if group < 5:
            body = mx.sym.Pooling(data=body, pool_type="max", kernel=(2, 2), stride=(2, 2),
                                  name=f"pool{group}")
    return body


def vgg_top_feature(mx, data, fc_width=VGG_FC, dropout=0.5):
    """VGG-16's fc6 and fc7 (each with ReLU and Dropout) on the pooled rois. A training forward
    compared with MXNet uses dropout=0: no two engines draw the same dropout masks."""
    body = mx.sym.Flatten(data=data, name="flatten")
    for index in (6, 7):
        body = mx.sym.FullyConnected(data=body, num_hidden=fc_width, name=f"fc{index}")
        body = mx.sym.Activation(data=body, act_type="relu", name=f"relu{index}")
        body = mx.sym.Dropout(data=body, p=dropout, name=f"drop{index}")
    return body


def resnet_unit(mx, data, num_filter, stride, dim_match, name):
    """A pre-activation bottleneck unit of symnet/symbol_resnet.py: BatchNorm (with the
    moving statistics: use_global_stats), ReLU, 1x1 / 3x3 / 1x1 convolutions, plus the
    shortcut (a 1x1 convolution when the size changes), summed by ElementWiseSum."""
    def bn_relu(body, index):
        bn = mx.sym.BatchNorm(data=body, fix_gamma=False, eps=2e-5, use_global_stats=True,
                              name=f"{name}_bn{index}")
        return mx.sym.Activation(data=bn, act_type="relu", name=f"{name}_relu{index}")
    act1 = bn_relu(data, 1)
    inner = int(num_filter * 0.25)
    body = mx.sym.Convolution(data=act1, num_filter=inner, kernel=(1, 1), stride=(1, 1),
                              pad=(0, 0), no_bias=True, workspace=1024, name=f"{name}_conv1")
    body = mx.sym.Convolution(data=bn_relu(body, 2), num_filter=inner, kernel=(3, 3),
                              stride=stride, pad=(1, 1), no_bias=True, workspace=1024,
                              name=f"{name}_conv2")
    body = mx.sym.Convolution(data=bn_relu(body, 3), num_filter=num_filter, kernel=(1, 1),
                              stride=(1, 1), pad=(0, 0), no_bias=True, workspace=1024,
                              name=f"{name}_conv3")
    shortcut = data if dim_match else mx.sym.Convolution(
        data=act1, num_filter=num_filter, kernel=(1, 1), stride=stride, no_bias=True,
        workspace=1024, name=f"{name}_sc")
    return mx.sym.ElementWiseSum(*[body, shortcut], name=f"{name}_plus")


def _stage(mx, body, stage, units, num_filter, stride):
    body = resnet_unit(mx, body, num_filter, stride, False, f"stage{stage}_unit1")
    for unit in range(2, units + 1):
        body = resnet_unit(mx, body, num_filter, (1, 1), True, f"stage{stage}_unit{unit}")
    return body


def resnet_feature(mx, data, units=RESNET_UNITS, filter_list=RESNET_FILTERS):
    """ResNet's stem (BatchNorm, 7x7 convolution, max pooling) and stages 1-3: stride 16."""
    body = mx.sym.BatchNorm(data=data, fix_gamma=True, eps=2e-5, use_global_stats=True,
                            name="bn_data")
    body = mx.sym.Convolution(data=body, num_filter=64, kernel=(7, 7), stride=(2, 2),
                              pad=(3, 3), no_bias=True, name="conv0", workspace=1024)
    body = mx.sym.BatchNorm(data=body, fix_gamma=False, eps=2e-5, use_global_stats=True,
                            name="bn0")
    body = mx.sym.Activation(data=body, act_type="relu", name="relu0")
    body = mx.sym.Pooling(data=body, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max",
                          name="pool0")
    for stage, stride in ((1, (1, 1)), (2, (2, 2)), (3, (2, 2))):
        body = _stage(mx, body, stage, units[stage - 1], filter_list[stage - 1], stride)
    return body


def resnet_top_feature(mx, data, units=RESNET_UNITS, filter_list=RESNET_FILTERS):
    """ResNet's stage 4 on the pooled rois, then BatchNorm, ReLU and a global average pool."""
    body = _stage(mx, data, 4, units[3], filter_list[3], (2, 2))
    body = mx.sym.BatchNorm(data=body, fix_gamma=False, eps=2e-5, use_global_stats=True,
                            name="bn1")
    body = mx.sym.Activation(data=body, act_type="relu", name="relu1")
    return mx.sym.Pooling(data=body, global_pool=True, kernel=(7, 7), pool_type="avg",
                          name="pool1")


def rpn_head(mx, conv_feat, num_anchors, width=VGG_WIDTHS[-1]):
    """The region proposal network on the feature map: (scores reshaped to 2 classes for the
    loss, their softmax reshaped back to (N, 2A, H, W) for MultiProposal, the box deltas
    (N, 4A, H, W))."""
    rpn_conv = mx.sym.Convolution(data=conv_feat, kernel=(3, 3), pad=(1, 1), num_filter=width,
                                  name="rpn_conv_3x3")
    rpn_relu = mx.sym.Activation(data=rpn_conv, act_type="relu", name="rpn_relu")
    rpn_cls_score = mx.sym.Convolution(data=rpn_relu, kernel=(1, 1), pad=(0, 0),
                                       num_filter=2 * num_anchors, name="rpn_cls_score")
    # (N, 2A, H, W) -> (N, 2, A*H, W): channel 0 background, 1 object, for every anchor
    rpn_cls_score_reshape = mx.sym.Reshape(data=rpn_cls_score, shape=(0, 2, -1, 0),
                                           name="rpn_cls_score_reshape")
    rpn_cls_act = mx.sym.softmax(data=rpn_cls_score_reshape, axis=1, name="rpn_cls_act")
    rpn_cls_act_reshape = mx.sym.Reshape(data=rpn_cls_act, shape=(0, 2 * num_anchors, -1, 0),
                                         name="rpn_cls_act_reshape")
    rpn_bbox_pred = mx.sym.Convolution(data=rpn_relu, kernel=(1, 1), pad=(0, 0),
                                       num_filter=4 * num_anchors, name="rpn_bbox_pred")
    return rpn_cls_score_reshape, rpn_cls_act_reshape, rpn_bbox_pred


def _proposals(mx, cls_act, bbox_pred, im_info, cfg):
    """mx.sym.contrib.MultiProposal named 'rois', with the config's anchors and NMS."""
    return mx.sym.contrib.MultiProposal(
        cls_prob=cls_act, bbox_pred=bbox_pred, im_info=im_info, name="rois",
        feature_stride=cfg["rpn_feature_stride"], scales=cfg["anchor_scales"],
        ratios=cfg["anchor_ratios"], rpn_pre_nms_top_n=cfg["rpn_pre_topk"],
        rpn_post_nms_top_n=cfg["rpn_post_topk"], threshold=cfg["rpn_nms_thresh"],
        rpn_min_size=cfg["rpn_min_size"])


def _roi_pool(mx, conv_feat, rois, cfg):
    return mx.sym.ROIPooling(name="roi_pool", data=conv_feat, rois=rois,
                             pooled_size=cfg["rcnn_pooled_size"],
                             spatial_scale=1.0 / cfg["rcnn_feature_stride"])


def vgg(mx, widths=VGG_WIDTHS, fc_width=VGG_FC, dropout=0.5):
    """VGG-16 as the two halves a Faster R-CNN wraps: (feature, top_feature, rpn_width)."""
    return (lambda data: vgg_feature(mx, data, widths),
            lambda pooled: vgg_top_feature(mx, pooled, fc_width, dropout), widths[-1])


def resnet(mx, units=RESNET_UNITS, filter_list=RESNET_FILTERS, rpn_width=512):
    """ResNet (symnet/symbol_resnet.py) as (feature, top_feature, rpn_width)."""
    return (lambda data: resnet_feature(mx, data, units, filter_list),
            lambda pooled: resnet_top_feature(mx, pooled, units, filter_list), rpn_width)


def faster_rcnn_train(mx, backbone=None, seed=0, **config):
    """The training network: Group([rpn_cls_prob, rpn_bbox_loss, cls_prob, bbox_loss,
    label]), inputs data, im_info, gt_boxes and the RPN's label, bbox_target, bbox_weight.
    ``backbone`` is ``vgg(mx, ...)`` (the default) or ``resnet(mx, ...)``."""
    feature, top_feature, rpn_width = backbone or vgg(mx)
    cfg = dict(CONFIG, **config)
    num_anchors = len(cfg["anchor_scales"]) * len(cfg["anchor_ratios"])
    num_classes = cfg["num_classes"]
    data = mx.sym.Variable(name="data")
    im_info = mx.sym.Variable(name="im_info")
    gt_boxes = mx.sym.Variable(name="gt_boxes")
    rpn_label = mx.sym.Variable(name="label")
    rpn_bbox_target = mx.sym.Variable(name="bbox_target")
    rpn_bbox_weight = mx.sym.Variable(name="bbox_weight")

    conv_feat = feature(data)
    score_reshape, cls_act, rpn_bbox_pred = rpn_head(mx, conv_feat, num_anchors, rpn_width)
    rpn_cls_prob = mx.sym.SoftmaxOutput(data=score_reshape, label=rpn_label, multi_output=True,
                                        normalization="valid", use_ignore=True, ignore_label=-1,
                                        name="rpn_cls_prob")
    rpn_bbox_loss_ = rpn_bbox_weight * mx.sym.smooth_l1(
        name="rpn_bbox_loss_", scalar=3.0, data=(rpn_bbox_pred - rpn_bbox_target))
    rpn_bbox_loss = mx.sym.MakeLoss(name="rpn_bbox_loss", data=rpn_bbox_loss_,
                                    grad_scale=1.0 / cfg["rpn_batch_rois"])

    rois = _proposals(mx, cls_act, rpn_bbox_pred, im_info, cfg)
    group = mx.sym.Custom(rois=rois, gt_boxes=gt_boxes, op_type="proposal_target",
                          num_classes=num_classes, batch_images=cfg["rcnn_batch_size"],
                          batch_rois=cfg["rcnn_batch_rois"], fg_fraction=cfg["rcnn_fg_fraction"],
                          fg_overlap=cfg["rcnn_fg_overlap"], box_stds=cfg["rcnn_bbox_stds"],
                          seed=seed)
    sampled_rois, label, bbox_target, bbox_weight = group[0], group[1], group[2], group[3]

    top_feat = top_feature(_roi_pool(mx, conv_feat, sampled_rois, cfg))
    cls_score = mx.sym.FullyConnected(name="cls_score", data=top_feat, num_hidden=num_classes)
    cls_prob = mx.sym.SoftmaxOutput(name="cls_prob", data=cls_score, label=label,
                                    normalization="batch")
    bbox_pred = mx.sym.FullyConnected(name="bbox_pred", data=top_feat,
                                      num_hidden=num_classes * 4)
    bbox_loss_ = bbox_weight * mx.sym.smooth_l1(name="bbox_loss_", scalar=1.0,
                                                data=(bbox_pred - bbox_target))
    bbox_loss = mx.sym.MakeLoss(name="bbox_loss", data=bbox_loss_,
                                grad_scale=1.0 / cfg["rcnn_batch_rois"])

    batch = cfg["rcnn_batch_size"]
    label = mx.sym.Reshape(data=label, shape=(batch, -1), name="label_reshape")
    cls_prob = mx.sym.Reshape(data=cls_prob, shape=(batch, -1, num_classes),
                              name="cls_prob_reshape")
    bbox_loss = mx.sym.Reshape(data=bbox_loss, shape=(batch, -1, 4 * num_classes),
                               name="bbox_loss_reshape")
    return mx.sym.Group([rpn_cls_prob, rpn_bbox_loss, cls_prob, bbox_loss,
                         mx.sym.BlockGrad(label)])


def faster_rcnn_test(mx, backbone=None, **config):
    """The inference network: Group([rois, cls_prob, bbox_pred]) from data and im_info."""
    feature, top_feature, rpn_width = backbone or vgg(mx)
    cfg = dict(CONFIG, **config)
    num_anchors = len(cfg["anchor_scales"]) * len(cfg["anchor_ratios"])
    num_classes = cfg["num_classes"]
    data = mx.sym.Variable(name="data")
    im_info = mx.sym.Variable(name="im_info")

    conv_feat = feature(data)
    _, cls_act, rpn_bbox_pred = rpn_head(mx, conv_feat, num_anchors, rpn_width)
    rois = _proposals(mx, cls_act, rpn_bbox_pred, im_info, cfg)
    top_feat = top_feature(_roi_pool(mx, conv_feat, rois, cfg))
    cls_score = mx.sym.FullyConnected(name="cls_score", data=top_feat, num_hidden=num_classes)
    cls_prob = mx.sym.softmax(name="cls_prob", data=cls_score)
    bbox_pred = mx.sym.FullyConnected(name="bbox_pred", data=top_feat,
                                      num_hidden=num_classes * 4)
    batch = cfg["rcnn_batch_size"]
    cls_prob = mx.sym.Reshape(data=cls_prob, shape=(batch, -1, num_classes),
                              name="cls_prob_reshape")
    bbox_pred = mx.sym.Reshape(data=bbox_pred, shape=(batch, -1, 4 * num_classes),
                               name="bbox_pred_reshape")
    return mx.sym.Group([rois, cls_prob, bbox_pred])


# --- the proposal_target custom operator ------------------------------------------------------
def box_overlaps(boxes, gt_boxes):
    """IoU of every box (n, 4) with every ground-truth box (k, 4), sizes counted +1 pixel as
    Faster R-CNN counts them: (n, k)."""
    x1 = np.maximum(boxes[:, None, 0], gt_boxes[None, :, 0])
    y1 = np.maximum(boxes[:, None, 1], gt_boxes[None, :, 1])
    x2 = np.minimum(boxes[:, None, 2], gt_boxes[None, :, 2])
    y2 = np.minimum(boxes[:, None, 3], gt_boxes[None, :, 3])
    inter = np.clip(x2 - x1 + 1, 0, None) * np.clip(y2 - y1 + 1, 0, None)
    area = lambda b: (b[:, 2] - b[:, 0] + 1) * (b[:, 3] - b[:, 1] + 1)
    return inter / (area(boxes)[:, None] + area(gt_boxes)[None, :] - inter)


def box_targets(boxes, gt_boxes, stds):
    """What the regressor should predict to move each box (n, 4) onto its ground truth (n, 4):
    centre offsets in box sizes and log size ratios, divided by ``stds``: (n, 4)."""
    def centre_and_size(b):
        w, h = b[:, 2] - b[:, 0] + 1.0, b[:, 3] - b[:, 1] + 1.0
        return b[:, 0] + 0.5 * (w - 1.0), b[:, 1] + 0.5 * (h - 1.0), w, h
    ex_x, ex_y, ex_w, ex_h = centre_and_size(boxes)
    gt_x, gt_y, gt_w, gt_h = centre_and_size(gt_boxes)
    targets = np.stack([(gt_x - ex_x) / (ex_w + 1e-14), (gt_y - ex_y) / (ex_h + 1e-14),
                        np.log(gt_w / ex_w), np.log(gt_h / ex_h)], axis=1)
    return targets / np.asarray(stds)


def pick(rng, indices, count):
    """``count`` of ``indices`` at random, without repeats (random keys, argsorted)."""
    return indices[np.argsort(rng.random(len(indices)), kind="stable")[:count]]


def sample_rois(rng, rois, gt_boxes, num_classes, rois_per_image, fg_per_image, fg_overlap,
                stds):
    """One image's training rois: up to ``fg_per_image`` foreground rois (IoU >= fg_overlap with
    a ground-truth box), background rois for the rest (repeated if there are too few); their
    class labels (0 = background), box targets and weights (only in the label's 4 columns)."""
    overlaps = box_overlaps(rois[:, 1:], gt_boxes[:, :4])
    nearest_gt = overlaps.argmax(axis=1)
    best_overlap = overlaps.max(axis=1)
    foreground = np.flatnonzero(best_overlap >= fg_overlap)
    background = np.flatnonzero(best_overlap < fg_overlap)
    chosen_fg = pick(rng, foreground, min(fg_per_image, len(foreground)))
    chosen_bg = pick(rng, background, rois_per_image - len(chosen_fg))
    keep = np.concatenate([chosen_fg, chosen_bg])
    pool = background if len(background) else np.arange(len(rois))
    while len(keep) < rois_per_image:  # too few rois: repeat background ones
        keep = np.concatenate([keep, pick(rng, pool, rois_per_image - len(keep))])
    labels = gt_boxes[nearest_gt[keep], 4].copy()
    labels[len(chosen_fg):] = 0
    targets = box_targets(rois[keep, 1:], gt_boxes[nearest_gt[keep], :4], stds)
    bbox_targets = np.zeros((rois_per_image, 4 * num_classes), np.float32)
    bbox_weights = np.zeros((rois_per_image, 4 * num_classes), np.float32)
    for row in range(len(chosen_fg)):
        columns = slice(4 * int(labels[row]), 4 * int(labels[row]) + 4)
        bbox_targets[row, columns] = targets[row]
        bbox_weights[row, columns] = 1
    return rois[keep], labels, bbox_targets, bbox_weights


def register_proposal_target(mx):
    """Register op_type 'proposal_target' with this engine's ``mx.operator``."""

    class ProposalTarget(mx.operator.CustomOp):
        """rois (R, 5) from MultiProposal and gt_boxes (images, G, 5) -> the batch_rois rois the
        detector learns from, their labels, box targets and box weights."""

        def __init__(self, num_classes, batch_images, batch_rois, fg_fraction, fg_overlap,
                     box_stds, seed):
            super().__init__()
            self.num_classes = num_classes
            self.batch_images = batch_images
            self.rois_per_image = batch_rois // batch_images
            self.fg_per_image = int(round(fg_fraction * self.rois_per_image))
            self.fg_overlap = fg_overlap
            self.box_stds = box_stds
            self.rng = np.random.default_rng(seed)

        def forward(self, is_train, req, in_data, out_data, aux):
            rois, gt_boxes = (x.asnumpy() for x in in_data)  # in_data[0], in_data[1]
            picked = []
            for image in range(self.batch_images):
                image_rois = rois[rois[:, 0] == image]
                image_gt = gt_boxes[image][gt_boxes[image][:, 4] > 0]  # rows of class -1: padding
                as_rois = np.hstack([np.full((len(image_gt), 1), image, np.float32),
                                     image_gt[:, :4]])  # the ground truth is a candidate too
                picked.append(sample_rois(self.rng, np.vstack([image_rois, as_rois]), image_gt,
                                          self.num_classes, self.rois_per_image,
                                          self.fg_per_image, self.fg_overlap, self.box_stds))
            for index, result in enumerate(zip(*picked)):  # rois_output, label, bbox_target, ...
                self.assign(out_data[index], req[index], np.concatenate(result))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            for index in range(len(in_grad)):  # the sampling has no gradient
                self.assign(in_grad[index], req[index], 0)

    @mx.operator.register("proposal_target")
    class ProposalTargetProp(mx.operator.CustomOpProp):
        """Declares the operator: two inputs, four outputs, no head gradient needed."""

        def __init__(self, num_classes="21", batch_images="1", batch_rois="128",
                     fg_fraction="0.25", fg_overlap="0.5", box_stds="(0.1, 0.1, 0.2, 0.2)",
                     seed="0"):
            super().__init__(need_top_grad=False)  # its outputs are targets, not predictions
            self.num_classes = int(num_classes)       # keyword arguments arrive as strings
            self.batch_images = int(batch_images)
            self.batch_rois = int(batch_rois)
            self.fg_fraction = float(fg_fraction)
            self.fg_overlap = float(fg_overlap)
            self.box_stds = tuple(float(v) for v in box_stds.strip("()[] ").split(","))
            self.seed = int(seed)

        def list_arguments(self):
            return ["rois", "gt_boxes"]

        def list_outputs(self):
            return ["rois_output", "label", "bbox_target", "bbox_weight"]

        def infer_shape(self, in_shape):
            rows, columns = self.batch_rois, 4 * self.num_classes
            return in_shape, [(rows, 5), (rows,), (rows, columns), (rows, columns)]

        def create_operator(self, ctx, shapes, dtypes):
            return ProposalTarget(self.num_classes, self.batch_images, self.batch_rois,
                                  self.fg_fraction, self.fg_overlap, self.box_stds, self.seed)

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return []  # backward writes zeros: it reads nothing

    return "proposal_target"


# --- seeded values ----------------------------------------------------------------------------
def _normal(rng, shape):
    """Standard normal values from ``random()`` only (Box-Muller), float32."""
    size = int(np.prod(shape))
    u1, u2 = rng.random(size), rng.random(size)
    return (np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(2 * np.pi * u2)).reshape(shape).astype(
        np.float32)


def parameters(arg_shapes, inputs, seed=1):
    """A value for every argument that is not an input, in list_arguments order: weights
    N(0, 2 / fan_in) (He), biases N(0, 0.01^2), BatchNorm's gamma 1 + N(0, 0.1^2) and beta
    N(0, 0.1^2)."""
    rng = np.random.default_rng(seed)
    values = {}
    for name, shape in arg_shapes:
        if name in inputs:
            continue
        noise = _normal(rng, shape)
        if name.endswith("_bias"):
            values[name] = noise * np.float32(0.01)
        elif name.endswith("_gamma"):
            values[name] = np.float32(1) + noise * np.float32(0.1)
        elif name.endswith("_beta"):
            values[name] = noise * np.float32(0.1)
        else:
            values[name] = noise * np.float32(np.sqrt(2.0 / int(np.prod(shape[1:]))))
    return values


def aux_states(aux_shapes, seed=9):
    """BatchNorm's moving statistics: means N(0, 0.1^2), variances in [0.5, 1.5)."""
    rng = np.random.default_rng(seed)
    return {name: (_normal(rng, shape) * np.float32(0.1) if name.endswith("_mean") else
                   (rng.random(shape) + 0.5).astype(np.float32)) for name, shape in aux_shapes}


def train_inputs(seed=2, num_anchors=9, image=IMAGE, stride=16):
    """data, im_info, gt_boxes (two objects and a padding row) and the RPN's label (-1 ignored,
    0 background, 1 object), bbox_target and bbox_weight for one image."""
    rng = np.random.default_rng(seed)
    _, _, height, width = image
    cells = (height // stride, width // stride)
    return {
        "data": _normal(rng, image),
        "im_info": np.array([[height, width, 1.0]], np.float32),
        "gt_boxes": np.array([[[20, 30, 90, 100, 1], [100, 40, 200, 140, 2],
                               [0, 0, 0, 0, -1]]], np.float32),
        "label": np.floor(rng.random((1, num_anchors * cells[0] * cells[1])) * 3 - 1).astype(
            np.float32),
        "bbox_target": _normal(rng, (1, 4 * num_anchors) + cells) * np.float32(0.5),
        "bbox_weight": (rng.random((1, 4 * num_anchors) + cells) < 0.2).astype(np.float32),
    }


def bind_network(mx, net, inputs, grad_req="write", seed=1):
    """simple_bind ``net`` to the shapes of ``inputs``, then copy in the inputs, seeded
    parameters and moving statistics (see ``parameters``, ``aux_states``)."""
    shapes = {k: v.shape for k, v in inputs.items()}
    arg_shapes, _, aux_shapes = net.infer_shape(**shapes)
    values = dict(parameters(list(zip(net.list_arguments(), arg_shapes)), inputs, seed),
                  **inputs)
    ex = net.simple_bind(mx.cpu(), grad_req=grad_req, **shapes)
    for name, value in values.items():
        ex.arg_dict[name][:] = value
    for name, value in aux_states(zip(net.list_auxiliary_states(), aux_shapes)).items():
        ex.aux_dict[name][:] = value
    return ex


def summary(array):
    """A large array as a few numbers: shape, sum, sum of absolute values, its first values."""
    a = np.asarray(array, np.float64)
    return {"shape": list(a.shape), "sum": float(a.sum()), "abs_sum": float(np.abs(a).sum()),
            "first": a.reshape(-1)[:8].astype(np.float32)}
