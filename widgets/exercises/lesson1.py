"""Checks for lesson 1, symbols and variables."""
import json

from ._check import check, problem

MLP_ARGUMENTS = ["data", "hidden_weight", "hidden_bias", "out_weight", "out_bias",
                 "softmax_label"]


def _ops(symbol):
    """[(op, name, attrs)] of every node of ``symbol``, in its JSON order."""
    return [(n["op"], n["name"], n.get("attrs", {})) for n in json.loads(symbol.tojson())["nodes"]]


def _not_a_symbol(answer):
    import minisym as mx
    if not isinstance(answer, mx.sym.Symbol):
        return problem("return the last Symbol you built (the SoftmaxOutput), not a list or a "
                       "name.", f"It returned {type(answer).__name__} {answer!r}.")
    return None


@check("1.1 (build_mlp)", "list_arguments() and list_outputs() are right, and the shapes "
       "infer: data (2, 20) → hidden (2, 64) → out (2, 10).")
def build_mlp(net):
    """data → FullyConnected 'hidden' (64) → relu → FullyConnected 'out' (10) → 'softmax'."""
    found = _not_a_symbol(net)
    if found:
        return found
    outputs, arguments = net.list_outputs(), net.list_arguments()
    if outputs != ["softmax_output"]:
        return problem("finish with mx.sym.SoftmaxOutput(..., name='softmax'): a node's output "
                       "is its name + '_output'.",
                       f"list_outputs() is {outputs}, expected ['softmax_output'].")
    if arguments != MLP_ARGUMENTS:
        return problem("name the layers: FullyConnected(..., name='hidden') creates "
                       "'hidden_weight' and 'hidden_bias' (implicit variables are named after "
                       "their layer).", f"list_arguments() is {arguments},",
                       f"expected {MLP_ARGUMENTS}.")
    if not any(op == "Activation" and attrs.get("act_type") == "relu"
               for op, _, attrs in _ops(net)):
        return problem("put mx.sym.Activation(..., act_type='relu') between 'hidden' and 'out'.",
                       "The names are right but there is no relu.")
    shapes = dict(zip(arguments, net.infer_shape(data=(2, 20))[0]))
    if shapes["hidden_weight"] != (64, 20) or shapes["out_weight"] != (10, 64):
        return problem("give num_hidden=64 to 'hidden' and num_hidden=10 to 'out'.",
                       f"With data (2, 20), hidden_weight is {shapes['hidden_weight']} and "
                       f"out_weight {shapes['out_weight']}; expected (64, 20) and (10, 64).")
    return None


@check("1.2 (hidden_and_output)", "outputs ['relu1_output', 'softmax_output']: the hidden "
       "layer's activation and the prediction, from one graph.")
def hidden_and_output(answer, net):
    """Group(relu1's output, the net's output) taken from ``net.get_internals()``."""
    found = _not_a_symbol(answer)
    if found:
        return found
    outputs = answer.list_outputs()
    expected = ["relu1_output", "softmax_output"]
    if outputs == expected:
        return None
    if len(outputs) > 2:
        return problem("pick one output with internals['relu1_output'] and Group it with net.",
                       f"It has {len(outputs)} outputs ({outputs[:4]}...): get_internals() "
                       "holds every output of the graph.")
    if outputs == expected[::-1]:
        return problem("put relu1's output first: Group keeps the order of its list.",
                       f"list_outputs() is {outputs}, expected {expected}.")
    return problem("return mx.sym.Group([net.get_internals()['relu1_output'], net]).",
                   f"list_outputs() is {outputs}, expected {expected}.")
