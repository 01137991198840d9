"""Checks for lesson 1, symbols and variables."""
import json

from ._check import check

MLP_ARGUMENTS = ["data", "hidden_weight", "hidden_bias", "out_weight", "out_bias",
                 "softmax_label"]


def _ops(symbol):
    """[(op, name, attrs)] of every node of ``symbol``, in its JSON order."""
    return [(n["op"], n["name"], n.get("attrs", {})) for n in json.loads(symbol.tojson())["nodes"]]


def _not_a_symbol(answer):
    import minisym as mx
    if not isinstance(answer, mx.sym.Symbol):
        return (f"it returned {type(answer).__name__} {answer!r}; return the last Symbol you "
                "built (the SoftmaxOutput), not a list or a name.")
    return None


@check("1.1 (build_mlp)", "list_arguments() and list_outputs() are right, and the shapes "
       "infer: data (2, 20) → hidden (2, 64) → out (2, 10).")
def build_mlp(net):
    """data → FullyConnected 'hidden' (64) → relu → FullyConnected 'out' (10) → 'softmax'."""
    problem = _not_a_symbol(net)
    if problem:
        return problem
    outputs, arguments = net.list_outputs(), net.list_arguments()
    if outputs != ["softmax_output"]:
        return (f"list_outputs() is {outputs}, expected ['softmax_output']: finish with "
                "mx.sym.SoftmaxOutput(..., name='softmax'); a node's output is its name + "
                "'_output'.")
    if arguments != MLP_ARGUMENTS:
        return (f"list_arguments() is {arguments}, expected {MLP_ARGUMENTS}. Implicit "
                "variables are named after their layer: FullyConnected(..., name='hidden') "
                "creates 'hidden_weight' and 'hidden_bias'.")
    if not any(op == "Activation" and attrs.get("act_type") == "relu"
               for op, _, attrs in _ops(net)):
        return ("the names are right but there is no relu: put "
                "mx.sym.Activation(..., act_type='relu') between 'hidden' and 'out'.")
    shapes = dict(zip(arguments, net.infer_shape(data=(2, 20))[0]))
    if shapes["hidden_weight"] != (64, 20) or shapes["out_weight"] != (10, 64):
        return (f"with data (2, 20), hidden_weight is {shapes['hidden_weight']} and out_weight "
                f"{shapes['out_weight']}; expected (64, 20) and (10, 64): num_hidden=64 for "
                "'hidden', num_hidden=10 for 'out'.")
    return None


@check("1.2 (hidden_and_output)", "outputs ['relu1_output', 'softmax_output']: the hidden "
       "layer's activation and the prediction, from one graph.")
def hidden_and_output(answer, net):
    """Group(relu1's output, the net's output) taken from ``net.get_internals()``."""
    problem = _not_a_symbol(answer)
    if problem:
        return problem
    outputs = answer.list_outputs()
    expected = ["relu1_output", "softmax_output"]
    if outputs == expected:
        return None
    if len(outputs) > 2:
        return (f"it has {len(outputs)} outputs ({outputs[:4]}...): get_internals() holds every "
                "output of the graph; pick one with internals['relu1_output'] and Group it with "
                "net.")
    if outputs == expected[::-1]:
        return (f"list_outputs() is {outputs}: Group keeps the order of its list; put relu1's "
                "output first.")
    return (f"list_outputs() is {outputs}, expected {expected}: "
            "mx.sym.Group([net.get_internals()['relu1_output'], net]).")
