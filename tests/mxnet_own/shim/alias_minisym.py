"""`import mxnet` and `import mxnet.x.y` give minisym and minisym.x.y (a conftest for run.py)."""

import importlib
import importlib.abc
import importlib.util
import sys
import types

OUTSIDE = ("mxnet.gluon", "mxnet.contrib.amp")  # imported at the top of files whose
# other tests count; the tests that use them are outside the count


class _Outside(types.ModuleType):
    """A stand-in for a module outside the course: every attribute is another stand-in, and
    calling one raises ImportError naming it."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Outside(f"{self.__name__}.{attr}")

    def __call__(self, *args, **kwargs):
        raise ImportError(f"{self.__name__} is outside the course (minisym has no such module)")


class _MinisymAsMXNet(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name == "mxnet" or name.startswith("mxnet."):
            if importlib.util.find_spec("minisym" + name[len("mxnet") :]) is not None:
                return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("minisym" + spec.name[len("mxnet") :])

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _MinisymAsMXNet())
for _name in OUTSIDE:
    sys.modules[_name] = _Outside(_name)
importlib.import_module("minisym").gluon = sys.modules["mxnet.gluon"]
