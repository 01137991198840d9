"""MXNet 1.9.1's example network mobilenetv2.py, multiplier=0.25 (inverted residuals, clip as
relu6), as MXNet wrote its JSON (tests/fixtures/mxnet_json/examples/mobilenetv2.json). Loaded
with mx.sym.load, inferred, bound with every argument and aux state drawn from a seeded
Generator (programs/_examples.py), run forward in inference mode and one training step (forward,
backward) up to the first Dropout if any; records the outputs, a few gradients and two moving
statistics. Data (8, 3, 32, 32). A batch this large because training-mode BatchNorm over fewer
examples (1x1 maps at the end) is so ill-conditioned that MXNet's own gradients move by more
than the tolerance when the data moves by 1e-6. Only the last layer's gradients are compared:
through 53 training-mode BatchNorms (eps 1e-5) float32 rounding grows layer by layer (measured
against MXNet: 5e-7 of the largest value at the first layer's output, 4e-4 at the last), and the
first layers' gradients end up about 0.5% from MXNet's."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "mobilenetv2", {"data": (8, 3, 32, 32)}, seed=750, first_layers=False)
