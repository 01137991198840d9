"""``download(url)``: fetch a tutorial's data file once; offline, say where to put it by hand."""

import os

__all__ = ["download"]

TIMEOUT = 10  # seconds per attempt: a classroom without network should not wait for long


def _target(url, fname, dirname):
    """The local path: ``fname`` (default: the URL's last part), inside ``dirname`` if given."""
    fname = url.split("/")[-1] if fname is None else fname
    if dirname is None:
        return fname, os.path.dirname(fname)
    return os.path.join(dirname, fname), dirname


def _fetch(url, path):
    """Write the body of ``url`` to ``path``, through a temporary file so that a broken
    download never leaves a half file that the next call would take for the real one."""
    import urllib.request  # here, not at import: `import minisym` stays fast

    partial = path + ".part"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response, open(partial, "wb") as f:
            while True:
                chunk = response.read(1 << 16)
                if not chunk:
                    break
                f.write(chunk)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def _retry_helps(exc):
    """Only a server error may go away on a second try; no network or a 404 will not."""
    import urllib.error

    return isinstance(exc, urllib.error.HTTPError) and exc.code >= 500


def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """Download ``url`` to ``fname`` (in ``dirname``) and return that path; when the file is
    already there (and not ``overwrite``), return its path without touching the network."""
    assert retries >= 0, "Number of retries should be at least 0"
    path, folder = _target(url, fname, dirname)
    if folder:
        os.makedirs(folder, exist_ok=True)
    if not overwrite and os.path.exists(path):
        return path
    for _attempt in range(max(retries, 1)):
        try:
            _fetch(url, path)
            return path
        except Exception as exc:  # noqa: BLE001 - any failure gets the same advice
            error = exc
            if not _retry_helps(exc):
                break
    raise OSError(
        f"download: could not fetch {url} ({type(error).__name__}: {error}).\n"
        f"Without a network connection, fetch the file on a machine that has one and put it "
        f"at\n  {os.path.abspath(path)}\nthen download() finds it there and returns its path "
        "without the network."
    ) from error
