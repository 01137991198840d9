"""``mx.io``: data descriptions, batches and iterators, as in MXNet 1.9.1's ``mxnet.io``.

An iterator hands out ``DataBatch`` objects of exactly ``batch_size`` examples. What happens to
the examples left over at the end of an epoch is ``NDArrayIter``'s ``last_batch_handle``:

- ``'pad'``: the last batch is filled up with examples from the start; ``batch.pad`` says how
  many rows are filler (``Module.predict`` drops them);
- ``'discard'``: the incomplete last batch is dropped;
- ``'roll_over'``: the leftover examples open the next epoch's first batch (after ``reset()``),
  whose ``pad`` then says how many of its rows came from the previous epoch.
"""

import re
import warnings
from collections import OrderedDict, namedtuple

import numpy as np

from ..arrays.ndarray import MX_REAL_T
from ..base import MXNetError, MXNetOSError, MXNetTypeError, MXNetValueError
from ..memory_budget import check_fits, format_bytes
from ..ndarray import NDArray, array
from ..ops.params import shape_tuple
from ..random import generator

__all__ = ["DataDesc", "DataBatch", "DataIter", "NDArrayIter", "CSVIter"]


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
        return 0 if layout is None else layout.find("N")

    @staticmethod
    def get_list(shapes, types):
        """``[DataDesc]`` from ``[(name, shape)]`` and optionally ``[(name, dtype)]``."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(x[0], x[1], type_dict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch:
    """One batch: ``data`` and ``label`` are lists of NDArrays of ``batch_size`` rows each."""

    def __init__(
        self,
        data,
        label=None,
        pad=None,
        index=None,
        bucket_key=None,
        provide_data=None,
        provide_label=None,
    ):
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
        return f"{type(self).__name__}: data shapes: {data_shapes} label shapes: {label_shapes}"


def _provided(key, what):
    """A property kept in the instance's ``key`` attribute that explains itself when unset."""

    def read(self):
        try:
            return self.__dict__[key]
        except KeyError:
            raise AttributeError(
                f"{type(self).__name__} does not say what {what} it provides: "
                f"set self.{key} = [DataDesc(name, shape)] in __init__ "
                f"or define a {key} property"
            ) from None

    def write(self, value):
        self.__dict__[key] = value

    return property(
        read, write, doc=f"``[DataDesc]`` of the {what} each batch holds (set by the subclass)."
    )


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
            return DataBatch(self.getdata(), self.getlabel(), self.getpad(), self.getindex())
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

    def __init__(
        self,
        data,
        label=None,
        batch_size=1,
        shuffle=False,
        last_batch_handle="pad",
        data_name="data",
        label_name="softmax_label",
        layout="NCHW",
    ):
        super().__init__(batch_size)
        _check_iter_options(batch_size, last_batch_handle, layout)
        if data is None:
            raise AssertionError(
                "NDArrayIter needs data: NDArrayIter(X, y, batch_size=32) with X "
                "of shape (examples, ...)"
            )
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
        # 'roll_over' (and 'discard'): the incomplete last batch
        self._cache_data = self._cache_label = None
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
        return [
            DataDesc(
                name,
                tuple(list(arr.shape[:axis]) + [self.batch_size] + list(arr.shape[axis + 1 :])),
                arr.dtype,
                layout=self.layout,
            )
            for name, arr in sources
        ]

    def hard_reset(self):
        """Back to the start, forgetting any rolled-over examples."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = self._cache_label = None

    def reset(self):
        """Back to the start of the data (reshuffled if ``shuffle``); keeps a roll-over."""
        if self.shuffle:
            self._shuffle_data()
        if (
            self.last_batch_handle == "roll_over"
            and self.num_data - self.batch_size < self.cursor < self.num_data
        ):
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
            self._cache_data, self._cache_label = data, label
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
            assert self._cache_data is not None or self._cache_label is not None, (
                "next epoch should have cached data"
            )
            rest = self._rows(sources, end=self.cursor + self.batch_size)
            # getdata() takes the cached data first, then getlabel() finds only the labels left
            if self._cache_data is not None:
                cached, self._cache_data = self._cache_data, None
            else:
                cached, self._cache_label = self._cache_label, None
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

    def _rows(self, sources, start=0, end=None):
        """Rows ``start:end`` along the batch axis of each source, as new NDArrays."""
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
                    f"'{self.last_batch_handle}'"
                )
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
        return [
            NDArray(np.concatenate([a._data, b._data], axis=axis), a.context)
            for a, b in zip(first, second)
        ]

    def _tile(self, batches, repeats):
        """Each batch repeated ``repeats`` times along axis 0."""
        return [
            NDArray(np.tile(b._data, [repeats] + [1] * (b.ndim - 1)), b.context) for b in batches
        ]

    def _shuffle_data(self):
        """Permute the examples (the same permutation for data and labels)."""
        generator().shuffle(self.idx)
        self.data = _getdata_by_idx(self.data, self.idx)
        self.label = _getdata_by_idx(self.label, self.idx)


_HANDLES = ("pad", "discard", "roll_over")


def _is_whole(value):
    """An int or a NumPy integer, not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_iter_options(batch_size, last_batch_handle, layout):
    """NDArrayIter's options, checked when it is made (MXNet accepts a batch_size of 0, which
    never advances, an unknown last_batch_handle or a layout without N, and fails later or
    silently does something else)."""
    if not _is_whole(batch_size):
        kind = MXNetValueError if isinstance(batch_size, (float, np.floating)) else MXNetTypeError
        raise kind(
            f"NDArrayIter: batch_size is how many examples each batch holds, a whole "
            f"number such as batch_size=32; got {batch_size!r}"
        )
    if batch_size < 1:
        raise MXNetValueError(
            f"NDArrayIter: batch_size={batch_size}, but a batch holds at least "
            "one example: give batch_size=1 or more (e.g. 32)"
        )
    if last_batch_handle not in _HANDLES:
        raise MXNetValueError(
            f"NDArrayIter: last_batch_handle={last_batch_handle!r} is not one "
            f"of {', '.join(map(repr, _HANDLES))} ('pad' fills the last batch "
            "from the start, 'discard' drops it, 'roll_over' carries it into "
            "the next epoch)"
        )
    if not isinstance(layout, str) or "N" not in layout:
        raise MXNetValueError(
            f"NDArrayIter: layout={layout!r} has no N, the batch axis (e.g. "
            "'NCHW', 'NC' or 'TNC'); the examples are taken along it"
        )


