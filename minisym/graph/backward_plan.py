"""The backward plan: which nodes run backward, where each gradient goes and how the parts of
one gradient are summed. Made once (at bind for an Executor, at ``backward`` for the autograd
tape) and read by the executor, autograd, the memory check and the stepper.

A graph is seen through a small adapter, so the same rules serve bound symbols and the tape:
``inputs(node)`` gives each input as ``(source, output index)`` (None where nothing recorded
it), ``is_variable(node)`` tells the leaves, ``passes(node)`` whether any gradient passes the
node (False for BlockGrad), ``blocked(node)`` the input positions that have no gradient (a
loss's label).
"""

__all__ = [
    "BackwardPlan",
    "GradientParts",
    "sum_parts",
    "graph_adapter",
    "UNUSED",
    "DIRECT",
    "TEMPORARY",
]

UNUSED, DIRECT, TEMPORARY = "unused", "direct", "temporary"


def entry_key(source, index):
    """The key of output ``index`` of ``source`` in the plan's tables."""
    return (id(source), index)


class GraphAdapter:
    """How the plan reads symbol graph nodes (``minisym.graph.nodes.Node``)."""

    @staticmethod
    def inputs(node):
        return node.arg_inputs

    @staticmethod
    def is_variable(node):
        return node.is_variable

    @staticmethod
    def passes(node):
        return node.op.passes_gradient

    @staticmethod
    def blocked(node):
        op = node.op
        return {i for i, name in enumerate(op.list_arguments()) if name in op.no_gradient_inputs}


graph_adapter = GraphAdapter()


class BackwardPlan:
    """The plan for ``order`` (every node, topological), from ``heads`` [(node, index)], for
    the variables in ``wanted`` ({id(variable): grad_req}, 'null' ones left out)."""

    def __init__(self, order, heads, wanted, adapter=graph_adapter):
        self.adapter = adapter
        self.wanted = dict(wanted)
        self.needs = self._needs(order)
        self.runs = self._reached(order, heads)
        self.uses = self._uses(order, heads)
        self.zero_gradient = self._unreached_variables(order)

    def _needs(self, order):
        """{id(node): whether anything it reads, or it itself, wants a gradient}."""
        needs = {}
        for node in order:
            if self.adapter.is_variable(node):
                needs[id(node)] = id(node) in self.wanted
            else:
                needs[id(node)] = any(
                    src is not None and needs.get(id(src[0]), False)
                    for src in self.adapter.inputs(node)
                )
        return needs

    def _reached(self, order, heads):
        """ids of the operator nodes whose backward runs: they read something needing a
        gradient and a gradient from the heads reaches them (a BlockGrad passes zeros, so what
        feeds only it is skipped: MXNet's zero propagation)."""
        reached = {id(node) for node, _ in heads}
        for node in reversed(order):
            if (
                self.adapter.is_variable(node)
                or id(node) not in reached
                or not self.adapter.passes(node)
            ):
                continue
            blocked = self.adapter.blocked(node)
            reached.update(
                id(src[0])
                for i, src in enumerate(self.adapter.inputs(node))
                if src is not None and i not in blocked
            )
        return {
            id(node)
            for node in order
            if not self.adapter.is_variable(node) and self.needs[id(node)] and id(node) in reached
        }

    def _uses(self, order, heads):
        """{entry: how many readers it has}: operator inputs and heads."""
        uses = {}
        readers = [
            src
            for node in order
            if not self.adapter.is_variable(node)
            for src in self.adapter.inputs(node)
            if src is not None
        ]
        for src, idx in readers + list(heads):
            uses[entry_key(src, idx)] = uses.get(entry_key(src, idx), 0) + 1
        return uses

    def _unreached_variables(self, order):
        """Variables wanted with 'write' whose gradient no running backward gives: they get
        zeros (what MXNet gives them too)."""
        read = {
            id(src[0])
            for node in order
            if id(node) in self.runs
            for src in self.adapter.inputs(node)
            if src is not None
        }
        return [
            node
            for node in order
            if self.adapter.is_variable(node)
            and self.wanted.get(id(node)) in ("write", "inplace")
            and id(node) not in read
        ]

    def route(self, source, index):
        """Where the gradient of entry ``(source, index)`` goes: 'unused' (nobody needs it),
        'direct' (straight into a variable's gradient array, with its grad_req) or
        'temporary' (a buffer summed with other parts, or passed on as an operator's
        out_grad)."""
        if not self.needs.get(id(source), False):
            return UNUSED
        if self.adapter.is_variable(source) and self.uses.get(entry_key(source, index)) == 1:
            return DIRECT
        return TEMPORARY

    def reads(self, source, index):
        """How many readers entry ``(source, index)`` has."""
        return self.uses.get(entry_key(source, index), 0)


def sum_parts(parts):
    """The sum of a gradient's parts, in the order given (the first one is not changed)."""
    total = parts[0] if len(parts) == 1 else parts[0].copy()
    for part in parts[1:]:
        total += part
    return total


class GradientParts:
    """The gradient contributions still to be summed: {entry: [(who gave it, array)]}."""

    def __init__(self):
        self.pending = {}

    def give(self, source, index, who, gradient):
        """Add ``gradient`` (from ``who``) to what entry ``(source, index)`` will receive."""
        self.pending.setdefault(entry_key(source, index), []).append((who, gradient))

    def take(self, source, index):
        """[(who, array)] given to entry ``(source, index)`` (removed), or None."""
        return self.pending.pop(entry_key(source, index), None)
