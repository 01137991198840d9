"""The files a learner's work lives in: written whole or not at all, and read with errors that
say which file and what is wrong with it.

- ``write_atomically(fname, payload, caller)`` writes to a temporary file in the same folder
  (``.NAME.<pid>.<random>.tmp``), flushes it to disk and ``os.replace``-s it over ``fname``: a
  crash, a kill or a full disk in the middle of a save leaves the previous ``fname`` as it was.
  A failed write removes its temporary file; only a killed process can leave one behind.
  ``mx.nd.save``, ``Symbol.save``, ``save_checkpoint`` and ``Module.save_params`` write this way.
- ``read_bytes(fname, caller)``: the whole file; a missing file, a folder or a file that cannot
  be read is an ``MXNetOSError`` naming it.
- ``describe(payload)``: what a file that is not the expected kind looks like (a PNG image, a
  Python pickle, an MXNet ``.params`` file, a symbol JSON...), or None. Loading only ever
  parses bytes: nothing read from a file is evaluated or unpickled.
"""

import errno as _errno
import os
import secrets
import stat
import struct

from .base import MXNetOSError

__all__ = ["write_atomically", "read_bytes", "describe"]


def write_atomically(fname, payload, caller):
    """Write ``payload`` (bytes) to ``fname`` so that it holds either its old or its new
    content, never a part of the new one; ``caller`` (``'mx.nd.save'``) starts any error."""
    folder = os.path.dirname(os.path.abspath(fname))
    temp = os.path.join(
        folder, f".{os.path.basename(fname)}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    )
    try:
        fout = open(temp, "xb")  # 0o666 less the umask, as open(fname, 'wb') would create it
    except OSError as exc:
        raise _write_error(caller, fname, exc) from None
    try:
        with fout:
            fout.write(payload)
            fout.flush()
            os.fsync(fout.fileno())
        _keep_mode(fname, temp)
        os.replace(temp, fname)
    except BaseException as exc:  # a full disk, or KeyboardInterrupt: the old file stays
        _remove(temp)
        if isinstance(exc, OSError):
            raise _write_error(caller, fname, exc) from None
        raise


def _keep_mode(fname, temp):
    """Give the new file the permissions of the one it replaces."""
    try:
        mode = stat.S_IMODE(os.stat(fname).st_mode)
    except OSError:
        return
    os.chmod(temp, mode)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _write_error(caller, fname, exc):
    """An MXNetOSError saying why ``fname`` could not be written and what to do."""
    folder = os.path.dirname(os.path.abspath(fname))
    kept = f"; {fname} still holds what was saved there before" if os.path.isfile(fname) else ""
    why = exc.strerror or str(exc)
    if exc.errno == _errno.ENOENT and not os.path.isdir(folder):
        hint = (
            f" (the folder {folder} does not exist: create it first, e.g. "
            f"os.makedirs({folder!r}, exist_ok=True))"
        )
    elif exc.errno in (_errno.ENOSPC, _errno.EDQUOT, _errno.EFBIG):
        hint = f" (the disk or your quota is full: free some space and save again{kept})"
    elif exc.errno in (_errno.EACCES, _errno.EPERM, _errno.EROFS):
        hint = (
            f" (you may not write in {folder}: save into a folder of yours, e.g. your "
            f"home folder{kept})"
        )
    elif exc.errno == _errno.EISDIR or os.path.isdir(fname):
        hint = " (that is a folder: give a file name inside it)"
    else:
        hint = kept and f" ({kept[2:]})"
    return MXNetOSError(f'{caller}: cannot write "{fname}": {why}{hint}', exc.errno, fname)


def read_bytes(fname, caller):
    """The content of ``fname``; an MXNetOSError naming it when it cannot be read."""
    try:
        with open(fname, "rb") as fin:
            return fin.read()
    except FileNotFoundError as exc:
        folder = os.path.dirname(os.path.abspath(fname))
        where = "" if os.path.isdir(folder) else f" (the folder {folder} does not exist either)"
        raise MXNetOSError(
            f'{caller}: cannot open "{fname}": No such file or directory{where}', exc.errno, fname
        ) from None
    except IsADirectoryError as exc:
        raise MXNetOSError(
            f'{caller}: "{fname}" is a folder, not a file: give the path of a file inside it',
            exc.errno,
            fname,
        ) from None
    except OSError as exc:
        raise MXNetOSError(
            f'{caller}: cannot read "{fname}": {exc.strerror or exc}', exc.errno, fname
        ) from None


_LIST_MAGIC = struct.pack("<Q", 0x112)

# (how the file starts, what it is); checked in order
_SIGNATURES = [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"\x93NUMPY", "a NumPy .npy array (read it with np.load, then mx.nd.array)"),
    (b"PK\x03\x04", "a zip archive (a NumPy .npz, a PyTorch .pt, a .zip)"),
    (b"\x1f\x8b", "a gzip-compressed file: uncompress it first"),
    (b"\x89HDF", "an HDF5 file (such as a Keras .h5 model)"),
    (b"\x7fELF", "a program, not data"),
    (
        _LIST_MAGIC,
        "an MXNet .params file of arrays (read it with mx.nd.load, or "
        "mx.model.load_checkpoint for a checkpoint)",
    ),
]


def describe(payload):
    """What ``payload`` (a file's bytes) looks like, for an error message; None if unknown."""
    if not payload:
        return "an empty file, 0 bytes: was its saving interrupted?"
    for start, what in _SIGNATURES:
        if payload.startswith(start):
            return what
    if payload[:1] == b"\x80" and payload[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return (
            "a Python pickle (minisym never unpickles a file: unpickling can run any code "
            "the file contains)"
        )
    text = payload[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] == b"{":
        if b'"nodes"' in text:
            return "an MXNet symbol JSON file (read it with mx.sym.load)"
        return "a JSON file"
    return None