def _warn_python_list(data, what):
    """A plain Python list of numbers or lists is read as several inputs, one per element."""
    if not isinstance(data, list) or len(data) < 2:
        return
    if all(isinstance(v, (list, tuple, int, float)) for v in data):
        warnings.warn(
            f"NDArrayIter: {what} is a Python list of {len(data)} lists or numbers, "
            f"which NDArrayIter (like MXNet) reads as {len(data)} separate inputs "
            f"(_0_{what}, _1_{what}, ...), one per element. For one input with "
            f"{len(data)} examples pass an array: np.array({what})",
            UserWarning,
            stacklevel=3,
        )


def _check_examples(data, label, axis, batch_size, last_batch_handle):
    """Every input has the same number of examples along the batch axis, at least one."""
    sources = data + label
    for name, arr in sources:
        if arr.ndim <= axis:
            raise MXNetValueError(
                f"NDArrayIter: input {name!r} has shape {arr.shape}, with no "
                f"axis {axis} to take examples along (a single value? give "
                "an array of shape (examples, ...))"
            )
    first_name, first = sources[0]
    count = first.shape[axis]
    for name, arr in sources[1:]:
        if arr.shape[axis] != count:
            raise MXNetValueError(
                f"NDArrayIter: {name!r} has {arr.shape[axis]} examples (shape {arr.shape}) but "
                f"{first_name!r} has {count} (shape {first.shape}): every input and label "
                "needs one entry per example, in the same order"
            )
    if count == 0:
        raise MXNetValueError(
            f"NDArrayIter: {first_name!r} has no examples (shape "
            f"{first.shape}): there is nothing to iterate over"
        )
    if batch_size > count and last_batch_handle == "discard":
        warnings.warn(
            f"NDArrayIter: batch_size {batch_size} is larger than the {count} "
            "examples and last_batch_handle='discard' drops an incomplete batch: an "
            "epoch has no batch at all (fit would train on nothing)",
            UserWarning,
            stacklevel=3,
        )


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
        raise TypeError(
            "Input must be NDArray, numpy.ndarray, h5py.Dataset a list of them or "
            f"dict with them as values; got {type(data).__name__}"
        )
    for key, value in data.items():
        if not isinstance(value, NDArray):
            try:
                data[key] = array(value)  # float32; MXNet also writes it back into your dict
            except Exception:  # noqa: BLE001 -- an exception that cannot be copied: its text is kept
                dtype = getattr(value, "dtype", None)
                if dtype is not None and dtype.kind in "USO":
                    raise TypeError(
                        f"Invalid type '{type(value)}' for {key}: its dtype is {dtype}, not "
                        "numbers; NDArrayIter holds numbers, so turn text labels such as 'cat' "
                        "into class indices first, e.g. classes, y = np.unique(y, "
                        "return_inverse=True)"
                    ) from None
                raise TypeError(
                    f"Invalid type '{type(value)}' for {key}, should be NDArray, "
                    "numpy.ndarray or h5py.Dataset"
                ) from None
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
    shape = arr.shape[:axis] + (batch_size,) + arr.shape[axis + 1 :]
    check_fits(
        nbytes,
        "NDArrayIter",
        f"a batch of batch_size={batch_size} examples"
        + (" and a shuffled copy of the data" if shuffle else "")
        + " needs",
        lambda limit: (
            "a smaller batch_size: at most about batch_size="
            f"{max(int(batch_size * limit / nbytes), 1)}"
            + (" (or shuffle=False)" if shuffle else "")
        ),
        f"The largest input is {name!r}: one batch of it has shape {shape}, "
        f"{format_bytes(batch_size * row)}",
    )


