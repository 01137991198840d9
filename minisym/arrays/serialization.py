"""``mx.nd.save`` / ``mx.nd.load``: MXNet's binary ``.params`` format, byte for byte.

A file is (all integers little-endian)::

    uint64 0x112, uint64 0                      list header (kMXAPINDArrayListMagic, reserved)
    uint64 count, then count arrays, each:
        uint32 0xF993FAC9                       NDArray format version 2
        int32  storage type                     0 = dense (the only one minisym has)
        int32  ndim, int64 dims[ndim]           the shape
        int32  device type, int32 device id     1 = cpu, 2 = gpu
        int32  dtype flag                       0 float32, 1 float64, 2 float16, 3 uint8, ...
        the values, C order
    uint64 count, then count names, each uint64 length + UTF-8 bytes (no names: a list)

Files written by MXNet 1.9.1 load here and files written here load in MXNet
(``src/ndarray/ndarray.cc``: ``NDArray::Save`` / ``NDArray::Load``). Loading also reads the two
older array layouts MXNet still accepts (version 1, and the original one whose first word is
the number of dimensions), so old model-zoo files open too.
"""

import io
import math
import os
import struct

import numpy as np

from ..base import DTYPE_MX_TO_NP, DTYPE_NP_TO_MX, MXNetTypeError, MXNetValueError
from ..context import cpu
from ..fileio import describe, read_bytes, write_atomically
from ..memory_budget import check_fits, format_bytes
from .loaded import LoadedDict, LoadedList
from .ndarray import NDArray

__all__ = ["save", "load", "save_to_bytes", "load_from_bytes"]

LIST_MAGIC = 0x112
NDARRAY_V1_MAGIC = 0xF993FAC8
NDARRAY_V2_MAGIC = 0xF993FAC9
NDARRAY_V3_MAGIC = 0xF993FACA
DENSE = 0
STORAGE_NAMES = {1: "row_sparse", 2: "csr"}


def save(fname, data):
    """Write an NDArray, a list of NDArrays or a dict {name: NDArray} to ``fname``.

    The bytes go to a temporary file in the same folder, which then replaces ``fname``: a
    crash or a full disk in the middle leaves the previous ``fname`` readable."""
    payload = save_to_bytes(data)  # MXNet checks the data first
    if not isinstance(fname, str):
        # MXNet fails inside c_str(fname) with an AttributeError; same type, clearer text
        raise AttributeError(f"mx.nd.save: fname must be a str, got {type(fname).__name__}")
    write_atomically(fname, payload, "mx.nd.save")


def load(fname):
    """The list or dict {name: NDArray} saved in ``fname`` (MXNet's or minisym's ``.params``)."""
    if not isinstance(fname, str):
        raise TypeError("fname required to be a string")
    _check_load_memory(fname)
    loaded = load_from_bytes(read_bytes(fname, "mx.nd.load"), fname)
    loaded.where = f"mx.nd.load({fname!r})"
    return loaded


def _check_load_memory(fname):
    """The file's bytes and the arrays made from them must fit: refuse before reading."""
    try:
        size = os.path.getsize(fname)
    except OSError:
        return  # read_bytes says what is wrong with the file
    check_fits(
        2 * size,
        "mx.nd.load",
        f"loading {fname!r} ({format_bytes(size)}: its bytes, "
        "then the arrays made from them) needs",
        "load it where there is more memory, or save the parameters in several smaller "
        "files (mx.nd.save of a part of the dict each)",
    )


# --- writing ---------------------------------------------------------------------------------
def save_to_bytes(data):
    """The ``.params`` bytes of an NDArray, a list of NDArrays or a dict {str: NDArray}."""
    names, arrays = _names_and_arrays(data)
    out = io.BytesIO()
    out.write(struct.pack("<QQ", LIST_MAGIC, 0))
    out.write(struct.pack("<Q", len(arrays)))
    for arr in arrays:
        _write_array(out, arr)
    out.write(struct.pack("<Q", len(names)))
    for name in names:
        encoded = name.encode("utf-8")
        out.write(struct.pack("<Q", len(encoded)))
        out.write(encoded)
    return out.getvalue()


