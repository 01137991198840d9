"""``mx.io``: data descriptions, batches and iterators, as in MXNet 1.9.1's ``mxnet.io``.

An iterator hands out ``DataBatch`` objects of exactly ``batch_size`` examples. What happens to
the examples left over at the end of an epoch is ``NDArrayIter``'s ``last_batch_handle``:

- ``'pad'``: the last batch is filled up with examples from the start; ``batch.pad`` says how
  many rows are filler (``Module.predict`` drops them);
- ``'discard'``: the incomplete last batch is dropped;
- ``'roll_over'``: the leftover examples open the next epoch's first batch (after ``reset()``),
  whose ``pad`` then says how many of its rows came from the previous epoch.
"""
import warnings
from collections import OrderedDict, namedtuple

import numpy as np

from .base import MXNetTypeError, MXNetValueError
from .memory import check_fits, format_bytes
from .ndarray import NDArray, array
from .ndarray.ndarray import MX_REAL_T
from .random import generator

__all__ = ["DataDesc", "DataBatch", "DataIter", "NDArrayIter"]


class DataDesc(namedtuple("DataDesc", ["name", "shape"])):
    """A named input's ``(name, shape)`` plus ``dtype`` and ``layout``:
    ``DataDesc[data,(32, 784),...]``.

    It is a 2-tuple (``name, shape = desc`` works) that also carries ``.dtype`` and ``.layout``.
    """

    def __new__(cls, name, shape, dtype=MX_REAL_T, layout="NCHW"):
        desc = super().__new__(cls, name, shape)
        desc.dtype = dtype
        desc.layout = layout
        return desc

    def __repr__(self):
        return f"DataDesc[{self.name},{self.shape},{self.dtype},{self.layout}]"

    @staticmethod
    def get_batch_axis(layout):
        """The batch axis of ``layout`` (``'NCHW'`` -> 0; None -> 0; no ``N`` -> -1)."""
        if layout is None:
            return 0
        return layout.find("N")

    @staticmethod
    def get_list(shapes, types):
        """``[DataDesc]`` from ``[(name, shape)]`` and optionally ``[(name, dtype)]``."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(x[0], x[1], type_dict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch:
    """One batch: ``data`` and ``label`` are lists of NDArrays of ``batch_size`` rows each."""

    def __init__(self, data, label=None, pad=None, index=None, bucket_key=None,
                 provide_data=None, provide_label=None):
        if data is not None:
            assert isinstance(data, (list, tuple)), "Data must be list of NDArrays"
        if label is not None:
            assert isinstance(label, (list, tuple)), "Label must be list of NDArrays"
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self):
        data_shapes = [d.shape for d in self.data]
        label_shapes = [label.shape for label in self.label] if self.label else None
        return (f"{type(self).__name__}: data shapes: {data_shapes} "
                f"label shapes: {label_shapes}")


def _provided(key, what):
    """A property kept in the instance's ``key`` attribute that explains itself when unset."""
    def read(self):
        try:
            return self.__dict__[key]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} does not say what {what} it provides: "
                                 f"set self.{key} = [DataDesc(name, shape)] in __init__ "
                                 f"or define a {key} property") from None

    def write(self, value):
        self.__dict__[key] = value

    return property(read, write,
                    doc=f"``[DataDesc]`` of the {what} each batch holds (set by the subclass).")


class DataIter:
    """Base class of the iterators: ``for batch in it`` gives DataBatches until the epoch ends.

    A subclass implements ``iter_next`` (advance; False at the end), ``getdata``, ``getlabel``
    and ``getpad``, and says what it provides with ``provide_data`` / ``provide_label``.
    """

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        """Go back to the start of the data."""

    def next(self):
        """The next DataBatch; ``StopIteration`` at the end of the epoch."""
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(),
                             index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        """Move to the next batch; whether there was one."""

    def getdata(self):
        """The current batch's data (list of NDArray)."""

    def getlabel(self):
        """The current batch's labels (list of NDArray)."""

    def getindex(self):
        """The current batch's example indices (None here)."""
        return None

    def getpad(self):
        """How many rows of the current batch are padding."""

    # MXNet's base class has no provide_data / provide_label: subclasses set them (as attributes
    # or properties). These accessors keep that contract and say so when it is broken.
    provide_data = _provided("provide_data", "data")
    provide_label = _provided("provide_label", "labels")


