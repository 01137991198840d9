"""MXNet 1.9.1's example network mobilenet.py, alpha=0.25, resolution=32 (depthwise separable
convolutions), as MXNet wrote its JSON (tests/fixtures/mxnet_json/examples/mobilenet.json).
Loaded with mx.sym.load, inferred, bound with every argument and aux state drawn from a seeded
Generator (programs/_examples.py), run forward in inference mode and one training step (forward,
backward) up to the first Dropout if any; records the outputs, a few gradients and two moving
statistics. Data (8, 3, 32, 32). A batch this large because training-mode BatchNorm over fewer
examples (1x1 maps at the end) is so ill-conditioned that MXNet's own gradients move by more
than the tolerance when the data moves by 1e-6."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "mobilenet", {"data": (8, 3, 32, 32)}, seed=749)
