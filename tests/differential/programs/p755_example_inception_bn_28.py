"""MXNet 1.9.1's example network inception-bn.py at image_shape 3,28,28 (its small branch), as
MXNet wrote its JSON (tests/fixtures/mxnet_json/examples/inception-bn-28.json). Loaded with
mx.sym.load, inferred, bound with every argument and aux state drawn from a seeded Generator
(programs/_examples.py), run forward in inference mode and one training step (forward, backward)
up to the first Dropout if any; records the outputs, a few gradients and two moving statistics.
Data (4, 3, 28, 28). A batch this large because training-mode BatchNorm over fewer examples (1x1
maps at the end) is so ill-conditioned that MXNet's own gradients move by more than the
tolerance when the data moves by 1e-6."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "inception-bn-28", {"data": (4, 3, 28, 28)}, seed=755)