class NDArrayIter(DataIter):
    """Batches of in-memory arrays: ``NDArrayIter(x, y, batch_size=32)`` with x of shape (N, ...).

    ``data`` / ``label`` may be one array, a list of arrays (named ``_0_data``, ``_1_data``...)
    or a dict {name: array}; numpy arrays become float32 NDArrays. Inputs are kept sorted by name.
    """

    def __init__(self, data, label=None, batch_size=1, shuffle=False, last_batch_handle="pad",
                 data_name="data", label_name="softmax_label", layout="NCHW"):
        super().__init__(batch_size)
        _check_iter_options(batch_size, last_batch_handle, layout)
        if data is None:
            raise AssertionError("NDArrayIter needs data: NDArrayIter(X, y, batch_size=32) with X "
                                 "of shape (examples, ...)")
        _warn_python_list(data, "data")
        self.data = _init_data(data, allow_empty=False, default_name=data_name)
        self.label = _init_data(label, allow_empty=True, default_name=label_name)
        _check_examples(self.data, self.label, layout.find("N"), batch_size, last_batch_handle)
        _check_batch_memory(self.data + self.label, layout.find("N"), batch_size, shuffle)
        self.idx = np.arange(self.data[0][1].shape[0])
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.cursor = -self.batch_size
        self.num_data = self.idx.shape[0]
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)
        self._cache_data = None   # 'roll_over' (and 'discard'): the incomplete last batch
        self._cache_label = None
        self.layout = layout

    @property
    def provide_data(self):
        """``[DataDesc(name, (batch_size, ...), dtype, layout)]`` for each data input."""
        return self._descs(self.data)

    @property
    def provide_label(self):
        """``[DataDesc(name, (batch_size, ...), dtype, layout)]`` for each label input."""
        return self._descs(self.label)

    def _descs(self, sources):
        axis = self.layout.find("N")
        return [DataDesc(name, tuple(list(arr.shape[:axis]) + [self.batch_size]
                                     + list(arr.shape[axis + 1:])), arr.dtype, layout=self.layout)
                for name, arr in sources]

    def hard_reset(self):
        """Back to the start, forgetting any rolled-over examples."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = None
        self._cache_label = None

    def reset(self):
        """Back to the start of the data (reshuffled if ``shuffle``); keeps a roll-over."""
        if self.shuffle:
            self._shuffle_data()
        if (self.last_batch_handle == "roll_over"
                and self.num_data - self.batch_size < self.cursor < self.num_data):
            # a negative cursor: the next batch starts with the leftover rows of this epoch
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        """Advance the cursor by ``batch_size``; whether it is still inside the data."""
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        """The next full DataBatch; ``StopIteration`` at the end (an incomplete batch is kept)."""
        if not self.iter_next():
            raise StopIteration
        data = self.getdata()
        label = self.getlabel()
        if data[0].shape[self.layout.find("N")] != self.batch_size:
            self._cache_data = data
            self._cache_label = label
            raise StopIteration
        return DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def getdata(self):
        """The current batch of every data input (list of NDArray)."""
        return self._batchify(self.data)

    def getlabel(self):
        """The current batch of every label input (list of NDArray)."""
        return self._batchify(self.label)

    def getpad(self):
        """Rows of the current batch that are padding ('pad') or rolled over ('roll_over')."""
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    # --- building a batch ------------------------------------------------------------------
    def _batchify(self, sources):
        """The rows of the current batch from each of ``sources``, padded or rolled over."""
        assert self.cursor < self.num_data, "DataIter needs reset."
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            assert self._cache_data is not None or self._cache_label is not None, \
                "next epoch should have cached data"
            # getdata() takes the cached data first, then getlabel() finds only the labels left
            cached = self._cache_data if self._cache_data is not None else self._cache_label
            rest = self._rows(sources, end=self.cursor + self.batch_size)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cached, rest)
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            pad = self.batch_size - self.num_data + self.cursor
            first = self._rows(sources, start=self.cursor)
            if pad > self.num_data:
                second = self._tile(self._rows(sources, end=self.num_data), pad // self.num_data)
                if pad % self.num_data != 0:
                    second = self._concat(second, self._rows(sources, end=pad % self.num_data))
            else:
                second = self._rows(sources, end=pad)
            return self._concat(first, second)
        end = min(self.cursor + self.batch_size, self.num_data)
        return self._rows(sources, self.cursor, end)

    def _rows(self, sources, start=None, end=None):
        """Rows ``start:end`` along the batch axis of each source, as new NDArrays."""
        start = 0 if start is None else start
        if end is None:
            end = sources[0][1].shape[0] if sources else 0
        axis = self.layout.find("N")
        out = []
        for _, arr in sources:
            if end > arr.shape[axis]:
                # MXNet slices with slice_axis, which refuses to run past the end
                raise MXNetValueError(
                    f"NDArrayIter: cannot take rows {start}:{end} of an input with "
                    f"{arr.shape[axis]} rows (slice_axis: Invalid end for end={end} as "
                    f"axis_size is {arr.shape[axis]}): batch_size {self.batch_size} is too "
                    f"large for {self.num_data} examples with last_batch_handle="
                    f"'{self.last_batch_handle}'")
            key = [slice(None)] * arr.ndim
            key[axis] = slice(start, end)
            out.append(NDArray(arr._data[tuple(key)].copy(), arr.context))
        return out

    def _concat(self, first, second):
        """Each pair of batches joined along the batch axis."""
        if not first or not second:
            return first if first else second
        assert len(first) == len(second), "data source should contain the same size"
        axis = self.layout.find("N")
        return [NDArray(np.concatenate([a._data, b._data], axis=axis), a.context)
                for a, b in zip(first, second)]

    def _tile(self, batches, repeats):
        """Each batch repeated ``repeats`` times along axis 0."""
        return [NDArray(np.tile(b._data, [repeats] + [1] * (b.ndim - 1)), b.context)
                for b in batches]

    def _shuffle_data(self):
        """Permute the examples (the same permutation for data and labels)."""
        generator().shuffle(self.idx)
        self.data = _getdata_by_idx(self.data, self.idx)
        self.label = _getdata_by_idx(self.label, self.idx)


_HANDLES = ("pad", "discard", "roll_over")


def _check_iter_options(batch_size, last_batch_handle, layout):
    """NDArrayIter's options, checked when it is made (MXNet accepts a batch_size of 0, which
    never advances, an unknown last_batch_handle or a layout without N, and fails later or
    silently does something else)."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)):
        kind = MXNetTypeError if not isinstance(batch_size, (float, np.floating)) \
            else MXNetValueError
        raise kind(f"NDArrayIter: batch_size is how many examples each batch holds, a whole "
                   f"number such as batch_size=32; got {batch_size!r}")
    if batch_size < 1:
        raise MXNetValueError(f"NDArrayIter: batch_size={batch_size}, but a batch holds at least "
                              "one example: give batch_size=1 or more (e.g. 32)")
    if last_batch_handle not in _HANDLES:
        raise MXNetValueError(f"NDArrayIter: last_batch_handle={last_batch_handle!r} is not one "
                              f"of {', '.join(map(repr, _HANDLES))} ('pad' fills the last batch "
                              "from the start, 'discard' drops it, 'roll_over' carries it into "
                              "the next epoch)")
    if not isinstance(layout, str) or "N" not in layout:
        raise MXNetValueError(f"NDArrayIter: layout={layout!r} has no N, the batch axis (e.g. "
                              "'NCHW', 'NC' or 'TNC'); the examples are taken along it")


