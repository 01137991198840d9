"""The MNIST helpers of MXNet's tests: ``get_mnist()``, ``get_mnist_ubyte()`` and
``get_mnist_iterator(batch_size, input_shape)``.

MXNet downloads the files; minisym never does (a classroom machine is often offline). It reads
them where MXNet would have saved them, and when they are not there it says which files to put
where:

- ``get_mnist()``: the four ``.gz`` files in the current directory;
- ``get_mnist_ubyte()`` / ``get_mnist_iterator()``: the four unpacked ``-ubyte`` files in
  ``./data`` (or ``data/mnist.zip``, which is unpacked there, as MXNet does).
"""

import gzip
import os
import struct
import zipfile

import numpy as np

from ..io import MNISTIter

__all__ = ["get_mnist", "get_mnist_ubyte", "get_mnist_iterator"]

_NAMES = (
    "train-images-idx3-ubyte",
    "train-labels-idx1-ubyte",
    "t10k-images-idx3-ubyte",
    "t10k-labels-idx1-ubyte",
)
_GZ_URL = "http://data.mxnet.io/data/mnist/"
_ZIP_URL = "http://data.mxnet.io/mxnet/data/mnist.zip"


def _missing(paths, source, where):
    """An OSError naming the files that are not there, where they go, and where to get them."""
    missing = "\n".join(f"  {os.path.abspath(p)}" for p in paths)
    return OSError(
        f"{where}: minisym does not download data sets, and these MNIST files are "
        f"not there:\n{missing}\nOn a machine with a network connection, fetch "
        f"{source} and copy the files to exactly these paths (relative to the "
        f"current directory, {os.getcwd()}), then call {where}() again."
    )


def _read_gz(label_path, image_path):
    """(labels int8 (N,), images float32 (N, 1, 28, 28) in [0, 1]) from the two .gz files."""
    with gzip.open(label_path) as flbl:
        struct.unpack(">II", flbl.read(8))
        label = np.frombuffer(flbl.read(), dtype=np.int8)
    with gzip.open(image_path, "rb") as fimg:
        _, _, rows, cols = struct.unpack(">IIII", fimg.read(16))
        image = np.frombuffer(fimg.read(), dtype=np.uint8).reshape(len(label), rows, cols)
        image = image.reshape(image.shape[0], 1, 28, 28).astype(np.float32) / 255
    return label, image


def get_mnist():
    """{'train_data': (60000, 1, 28, 28) float32 in [0, 1], 'train_label': (60000,) int8,
    'test_data', 'test_label'} from the four MNIST ``.gz`` files in the current directory."""
    files = [name + ".gz" for name in _NAMES]
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        raise _missing(missing, " and ".join(_GZ_URL + f for f in missing), "get_mnist")
    train_lbl, train_img = _read_gz(files[1], files[0])
    test_lbl, test_img = _read_gz(files[3], files[2])
    return {
        "train_data": train_img,
        "train_label": train_lbl,
        "test_data": test_img,
        "test_label": test_lbl,
    }


def get_mnist_ubyte():
    """Make sure ``data/`` holds the four unpacked MNIST ``-ubyte`` files (unpacking
    ``data/mnist.zip`` when it is there instead)."""
    os.makedirs("data", exist_ok=True)
    paths = [os.path.join("data", name) for name in _NAMES]
    if all(os.path.exists(p) for p in paths):
        return
    archive = os.path.join("data", "mnist.zip")
    if not os.path.exists(archive):
        raise _missing(
            [p for p in paths if not os.path.exists(p)],
            f"{_ZIP_URL} (unzipped; or put mnist.zip itself in data/)",
            "get_mnist_ubyte",
        )
    with zipfile.ZipFile(archive) as zf:
        zf.extractall("data")


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0):
    """(train, val) ``mx.io.MNISTIter`` of ``data/``'s MNIST files, both shuffled (MNISTIter's
    default); the data flat (batch, 784) unless ``input_shape`` has 3 axes, e.g. (1, 28, 28)."""
    get_mnist_ubyte()
    flat = len(input_shape) != 3
    train = MNISTIter(
        image="data/train-images-idx3-ubyte",
        label="data/train-labels-idx1-ubyte",
        input_shape=input_shape,
        batch_size=batch_size,
        shuffle=True,
        flat=flat,
        num_parts=num_parts,
        part_index=part_index,
    )
    val = MNISTIter(
        image="data/t10k-images-idx3-ubyte",
        label="data/t10k-labels-idx1-ubyte",
        input_shape=input_shape,
        batch_size=batch_size,
        flat=flat,
        num_parts=num_parts,
        part_index=part_index,
    )
    return train, val
