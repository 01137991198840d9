"""The Symbol: a list of output entries of an immutable graph, and what you can ask of it."""

from .. import bind as binding
from .. import lifecycle
from ..base import MXNetError, MXNetValueError, NotImplementedForSymbol
from ..context import current_context
from ..fileio import write_atomically
from ..graph import topo_order
from ..graph.debug_text import debug_text
from ..graph.infer import infer_shape, infer_type
from ..graph.json_io import graph_from_json, graph_to_json, heads_from_file, heads_from_text

__all__ = ["Symbol", "HIDDEN_KEYS", "attr_key", "load", "load_json"]

# Attribute names MXNet stores as __key__ but also shows without underscores (c_api_symbolic.cc).
HIDDEN_KEYS = (
    "ctx_group",
    "lr_mult",
    "wd_mult",
    "force_mirroring",
    "mirror_stage",
    "profiler_scope",
)


def attr_key(key):
    """The stored form of an attribute name: ``lr_mult`` -> ``__lr_mult__``."""
    return f"__{key}__" if key in HIDDEN_KEYS else key


def _with_aliases(attrs):
    """A node's attributes as MXNet lists them: hidden keys twice, with and without dunders."""
    listed = {}
    for key, value in attrs.items():
        listed[key] = value
        if key.startswith("__") and key.endswith("__") and key[2:-2] in HIDDEN_KEYS:
            listed[key[2:-2]] = value
    return listed


