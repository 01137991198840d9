"""list_arguments DFS post-order examples from the spec, node dedup, same-named variables."""


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c")
    x = mx.sym.Variable("x")
    a2 = mx.sym.Variable("a")
    return {
        "b_plus_a": (b + a).list_arguments(),
        "ab_plus_ca": ((a * b) + (c * a)).list_arguments(),
        "group": mx.sym.Group([c * 2, a + b]).list_arguments(),
        "concat_same": mx.sym.Concat(x, x).list_arguments(),
        "two_vars_same_name": (a + a2).list_arguments(),
        "nested": ((c + (b + a)) * (a - c)).list_arguments(),
        "fc_order": mx.sym.FullyConnected(b + c, num_hidden=2, weight=a, name="fc").list_arguments(),
        "fc_keyword_order": mx.sym.FullyConnected(bias=c, weight=b, data=a, num_hidden=2,
                                                  name="fck").list_arguments(),
        "inputs": (b + a).list_inputs(),
    }
