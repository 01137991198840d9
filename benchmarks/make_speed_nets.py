"""Write the benchmark's graphs of MXNet's example networks (MobileNet, MobileNetV2,
Inception-BN, GoogLeNet, ResNeXt-50 at ImageNet size: 224x224, 1000 classes; the CIFAR-sized
ResNet-20 at 3x28x28, 10 classes) as MXNet 1.9.1 builds them from its example files, into
benchmarks/nets/.

    ../shared/tools/mxnet-oracle benchmarks/make_speed_nets.py [REPO]

REPO as for tests/differential/make_mxnet_examples.py, whose export helpers this reuses: the
example code is exported at run time and never copied into the project.
"""

import os
import sys
import tempfile

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "differential"))
from make_mxnet_examples import DEFAULT_REPO, SYMBOLS, export, import_file  # noqa: E402

NETWORKS = {  # file name -> (example file, get_symbol keyword arguments)
    "mobilenet": ("mobilenet.py", dict(num_classes=1000)),
    "mobilenetv2": ("mobilenetv2.py", dict(num_classes=1000)),
    "inception-bn": ("inception-bn.py", dict(num_classes=1000, image_shape="3,224,224")),
    "googlenet": ("googlenet.py", dict(num_classes=1000)),
    "resnext-50": ("resnext.py", dict(num_classes=1000, num_layers=50, image_shape="3,224,224")),
    # the CIFAR-sized ResNet: resnet.get_symbol(10, 20, '3,28,28')
    "resnet-20-cifar": ("resnet.py", dict(num_classes=10, num_layers=20, image_shape="3,28,28")),
}


def main(repo):
    if not repo:
        sys.exit("give REPO, a git clone of https://github.com/apache/mxnet, or set MXNET_REPO")
    with tempfile.TemporaryDirectory() as tmp:
        symbols = export(repo, SYMBOLS, tmp)
        sys.path.insert(0, symbols)
        for name, (file_name, kwargs) in NETWORKS.items():
            module = import_file(
                os.path.join(symbols, file_name), "bench_" + name.replace("-", "_")
            )
            with mx.name.NameManager():
                path = os.path.join(HERE, "nets", name + ".json")
                module.get_symbol(**kwargs).save(path)
            print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_REPO)
