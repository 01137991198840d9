"""The operator registry: one class per operator, registered by decorator.

An operator class is the built-in twin of a custom operator: it declares what a
``CustomOpProp`` declares (``list_arguments``, ``list_outputs``, ``list_auxiliary_states``,
``infer_shape``, ``infer_type``, ``declare_backward_dependency``) and computes what a
``CustomOp`` computes (``forward`` / ``backward`` with the same six-list signature). An instance
holds the parsed parameters of one node: ``FullyConnected(num_hidden=10).num_hidden == 10``.
"""

from ..base import MXNetError
from .params import parse_params
from .rules import same_dtype

__all__ = [
    "Operator",
    "register",
    "get_op",
    "all_ops",
    "functions",
    "OpFunction",
    "namespace_functions",
    "split_namespace",
]

_OPS = {}  # op name -> Operator subclass
_FUNCTIONS = {}  # python function name -> OpFunction


# MXNet registers some operators under a prefix and shows them in a sub-namespace without it:
# ``_contrib_Proposal`` is ``mx.sym.contrib.Proposal`` (auto-named proposal0), not ``mx.sym.*``.
NAMESPACE_PREFIXES = {"_contrib_": "contrib"}


def split_namespace(func_name):
    """``'_contrib_Proposal'`` -> ``('contrib', 'Proposal')``; ``'FullyConnected'`` ->
    ``(None, 'FullyConnected')``."""
    for prefix, namespace in NAMESPACE_PREFIXES.items():
        if func_name.startswith(prefix):
            return namespace, func_name[len(prefix) :]
    return None, func_name


class OpFunction:
    """How one ``mx.sym.<name>`` function creates nodes: which op, which auto-name hint."""

    def __init__(self, func_name, op_cls, hint=None):
        self.func_name = func_name
        self.op_cls = op_cls
        self.namespace, short_name = split_namespace(func_name)
        self.hint = hint if hint is not None else short_name.lower()


class Operator:
    """Base of every operator. Subclasses set ``op_name``, ``params`` and override what differs."""

    op_name = None  # the name stored in JSON, e.g. "FullyConnected"
    params = {}  # parameter name -> Param, with MXNet's defaults
    key_var_num_args = None  # "num_args" for operators taking any number of inputs
    backward_needs = ("out_grad", "in_data", "out_data")  # callers ask backward_reads()
    no_gradient_inputs = ()  # inputs that have no gradient: backward needs req 'null' there
    writes_every_gradient = True  # 'write' fills all of in_grad[i], so its buffer starts empty
    has_gradient = True  # False: no FGradient in MXNet; bind refuses a gradient through it
    passes_gradient = True  # False: its inputs' gradient is always 0 (BlockGrad), so nothing
    # behind it runs backward (MXNet's zero propagation)

    # --- facts the engine asks (never the operator's name) -----------------------------------
    prop = None  # the CustomOpProp behind a Custom operator; None when built in
    takes_prop_keywords = False  # Custom: keywords beyond its params go to the CustomOpProp
    writes_aux_in_user_code = False  # Custom: a user's forward may write aux (kept on failure)
    gradient_is_cloned = False  # backward passes the head gradient on unchanged (elemwise_add):
    # MXNet has no backward node for it, so a monitor reports none
    train_mode_matters = False  # forward computes otherwise under is_train (Dropout, BatchNorm)
    fuses_following_relu = False  # forward/backward can run as one pass with a ReLU after it
    fuses_following_batchnorm = False  # forward can run as one pass with a BatchNorm after it
    # on given statistics (and that BatchNorm's ReLU or Clip), where no backward runs
    is_batchnorm = False  # BatchNorm: what a fusion above may absorb
    is_plain_relu = False  # Activation(act_type='relu'): what a fusion above may absorb
    clip_bounds = None  # Clip's (a_min, a_max) when a_min <= a_max: what a fusion above may
    # absorb where the Clip's backward never runs (an executor without gradients)
    head_loss = None  # a loss head's per-epoch loss for fit's progress line:
    # 'cross_entropy', 'logistic', 'squared', 'absolute' or 'mean' (None: not a loss head)
    head_loss_reads_label = False  # that loss compares with the label (input 1)
    call_inputs = None  # names a call takes positionally, when not list_arguments()
    call_params = None  # parameter names a call shows, when not all of ``params``
    inputs_by_position_or_name = False  # a call may pass inputs either way (variadic ops)
    instead = ""  # what to use instead, for an operator without a gradient

    def mutates_aux_in_backward(self):
        """Whether backward updates the aux states (BatchNorm's moving statistics)."""
        return False

    def predict_mode_runner(self, runner):
        """The runner a backward under ``train_mode=False`` calls (BatchNorm differentiates as
        with use_global_stats); by default ``runner`` itself."""
        return runner

    def workspace_bytes(self, in_shapes, out_shapes, itemsize, runs_backward):
        """Scratch bytes one call takes beyond its outputs (Convolution's im2col matrix)."""
        return 0

    def mxnet_json_outputs(self):
        """How many outputs MXNet 1.9.1's saved graph counts for the node (oneDNN gives max
        pooling a hidden workspace output); by default ``len(list_outputs())``."""
        return len(self.list_outputs())

    def head_gradient_hint(self):
        """A sentence added when backward needs a head gradient nobody gave ('' if none)."""
        return ""

    def __init__(self, attrs=None, node_name=None):
        self.attrs = dict(attrs or {})
        self.node_name = node_name
        for key, value in parse_params(self.params, self.attrs, self.where).items():
            setattr(self, key, value)
        self.validate()

    @property
    def where(self):
        """How errors name this operator: ``FullyConnected 'fc1'``."""
        return f"{self.op_name} {self.node_name!r}" if self.node_name else self.op_name

    def validate(self):
        """Check combinations of parameters (after parsing); raise a teaching error."""

    # --- what the operator declares (the CustomOpProp half) ---------------------------------
    def list_arguments(self):
        """Input names, in the order of ``in_data`` / ``in_grad`` / backward ``req``."""
        return ["data"]

    def list_outputs(self):
        """Every output name, hidden ones included, in the order of ``out_data`` / ``out_grad``."""
        return ["output"]

    def num_visible_outputs(self):
        """How many leading outputs a Symbol shows (BatchNorm keeps mean/var hidden)."""
        return len(self.list_outputs())

    def list_auxiliary_states(self):
        """Auxiliary state names, in the order of ``aux`` (updated by the operator itself)."""
        return []

    def input_var_attrs(self, index):
        """Extra attributes for an implicit input variable (BatchNorm's moving stats' init)."""
        return {}

    def infer_shape(self, in_shape, out_shape):
        """(in_shapes, out_shapes, aux_shapes) from what is known; None or 0 means unknown."""
        raise NotImplementedError(f"{self.op_name} has no shape rule")

    def infer_type(self, in_type, out_type):
        """(in_types, out_types, aux_types): by default every input and output share one dtype."""
        return same_dtype(self, in_type, out_type)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The ids of the arrays backward reads, from ``backward_needs`` (as in CustomOpProp)."""
        slots = {"out_grad": out_grad, "in_data": in_data, "out_data": out_data}
        return [i for slot in self.backward_needs for i in slots[slot]]

    def dependency_ids(self):
        """{'out_grad': [ids], 'in_data': [ids], 'out_data': [ids]}: the numbers MXNet gives
        ``declare_backward_dependency``, out_grad first, then in_data, then out_data
        (two outputs and one input: out_grad 0-1, in_data 2, out_data 3-4)."""
        n_out, n_in = len(self.list_outputs()), len(self.list_arguments())
        return {
            "out_grad": list(range(n_out)),
            "in_data": list(range(n_out, n_out + n_in)),
            "out_data": list(range(n_out + n_in, 2 * n_out + n_in)),
        }

    def backward_reads(self):
        """{'out_grad': [bool per output], 'in_data': [bool per input], 'out_data': [...]}:
        which arrays backward reads, asked the way MXNet asks (numbered ids)."""
        ids = self.dependency_ids()  # out_grad, in_data, out_data: the order of the parameters
        deps = set(self.declare_backward_dependency(*ids.values()))
        return {role: [i in deps for i in numbers] for role, numbers in ids.items()}

    # --- what the operator computes (the CustomOp half) ---------------------------------------
    def is_train_note(self, is_train, phase):
        """What ``is_train`` changes in this ``phase`` call, in a sentence for the trace and the
        stepper; '' when it changes nothing (Dropout and BatchNorm say what it does)."""
        return ""

    def create_runner(self, ctx, in_shapes, in_dtypes):
        """What an executor calls forward/backward on: the operator itself (a Custom operator
        returns its CustomOp, created once per executor)."""
        return self

    def forward(self, is_train, req, in_data, out_data, aux):
        """Compute ``out_data`` from ``in_data`` (and ``aux``), honouring ``req``."""
        raise NotImplementedError(f"{self.op_name} cannot run yet")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Compute ``in_grad`` from ``out_grad``, honouring ``req``."""
        raise NotImplementedError(f"{self.op_name} has no backward yet")

    def __repr__(self):
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.params)
        return f"{type(self).__name__}({shown})"


