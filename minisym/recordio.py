"""``mx.recordio``: MXNet's RecordIO files, byte for byte, in plain Python.

A record file is a sequence of records, each: the magic number ``0xced7230a`` (4 bytes,
little-endian), a 4-byte word ``cflag << 29 | length``, the ``length`` bytes, then zeros up to a
multiple of 4. A record whose data holds the magic number at a multiple of 4 is cut there into
parts (cflag 1 = first, 2 = middle, 3 = last; 0 = a whole record), and the reader joins the
parts with the magic number between them -- so the reader never mistakes data for a record
start. ``pack`` / ``unpack`` put an ``IRHeader`` (flag, label, id, id2) in front of the bytes:
a label that is a number is stored in the header; an array label is stored after it (as
float32) and ``flag`` holds its length.
"""

import numbers
import os
import struct
from collections import namedtuple

import numpy as np

from .base import MXNetOSError, MXNetValueError

__all__ = [
    "MXRecordIO",
    "MXIndexedRecordIO",
    "IRHeader",
    "pack",
    "unpack",
    "pack_img",
    "unpack_img",
]

MAGIC = 0xCED7230A
_MAGIC_BYTES = struct.pack("<I", MAGIC)
_LENGTH_MASK = (1 << 29) - 1

IRHeader = namedtuple("HEADER", ["flag", "label", "id", "id2"])
_IR_FORMAT = "<IfQQ"  # MXNet's 'IfQQ' on a little-endian machine: no padding, 24 bytes
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def encode_record(buf):
    """The bytes one record takes in a file (parts cut at the magic number, padding)."""
    data = bytes(buf)
    if len(data) >= 1 << 29:
        raise MXNetValueError(
            f"MXRecordIO.write: a record holds less than 2**29 bytes (512 "
            f"MiB); this one has {len(data)}. Split it into several records."
        )
    out, start = [], 0
    for i in range(0, len(data) - len(data) % 4, 4):
        if data[i : i + 4] == _MAGIC_BYTES:
            out += [
                _MAGIC_BYTES,
                struct.pack("<I", (1 if start == 0 else 2) << 29 | i - start),
                data[start:i],
            ]
            start = i + 4
    out += [
        _MAGIC_BYTES,
        struct.pack("<I", (3 if start else 0) << 29 | len(data) - start),
        data[start:],
        b"\0" * (-len(data) % 4),
    ]
    return b"".join(out)


class MXRecordIO:
    """Read (``flag='r'``) or write (``'w'``) a record file one record at a time:
    ``write(bytes)``, ``read()`` (None at the end), ``reset()`` (back to the start), ``close()``."""

    def __init__(self, uri, flag):
        self.uri = str(uri)
        self.flag = flag
        self.pid = None
        self.is_open = False
        self._file = None
        self.open()

    def open(self):
        """Open the file (a writer truncates it)."""
        if self.flag not in ("w", "r"):
            raise ValueError(
                f"Invalid flag {self.flag}: MXRecordIO opens a file to read "
                "(flag='r') or to write (flag='w')"
            )
        self.writable = self.flag == "w"
        try:
            self._file = open(self.uri, "wb" if self.writable else "rb")
        except OSError as exc:
            what = "folder" if self.writable else "file"
            raise MXNetOSError(
                f"MXRecordIO: cannot open {self.uri!r} to "
                f"{'write' if self.writable else 'read'}: {exc.strerror}. Check that the {what} "
                "exists (a relative path starts from the notebook's folder)",
                exc.errno,
                self.uri,
            ) from None
        self.pid = os.getpid()
        self.is_open = True

    def close(self):
        """Close the file (a writer's records are then all on disk)."""
        if self.is_open:
            self._file.close()
            self.is_open = False
            self.pid = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def reset(self):
        """Close and open again: a reader starts from the first record, a writer empties
        the file."""
        self.close()
        self.open()

    def _check_open(self, what):
        if not self.is_open:
            raise RuntimeError(
                f"MXRecordIO.{what}: {self.uri!r} is closed; call reset() to open it again"
            )
        if self.pid != os.getpid():
            raise RuntimeError(
                f"MXRecordIO.{what}: Forbidden operation in multiple processes: "
                f"{self.uri!r} was opened in process {self.pid}; open the file "
                "again in each process that reads it"
            )

    def write(self, buf):
        """Append one record: ``buf`` is bytes (``pack(header, data)`` makes them)."""
        if not self.writable:
            raise AssertionError(
                f"MXRecordIO.write: {self.uri!r} was opened to read "
                "(flag='r'); open it with flag='w' to write"
            )
        self._check_open("write")
        if isinstance(buf, str):
            raise TypeError(
                f"MXRecordIO.write: a record is bytes, not str ({buf[:20]!r}); "
                "encode text first: record.write(text.encode('utf-8'))"
            )
        self._file.write(encode_record(memoryview(buf)))

    def read(self):
        """The next record as bytes, or None after the last one."""
        if self.writable:
            raise AssertionError(
                f"MXRecordIO.read: {self.uri!r} was opened to write "
                "(flag='w'); close it and open it with flag='r' to read"
            )
        self._check_open("read")
        parts = []
        while True:
            start = self._file.tell()
            head = self._file.read(8)
            if not head and not parts:
                return None
            if len(head) < 8 or head[:4] != _MAGIC_BYTES:
                raise MXNetValueError(
                    f"MXRecordIO.read: Invalid RecordIO File: {self.uri!r} has no record start "
                    f"at byte {start} (a record begins with the magic number {MAGIC:#x}); the "
                    "file is not a record file, or it is cut short or damaged"
                )
            word = struct.unpack("<I", head[4:])[0]
            cflag, length = word >> 29, word & _LENGTH_MASK
            data = self._file.read(length + (-length % 4))[:length]
            if len(data) < length:
                raise MXNetValueError(
                    f"MXRecordIO.read: {self.uri!r} ends inside the record "
                    f"that starts at byte {start}: the file is cut short"
                )
            parts.append(data)
            if cflag in (0, 3):
                return _MAGIC_BYTES.join(parts)