def _warn_python_list(data, what):
    """A plain Python list of numbers or lists is read as several inputs, one per element."""
    if isinstance(data, list) and len(data) > 1 and all(
            isinstance(v, (list, tuple, int, float)) for v in data):
        warnings.warn(f"NDArrayIter: {what} is a Python list of {len(data)} lists or numbers, "
                      f"which NDArrayIter (like MXNet) reads as {len(data)} separate inputs "
                      f"(_0_{what}, _1_{what}, ...), one per element. For one input with "
                      f"{len(data)} examples pass an array: np.array({what})", UserWarning,
                      stacklevel=3)


def _check_examples(data, label, axis, batch_size, last_batch_handle):
    """Every input has the same number of examples along the batch axis, at least one."""
    sources = data + label
    for name, arr in sources:
        if arr.ndim <= axis:
            raise MXNetValueError(f"NDArrayIter: input {name!r} has shape {arr.shape}, with no "
                                  f"axis {axis} to take examples along (a single value? give "
                                  "an array of shape (examples, ...))")
    first_name, first = sources[0]
    count = first.shape[axis]
    for name, arr in sources[1:]:
        if arr.shape[axis] != count:
            raise MXNetValueError(
                f"NDArrayIter: {name!r} has {arr.shape[axis]} examples (shape {arr.shape}) but "
                f"{first_name!r} has {count} (shape {first.shape}): every input and label "
                "needs one entry per example, in the same order")
    if count == 0:
        raise MXNetValueError(f"NDArrayIter: {first_name!r} has no examples (shape "
                              f"{first.shape}): there is nothing to iterate over")
    if batch_size > count and last_batch_handle == "discard":
        warnings.warn(f"NDArrayIter: batch_size {batch_size} is larger than the {count} "
                      "examples and last_batch_handle='discard' drops an incomplete batch: an "
                      "epoch has no batch at all (fit would train on nothing)", UserWarning,
                      stacklevel=3)


