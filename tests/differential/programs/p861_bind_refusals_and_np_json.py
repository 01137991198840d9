"""bind / simple_bind refuse a gradient through an operator without one (MXNet's
test_zero_prop2: batch_take; unless every grad_req is 'null' or a BlockGrad stops it),
broadcast_like with an rhs of another dtype (test_broadcast_like_different_types), and the
`is_np_shape` mark tojson writes under np_shape(True) (test_load_save_symbol)."""
import json

import numpy as np
from _common import err


def run(mx):
    x, idx = mx.sym.Variable("x"), mx.sym.Variable("idx")
    taken = mx.sym.batch_take(x, idx, name="bt")
    types = {"x": np.float32, "idx": np.int32}

    def simple(sym, req="write"):
        return lambda: sym.simple_bind(mx.cpu(), x=(4, 3), idx=(4,), type_dict=types,
                                       grad_req=req).outputs[0].shape
    found = {
        "write": err(mx, simple(taken)),
        "behind_mul": err(mx, simple(taken * 2)),
        "behind_blockgrad": err(mx, simple(mx.sym.Group([mx.sym.stop_gradient(taken), x * 2]))),
        "all_null": err(mx, simple(taken, {"x": "null", "idx": "null"})),
        "plus_x": err(mx, simple(taken + x, {"x": "write", "idx": "null"})),
        "bind": err(mx, lambda: taken.bind(mx.cpu(), {"x": mx.nd.ones((2, 2)), "idx": mx.nd.array(
            [0, 1], dtype="int32")}, args_grad={"x": mx.nd.ones((2, 2))}).outputs[0].shape),
    }
    lhs = mx.nd.zeros((2, 1))
    out = mx.nd.broadcast_like(lhs, mx.nd.ones((2, 2)).astype("int32"))
    found["broadcast_like"] = [out.asnumpy(), str(out.dtype)]
    net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="f")
    with mx.np_shape(True):
        found["np_json_attrs"] = json.loads(net.tojson())["attrs"]
        found["np_json_tail"] = net.tojson()[-80:]
    found["legacy_json_attrs"] = json.loads(net.tojson())["attrs"]
    return found
