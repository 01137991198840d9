"""sym.save(fname) / mx.sym.load(fname) through a temporary file."""
import os
import tempfile

from _common import names


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, kernel=(3,), num_filter=2, name="c1")
    net = mx.sym.Group([mx.sym.Flatten(net, name="flat"), data * 2])
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "net-symbol.json")
    try:
        net.save(path)
        with open(path, "rb") as f:
            raw = f.read()
        loaded = mx.sym.load(path)
    finally:
        if os.path.exists(path):
            os.remove(path)
        os.rmdir(tmp)
    return {
        "file_equals_tojson": raw.decode("utf-8") == net.tojson(),
        "file_bytes": raw.decode("utf-8"),
        "loaded_tojson_identical": loaded.tojson() == net.tojson(),
        "names": names(loaded),
        "infer_shape": loaded.infer_shape(data=(2, 1, 5)),
    }