# --- CSVIter ---------------------------------------------------------------------------------
_CSV_DTYPES = ("float32", "int32", "int64")


class CSVIter(DataIter):
    """Batches read from CSV files: one example per line, ``data_shape`` numbers each;
    ``label_csv`` (optional) one label row per line, else labels are zeros.

    ``CSVIter(data_csv='x.csv', data_shape=(3,), label_csv='y.csv', batch_size=4)``. The last
    batch of an epoch, when the rows do not fill it, is as MXNet makes it: with
    ``round_batch=True`` (the default) it is filled with the first rows again (``pad`` says how
    many) and the next epoch starts after those rows; with ``round_batch=False`` its ``pad``
    rows still hold the previous batch's values. minisym reads both files when the iterator is
    made, so a wrong row is reported at once, with its line.

    As MXNet's, it loads the first batch when it is made (``provide_data`` comes from it), and
    until the first ``next()`` (or ``reset()``) ``iter_next()`` stays on that batch.
    """

    def __init__(
        self,
        data_csv=None,
        data_shape=None,
        label_csv=None,
        label_shape=(1,),
        batch_size=None,
        round_batch=True,
        prefetch_buffer=4,
        ctx="gpu",
        dtype=None,
        data_name="data",
        label_name="softmax_label",
        **kwargs,
    ):
        if kwargs:
            raise TypeError(  # MXNet 1.9.1 ignores them silently
                f"CSVIter got unexpected keyword argument(s) {sorted(kwargs)}; it takes "
                "data_csv, data_shape, label_csv, label_shape, batch_size, round_batch, "
                "prefetch_buffer, ctx, dtype, data_name, label_name"
            )
        required = {"data_csv": data_csv, "data_shape": data_shape, "batch_size": batch_size}
        for key, value in required.items():
            if value is None:
                raise MXNetValueError(
                    f"CSVIter: Required parameter {key} is not presented: e.g. "
                    "mx.io.CSVIter(data_csv='data.csv', data_shape=(3,), batch_size=4)"
                )
        batch_size = _csv_batch_size(batch_size)
        super().__init__(batch_size)
        self.dtype = _csv_dtype(dtype)
        data_shape = _csv_shape(data_shape, "data_shape")
        label_shape = _csv_shape(label_shape, "label_shape")
        self._data = _read_csv(data_csv, data_shape, self.dtype, "data_csv")
        if label_csv is None or label_csv == "NULL":
            self._label = np.zeros((len(self._data),) + label_shape, self.dtype)
        else:
            self._label = _read_csv(label_csv, label_shape, self.dtype, "label_csv")
            if len(self._label) < len(self._data):
                raise MXNetValueError(
                    f"CSVIter: label_csv {label_csv!r} has {len(self._label)} rows but data_csv "
                    f"{data_csv!r} has {len(self._data)}: one label row per data row"
                )
        if int(np.prod(label_shape)) == 1:  # MXNet gives a (batch,) label for one number
            self._label = self._label.reshape(len(self._label))
        self.round_batch = bool(round_batch)
        self.data_name, self.label_name = data_name, label_name
        self._batch = (
            np.zeros((batch_size,) + self._data.shape[1:], self.dtype),
            np.zeros((batch_size,) + self._label.shape[1:], self.dtype),
            np.zeros(batch_size, np.uint64),
        )
        self._row, self._overflow, self._pad, self._ready = 0, 0, 0, False
        self._first = self._advance()  # MXNet's MXDataIter loads the first batch at once

    @property
    def provide_data(self):
        """``[DataDesc('data', (batch_size, *data_shape), dtype)]``."""
        return [DataDesc(self.data_name, self._batch[0].shape, self.dtype)]

    @property
    def provide_label(self):
        """``[DataDesc('softmax_label', (batch_size,) or (batch_size, *label_shape))]``."""
        return [DataDesc(self.label_name, self._batch[1].shape, self.dtype)]

    def reset(self):
        """Start the next epoch: at the first row, or, after a last batch that wrapped
        around (round_batch), just after the rows it took from the start."""
        if not self.round_batch or self._overflow == 0:
            self._row = 0
        else:
            self._overflow = 0
        self._ready = self._first = False

    def iter_next(self):
        """Fill the next batch; False at the end of the epoch. Before the first ``next()``
        it stays on the batch loaded when the iterator was made, as MXNet's does."""
        return True if self._first else self._advance()

    def _advance(self):
        """Fill the next batch; False at the end of the epoch."""
        self._ready = False
        if self._overflow:  # the wrapped-around batch was the last of this epoch
            return False
        top = 0
        while top < self.batch_size and self._row < len(self._data):
            self._put(top, self._row)
            self._row, top = self._row + 1, top + 1
        if top == 0:
            return False
        self._pad = 0
        if top < self.batch_size and self.round_batch:
            self._row = 0
            while top < self.batch_size:
                if self._row >= len(self._data):
                    raise MXNetValueError(
                        f"CSVIter: batch_size={self.batch_size} needs more rows than the file "
                        f"has ({len(self._data)}), even read twice: number of input must be "
                        "bigger than batch size. Use a smaller batch_size."
                    )
                self._put(top, self._row)
                self._row, top, self._overflow = self._row + 1, top + 1, self._overflow + 1
            self._pad = self._overflow
        elif top < self.batch_size:
            self._pad = self.batch_size - top
        self._ready = True
        return True

    def _put(self, top, row):
        data, label, index = self._batch
        data[top], label[top], index[top] = self._data[row], self._label[row], row

    def _current(self, k):
        if not self._ready:
            raise MXNetError(
                "CSVIter: there is no current batch: call iter_next() (or next()) "
                "first, and reset() after the end of an epoch"
            )
        return self._batch[k]

    def getdata(self):
        """The current batch's data: one NDArray (a copy)."""
        return NDArray(self._current(0).copy())

    def getlabel(self):
        """The current batch's labels: one NDArray (a copy)."""
        return NDArray(self._current(1).copy())

    def getindex(self):
        """The row numbers of the current batch (a numpy uint64 array)."""
        return self._current(2).copy()

    def getpad(self):
        """How many rows of the current batch are padding."""
        return self._pad

    def next(self):
        """The next DataBatch; ``StopIteration`` at the end of the epoch."""
        if self.iter_next():
            self._first = False
            return DataBatch([self.getdata()], [self.getlabel()], self.getpad(), self.getindex())
        raise StopIteration