class MXIndexedRecordIO(MXRecordIO):
    """A record file plus an index file (``key<TAB>byte offset`` per line), to read any record
    by key: ``write_idx(key, bytes)``, ``read_idx(key)``, ``keys``."""

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = idx_path
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self.fidx = None
        super().__init__(uri, flag)

    def open(self):
        """Open the record file and the index (read: load it; write: empty it)."""
        super().open()
        self.idx, self.keys = {}, []
        self.fidx = open(self.idx_path, self.flag)
        if not self.writable:
            for number, line in enumerate(self.fidx, start=1):
                fields = line.strip().split("\t")
                if len(fields) != 2:
                    raise MXNetValueError(
                        f"MXIndexedRecordIO: line {number} of the index {self.idx_path!r} is "
                        f"{line.strip()!r}; each line is key<TAB>offset, as write_idx writes it"
                    )
                key = self.key_type(fields[0])
                self.idx[key] = int(fields[1])
                self.keys.append(key)

    def close(self):
        """Close the record file and the index file."""
        if not self.is_open:
            return
        super().close()
        if self.fidx is not None:
            self.fidx.close()

    def seek(self, idx):
        """Go to the record of key ``idx`` (the next ``read()`` returns it)."""
        if self.writable:
            raise AssertionError("MXIndexedRecordIO.seek: only a reader (flag='r') seeks")
        self._check_open("seek")
        self._file.seek(self._offset(idx))

    def _offset(self, idx):
        try:
            return self.idx[idx]
        except KeyError:
            shown = self.keys[:10] + (["..."] if len(self.keys) > 10 else [])
            raise KeyError(
                f"{idx!r} is not a key of {self.idx_path!r}; its keys are {shown} "
                f"({self.key_type.__name__})"
            ) from None

    def tell(self):
        """The byte offset the next record is written at (writers only)."""
        if not self.writable:
            raise AssertionError("MXIndexedRecordIO.tell: only a writer (flag='w') tells")
        self._check_open("tell")
        return self._file.tell()

    def read_idx(self, idx):
        """The record of key ``idx``."""
        self.seek(idx)
        return self.read()

    def write_idx(self, idx, buf):
        """Write a record under key ``idx`` (converted with ``key_type``) into both files."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write(f"{key}\t{pos}\n")
        self.idx[key] = pos
        self.keys.append(key)


def pack(header, s):
    """``IRHeader`` + bytes -> the bytes of one record (an array label goes after the
    header, as float32, with ``flag`` = its length; a number label stays in the header)."""
    header = IRHeader(*header)
    if isinstance(s, str):
        raise TypeError(
            f"pack: s must be bytes, not str ({s[:20]!r}); encode text first: "
            "pack(header, text.encode('utf-8'))"
        )
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + bytes(s)
    return struct.pack(_IR_FORMAT, *header) + bytes(s)


def unpack(s):
    """The bytes of one record -> ``(IRHeader, payload bytes)``; an array label comes back as
    a float32 numpy array."""
    if len(s) < _IR_SIZE:
        raise struct.error(
            f"unpack requires a buffer of {_IR_SIZE} bytes: a packed record "
            f"starts with a {_IR_SIZE}-byte IRHeader, this one has {len(s)} "
            "bytes (was it written with mx.recordio.pack?)"
        )
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4 :]
    return header, s


def _cv2(what):
    """OpenCV, which encodes and decodes images here as in MXNet; an ImportError if missing."""
    try:
        import cv2
    except ImportError:
        raise ImportError(
            f"mx.recordio.{what} needs OpenCV to encode and decode images, as MXNet's does, "
            "and minisym does not depend on it. Install it (pip install opencv-python-headless)"
            ", or store raw pixels without it: pack(header, img.tobytes()) and "
            "np.frombuffer(payload, np.uint8).reshape(shape)."
        ) from None
    return cv2


def pack_img(header, img, quality=95, img_fmt=".jpg"):
    """Pack an image (a numpy array, OpenCV's BGR order) encoded as JPEG or PNG."""
    cv2 = _cv2("pack_img")
    fmt = img_fmt.upper()
    if fmt in (".JPG", ".JPEG"):
        params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    elif fmt == ".PNG":
        params = [cv2.IMWRITE_PNG_COMPRESSION, quality]
    else:
        params = None
    ok, buf = cv2.imencode(img_fmt, img, params)
    if not ok:
        raise ValueError(f"pack_img: OpenCV failed to encode the image as {img_fmt!r}")
    return pack(header, buf.tobytes())


def unpack_img(s, iscolor=-1):
    """``(IRHeader, image as a numpy array)`` from a record ``pack_img`` made."""
    cv2 = _cv2("unpack_img")
    header, s = unpack(s)
    img = cv2.imdecode(np.frombuffer(s, dtype=np.uint8), iscolor)
    return header, img
