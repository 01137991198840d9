"""infer_shape_partial: unknown shapes are () and partially known ones keep their 0s (the
spec's examples), with no warning."""


def run(mx):
    data = mx.sym.Variable("data")
    prev = mx.sym.Variable("prev")
    fc1 = mx.sym.FullyConnected(data, num_hidden=128, name="fc1")
    fc2 = mx.sym.FullyConnected(prev, num_hidden=128, name="fc2")
    out = mx.sym.Activation(fc1, act_type="relu") + mx.sym.Activation(fc2, act_type="relu")
    return {
        "arguments": out.list_arguments(),
        "half_known": out.infer_shape_partial(data=(10, 64)),
        "half_known_full": out.infer_shape(data=(10, 64)),
        "zero_batch": fc1.infer_shape_partial(data=(0, 64)),
        "nothing": out.infer_shape_partial(),
        "everything": out.infer_shape_partial(data=(10, 64), prev=(10, 3)),
    }
