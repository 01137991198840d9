"""A proposal-target operator (the Faster-RCNN operator of seed 000): exactly two inputs,
``rois`` the output of an upstream layer (so ``list_arguments()`` lists that layer's variables)
and ``gt_boxes`` a Variable; four outputs; keywords passed as strings, numbers and a tuple (all
arrive as str; a tuple is parsed back with ``ast.literal_eval``; a parameter not passed keeps its
Python default); ``declare_backward_dependency`` returns ``[]``; the input gradients are zeros.
Sampling is deterministic (a fixed RandomState inside forward)."""
import ast

import numpy as np

RECEIVED = []


def bbox_overlaps(boxes, query_boxes):
    """IoU of every box (n, 4) with every query box (k, 4), pixel-inclusive as in rcnn."""
    n, k = boxes.shape[0], query_boxes.shape[0]
    overlaps = np.zeros((n, k), dtype=np.float64)
    for j in range(k):
        q = query_boxes[j]
        q_area = (q[2] - q[0] + 1) * (q[3] - q[1] + 1)
        for i in range(n):
            b = boxes[i]
            iw = min(b[2], q[2]) - max(b[0], q[0]) + 1
            ih = min(b[3], q[3]) - max(b[1], q[1]) + 1
            if iw > 0 and ih > 0:
                b_area = (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
                overlaps[i, j] = iw * ih / (b_area + q_area - iw * ih)
    return overlaps


def bbox_transform(ex_rois, gt_rois, box_stds):
    ex_w = ex_rois[:, 2] - ex_rois[:, 0] + 1.0
    ex_h = ex_rois[:, 3] - ex_rois[:, 1] + 1.0
    ex_x = ex_rois[:, 0] + 0.5 * (ex_w - 1.0)
    ex_y = ex_rois[:, 1] + 0.5 * (ex_h - 1.0)
    gt_w = gt_rois[:, 2] - gt_rois[:, 0] + 1.0
    gt_h = gt_rois[:, 3] - gt_rois[:, 1] + 1.0
    gt_x = gt_rois[:, 0] + 0.5 * (gt_w - 1.0)
    gt_y = gt_rois[:, 1] + 0.5 * (gt_h - 1.0)
    targets = np.vstack(((gt_x - ex_x) / (ex_w + 1e-14), (gt_y - ex_y) / (ex_h + 1e-14),
                         np.log(gt_w / ex_w), np.log(gt_h / ex_h))).T
    return targets / np.array(box_stds)


def sample_rois(rs, rois, gt_boxes, num_classes, rois_per_image, fg_rois_per_image, fg_overlap,
                box_stds):
    overlaps = bbox_overlaps(rois[:, 1:], gt_boxes[:, :4])
    gt_assignment = overlaps.argmax(axis=1)
    labels = gt_boxes[gt_assignment, 4]
    max_overlaps = overlaps.max(axis=1)
    fg_indexes = np.where(max_overlaps >= fg_overlap)[0]
    fg_rois_this_image = min(fg_rois_per_image, len(fg_indexes))
    if len(fg_indexes) > fg_rois_this_image:
        fg_indexes = rs.choice(fg_indexes, size=fg_rois_this_image, replace=False)
    bg_indexes = np.where(max_overlaps < fg_overlap)[0]
    bg_rois_this_image = min(rois_per_image - fg_rois_this_image, len(bg_indexes))
    if len(bg_indexes) > bg_rois_this_image:
        bg_indexes = rs.choice(bg_indexes, size=bg_rois_this_image, replace=False)
    keep_indexes = np.append(fg_indexes, bg_indexes)
    while len(keep_indexes) < rois_per_image:  # pad with repeated rois
        gap = min(len(rois), rois_per_image - len(keep_indexes))
        keep_indexes = np.append(keep_indexes, rs.choice(len(rois), size=gap, replace=False))
    keep_indexes = keep_indexes.astype(np.int64)
    labels = labels[keep_indexes].copy()
    labels[fg_rois_this_image:] = 0
    rois = rois[keep_indexes]
    targets = bbox_transform(rois[:, 1:], gt_boxes[gt_assignment[keep_indexes], :4], box_stds)
    bbox_targets = np.zeros((rois_per_image, 4 * num_classes), dtype=np.float32)
    bbox_weights = np.zeros((rois_per_image, 4 * num_classes), dtype=np.float32)
    for i in range(fg_rois_this_image):
        cls_ind = int(labels[i])
        bbox_targets[i, cls_ind * 4:(cls_ind + 1) * 4] = targets[i]
        bbox_weights[i, cls_ind * 4:(cls_ind + 1) * 4] = 1
    return rois, labels, bbox_targets, bbox_weights


def register(mx):
    class ProposalTargetOperator(mx.operator.CustomOp):
        def __init__(self, num_classes, batch_images, batch_rois, fg_fraction, fg_overlap,
                     box_stds):
            super(ProposalTargetOperator, self).__init__()
            self._num_classes = num_classes
            self._batch_images = batch_images
            self._rois_per_image = int(batch_rois / batch_images)
            self._fg_rois_per_image = int(round(fg_fraction * self._rois_per_image))
            self._fg_overlap = fg_overlap
            self._box_stds = box_stds

        def forward(self, is_train, req, in_data, out_data, aux):
            assert self._batch_images == in_data[1].shape[0], "check batch size of gt_boxes"
            rs = np.random.RandomState(402)
            all_rois = in_data[0].asnumpy()
            all_gt_boxes = in_data[1].asnumpy()
            rois = np.empty((0, 5), dtype=np.float32)
            labels = np.empty((0,), dtype=np.float32)
            bbox_targets = np.empty((0, 4 * self._num_classes), dtype=np.float32)
            bbox_weights = np.empty((0, 4 * self._num_classes), dtype=np.float32)
            for batch_idx in range(self._batch_images):
                b_rois = all_rois[np.where(all_rois[:, 0] == batch_idx)[0]]
                b_gt_boxes = all_gt_boxes[batch_idx]
                b_gt_boxes = b_gt_boxes[np.where(b_gt_boxes[:, -1] > 0)[0]]
                # the ground-truth boxes are candidate rois too
                batch_pad = batch_idx * np.ones((b_gt_boxes.shape[0], 1), dtype=b_gt_boxes.dtype)
                b_rois = np.vstack((b_rois, np.hstack((batch_pad, b_gt_boxes[:, :-1]))))
                b_rois, b_labels, b_bbox_targets, b_bbox_weights = sample_rois(
                    rs, b_rois, b_gt_boxes, self._num_classes, self._rois_per_image,
                    self._fg_rois_per_image, self._fg_overlap, self._box_stds)
                rois = np.vstack((rois, b_rois))
                labels = np.hstack((labels, b_labels))
                bbox_targets = np.vstack((bbox_targets, b_bbox_targets))
                bbox_weights = np.vstack((bbox_weights, b_bbox_weights))
            self.assign(out_data[0], req[0], mx.nd.array(rois))
            self.assign(out_data[1], req[1], mx.nd.array(labels))
            self.assign(out_data[2], req[2], mx.nd.array(bbox_targets))
            self.assign(out_data[3], req[3], mx.nd.array(bbox_weights))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], 0)
            self.assign(in_grad[1], req[1], 0)

    @mx.operator.register("p402_proposal_target")
    class ProposalTargetProp(mx.operator.CustomOpProp):
        def __init__(self, num_classes="21", batch_images="1", batch_rois="128",
                     fg_fraction="0.25", fg_overlap="0.5", box_stds="(0.1, 0.1, 0.2, 0.2)",
                     bg_overlap=0.0):
            super(ProposalTargetProp, self).__init__(need_top_grad=False)
            RECEIVED.append({k: [type(v).__name__, v] for k, v in sorted(dict(
                num_classes=num_classes, batch_images=batch_images, batch_rois=batch_rois,
                fg_fraction=fg_fraction, fg_overlap=fg_overlap, box_stds=box_stds,
                bg_overlap=bg_overlap).items())})
            self._num_classes = int(num_classes)
            self._batch_images = int(batch_images)
            self._batch_rois = int(batch_rois)
            self._fg_fraction = float(fg_fraction)
            self._fg_overlap = float(fg_overlap)
            self._box_stds = tuple(ast.literal_eval(box_stds))

        def list_arguments(self):
            return ["rois", "gt_boxes"]

        def list_outputs(self):
            return ["rois_output", "label", "bbox_target", "bbox_weight"]

        def infer_shape(self, in_shape):
            assert self._batch_rois % self._batch_images == 0, \
                "BATCHIMAGES {} must divide BATCH_ROIS {}".format(self._batch_images,
                                                                self._batch_rois)
            rpn_rois_shape = in_shape[0]
            gt_boxes_shape = in_shape[1]
            output_rois_shape = (self._batch_rois, 5)
            label_shape = (self._batch_rois,)
            bbox_target_shape = (self._batch_rois, self._num_classes * 4)
            bbox_weight_shape = (self._batch_rois, self._num_classes * 4)
            return [rpn_rois_shape, gt_boxes_shape], \
                [output_rois_shape, label_shape, bbox_target_shape, bbox_weight_shape]

        def create_operator(self, ctx, shapes, dtypes):
            return ProposalTargetOperator(self._num_classes, self._batch_images,
                                          self._batch_rois, self._fg_fraction,
                                          self._fg_overlap, self._box_stds)

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return []


