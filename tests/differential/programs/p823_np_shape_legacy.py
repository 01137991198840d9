"""The legacy half of mx.np_shape that MXNet's own tests write around partial shapes
(`with mx.np_shape(False):`): the switch reads False, set_np_shape(False) returns the previous
state, and partial inference inside the scope still reads 0 as unknown."""
from _common import err


def run(mx):
    x = mx.sym.Variable("x")
    fc = mx.sym.FullyConnected(x, num_hidden=4, name="fc")
    found = {"default": mx.is_np_shape(), "util": mx.util.is_np_shape(),
             "set_false_returns": mx.util.set_np_shape(False)}
    with mx.np_shape(False):
        found["inside"] = mx.is_np_shape()
        found["partial"] = fc.infer_shape_partial(x=(0, 3))
    found["after"] = mx.is_np_shape()
    found["as_decorator"] = err(mx, lambda: mx.np_shape(False)(lambda: None))
    return found