def register(op_name, *aliases, hint=None):
    """Class decorator: register an operator under ``op_name``; ``aliases`` are extra functions.

    ``@register("SliceChannel", "split")`` makes ``mx.sym.SliceChannel`` (auto-names
    ``slicechannel0``) and ``mx.sym.split`` (``split0``), both storing op ``SliceChannel``.
    """

    def decorate(cls):
        if op_name in _OPS:
            raise MXNetError(
                f"operator {op_name!r} is registered twice ({_OPS[op_name].__name__}"
                f" and {cls.__name__}); give the new class another op_name"
            )
        cls.op_name = op_name
        _OPS[op_name] = cls
        _FUNCTIONS[op_name] = OpFunction(op_name, cls, hint)
        for alias in aliases:
            _FUNCTIONS[alias] = OpFunction(alias, cls)
        return cls

    return decorate


def add_function(func_name, op_name, hint=None):
    """Another function creating ``op_name`` (``_Plus`` -> ``elemwise_add`` named ``_plus0``)."""
    _FUNCTIONS[func_name] = OpFunction(func_name, _OPS[op_name], hint)


def get_op(op_name):
    """The Operator class registered as ``op_name``; a teaching error if there is none."""
    try:
        return _OPS[op_name]
    except KeyError:
        raise MXNetError(
            f"unknown operator {op_name!r}; minisym knows: " + ", ".join(sorted(_OPS))
        ) from None


def all_ops():
    """{op name: Operator class} for every registered operator."""
    return dict(_OPS)


def functions():
    """{function name: OpFunction} for every ``mx.sym`` operator function."""
    return dict(_FUNCTIONS)


def namespace_functions(namespace):
    """{short name: OpFunction} of the operators MXNet shows in ``mx.sym.<namespace>``
    (``'Proposal'`` for ``_contrib_Proposal``); each function is named ``contrib.Proposal``, so
    that messages say ``mx.sym.contrib.Proposal``."""
    found = {}
    for func_name, fn in _FUNCTIONS.items():
        space, short_name = split_namespace(func_name)
        if space == namespace:
            found[short_name] = OpFunction(f"{namespace}.{short_name}", fn.op_cls, fn.hint)
    return found
