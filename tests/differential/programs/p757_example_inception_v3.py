"""MXNet 1.9.1's example network inception-v3.py; 299x299 is the smallest image it accepts (a fixed
8x8 average pooling at the end); inference only, as MXNet wrote its JSON
(tests/fixtures/mxnet_json/examples/inception-v3.json). Loaded with mx.sym.load, inferred, bound
with every argument and aux state drawn from a seeded Generator (programs/_examples.py), run
forward in inference mode; records the output. Data (1, 3, 299, 299)."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "inception-v3", {"data": (1, 3, 299, 299)}, seed=757, train=False)