def _csv_batch_size(batch_size):
    if not _is_whole(batch_size) or batch_size < 1:
        raise MXNetValueError(
            f"CSVIter: batch_size={batch_size!r} must be a whole number >= 1 "
            "(how many rows each batch holds), e.g. batch_size=4"
        )
    return int(batch_size)


def _csv_dtype(dtype):
    """The dtype name CSVIter reads into: float32 (None), int32 or int64, as in MXNet."""
    if dtype is None:
        return np.dtype("float32")
    if not isinstance(dtype, str):
        raise MXNetTypeError(
            f"CSVIter: dtype={dtype!r}: MXNet's CSVIter takes the name as a "
            f"string: write dtype={np.dtype(dtype).name!r}"
            if _is_dtype(dtype)
            else f"CSVIter: dtype={dtype!r} is not a dtype name; use one of "
            + ", ".join(map(repr, _CSV_DTYPES))
        )
    if dtype not in _CSV_DTYPES:
        raise MXNetValueError(
            f"CSVIter: {dtype} is not supported for CSVIter: it reads "
            + ", ".join(map(repr, _CSV_DTYPES))
            + "; read as 'float32' and "
            "convert the batches (batch.data[0].astype(...))"
        )
    return np.dtype(dtype)


def _is_dtype(value):
    try:
        np.dtype(value)
    except TypeError:
        return False
    return True


