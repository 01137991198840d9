"""MXNet 1.9.1's example network resnext.py, num_layers=8, num_group=4 at 3,28,28 (grouped 3x3
convolutions), as MXNet wrote its JSON
(tests/fixtures/mxnet_json/examples/resnext-8-cifar.json). Loaded with mx.sym.load, inferred,
bound with every argument and aux state drawn from a seeded Generator (programs/_examples.py),
run forward in inference mode and one training step (forward, backward) up to the first Dropout
if any; records the outputs, a few gradients and two moving statistics. Data (2, 3, 28, 28)."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "resnext-8-cifar", {"data": (2, 3, 28, 28)}, seed=748)
