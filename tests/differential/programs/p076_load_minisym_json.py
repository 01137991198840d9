"""MXNet reads what minisym writes: symbol JSON written by minisym (committed under
tests/fixtures/minisym_json) loaded, listed, inferred and written again. Recorded under MXNet
1.9.1, the fixture shows what MXNet read; `tojson` of the loaded graph equals the file's bytes."""
import hashlib
import os

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                      "minisym_json")
SHAPES = {"conv_bn_net.json": {"data": (2, 3, 8, 8)},
          "split_concat_group.json": {"x": (2, 6, 4)},
          "shared_aux.json": {"x": (2, 3)}}


def run(mx):
    result = {}
    for name, shapes in sorted(SHAPES.items()):
        path = os.path.join(FOLDER, name)
        with open(path, "rb") as fin:
            raw = fin.read()
        sym = mx.sym.load(path)
        result[name] = {
            "sha256": hashlib.sha256(raw).hexdigest(),
            "arguments": sym.list_arguments(),
            "outputs": sym.list_outputs(),
            "aux": sym.list_auxiliary_states(),
            "attr_dict": sym.attr_dict(),
            "infer_shape": sym.infer_shape(**shapes),
            "same_bytes_again": sym.tojson() == raw.decode("utf-8"),
        }
    return result
