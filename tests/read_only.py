"""Folders a test process cannot write: file modes for a user, a read-only bind mount (in a
mount namespace of its own) for root, whom file modes do not stop."""

import os
import shutil
import subprocess

import pytest

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def make_read_only(path):
    for folder, _dirs, files in os.walk(path):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o444)
        os.chmod(folder, 0o555)


def make_writable(path):
    for folder, _dirs, files in os.walk(path):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


def namespaces_work():
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount --bind / /mnt 2>/dev/null; umount /mnt; true"],
        capture_output=True,
        timeout=30,
    )
    return probe.returncode == 0


def as_root_with_read_only(command, folders):
    """``command`` run with ``folders`` mounted read-only (for root; skips where it cannot)."""
    if not namespaces_work():
        pytest.skip(
            "running as root without mount namespaces: cannot make a folder read-only for root"
        )
    mounts = " && ".join(
        f'mount --bind "{p}" "{p}" && mount -o remount,bind,ro "{p}" "{p}"' for p in folders
    )
    return ["unshare", "-m", "sh", "-c", f'{mounts} && exec "$@"', "sh", *command]
