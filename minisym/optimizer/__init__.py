"""``mx.optimizer``: how a weight moves given its gradient, as in MXNet 1.9.1.

``optimizer.py`` holds the base class (learning rate, weight decay and their per-parameter
multipliers, rescaling and clipping, update counts, the registry); ``sgd.py``, ``adam.py`` and
``adaptive.py`` one class per update rule; ``updater.py`` the Updater that Module calls.
``mx.optimizer.create(name, **kwargs)`` finds a class by its lower-case name.

``multi_precision=True`` keeps a float32 master copy of each float16 weight in its state (SGD
and NAG: ``(state, master)``, the others ``(master, state)``, as in MXNet), updates it in
float32 and rounds the result into the float16 weight. LAMB's one-index update leaves the
master unchanged, as MXNet's kernel does (see ``adam.py``). Without it, a float16 weight
warns once when its state is created.
"""

from .adam import FTML, LAMB, Adam, Adamax, Nadam
from .adaptive import AdaDelta, AdaGrad, Ftrl, RMSProp
from .optimizer import Optimizer, create, register
from .sgd import NAG, SGD, SGLD, Signum, ccSGD
from .updater import Updater, get_updater

__all__ = [
    "Optimizer",
    "SGD",
    "ccSGD",
    "NAG",
    "Signum",
    "SGLD",
    "Adam",
    "Adamax",
    "Nadam",
    "LAMB",
    "FTML",
    "AdaGrad",
    "RMSProp",
    "AdaDelta",
    "Ftrl",
    "Updater",
    "create",
    "register",
    "get_updater",
]
