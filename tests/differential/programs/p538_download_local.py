"""mx.test_utils.download without the network: a file already there is returned at once (the
path as given: fname, dirname/fname, or the URL's last part in the current folder), the folder
is created, and a URL that cannot be reached (a closed port on this machine) raises an OSError."""
import os
import tempfile

from _common import err

URL = "http://127.0.0.1:9/data/p538.txt"


def run(mx):
    tu = mx.test_utils
    res = {}
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "p538.txt")
        with open(path, "w") as f:
            f.write("already here")
        res["fname"] = tu.download(URL, fname=path) == path
        res["dirname"] = tu.download(URL, dirname=root) == path
        res["fname_in_dirname"] = os.path.relpath(tu.download(URL, fname="p538.txt",
                                                              dirname=root), root)
        try:
            os.chdir(root)
            res["cwd"] = tu.download(URL)
            res["unreachable"] = err(mx, tu.download, "http://127.0.0.1:9/data/missing.txt",
                                     retries=1)
            res["unreachable_dirname"] = err(mx, tu.download, "http://127.0.0.1:9/d/m.txt",
                                             dirname="sub", retries=1)
            res["created_dir"] = os.path.isdir("sub")
            res["left_behind"] = sorted(os.listdir(root))
            res["negative_retries"] = err(mx, tu.download, URL, retries=-1)
        finally:
            os.chdir(cwd)
        with open(path) as f:
            res["untouched"] = f.read()
    return res
