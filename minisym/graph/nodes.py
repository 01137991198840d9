"""The graph: immutable nodes and the one topological order everything else reuses.

A node is an operator application ``(op, name, attrs, inputs)``; ``inputs`` are entries
``(node, output_index)``. A variable is a node whose ``op`` is ``None``. Nodes never change
after creation, so any symbol can share them, and equality / hashing are by identity: nothing
here ever recurses through a graph, however deep.
"""

from types import MappingProxyType

__all__ = ["Node", "topo_order", "variable_node"]


class Node:
    """One node of a graph: an operator call or a variable. Immutable."""

    __slots__ = ("op", "name", "attrs", "inputs", "given", "__weakref__")

    def __init__(self, op, name, attrs, inputs=(), given=None):
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "attrs", MappingProxyType(dict(attrs)))
        object.__setattr__(self, "inputs", tuple((node, int(index)) for node, index in inputs))
        # How the call that made this node received each input: ('keyword', 'label'),
        # ('position', 1) or ('implicit', None); None when unknown (a graph read from JSON).
        object.__setattr__(self, "given", None if given is None else tuple(given))

    def __setattr__(self, key, value):
        raise AttributeError(f"graph nodes are immutable; cannot set {key!r} on node {self.name!r}")

    @property
    def is_variable(self):
        """True for a variable (MXNet's ``op: "null"``)."""
        return self.op is None

    @property
    def op_name(self):
        """The registered operator name, or ``'null'`` for a variable."""
        return "null" if self.op is None else self.op.op_name

    @property
    def num_outputs(self):
        """Every output, hidden ones included (a BatchNorm node has 3)."""
        return 1 if self.op is None else len(self.op.list_outputs())

    @property
    def num_visible_outputs(self):
        """The outputs a Symbol shows (BatchNorm: 1, or 3 with output_mean_var)."""
        return 1 if self.op is None else self.op.num_visible_outputs()

    @property
    def arg_inputs(self):
        """The input entries behind the operator's arguments (its ``in_data``), in order."""
        return self.inputs[: self._num_args()]

    @property
    def aux_inputs(self):
        """The input entries behind the operator's auxiliary states (its ``aux``), in order."""
        return self.inputs[self._num_args() :]

    def _num_args(self):
        return 0 if self.op is None else len(self.op.list_arguments())

    def entry_name(self, index):
        """The graph's name for output ``index``: ``'fc1_output'``, or a variable's own name."""
        if self.op is None:
            return self.name
        return f"{self.name}_{self.op.list_outputs()[index]}"

    def _set_missing_attr(self, key, value):
        """Add attribute ``key`` if absent: only for MXNet's compose-time hook that gives a
        BatchNorm's moving-stat variables their ``__init__`` (``FSetInputVarAttrOnCompose``)."""
        if self.op is not None:
            raise AttributeError("only variables get attributes at composition")
        if key not in self.attrs:
            new_attrs = dict(self.attrs)
            new_attrs[key] = value
            object.__setattr__(self, "attrs", MappingProxyType(new_attrs))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        raise TypeError(
            f"graph node {self.name!r} cannot be pickled alone; pickle the Symbol "
            "that holds it (it is saved as JSON)"
        )

    def __repr__(self):
        return f"<Node {self.op_name} {self.name!r}>"


def variable_node(name, attrs=None):
    """A new variable node named ``name``."""
    return Node(None, name, attrs or {})


def topo_order(heads):
    """Nodes reachable from ``heads`` (nodes), in MXNet's DFS post-order; iterative.

    Inputs are visited left to right and each node once, exactly as nnvm's ``DFSVisit``; the
    result is the order of ``list_arguments``, ``get_internals``, ``tojson`` and execution.
    """
    order, seen = [], set()
    for head in heads:
        if id(head) in seen:
            continue
        seen.add(id(head))
        stack = [(head, 0)]
        while stack:
            node, next_input = stack[-1]
            if next_input < len(node.inputs):
                stack[-1] = (node, next_input + 1)
                child = node.inputs[next_input][0]
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, 0))
            else:
                stack.pop()
                order.append(node)
    return order
