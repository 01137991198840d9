"""``mx.io.MNISTIter``: batches of the MNIST files in their ``idx`` ("ubyte") format.

As MXNet's: pixels are divided by 256, the labels are float32 of shape (batch_size,), an
incomplete last batch is dropped, and ``shuffle=True`` (the default) shuffles once, when the
iterator is made, in the order MXNet's C++ ``std::shuffle`` with ``std::mt19937(seed)`` gives,
so the batches are MXNet's batches.
"""

import struct
import sys

import numpy as np

from ..base import MXNetOSError, MXNetValueError
from ..ndarray import NDArray
from .io import DataDesc, DataIter

__all__ = ["MNISTIter"]


class MNISTIter(DataIter):
    """``MNISTIter(image='train-images-idx3-ubyte', label='train-labels-idx1-ubyte',
    batch_size=128)``: data (batch, 1, 28, 28), or (batch, 784) with ``flat=True``.

    ``num_parts`` / ``part_index`` read only that part of the files; ``silent=False`` prints
    what was loaded, as MXNet logs it. Other keyword arguments (``input_shape``, prefetching
    options) are accepted and not used, as in MXNet.
    """

    def __init__(
        self,
        image="./train-images-idx3-ubyte",
        label="./train-labels-idx1-ubyte",
        batch_size=128,
        shuffle=True,
        flat=False,
        seed=0,
        silent=False,
        num_parts=1,
        part_index=0,
        data_name="data",
        label_name="softmax_label",
        **kwargs,
    ):
        if int(batch_size) < 1:
            raise MXNetValueError(f"MNISTIter: batch_size={batch_size} must be >= 1")
        super().__init__(int(batch_size))
        part = _part(num_parts, part_index)
        self._images = _read_idx(image, "image", 3, part).astype(np.float32) * np.float32(1 / 256)
        self._labels = _read_idx(label, "label", 1, part).astype(np.float32)
        if shuffle:
            order = mt19937_shuffle(len(self._labels), int(seed))
            self._images, self._labels = self._images[order], self._labels[order]
        rows, cols = self._images.shape[1:]
        self._shape = (self.batch_size, rows * cols) if flat else (self.batch_size, 1, rows, cols)
        self.data_name, self.label_name = data_name, label_name
        self._loc, self._batch = 0, None
        if not silent:
            shown = (
                f"({self.batch_size},{rows * cols})"
                if flat
                else "[" + ",".join(map(str, self._shape)) + "]"
            )
            print(
                f"MNISTIter: load {len(self._images)} images, shuffle={int(bool(shuffle))}, "
                f"shape={shown}",
                file=sys.stderr,
            )

    @property
    def provide_data(self):
        """``[DataDesc('data', (batch, 1, rows, cols) or (batch, rows*cols))]``."""
        return [DataDesc(self.data_name, self._shape, np.float32)]

    @property
    def provide_label(self):
        """``[DataDesc('softmax_label', (batch,))]``."""
        return [DataDesc(self.label_name, (self.batch_size,), np.float32)]

    def reset(self):
        """Back to the first batch (the order stays the one drawn when it was made)."""
        self._loc, self._batch = 0, None

    def iter_next(self):
        """Take the next full batch; False when fewer than batch_size images are left."""
        if self._loc + self.batch_size > len(self._images):
            self._batch = None
            return False
        rows = slice(self._loc, self._loc + self.batch_size)
        self._batch = (self._images[rows].reshape(self._shape), self._labels[rows])
        self._loc += self.batch_size
        return True

    def getdata(self):
        """The current batch's images: ``[NDArray]``."""
        return [NDArray(self._batch[0].copy())]

    def getlabel(self):
        """The current batch's labels: ``[NDArray]`` of shape (batch,)."""
        return [NDArray(self._batch[1].copy())]

    def getindex(self):
        """MXNet's MNISTIter gives no indices: zeros."""
        return np.zeros(self.batch_size, np.uint64)

    def getpad(self):
        """0: an incomplete last batch is dropped, never padded."""
        return 0


def _part(num_parts, part_index):
    """The function giving (start, end) of part ``part_index`` of ``count`` items."""
    if not 0 <= part_index < num_parts:
        raise MXNetValueError(
            f"MNISTIter: part_index={part_index} must be in 0..num_parts-1 (num_parts={num_parts})"
        )
    return lambda count: (
        int(count / num_parts * part_index),
        int(count / num_parts * (part_index + 1)),
    )


def _read_idx(path, key, ndim, part):
    """The items of an idx file (magic, count, then ``ndim - 1`` sizes, then bytes), only those
    of ``part``, as uint8 of shape (count, ...)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise MXNetOSError(
            f"MNISTIter: cannot read {key}={path!r}: {exc.strerror}. Give the "
            f"path of the MNIST {key} file (e.g. data/train-{key}s-idx{ndim}-ubyte)",
            exc.errno,
            path,
        ) from None
    head = 4 * (ndim + 1)
    if len(raw) < head:
        raise MXNetValueError(
            f"MNISTIter: {key}={path!r}: invalid mnist format (the file is "
            "shorter than its header; is it still gzip-compressed?)"
        )
    sizes = struct.unpack(">" + "i" * ndim, raw[4:head])
    start, end = part(sizes[0])
    item = int(np.prod(sizes[1:], dtype=np.int64))
    body = np.frombuffer(raw, np.uint8, offset=head)
    if body.size < end * item:
        raise MXNetValueError(
            f"MNISTIter: {key}={path!r} says it holds {sizes[0]} items but "
            f"has bytes for {body.size // max(item, 1)}"
        )
    return body[start * item : end * item].reshape((end - start,) + tuple(sizes[1:]))


# --- std::shuffle(first, last, std::mt19937(seed)) as libstdc++ does it ----------------------
def _mt19937(seed):
    """The 32-bit outputs of C++'s ``std::mt19937(seed)``, one per call."""
    bits = np.random.MT19937(0)
    bits._legacy_seeding(seed & 0xFFFFFFFF)  # init_genrand(seed), as std::mt19937(seed)
    buffer = []

    def draw():
        if not buffer:
            buffer.extend(bits.random_raw(4096).tolist()[::-1])
        return buffer.pop()

    return draw


def _uniform(draw, high):
    """libstdc++'s ``uniform_int_distribution(0, high)`` on a 32-bit engine (downscaling with
    rejection)."""
    span = high + 1
    scaling = 0xFFFFFFFF // span
    past = span * scaling
    value = draw()
    while value >= past:
        value = draw()
    return value // scaling


def mt19937_shuffle(count, seed):
    """The permutation ``std::shuffle`` makes of ``range(count)`` with ``std::mt19937(seed)``."""
    draw, order = _mt19937(seed), list(range(count))
    for i in range(1, count):
        j = _uniform(draw, i)
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=np.int64)
