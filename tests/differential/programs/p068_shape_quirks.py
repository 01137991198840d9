"""PReLU accepts a gamma of shape (1,): one slope broadcast to every channel.
(MXNet 1.9.1 also silently overwrites a wrong BatchNorm gamma / moving-stat shape you give,
accepts a PReLU gamma of any shape and an out-of-range softmax axis; minisym raises instead:
README, "Differences from MXNet", item 8, tested in tests/test_inference_differences.py.)"""


def run(mx):
    data = mx.sym.Variable("data")
    prelu = mx.sym.LeakyReLU(data, act_type="prelu", name="prelu")
    return {"prelu_gamma_broadcast": prelu.infer_shape(data=(2, 3, 4, 4), prelu_gamma=(1,))}
