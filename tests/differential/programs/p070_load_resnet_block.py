"""Load MXNet-written JSON (a small ResNet-style block with BatchNorm (aux states), a shortcut, global pooling) with mx.sym.load and record what was read."""
import hashlib
import os

from _common import names

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                    "mxnet_json", "resnet_block.json")


def run(mx):
    with open(FILE, "rb") as f:
        raw = f.read()
    sym = mx.sym.load(FILE)
    return {
        "file_sha256": hashlib.sha256(raw).hexdigest(),
        "names": names(sym),
        "internals": sym.get_internals().list_outputs(),
        "attr_dict": sym.attr_dict(),
        "infer_shape": sym.infer_shape(data=(2, 3, 14, 14)),
        "infer_type": [[None if t is None else t.__name__ for t in part]
                       for part in sym.infer_type(data="float32")],
        "tojson": sym.tojson(),
        "tojson_equals_file": sym.tojson() == raw.decode("utf-8"),
        "load_json_equals_file": mx.sym.load_json(raw.decode("utf-8")).tojson() == raw.decode("utf-8"),
        "counter_untouched": mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=1).name,
    }
