"""The Faster R-CNN networks' JSON (programs/_rcnn.py: VGG and ResNet-50, training and
inference) byte for byte, by its sha256 and length, and load_json of it: the same text back and
the same listings."""
import hashlib

from _rcnn import faster_rcnn_test, faster_rcnn_train, register_proposal_target, resnet, vgg


def run(mx):
    register_proposal_target(mx)
    res = {}
    for name, backbone in (("vgg", vgg), ("resnet", resnet)):
        for kind, build in (("train", faster_rcnn_train), ("test", faster_rcnn_test)):
            net = build(mx, backbone(mx))
            text = net.tojson()
            back = mx.sym.load_json(text)
            res[f"{name}_{kind}"] = {
                "sha256": hashlib.sha256(text.encode()).hexdigest(), "length": len(text),
                "round_trip": back.tojson() == text,
                "same_listings": [back.list_arguments() == net.list_arguments(),
                                  back.list_outputs() == net.list_outputs(),
                                  back.list_auxiliary_states() == net.list_auxiliary_states()]}
    return res