def _csv_shape(shape, key):
    """``data_shape`` / ``label_shape`` as a tuple of sizes >= 1 (a string '(3,)' is read)."""
    if isinstance(shape, str):
        try:
            shape = shape_tuple(shape)
        except ValueError:
            shape = None
    if _is_whole(shape):
        shape = (int(shape),)
    if not (
        isinstance(shape, (tuple, list)) and shape and all(_is_whole(d) and d >= 1 for d in shape)
    ):
        raise MXNetValueError(
            f"CSVIter: {key}={shape!r} is not a shape: give the shape of "
            f"one example (one line of the file), e.g. {key}=(3,) for lines "
            "of 3 numbers, or (1, 28, 28) for 784 numbers per line"
        )
    return tuple(int(d) for d in shape)


def _read_csv(path, shape, dtype, key):
    """Every non-blank line of ``path`` as a row of ``shape`` (numbers), checked line by line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise MXNetOSError(
            f"CSVIter: cannot read {key}={path!r}: {exc.strerror}. Give the path "
            "of an existing CSV file (relative paths start from the notebook's "
            "folder)",
            exc.errno,
            path,
        ) from None
    size, rows = int(np.prod(shape)), []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue  # MXNet skips blank lines
        fields = line.split(",")
        values = [_csv_number(field, dtype) for field in fields]
        if None in values:
            bad = fields[values.index(None)]
            raise MXNetValueError(
                f"CSVIter: line {number} of {key}={path!r} has {bad.strip()!r}, which is not a "
                "number; CSVIter reads numbers separated by commas only"
                + (" (remove the header line)" if number == 1 else "")
            )
        if len(values) != size:
            raise MXNetValueError(
                f"CSVIter: line {number} of {key}={path!r} has {len(values)} numbers but "
                f"{key.replace('csv', 'shape')}={shape} needs {size}: The data size in CSV do not "
                "match size of shape. Give the shape of one line, e.g. "
                f"{key.replace('csv', 'shape')}=({len(values)},)"
            )
        rows.append(values)
    if not rows:
        raise MXNetValueError(
            f"CSVIter: {key}={path!r} has no rows: each line holds one "
            "example, numbers separated by commas"
        )
    return np.array(rows, dtype=dtype).reshape((len(rows),) + shape)


_FLOAT = re.compile(r"\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d*))?\s*$")
_INTEGER = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)")
_INTEGER_REST = re.compile(r"(\.\d*)?([eE][+-]?\d+)?\s*")  # what strtoll stops before


def _csv_number(text, dtype):
    """One field as MXNet's CSV parser reads it (dmlc-core's ``strtof`` for float32, C's
    ``strtoll(.., 0)`` for ints: ``0x1f`` is hex, ``017`` octal, ``1.5`` is 1); None when the
    field is not a number."""
    if dtype.kind == "i":
        match = _INTEGER.match(text)
        if match is None or not _INTEGER_REST.fullmatch(text[match.end() :]):
            return None
        sign, digits = match.groups()
        base = 16 if digits[:2] in ("0x", "0X") else 8 if digits.startswith("0") else 10
        value = int(digits, base) * (-1 if sign == "-" else 1)
        bits = dtype.itemsize * 8  # C's cast to int32 / int64 wraps around
        return (value + (1 << bits - 1)) % (1 << bits) - (1 << bits - 1)
    return _dmlc_float32(text) if _is_number(text) else None


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _dmlc_float32(text):
    """dmlc-core's ParseFloat<float>, which MXNet's CSVIter uses: the integer part and at most
    19 decimals (as a float64 quotient) are added in float32, then scaled by float32 powers of
    ten, so a long decimal can land one unit in the last place from the correctly rounded
    float32 (which ``float(text)`` would give)."""
    match = _FLOAT.match(text)
    if match is None or not (match.group(2) or match.group(3)):
        return np.float32(float(text))  # inf, nan
    sign, whole, decimals, exp_sign, exponent = match.groups()
    f32 = np.float32
    with np.errstate(over="ignore", under="ignore"):
        value = f32(int(whole or "0"))
        if decimals:
            kept = decimals[:19]
            value = f32(value + f32(float(int(kept)) / float(10 ** len(kept))))
        if exponent:
            scale, count = f32(1.0), min(int(exponent), 38)
            while count >= 8:
                scale, count = f32(scale * f32(1e8)), count - 8
            while count > 0:
                scale, count = f32(scale * f32(10.0)), count - 1
            value = f32(value / scale) if exp_sign == "-" else f32(value * scale)
    return -value if sign == "-" else value