def _names_and_arrays(data):
    """(names, arrays) as MXNet's ``nd.save`` accepts them; names is empty for a list."""
    if isinstance(data, NDArray):
        data = [data]
    if isinstance(data, dict):
        if any(not isinstance(k, str) for k in data) or any(
            not isinstance(v, NDArray) for v in data.values()
        ):
            raise TypeError(
                "save only accept dict str->NDArray or list of NDArray "
                "(convert numpy arrays with mx.nd.array)"
            )
        return list(data.keys()), list(data.values())
    if isinstance(data, list):
        if any(not isinstance(v, NDArray) for v in data):
            raise TypeError(
                "save only accept dict str->NDArray or list of NDArray "
                "(convert numpy arrays with mx.nd.array)"
            )
        return [], list(data)
    raise ValueError(
        "data needs to either be a NDArray, dict of str, NDArray pairs or a list "
        f"of NDarrays; got {type(data).__name__}"
    )


def _write_array(out, arr):
    """One dense array record (format version 2)."""
    values = np.ascontiguousarray(arr._data)
    flag = DTYPE_NP_TO_MX.get(values.dtype.type)
    if flag is None:
        raise MXNetTypeError(
            f"mx.nd.save: dtype {values.dtype} has no MXNet type code; use one "
            f"of {sorted(np.dtype(t).name for t in DTYPE_NP_TO_MX)}"
        )
    ctx = arr.context
    out.write(struct.pack("<Ii", NDARRAY_V2_MAGIC, DENSE))
    out.write(struct.pack(f"<i{values.ndim}q", values.ndim, *values.shape))
    out.write(struct.pack("<iii", ctx.device_typeid, ctx.device_id, flag))
    out.write(values.astype(values.dtype.newbyteorder("<"), copy=False).tobytes())


# --- reading ---------------------------------------------------------------------------------
class _Reader:
    """Little-endian reads from a byte string; running out is a format error."""

    def __init__(self, payload, where):
        self.payload = payload
        self.pos = 0
        self.where = where

    def take(self, size):
        if self.pos + size > len(self.payload):
            raise MXNetValueError(
                f"{self.where}: Invalid NDArray file format (the file ends "
                f"after {len(self.payload)} bytes, inside a record)"
            )
        chunk = self.payload[self.pos : self.pos + size]
        self.pos += size
        return chunk

    def unpack(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))

    def remaining(self):
        return len(self.payload) - self.pos


_SMALLEST_RECORD = 4  # every array record starts with a 4-byte word


def load_from_bytes(payload, where="mx.nd.load"):
    """The list or dict {name: NDArray} encoded in ``payload`` (the bytes of a ``.params``)."""
    reader = _Reader(payload, where)
    if payload[:8] != struct.pack("<Q", LIST_MAGIC):
        what = describe(payload)
        raise MXNetValueError(
            f"{where}: Invalid NDArray file format: it does not start with "
            "MXNet's NDArray-list header 0x112 "
            + (f"(it is {what})" if what else "(is it a .params file?)")
        )
    reader.unpack("Q")  # the magic
    reader.unpack("Q")  # reserved
    count = reader.unpack("Q")[0]
    if count * _SMALLEST_RECORD > reader.remaining():
        raise MXNetValueError(
            f"{where}: Invalid NDArray file format: the header declares "
            f"{count:,} arrays, but only {reader.remaining():,} bytes follow "
            "(a damaged file)"
        )
    arrays = [_read_array(reader, i) for i in range(count)]
    names = []
    for i in range(reader.unpack("Q")[0]):
        size = reader.unpack("Q")[0]
        if size > reader.remaining():
            raise MXNetValueError(
                f"{where}: Invalid NDArray file format: name {i} declares "
                f"{size:,} bytes, but the file ends {reader.remaining():,} "
                "bytes later (a truncated or damaged file)"
            )
        raw = reader.take(size)
        try:
            names.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise MXNetValueError(
                f"{where}: Invalid NDArray file format: name {i} "
                f"({raw[:40]!r}) is not UTF-8 text (a damaged file)"
            ) from None
    if names and len(names) != len(arrays):
        raise MXNetValueError(
            f"{where}: Invalid NDArray file format ({len(arrays)} arrays but {len(names)} names)"
        )
    return LoadedDict(zip(names, arrays)) if names else LoadedList(arrays)