class Symbol:
    """Outputs of a graph: ``fc = mx.sym.FullyConnected(data, num_hidden=10)`` is one."""

    __slots__ = ("_outputs", "_order", "__weakref__")

    def __init__(self, outputs):
        self._outputs = tuple(outputs)  # ((node, output_index), ...): visible outputs only
        self._order = None

    # --- the graph -------------------------------------------------------------------------
    @property
    def outputs(self):
        """The ``(node, index)`` entries this symbol stands for."""
        return self._outputs

    def topo_order(self):
        """Every node reachable from the outputs, in DFS post-order (computed once)."""
        if self._order is None:
            heads = [node for node, _ in self._outputs]
            object.__setattr__(self, "_order", tuple(topo_order(heads)))
        return self._order

    def _head_node(self):
        """The node behind every output, or None when outputs come from several nodes."""
        nodes = {id(node) for node, _ in self._outputs}
        return self._outputs[0][0] if len(nodes) == 1 else None

    def variable_nodes(self):
        """(argument nodes, auxiliary-state nodes), each in DFS order: a variable is an
        auxiliary state when some operator uses it as a mutable input."""
        aux_ids = {id(src) for node in self.topo_order() for src, _ in node.aux_inputs}
        variables = [n for n in self.topo_order() if n.is_variable]
        return (
            [n for n in variables if id(n) not in aux_ids],
            [n for n in variables if id(n) in aux_ids],
        )

    # --- names and lists -----------------------------------------------------------------------
    @property
    def name(self):
        """The head node's name; None for a group of several nodes."""
        head = self._head_node()
        return None if head is None else head.name

    @property
    def shape(self):
        """Not an attribute of a Symbol (as in MXNet): an AttributeError that says how to get
        the shapes, ``infer_shape``."""
        raise AttributeError(shape_hint(self))

    def list_inputs(self):
        """All variable names (arguments and auxiliary states) in DFS order."""
        return [node.name for node in self.topo_order() if node.is_variable]

    def list_arguments(self):
        """Argument names in DFS order: the order of ``arg_arrays``, ``infer_shape`` and bind."""
        return [n.name for n in self.variable_nodes()[0]]

    def list_auxiliary_states(self):
        """Auxiliary state names (BatchNorm's moving stats) in DFS order."""
        return [n.name for n in self.variable_nodes()[1]]

    def list_outputs(self):
        """Output names: ``fc1_output`` for operators, the plain name for variables."""
        return [node.entry_name(index) for node, index in self._outputs]

    def __len__(self):
        return len(self._outputs)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index):
        """Output ``index`` (int or output name) as a Symbol; a slice gives a Group."""
        if isinstance(index, slice):
            return Symbol(self._outputs[index])
        if isinstance(index, str):
            matches = [i for i, name in enumerate(self.list_outputs()) if name == index]
            if len(matches) > 1:
                raise ValueError(f'There are multiple outputs with name "{index}"')
            if not matches:
                raise ValueError(
                    f'Cannot find output that matches name "{index}"; the outputs '
                    f"are {self.list_outputs()}"
                )
            index = matches[0]
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(
                f"Symbol only support integer index to fetch i-th output; got "
                f"{type(index).__name__} (use an int, an output name or a slice)"
            )
        if not 0 <= index < len(self._outputs):
            raise IndexError(
                f"output index {index} is out of range: this symbol has "
                f"{len(self._outputs)} output(s) {self.list_outputs()}"
            )
        return Symbol([self._outputs[index]])

    def get_internals(self):
        """A Group of every node's visible outputs, in DFS order (variables included)."""
        entries = []
        for node in self.topo_order():
            entries.extend((node, i) for i in range(node.num_visible_outputs))
        return Symbol(entries)

    def get_children(self):
        """A Group of the inputs of every output's node (each node once); None if there are none."""
        entries, seen = [], set()
        for node, _ in self._outputs:
            if id(node) not in seen:
                seen.add(id(node))
                entries.extend(node.inputs)
        return Symbol(entries) if entries else None

    # --- attributes ----------------------------------------------------------------------------
    def attr(self, key):
        """The attribute ``key`` of the head node as a string, or None."""
        head = self._head_node()
        if head is None:
            return None
        if key == "name":
            return head.name
        return head.attrs.get(key, head.attrs.get(attr_key(key)))

    def list_attr(self, recursive=False):
        """The first output's node's attributes (hidden keys also without dunders)."""
        if recursive:
            raise DeprecationWarning(
                "Symbol.list_attr with recursive=True has been deprecated. "
                "Please use attr_dict instead."
            )
        return _with_aliases(self._outputs[0][0].attrs)

    def attr_dict(self):
        """{node name: attributes} for every node that has attributes."""
        return {n.name: _with_aliases(n.attrs) for n in self.topo_order() if n.attrs}

    def _set_attr(self, **kwargs):
        """Symbols are immutable here; setting attributes after creation is not supported."""
        raise NotImplementedError(
            "minisym symbols are immutable: give attributes when you create "
            "them (attr={...} or mx.AttrScope)"
        )

    # --- inference -------------------------------------------------------------------------------
    def infer_shape(self, *args, **kwargs):
        """(arg_shapes, out_shapes, aux_shapes) from known shapes, e.g. ``data=(32, 784)``.

        Returns ``(None, None, None)`` and warns when some shapes cannot be decided.
        """
        with lifecycle.action("infer_shape", self):  # not a decorator: warnings keep stacklevel
            try:
                return infer_shape(self, args, kwargs, partial=False)
            except MXNetError as exc:
                exc.add_note(_infer_shape_error_lines(args, kwargs))
                raise

    def infer_shape_partial(self, *args, **kwargs):
        """Like infer_shape, but unknown shapes come back as ``()`` (0s for unknown dims)."""
        with lifecycle.action("infer_shape_partial", self):
            return infer_shape(self, args, kwargs, partial=True)

    def infer_type(self, *args, **kwargs):
        """(arg_types, out_types, aux_types) as numpy type classes, e.g. ``data='float32'``."""
        with lifecycle.action("infer_type", self):
            return infer_type(self, args, kwargs, partial=False)

    def infer_type_partial(self, *args, **kwargs):
        """Like infer_type, but unknown types come back as None."""
        with lifecycle.action("infer_type_partial", self):
            return infer_type(self, args, kwargs, partial=True)

    # --- running -------------------------------------------------------------------------------
    def eval(self, ctx=None, **kwargs):
        """[one NDArray per output] for the arrays in ``kwargs`` (every argument, by name):
        bind, then forward with is_train=False. ``(a + b).eval(a=x, b=y)[0]``."""
        return self.bind(current_context() if ctx is None else ctx, kwargs).forward()

    def __abs__(self):
        """``abs(x)`` is ``x.abs()``: operator ``abs``, auto-named abs0, abs1, ..."""
        return self.abs()

    # --- composition ---------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        """A copy with free variables replaced: ``net2(fc3_data=net1)``."""
        # deferred: composing is creation's work, and creation makes Symbols of this module
        from .creation import compose

        return compose(self, *args, **kwargs)

    def bind(
        self,
        ctx,
        args,
        args_grad=None,
        grad_req="write",
        aux_states=None,
        group2ctx=None,
        shared_exec=None,
    ):
        """An Executor that uses your NDArrays in place (see minisym.bind.bind)."""
        return binding.bind(
            self, ctx, args, args_grad, grad_req, aux_states, group2ctx, shared_exec
        )

    def simple_bind(
        self,
        ctx,
        grad_req="write",
        type_dict=None,
        stype_dict=None,
        group2ctx=None,
        shared_arg_names=None,
        shared_exec=None,
        shared_buffer=None,
        **kwargs,
    ):
        """An Executor with zero-filled arrays for the shapes you give, e.g. data=(32, 784)."""
        return binding.simple_bind(
            self,
            ctx,
            grad_req,
            type_dict,
            stype_dict,
            group2ctx,
            shared_arg_names,
            shared_exec,
            shared_buffer,
            **kwargs,
        )

    # --- serialization -----------------------------------------------------------------------
    def tojson(self):
        """The graph as MXNet 1.9.1's JSON text (byte-identical to MXNet's)."""
        return graph_to_json(self)

    def save(self, fname):
        """Write ``tojson()`` to ``fname`` (through a temporary file in the same folder, so a
        crash or a full disk in the middle leaves the previous ``fname`` readable)."""
        if not isinstance(fname, str):
            raise TypeError("fname needs to be string")
        write_atomically(fname, self.tojson().encode("utf-8"), "Symbol.save")

    def __getstate__(self):
        return {"handle": self.tojson()}

    def __setstate__(self, state):
        object.__setattr__(self, "_outputs", tuple(graph_from_json(state["handle"])))
        object.__setattr__(self, "_order", None)

    def __reduce__(self):
        return (_new_empty_symbol, (), self.__getstate__())

    def __copy__(self):
        return Symbol(self._outputs)

    def __deepcopy__(self, memo):
        return Symbol(graph_from_json(self.tojson()))

    def __repr__(self):
        name = self.name
        if name is None:
            return "<Symbol group [" + ", ".join(s.name for s in self) + "]>"
        return f"<Symbol {name}>"

    def __bool__(self):
        raise NotImplementedForSymbol(self.__bool__, "bool")

    __nonzero__ = __bool__

    def __hash__(self):
        return id(self)

    def debug_str(self):
        """The graph as MXNet prints it: the outputs, then every node in DFS order, each
        operator with its inputs (a variable's with its version) and attributes."""
        return debug_text(self._outputs, self.topo_order())


