"""The catalogue of learner mistakes and hostile inputs: each test makes one mistake as a
beginner would type it, asserts the exception type and the key parts of its message, and checks
with ``state.assert_unchanged`` that the learner's symbol, executor, module or arrays are what
they were before the failed call.

This folder is a package so that its test files may share basenames with those in ``tests/``
(``test_ndarray.py``, ``test_custom_ops.py``, ``test_io.py``); its own folder is also put on
``sys.path`` so that ``from state import snapshot`` works as well as ``from .state import ...``.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.append(_HERE)
