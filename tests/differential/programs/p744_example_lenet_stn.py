"""MXNet 1.9.1's example network lenet.py with add_stn=True (a SpatialTransformer whose affine
parameters come from a small localisation network), as MXNet wrote its JSON
(tests/fixtures/mxnet_json/examples/lenet-stn.json). Loaded with mx.sym.load, inferred, bound
with every argument and aux state drawn from a seeded Generator (programs/_examples.py), run
forward in inference mode and one training step (forward, backward) up to the first Dropout if
any; records the outputs, a few gradients and two moving statistics. Data (2, 1, 28, 28)."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def run(mx):
    return run_example(mx, "lenet-stn", {"data": (2, 1, 28, 28)}, seed=744)
