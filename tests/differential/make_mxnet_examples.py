"""Write MXNet 1.9.1's example networks, as MXNet itself serializes them, into
tests/fixtures/mxnet_json/examples/<name>.json.

Run under a real MXNet 1.9.1 installation, from the project root:

    ../shared/tools/mxnet-oracle tests/differential/make_mxnet_examples.py [REPO]

REPO is a git directory of apache/mxnet holding the tag 1.9.1 (a clone of
https://github.com/apache/mxnet; default $MXNET_REPO). The example files are exported from that tag
into a temporary folder at run time and imported from there: their code is never copied into
the project. Each ``get_symbol`` is called with small settings inside a fresh NameManager, so
the automatic names are reproducible; programs p740-p769 load the files.
"""

import importlib.util
import os
import subprocess
import sys
import tempfile

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "fixtures", "mxnet_json", "examples"))
DEFAULT_REPO = os.environ.get("MXNET_REPO", "")
TAG = "1.9.1"
SYMBOLS = "example/image-classification/symbols"

# file name -> (example file, keyword arguments of its get_symbol): the smallest settings each
# accepts (num_layers small, image_shape the smallest that selects the branch named).
# resnetv1.py is left out: at 1.9.1 it is the same file as resnet-v1.py, byte for byte.
NETWORKS = {
    "alexnet": ("alexnet.py", dict(num_classes=10)),
    "googlenet": ("googlenet.py", dict(num_classes=10)),
    "inception-bn-28": ("inception-bn.py", dict(num_classes=10, image_shape="3,28,28")),
    "inception-bn": ("inception-bn.py", dict(num_classes=10, image_shape="3,224,224")),
    "inception-v3": ("inception-v3.py", dict(num_classes=10)),
    "inception-v4": ("inception-v4.py", dict(num_classes=10)),
    "inception-resnet-v2": ("inception-resnet-v2.py", dict(num_classes=10)),
    "lenet": ("lenet.py", dict(num_classes=10)),
    "lenet-stn": ("lenet.py", dict(num_classes=10, add_stn=True)),
    "mlp": ("mlp.py", dict(num_classes=10)),
    "mobilenet": ("mobilenet.py", dict(num_classes=10, alpha=0.25, resolution=32)),
    "mobilenetv2": ("mobilenetv2.py", dict(num_classes=10, multiplier=0.25)),
    "resnet-8-cifar": ("resnet.py", dict(num_classes=10, num_layers=8, image_shape="3,28,28")),
    "resnet-18": ("resnet.py", dict(num_classes=10, num_layers=18, image_shape="3,32,32")),
    "resnet-v1-8-cifar": (
        "resnet-v1.py",
        dict(num_classes=10, num_layers=8, image_shape="3,28,28"),
    ),
    "resnext-8-cifar": (
        "resnext.py",
        dict(num_classes=10, num_layers=8, num_group=4, image_shape="3,28,28"),
    ),
    "vgg-11": ("vgg.py", dict(num_classes=10, num_layers=11)),
    "vgg-11-bn": ("vgg.py", dict(num_classes=10, num_layers=11, batch_norm=True)),
}


def export(repo, folder, dest):
    """Every file of ``folder`` at TAG, written under ``dest``; returns dest/folder."""
    names = subprocess.run(
        ["git", "-C", repo, "ls-tree", "--name-only", f"{TAG}:{folder}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    target = os.path.join(dest, folder)
    os.makedirs(target, exist_ok=True)
    for name in names:
        blob = subprocess.run(
            ["git", "-C", repo, "show", f"{TAG}:{folder}/{name}"], check=True, capture_output=True
        ).stdout
        with open(os.path.join(target, name), "wb") as f:
            f.write(blob)
    return target


def import_file(path, name):
    """The module in ``path`` (a name with a dash cannot be imported the usual way)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def custom_softmax_mlp(folder):
    """example/numpy-ops/custom_softmax.py's network. The file trains on MNIST when run, so
    only its definitions (everything before the data iterators are made) are executed."""
    path = os.path.join(folder, "custom_softmax.py")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    definitions = source.split("train, val = get_mnist_iterator")[0]
    scope = {"__name__": "custom_softmax_definitions"}
    exec(compile(definitions, path, "exec"), scope)  # the example's own code, at record time
    return scope["mlp"]


def weighted_logistic_regression(folder):
    """example/numpy-ops/weighted_logistic_regression.py's symbol, built as its main block does
    (pos_grad_scale=1, neg_grad_scale=0.1); importing the file registers the operator."""
    import_file(os.path.join(folder, "weighted_logistic_regression.py"), "wlr_example")
    data = mx.sym.Variable("data")
    return mx.sym.Custom(
        data,
        pos_grad_scale=1,
        neg_grad_scale=0.1,
        name="wlr",
        op_type="weighted_logistic_regression",
    )


def build_all(repo, tmp):
    """{file name: symbol} of every example network, exported from ``repo`` into ``tmp``."""
    symbols = export(repo, SYMBOLS, tmp)
    numpy_ops = export(repo, "example/numpy-ops", tmp)
    sys.path.insert(0, symbols)  # some files import their siblings
    built = {}
    for name, (file_name, kwargs) in sorted(NETWORKS.items()):
        module = import_file(os.path.join(symbols, file_name), "example_" + name.replace("-", "_"))
        with mx.name.NameManager():
            built[name] = module.get_symbol(**kwargs)
    with mx.name.NameManager():
        built["custom-softmax"] = custom_softmax_mlp(numpy_ops)
    with mx.name.NameManager():
        built["weighted-logistic-regression"] = weighted_logistic_regression(numpy_ops)
    return built


def main(repo):
    if not repo:
        sys.exit("give REPO, a git clone of https://github.com/apache/mxnet, or set MXNET_REPO")
    if not mx.__version__.startswith("1.9.1"):
        sys.exit("these files must be written by MXNet 1.9.1, not %s" % mx.__version__)
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, symbol in sorted(build_all(repo, tmp).items()):
            path = os.path.join(OUT, name + ".json")
            symbol.save(path)
            print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_REPO)
