"""MXNet 1.9.1's example network inception-v4.py; 235x235 is the smallest image it accepts;
inference only, as MXNet wrote its JSON (tests/fixtures/mxnet_json/examples/inception-v4.json).
Loaded with mx.sym.load, inferred, bound with every argument and aux state drawn from a seeded
Generator (programs/_examples.py), run forward in inference mode; records the output. Data (1,
3, 235, 235)."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "inception-v4", {"data": (1, 3, 235, 235)}, seed=758, train=False)
