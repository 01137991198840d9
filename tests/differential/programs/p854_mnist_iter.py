"""mx.io.MNISTIter (order of shuffle=True with seeds, flat, num_parts, reset, the last batch)
and mx.test_utils.get_mnist / get_mnist_ubyte / get_mnist_iterator on small MNIST files
written to a temporary directory (no download: the files are there)."""
import gzip
import os
import struct
import tempfile
import zipfile

import numpy as np

from _common import err


def _idx(path, items, rows=28, cols=28, images=True, opener=open):
    """An idx file of ``items`` images (pixel k of image i is (3*i + k) % 256) or labels."""
    with opener(path, "wb") as f:
        if images:
            f.write(struct.pack(">IIII", 2051, items, rows, cols))
            f.write(((np.arange(items)[:, None] * 3 + np.arange(rows * cols)) % 256)
                    .astype(np.uint8).tobytes())
        else:
            f.write(struct.pack(">II", 2049, items))
            f.write((np.arange(items) * 7 % 256).astype(np.uint8).tobytes())


def _batches(it):
    return [[b.label[0].asnumpy().tolist(), (b.data[0].asnumpy().reshape(
        b.data[0].shape[0], -1)[:, :2] * 256).tolist(), b.pad] for b in it]


def _descs(descs):
    return [[d.name, list(d.shape), np.dtype(d.dtype).name] for d in descs]


def run(mx):
    out = {}
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            os.chdir(tmp)
            _idx("img", 23, 3, 3)
            _idx("lab", 23, images=False)
            it = mx.io.MNISTIter(image="img", label="lab", batch_size=4, silent=True)
            out["shuffled"] = _batches(it)
            out["descs"] = [_descs(it.provide_data), _descs(it.provide_label)]
            it.reset()
            out["same_after_reset"] = _batches(it) == out["shuffled"]
            seeded = mx.io.MNISTIter(image="img", label="lab", batch_size=5, seed=7,
                                     flat=True, silent=True)
            out["seed7_flat"] = [_batches(seeded), _descs(seeded.provide_data)]
            first = next(mx.io.MNISTIter(image="img", label="lab", batch_size=3,
                                         shuffle=False, silent=True))
            out["first"] = [list(first.data[0].shape), first.data[0].asnumpy()[1].tolist(),
                            first.label[0].asnumpy().tolist(), first.pad,
                            first.index.tolist(), np.dtype(first.data[0].dtype).name]
            out["parts"] = [_batches(mx.io.MNISTIter(
                image="img", label="lab", batch_size=2, shuffle=False, silent=True,
                num_parts=3, part_index=k)) for k in range(3)]
            out["missing"] = err(mx, mx.io.MNISTIter, image="nothing", label="lab",
                                 silent=True)

            for name, items, images in (("train-images-idx3-ubyte", 12, True),
                                        ("train-labels-idx1-ubyte", 12, False),
                                        ("t10k-images-idx3-ubyte", 6, True),
                                        ("t10k-labels-idx1-ubyte", 6, False)):
                _idx(name + ".gz", items, images=images, opener=gzip.open)
            got = mx.test_utils.get_mnist()
            out["get_mnist"] = {k: [str(v.dtype), list(v.shape), float(v.sum()),
                                    v.reshape(len(v), -1)[:, :3].tolist()]
                                for k, v in sorted(got.items())}
            os.makedirs("data")
            with zipfile.ZipFile("data/mnist.zip", "w") as zf:
                for name, items, images in (("train-images-idx3-ubyte", 20, True),
                                            ("train-labels-idx1-ubyte", 20, False),
                                            ("t10k-images-idx3-ubyte", 10, True),
                                            ("t10k-labels-idx1-ubyte", 10, False)):
                    _idx(name, items, images=images)
                    zf.write(name)
            mx.test_utils.get_mnist_ubyte()
            out["unzipped"] = sorted(os.listdir("data"))
            train, val = mx.test_utils.get_mnist_iterator(4, (784,))
            out["iter_flat"] = [_batches(train), _batches(val), _descs(train.provide_data)]
            train, val = mx.test_utils.get_mnist_iterator(3, (1, 28, 28), num_parts=2,
                                                          part_index=1)
            out["iter_parts"] = [_batches(train), _batches(val), _descs(val.provide_data)]
        finally:
            os.chdir(here)
    return out
