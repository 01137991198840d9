"""Proposal / MultiProposal as symbols: names (proposal0, multiproposal0, no mx.sym.Proposal),
arguments and the hidden score output, output_score, positional parameters, stored attributes
and JSON, implicit variables, shape inference (all from cls_prob, none from the others),
types, the zero gradient (write and add), and mistakes by exception class."""
import numpy as np

from _common import err, node_ops, types


def run(mx):
    a, b, c = mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("c")
    res = {"where": {
        "sym_contrib": [n for n in dir(mx.sym.contrib) if "roposal" in n],
        "nd_contrib": [n for n in dir(mx.nd.contrib) if "roposal" in n],
        "top_level": [n for n in dir(mx.sym) + dir(mx.nd) if "roposal" in n],
        "names": [mx.sym.contrib.Proposal.__name__, mx.nd.contrib.MultiProposal.__name__],
        "mx_contrib": [hasattr(mx.contrib.sym, "Proposal"), hasattr(mx.contrib.symbol,
                                                                    "MultiProposal"),
                       hasattr(mx.contrib.nd, "Proposal"), hasattr(mx.contrib.ndarray,
                                                                   "MultiProposal")],
        "mx_contrib_node": mx.contrib.sym.MultiProposal(a, b, c, name="old").tojson(),
    }}
    plain = mx.sym.contrib.Proposal(a, b, c)
    scored = mx.sym.contrib.Proposal(cls_prob=a, bbox_pred=b, im_info=c, output_score=True)
    multi = mx.sym.contrib.MultiProposal(a, b, c, rpn_post_nms_top_n=7, name="rois")
    implicit = mx.sym.contrib.Proposal(scales=(8,))
    positional = mx.sym.contrib.Proposal(a, b, c, 100, 10, 0.5, 8, (8, 16), [0.5, 1, 2], 16,
                                         True, False, name="p")
    res["symbols"] = {
        "names": [s.name for s in (plain, scored, multi, implicit, positional)],
        "outputs": [s.list_outputs() for s in (plain, scored, multi, positional)],
        "arguments": implicit.list_arguments(),
        "implicit_attrs": implicit.attr_dict(),
        "internals": scored.get_internals().list_outputs(),
        "plain_internals": plain.get_internals().list_outputs(),
        "nodes": node_ops(mx.sym.Group([positional, multi])),
        "tojson": plain.tojson(),
        "reloaded": mx.sym.load_json(positional.tojson()).list_outputs(),
        "index_zero": plain[0].name,
        "index_one": err(mx, lambda: plain[1]),
    }
    p = mx.sym.contrib.Proposal(a, b, c, scales=(2, 4), ratios=(0.5, 1, 2),
                                rpn_post_nms_top_n=10, output_score=True)
    m = mx.sym.contrib.MultiProposal(a, b, c, scales=(2,), ratios=(1,), rpn_post_nms_top_n=4)
    res["shapes"] = {
        "proposal": p.infer_shape(a=(1, 12, 5, 7)),
        "proposal_with_others": p.infer_shape(a=(1, 12, 5, 7), b=(1, 24, 5, 7), c=(1, 3)),
        "multi": m.infer_shape(a=(3, 2, 4, 6)),
        "partial_unknown_dim": p.infer_shape_partial(a=(1, 12, 0, 7)),
        "partial_from_bbox_pred": p.infer_shape_partial(b=(1, 24, 5, 7)),
        "partial_from_im_info": p.infer_shape_partial(c=(1, 3)),
        "multi_unknown_batch": m.infer_shape_partial(a=(0, 2, 4, 6)),
        "types": types(p.infer_type(a="float32")),
        "types_from_im_info": types(p.infer_type(c="float32")),
    }
    rng = np.random.default_rng(692)
    arrays = {"a": rng.random((1, 12, 4, 5)), "b": rng.standard_normal((1, 24, 4, 5)) * 0.2,
              "c": np.array([[64, 80, 1.0]])}
    grads = {}
    for req in ("write", "add"):
        ex = p.simple_bind(mx.cpu(), grad_req=req, a=(1, 12, 4, 5), b=(1, 24, 4, 5), c=(1, 3))
        for k, v in arrays.items():
            ex.arg_dict[k][:] = v
            ex.grad_dict[k][:] = 3.0
        outs = ex.forward(is_train=True)
        ex.backward([mx.nd.ones((10, 5)), mx.nd.ones((10, 1))])
        grads[req] = {k: [float(g.asnumpy().min()), float(g.asnumpy().max())]
                      for k, g in ex.grad_dict.items()}
        grads[req + "_rois"] = outs[0].asnumpy()
    res["gradients"] = grads
    x = mx.nd.array(arrays["a"])
    y, z = mx.nd.array(arrays["b"]), mx.nd.array(arrays["c"])
    two = dict(scales=(2, 4), ratios=(0.5, 1, 2))
    res["errors"] = {
        "threshold_text": err(mx, mx.sym.contrib.Proposal, a, threshold="x"),
        "unknown_parameter": err(mx, mx.sym.contrib.Proposal, a, foo=1),
        "fractional_top_n": err(mx, mx.sym.contrib.Proposal, a, rpn_pre_nms_top_n=2.5),
        "bbox_pred_shape": err(mx, lambda: p.infer_shape(a=(1, 12, 5, 7), b=(1, 12, 5, 7))),
        "im_info_shape": err(mx, lambda: p.infer_shape(a=(1, 12, 5, 7), c=(1, 4))),
        "three_d_cls_prob": err(mx, lambda: p.infer_shape(a=(1, 12, 5))),
        "float64": err(mx, lambda: p.infer_type(a="float64")),
        "nd_float64": err(mx, lambda: mx.nd.contrib.Proposal(
            x.astype("float64"), y.astype("float64"), z.astype("float64"), **two).asnumpy()),
        "nd_wrong_anchor_count": err(mx, lambda: mx.nd.contrib.Proposal(
            x, y, z, scales=(2, 4, 8), ratios=(0.5, 1, 2)).asnumpy()),
        "nd_batch_of_two": err(mx, lambda: mx.nd.contrib.Proposal(
            mx.nd.concat(x, x, dim=0), mx.nd.concat(y, y, dim=0), mx.nd.concat(z, z, dim=0),
            **two).asnumpy()),
        "nd_image_larger_than_map": err(mx, lambda: mx.nd.contrib.Proposal(
            x, y, mx.nd.array([[128, 80, 1.0]]), **two).asnumpy()),
        "nd_missing_input": err(mx, lambda: mx.nd.contrib.Proposal(x, y, **two)),
    }
    return res