def _read_array(reader, index=0):
    """Array record ``index``, in any of the layouts MXNet 1.9.1 reads. Its declared size is
    checked against the bytes left before anything is allocated."""
    magic = reader.unpack("I")[0]
    if magic == NDARRAY_V3_MAGIC:
        raise MXNetValueError(
            f"{reader.where}: this array was saved in MXNet's numpy-shape "
            "mode (mx.np / npx.set_np), which minisym does not read"
        )
    if magic == NDARRAY_V2_MAGIC:
        storage = reader.unpack("i")[0]
        if storage != DENSE:
            kind = STORAGE_NAMES.get(storage, f"storage type {storage}")
            raise MXNetValueError(
                f"{reader.where}: a {kind} (sparse) array; minisym has dense "
                "arrays only (save it with .tostype('default') in MXNet)"
            )
        shape = _read_shape(reader)
    elif magic == NDARRAY_V1_MAGIC:
        shape = _read_shape(reader)
    else:
        # the oldest layout: the first word is ndim, followed by uint32 dims
        shape = reader.unpack(f"{magic}I") if magic < 32 else None
        if shape is None:
            raise MXNetValueError(
                f"{reader.where}: Invalid NDArray file format (unknown array "
                f"magic number {magic:#x})"
            )
    if len(shape) == 0:
        raise MXNetValueError(
            f"{reader.where}: an array with no dimensions (shape ()); MXNet "
            "1.9.1 cannot read such a record back either"
        )
    reader.unpack("ii")  # the device it was saved from; loading always gives cpu(0)
    flag = reader.unpack("i")[0]
    if flag not in DTYPE_MX_TO_NP or DTYPE_MX_TO_NP[flag] is None:
        raise MXNetValueError(f"{reader.where}: unknown dtype flag {flag}")
    dtype = np.dtype(DTYPE_MX_TO_NP[flag]).newbyteorder("<")
    if any(d < 0 for d in shape):
        raise MXNetValueError(
            f"{reader.where}: Invalid NDArray file format: array {index} has "
            f"the shape {tuple(shape)}, with a negative size (a damaged file)"
        )
    count = math.prod(shape)  # Python ints: a crafted shape cannot overflow
    if count * dtype.itemsize > reader.remaining():
        raise MXNetValueError(
            f"{reader.where}: Invalid NDArray file format: array {index} declares the shape "
            f"{tuple(shape)} of {np.dtype(dtype).name}, {count * dtype.itemsize:,} bytes, but "
            f"the file ends {reader.remaining():,} bytes later (a truncated or damaged file); "
            "nothing was allocated"
        )
    values = np.frombuffer(reader.take(count * dtype.itemsize), dtype=dtype, count=count)
    return NDArray(values.astype(dtype.newbyteorder("="), copy=True).reshape(shape), cpu(0))


def _read_shape(reader):
    """An int32 ndim followed by int64 dims."""
    ndim = reader.unpack("i")[0]
    if ndim < 0:
        raise MXNetValueError(f"{reader.where}: an array of unknown shape (ndim {ndim})")
    if ndim * 8 > reader.remaining():
        raise MXNetValueError(
            f"{reader.where}: Invalid NDArray file format: an array declares "
            f"{ndim:,} dimensions, but the file ends {reader.remaining():,} "
            "bytes later (a truncated or damaged file)"
        )
    return reader.unpack(f"{ndim}q")
