"""MXNet 1.9.1's example network inception-bn.py at image_shape 3,224,224 (its ImageNet branch);
run at 205x205, the smallest image it accepts, inference only, as MXNet wrote its JSON
(tests/fixtures/mxnet_json/examples/inception-bn.json). Loaded with mx.sym.load, inferred, bound
with every argument and aux state drawn from a seeded Generator (programs/_examples.py), run
forward in inference mode; records the output. Data (1, 3, 205, 205)."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "inception-bn", {"data": (1, 3, 205, 205)}, seed=756, train=False)
