"""An operator's contract in words: for every index of every list a node's operator receives,
the name behind it, the line that declared that name, how the input was given in the call that
made the node, and whether backward receives it.

This is the metadata the index map shows. Indices follow the three declarations::

    in_data[i], in_grad[i], backward req[i]   <->  list_arguments()[i]
    out_data[j], out_grad[j], forward req[j]  <->  list_outputs()[j]
    aux[k]                                    <->  list_auxiliary_states()[k]
"""

import inspect
from dataclasses import dataclass

from .trace import slot_names

__all__ = ["Declaration", "SlotDoc", "FAMILIES", "node_contract", "declaration"]

# family -> (the declaring method, the slots that share its indices, in display order)
FAMILIES = {
    "arguments": ("list_arguments", ("in_data", "in_grad", "backward req")),
    "outputs": ("list_outputs", ("out_data", "out_grad", "forward req")),
    "aux": ("list_auxiliary_states", ("aux",)),
}
_ROLE_FAMILY = {role: family for family, (_, roles) in FAMILIES.items() for role in roles}


@dataclass(frozen=True)
class Declaration:
    """Where a name was declared: ``SoftmaxProp.list_arguments``, line 2 of the method."""

    owner: str  # the class that defines the method: 'SoftmaxProp', 'FullyConnected'
    method: str  # 'list_arguments'
    line: int  # 1-based line within the method's source (0 when there is no source)
    code: str  # that line, stripped
    inherited: bool  # True when the class of the operator does not override the method
    module: str  # where the owner lives: 'minisym.ops.nn.fully_connected'; '' in a notebook

    def __str__(self):
        where = f"{self.owner}.{self.method}"
        if self.inherited:
            where += " (inherited default)"
        return f"{where}, line {self.line}: {self.code}" if self.line else where


@dataclass(frozen=True)
class SlotDoc:
    """One index of one list, explained: ``in_data[1]`` is ``label``, declared ..., given ..."""

    role: str  # 'in_data', 'in_grad', 'backward req', 'out_data', 'out_grad', ...
    index: int
    family: str  # 'arguments', 'outputs' or 'aux'
    name: str  # the operator's name for it: 'label'
    entry: str  # the graph's array behind it: 'label', 'fc1_output'
    given: tuple  # ('keyword', 'label'), ('position', 1), ('implicit', None) or None
    declared: Declaration
    in_backward: bool  # whether backward receives this array
    why_not: str  # when it does not, why

    @property
    def label(self):
        """``in_data[1]``, ``backward req[0]``."""
        return f"{self.role}[{self.index}]"


def declarer(op):
    """The object whose class declares ``op``'s names: a custom op's Prop, else the op."""
    return op.prop if op.prop is not None else op


def declaration(obj, method, name=None):
    """The Declaration of ``name`` in ``type(obj).method``: the line that spells the name,
    else the method's ``return`` line, else its ``def`` line."""
    cls = type(obj)
    owner = next((c for c in cls.__mro__ if method in c.__dict__), cls)
    func = owner.__dict__.get(method)
    module = "" if owner.__module__ == "__main__" else owner.__module__
    inherited = owner is not cls
    try:
        lines, _ = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return Declaration(owner.__name__, method, 0, "", inherited, module)
    index = _line_naming(lines, name)
    return Declaration(owner.__name__, method, index + 1, lines[index].strip(), inherited, module)


def _line_naming(lines, name):
    """The index of the source line naming ``name`` in quotes, else of the first return, or 0."""
    quoted = (f"'{name}'", f'"{name}"') if name else ()
    for i, line in enumerate(lines):
        if any(q in line for q in quoted):
            return i
    return next((i for i, line in enumerate(lines) if line.strip().startswith("return")), 0)


def node_contract(node):
    """[SlotDoc] for every index of every list ``node``'s operator receives."""
    op, names = node.op, slot_names(node)
    reads = op.backward_reads()
    given = node.given or (None,) * len(node.inputs)
    docs = []
    for family, (method, roles) in FAMILIES.items():
        for role in roles:
            # slot_names lists each family under its first role: in_data, out_data, aux
            for index, (name, entry) in enumerate(names[roles[0]]):
                input_index = index + (len(names["in_data"]) if family == "aux" else 0)
                how = given[input_index] if family != "outputs" else None
                declared = declaration(declarer(op), method, name)
                passed, why = _in_backward(op, role, index, reads)
                docs.append(SlotDoc(role, index, family, name, entry, how, declared, passed, why))
    return docs


def _in_backward(op, role, index, reads):
    """(True, '') when backward receives ``role[index]``, else (False, why)."""
    if role not in reads or reads[role][index]:  # reads: out_grad, in_data, out_data
        return True, ""
    prop = op.prop
    if role == "out_grad" and prop is not None and not getattr(prop, "need_top_grad_", True):
        return False, (
            f"{type(prop).__name__} passes need_top_grad=False, so backward gets no "
            "out_grad (a loss makes its own gradient)"
        )
    method = (
        f"{type(prop).__name__}.declare_backward_dependency"
        if prop is not None
        else f"{op.op_name}.backward_needs"
    )
    return False, (
        f"{method} does not list it, so backward does not receive it "
        "(a custom op gets an empty NDArray there)"
    )


def family_of(role):
    """'arguments', 'outputs' or 'aux' for a role such as 'in_grad'."""
    return _ROLE_FAMILY[role]
