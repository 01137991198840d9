"""Variadic ops take inputs positionally or by keyword, not both; num_args is filled in.
Fixed-arity ops accept positional inputs, keywords, or a mix."""
from _common import err, node_ops


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c")
    pos = mx.sym.Concat(a, b, c, dim=0, name="cpos")
    kw = mx.sym.Concat(arg0=a, arg1=b, name="ckw")
    return {
        "pos_args": pos.list_arguments(),
        "pos_attr": pos.list_attr(),
        "pos_nodes": node_ops(pos),
        "kw_args": kw.list_arguments(),
        "kw_nodes": node_ops(kw),
        "dup_inputs_args": mx.sym.Concat(a, b, a, name="cdup").list_arguments(),
        "dup_inputs_nodes": node_ops(mx.sym.Concat(a, b, a, name="cdup2")),
        "both": err(mx, mx.sym.Concat, a, b, arg0=c),
        "data_list": err(mx, mx.sym.Concat, data=[a, b]),
        "elemwise_kw": mx.sym.elemwise_add(lhs=a, rhs=b).list_arguments(),
        "elemwise_kw_swapped": mx.sym.elemwise_add(rhs=a, lhs=b).list_arguments(),
        "elemwise_mixed": mx.sym.elemwise_add(a, rhs=b).list_arguments(),
        "elemwise_twice": err(mx, mx.sym.elemwise_add, a, b, rhs=b),
        "fc_mixed": mx.sym.FullyConnected(a, weight=b, num_hidden=2, name="fc").list_arguments(),
        "fc_positional": mx.sym.FullyConnected(a, b, c, num_hidden=2, name="fc2").list_arguments(),
        "fc_data_twice": err(mx, mx.sym.FullyConnected, a, data=b, num_hidden=2),
    }