def _init_data(data, allow_empty, default_name):
    """``[(name, NDArray)]`` sorted by name, from an array, a list of arrays or a dict."""
    assert data is not None or allow_empty
    if data is None:
        data = []
    if isinstance(data, (np.ndarray, NDArray)):
        data = [data]
    if isinstance(data, list):
        if not allow_empty:
            assert len(data) > 0
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict((f"_{i}_{default_name}", d) for i, d in enumerate(data))
    if not isinstance(data, dict):
        raise TypeError("Input must be NDArray, numpy.ndarray, h5py.Dataset a list of them or "
                        f"dict with them as values; got {type(data).__name__}")
    for key, value in data.items():
        if not isinstance(value, NDArray):
            try:
                data[key] = array(value)  # float32; MXNet also writes it back into your dict
            except Exception:
                dtype = getattr(value, "dtype", None)
                if dtype is not None and dtype.kind in "USO":
                    raise TypeError(
                        f"Invalid type '{type(value)}' for {key}: its dtype is {dtype}, not "
                        "numbers; NDArrayIter holds numbers, so turn text labels such as 'cat' "
                        "into class indices first, e.g. classes, y = np.unique(y, "
                        "return_inverse=True)") from None
                raise TypeError(f"Invalid type '{type(value)}' for {key}, should be NDArray, "
                                "numpy.ndarray or h5py.Dataset") from None
    return sorted(data.items())


def _getdata_by_idx(data, idx):
    """The examples of each source reordered by ``idx`` (as float32 NDArrays, like MXNet)."""
    return [(name, array(arr.asnumpy()[idx], arr.context)) for name, arr in data]


def _check_batch_memory(sources, axis, batch_size, shuffle):
    """Each batch is a new array of ``batch_size`` examples of every input (and a shuffle copies
    every input twice): refuse a batch_size that would not fit before any is made."""
    rows = [(name, arr, arr._data.nbytes // max(arr.shape[axis], 1)) for name, arr in sources]
    nbytes = batch_size * sum(row for _, _, row in rows)
    if shuffle:
        nbytes += 2 * sum(arr._data.nbytes for _, arr, _ in rows)
    name, arr, row = max(rows, key=lambda r: r[2])
    shape = arr.shape[:axis] + (batch_size,) + arr.shape[axis + 1:]
    check_fits(nbytes, "NDArrayIter", f"a batch of batch_size={batch_size} examples"
               + (" and a shuffled copy of the data" if shuffle else "") + " needs",
               lambda limit: "a smaller batch_size: at most about batch_size="
                             f"{max(int(batch_size * limit / nbytes), 1)}"
                             + (" (or shuffle=False)" if shuffle else ""),
               f"The largest input is {name!r}: one batch of it has shape {shape}, "
               f"{format_bytes(batch_size * row)}")
