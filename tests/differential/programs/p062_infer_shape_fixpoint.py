"""Shapes propagate forward and backward until nothing changes: a+b with only a; FC weight
from data; shapes driven from the output side (a downstream variable)."""


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c")
    e = mx.sym.Variable("e")
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=5, name="fc")
    chain = ((a + b) * c) - e
    # output-driven: only the downstream 'y' is known; it flows back through
    # elemwise ops, BlockGrad and Flatten's identity-like consumers.
    y = mx.sym.Variable("y")
    back = mx.sym.BlockGrad(mx.sym.exp(a * 2 + b)) + y
    # weight known but data not: FC cannot infer data's batch, only the partial result
    fcw = mx.sym.FullyConnected(data, num_hidden=5, name="fcw")
    # two hops backward: a*b known only through (a*b)+c and then b from a
    two_hop = (a * b) + c
    return {
        "a_plus_b_only_a": (a + b).infer_shape(a=(2, 3)),
        "a_plus_b_only_b": (a + b).infer_shape(b=(4,)),
        "fc_weight_from_data": fc.infer_shape(data=(2, 3, 4)),
        "chain_only_e": chain.infer_shape(e=(3, 3)),
        "chain_only_b": chain.infer_shape(b=(1, 2)),
        "output_driven": back.infer_shape(y=(6, 2)),
        "fc_weight_only_partial": fcw.infer_shape_partial(fcw_weight=(5, 12)),
        "two_hop": two_hop.infer_shape(c=(5, 3)),
        "expand_dims_back": (mx.sym.expand_dims(a, axis=0) + b).infer_shape(b=(1, 3, 2)),
    }
