"""MXNet 1.9.1's example network vgg.py, num_layers=11, batch_norm=True, as MXNet wrote its JSON
(tests/fixtures/mxnet_json/examples/vgg-11-bn.json). Loaded with mx.sym.load, inferred, bound
with every argument and aux state drawn from a seeded Generator (programs/_examples.py), run
forward in inference mode and one training step (forward, backward) up to the first Dropout if
any; records the outputs, a few gradients and two moving statistics. Data (2, 3, 32, 32)."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "vgg-11-bn", {"data": (2, 3, 32, 32)}, seed=752)
