"""MXNet 1.9.1's example network resnet.py, num_layers=18 at image_shape 3,32,32 (the ImageNet
branch: 7x7 convolution, max pooling, four stages), as MXNet wrote its JSON
(tests/fixtures/mxnet_json/examples/resnet-18.json). Loaded with mx.sym.load, inferred, bound
with every argument and aux state drawn from a seeded Generator (programs/_examples.py), run
forward in inference mode and one training step (forward, backward) up to the first Dropout if
any; records the outputs, a few gradients and two moving statistics. Data (4, 3, 32, 32). A
batch this large because training-mode BatchNorm over fewer examples (1x1 maps at the end) is so
ill-conditioned that MXNet's own gradients move by more than the tolerance when the data moves
by 1e-6."""
from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)
SLOW = True


def run(mx):
    return run_example(mx, "resnet-18", {"data": (4, 3, 32, 32)}, seed=746)