def run(mx):
    del RECEIVED[:]
    register(mx)
    rs = np.random.RandomState(4020)
    n_rois, n_gt, num_classes = 12, 3, 3
    # rois come out of an upstream layer: [batch index | FullyConnected(feat)]
    roi_batch = mx.sym.Variable("roi_batch")
    feat = mx.sym.Variable("feat")
    boxes = mx.sym.FullyConnected(data=feat, num_hidden=4, name="rpn_bbox_pred")
    rois = mx.sym.Concat(roi_batch, boxes, dim=1, name="rois")
    gt_boxes = mx.sym.Variable("gt_boxes")
    group = mx.sym.Custom(rois=rois, gt_boxes=gt_boxes, op_type="p402_proposal_target",
                          num_classes=num_classes, batch_images=2, batch_rois=8,
                          fg_fraction="0.25", fg_overlap=0.5, box_stds=(1.0, 1.0, 1.0, 1.0),
                          name="proposal_target")
    res = {"received": list(RECEIVED),
           "arguments": group.list_arguments(),
           "outputs": group.list_outputs(),
           "auxiliary_states": group.list_auxiliary_states(),
           "infer_shape": group.infer_shape(roi_batch=(n_rois, 1), feat=(n_rois, 6),
                                            gt_boxes=(2, n_gt, 5)),
           "infer_shape_partial_no_gt": group.infer_shape_partial(roi_batch=(n_rois, 1),
                                                                  feat=(n_rois, 6)),
           "attr_dict": group.attr_dict()["proposal_target"]}
    ex = group.simple_bind(ctx=mx.cpu(), roi_batch=(n_rois, 1), feat=(n_rois, 6),
                           gt_boxes=(2, n_gt, 5))
    # boxes = feat[:, :4] * 10 + 0 (weights pick the first four features)
    w = np.zeros((4, 6), np.float32)
    w[np.arange(4), np.arange(4)] = 10.0
    ex.arg_dict["rpn_bbox_pred_weight"][:] = w
    ex.arg_dict["rpn_bbox_pred_bias"][:] = 0
    x1y1 = rs.uniform(0, 4, (n_rois, 2))
    wh = rs.uniform(1, 3, (n_rois, 2))
    fv = np.zeros((n_rois, 6), np.float32)
    fv[:, :2] = x1y1
    fv[:, 2:4] = x1y1 + wh
    fv[:, 4:] = rs.randn(n_rois, 2)
    ex.arg_dict["feat"][:] = fv
    ex.arg_dict["roi_batch"][:] = (np.arange(n_rois) % 2).reshape(n_rois, 1)
    gt = np.zeros((2, n_gt, 5), np.float32)
    for b in range(2):
        for j in range(n_gt - b):  # the second image has one padding row (class 0)
            k = 2 * j + b
            gt[b, j, :4] = fv[k, :4] * 10 + rs.uniform(-2, 2, 4)
            gt[b, j, 4] = 1 + (j + b) % (num_classes - 1)
    ex.arg_dict["gt_boxes"][:] = gt
    for name, g in ex.grad_dict.items():
        g[:] = 7.0  # the zero gradients are written, not left alone
    outs = ex.forward(is_train=True)
    res["forward"] = dict(zip(group.list_outputs(), [o.asnumpy() for o in outs]))
    ex.backward()  # no out_grads: need_top_grad=False
    res["grads"] = {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())}
    res["inference"] = [o.asnumpy() for o in ex.forward(is_train=False)]
    return res
