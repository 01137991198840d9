"""What a message says when a keyword is not one of a symbol's argument names: the names there
are, the closest one, and why the name to use is the Variable's, not the Python variable's."""

import difflib

__all__ = ["candidate_lines", "closest_argument", "name_hint", "unknown_names_note"]


def candidate_lines(names):
    """MXNet's listing: ``\\t[0]data`` and so on, one line per name."""
    return "\n".join(f"\t[{i}]{n}" for i, n in enumerate(names))


def closest_argument(symbol, name):
    """(the argument ``name`` was most likely meant to be, or None; whether it is a spelling).

    A close spelling first (``dta`` -> ``data``); else, among the inputs you created yourself
    (not the weights and labels an operator made for you), the most alike: after
    ``x = mx.sym.Variable('data')`` the keyword ``x`` means ``data``.
    """
    names = symbol.list_arguments()
    close = difflib.get_close_matches(name, names, n=1)
    if close:
        return close[0], True
    own = _own_inputs(symbol, names)
    if not own:
        return None, False
    return max(own, key=lambda n: difflib.SequenceMatcher(None, name, n).ratio()), False


def name_hint(symbol, name, api):
    """Sentences after 'argument name X not found': the closest name, and where names come from."""
    if name in symbol.list_auxiliary_states():
        return (
            f"'{name}' is an auxiliary state: {api} takes only the names of "
            "list_arguments(); auxiliary states are inferred."
        )
    if name in symbol.get_internals().list_outputs():
        return (
            f"'{name}' is an output: {api} takes only the names of list_arguments(); "
            "outputs are inferred."
        )
    closest, spelling = closest_argument(symbol, name)
    if spelling:
        return f"Did you mean '{closest}'?"
    example = (
        f"after {name} = mx.sym.Variable('{closest}') the argument is called "
        f"'{closest}', not '{name}'"
        if closest and name.isidentifier()
        else "after x = mx.sym.Variable('data') the argument is called 'data', not 'x'"
    )
    return (
        (f"Did you mean '{closest}'? " if closest else "")
        + f"A keyword of {api} is the name given to mx.sym.Variable, which may differ from "
        f"the Python variable holding it: {example}."
    )


def _own_inputs(symbol, names):
    """The arguments that no operator created implicitly (``fc1_weight``, ``softmax_label``)."""
    implicit = set()
    for node in symbol.topo_order():
        if node.is_variable or node.given is None:
            continue
        for (src, _), (how, _) in zip(node.inputs, node.given):
            if how == "implicit":
                implicit.add(id(src))
    arg_nodes, _ = symbol.variable_nodes()
    return [n.name for n in arg_nodes if id(n) not in implicit and n.name in names]


def unknown_names_note(symbol, given, where, sep=" "):
    """``sep`` and a sentence naming the keys of ``given`` that are not arguments of ``symbol``
    (with the closest argument for each), or '' when all are. ``where`` says how they came."""
    known = set(symbol.list_arguments()) | set(symbol.list_auxiliary_states())
    unknown = [name for name in given if name not in known]
    if not unknown:
        return ""
    guesses = []
    for name in unknown:
        closest, _ = closest_argument(symbol, name)
        guesses.append(f"'{name}'" + (f" (did you mean '{closest}'?)" if closest else ""))
    return (
        f"{sep}{where} {', '.join(guesses)}, which this symbol has no argument for: a Variable "
        "is known by the name given to mx.sym.Variable, which may differ from the Python "
        "variable holding it (x = mx.sym.Variable('data') is called 'data')."
    )