def _infer_shape_error_lines(args, kwargs):
    """The lines MXNet prints when infer_shape fails (the shapes given), as a note after
    minisym's message: what went wrong is read first."""
    lines = ["infer_shape error. Arguments:"]
    lines += [f"  #{i}: {arg}" for i, arg in enumerate(args)]
    lines += [f"  {key}: {value}" for key, value in kwargs.items()]
    return "\n".join(lines)


def _new_empty_symbol():
    return Symbol.__new__(Symbol)


def check_single_output(symbol, where, slot):
    """``symbol``'s one entry; a teaching error when it has several outputs."""
    if len(symbol._outputs) != 1:
        raise MXNetValueError(
            f"{where}: input {slot} is a symbol with {len(symbol)} outputs "
            f"{symbol.list_outputs()}; pick one, e.g. sym[0] or sym['{symbol.list_outputs()[0]}']"
        )
    return symbol._outputs[0]


def shape_hint(symbol):
    """The message of ``symbol.shape``: how to get its shapes from ``infer_shape``."""
    outputs = symbol.list_outputs()
    arguments = symbol.list_arguments()
    data = arguments[0] if arguments else "data"
    example = f"{data}=(32, 784)" if data.isidentifier() else "data=(32, 784)"
    who = f"Symbol '{symbol.name}'" if symbol.name is not None else "Symbol"
    return (
        f"{who}: use infer_shape to get shapes, a Symbol has no .shape: "
        f"arg_shapes, out_shapes, aux_shapes = sym.infer_shape({example}) (your input's "
        f"shape); then out_shapes[0] is the shape of '{outputs[0]}' "
        "(dict(zip(sym.list_outputs(), out_shapes)) names every output). A Symbol describes "
        "a computation and has no shape until inference gives it one. ('Symbol' object "
        "has no attribute 'shape')"
    )


def load_json(json_str):
    """``mx.sym.load_json``: a Symbol from MXNet JSON text."""
    return Symbol(heads_from_text(json_str))


def load(fname):
    """``mx.sym.load``: a Symbol from a JSON file written by ``save`` (or by MXNet)."""
    return Symbol(heads_from_file(fname))
