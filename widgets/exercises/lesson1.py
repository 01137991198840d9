"""Checks for lesson 1, symbols and variables."""

import json

from ._check import N_, _, check, problem

MLP_ARGUMENTS = ["data", "hidden_weight", "hidden_bias", "out_weight", "out_bias", "softmax_label"]


def _ops(symbol):
    """[(op, name, attrs)] of every node of ``symbol``, in its JSON order."""
    return [(n["op"], n["name"], n.get("attrs", {})) for n in json.loads(symbol.tojson())["nodes"]]


def _not_a_symbol(answer):
    import minisym as mx

    if not isinstance(answer, mx.sym.Symbol):
        return problem(
            _("return the last Symbol you built (the SoftmaxOutput), not a list or a name."),
            _("It returned {kind} {answer!r}.").format(kind=type(answer).__name__, answer=answer),
        )
    return None


@check(
    "1.1 (build_mlp)",
    N_(
        "list_arguments() and list_outputs() are right, and the shapes "
        "infer: data (2, 20) → hidden (2, 64) → out (2, 10)."
    ),
)
def build_mlp(net):
    """data → FullyConnected 'hidden' (64) → relu → FullyConnected 'out' (10) → 'softmax'."""
    found = _not_a_symbol(net)
    if found:
        return found
    outputs, arguments = net.list_outputs(), net.list_arguments()
    if outputs != ["softmax_output"]:
        return problem(
            _(
                "finish with mx.sym.SoftmaxOutput(..., name='softmax'): a node's "
                "output is its name + '_output'."
            ),
            _("list_outputs() is {outputs}, expected ['softmax_output'].").format(outputs=outputs),
        )
    if arguments != MLP_ARGUMENTS:
        return problem(
            _(
                "name the layers: FullyConnected(..., name='hidden') creates "
                "'hidden_weight' and 'hidden_bias' (implicit variables are named after "
                "their layer)."
            ),
            _("list_arguments() is {arguments},").format(arguments=arguments),
            _("expected {expected}.").format(expected=MLP_ARGUMENTS),
        )
    if not any(
        op == "Activation" and attrs.get("act_type") == "relu" for op, _name, attrs in _ops(net)
    ):
        return problem(
            _("put mx.sym.Activation(..., act_type='relu') between 'hidden' and 'out'."),
            _("The names are right but there is no relu."),
        )
    shapes = dict(zip(arguments, net.infer_shape(data=(2, 20))[0]))
    if shapes["hidden_weight"] != (64, 20) or shapes["out_weight"] != (10, 64):
        return problem(
            _("give num_hidden=64 to 'hidden' and num_hidden=10 to 'out'."),
            _(
                "With data (2, 20), hidden_weight is {hidden} and out_weight {out}; "
                "expected (64, 20) and (10, 64)."
            ).format(hidden=shapes["hidden_weight"], out=shapes["out_weight"]),
        )
    return None


@check(
    "1.2 (hidden_and_output)",
    N_(
        "outputs ['relu1_output', 'softmax_output']: the hidden "
        "layer's activation and the prediction, from one graph."
    ),
)
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
        return problem(
            _("pick one output with internals['relu1_output'] and Group it with net."),
            _(
                "It has {count} outputs ({first}...): get_internals() holds every "
                "output of the graph."
            ).format(count=len(outputs), first=outputs[:4]),
        )
    seen = _("list_outputs() is {outputs}, expected {expected}.").format(
        outputs=outputs, expected=expected
    )
    if outputs == expected[::-1]:
        return problem(_("put relu1's output first: Group keeps the order of its list."), seen)
    return problem(
        _("take relu1's output from net.get_internals() and Group it, first, with net."), seen
    )
