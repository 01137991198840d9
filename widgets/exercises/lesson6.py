"""Checks for lesson 6, several outputs and no top gradient: the learner writes one Prop or Op
method at a time (an ``infer_shape`` for two outputs, a ``declare_backward_dependency``, a
backward of zeros), and the check builds a custom operator around it and runs it."""

import warnings

import numpy as np

from ._check import N_, _, check_function, engine_warned, problem, unfinished
from ._req import REQ_VERIFIED, backward_req_problem


def _warned(caught):
    """The messages of the engine's custom-operator warnings caught while the check ran."""
    import minisym as mx

    return [str(w.message) for w in caught if issubclass(w.category, mx.operator.CustomOpWarning)]


def _shape(value):
    """A returned shape as a tuple of ints, or None when it is not a sequence of sizes."""
    try:
        return tuple(int(d) for d in value)
    except (TypeError, ValueError):
        return None


# --- 6.1: infer_shape of a two-output operator ---------------------------------------------
TOP_ROIS_OUTPUTS = ["rois_output", "score"]


def _top_rois_symbol(fn):
    """The top-k operator, with the learner's infer_shape, as a symbol of inputs rois, scores."""
    import minisym as mx

    class TopRois(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            pass

    class TopRoisProp(mx.operator.CustomOpProp):
        def __init__(self, top_k="3"):
            super().__init__(need_top_grad=False)
            self.top_k = int(top_k)

        def list_arguments(self):
            return ["rois", "scores"]

        def list_outputs(self):
            return list(TOP_ROIS_OUTPUTS)

        infer_shape = unfinished(fn)

        def create_operator(self, ctx, shapes, dtypes):
            return TopRois()

    mx.operator.register("lesson6_top_rois")(TopRoisProp)
    return TopRoisProp, mx.sym


def _top_rois_problem(result, n, k):
    """What is wrong with what infer_shape returned for N = n, top_k = k, or None."""
    given = _("With in_shape=[[{n}, 5], [{n}]] and self.top_k={k}").format(n=n, k=k)
    if not isinstance(result, (list, tuple)) or len(result) not in (2, 3):
        return problem(
            _(
                "return two or three lists: the input shapes (one per "
                "list_arguments() name), the output shapes (one per list_outputs() "
                "name) and, optionally, the aux shapes ([])."
            ),
            _("{given} your infer_shape returned {result!r}.").format(given=given, result=result),
        )
    ins, outs = result[0], result[1]
    if not isinstance(outs, (list, tuple)):
        return problem(
            _("give one output shape per list_outputs() name: [(top_k, 5), (top_k,)]."),
            _("{given} the second list, the output shapes, is {outs!r}.").format(
                given=given, outs=outs
            ),
        )
    for j, shape in enumerate(outs):
        if isinstance(shape, (int, np.integer)):
            output = TOP_ROIS_OUTPUTS[j] if j < 2 else "?"
            return problem(
                _(
                    "write a one-dimensional shape with a comma: ({shape},); (x) is "
                    "just x in Python."
                ).format(shape=shape),
                _("{given} output {j} ({output!r}) is the number {shape}, not a shape.").format(
                    given=given, j=j, output=output, shape=shape
                ),
            )
    if len(outs) != 2:
        returned = (
            _("{given} you returned {count} output shape, {shapes}.")
            if len(outs) == 1
            else _("{given} you returned {count} output shapes, {shapes}.")
        )
        return problem(
            _(
                "give two output shapes, out_data[0] then out_data[1]: list_outputs() "
                "has two names, ['rois_output', 'score']."
            ),
            returned.format(given=given, count=len(outs), shapes=list(outs)),
        )
    got = [_shape(s) for s in outs]
    want = [(k, 5), (k,)]
    if got == want[::-1]:
        return problem(
            _(
                "give the output shapes in the order of list_outputs(), "
                "['rois_output', 'score']: out_data[0] is the rois, ({k}, 5), and "
                "out_data[1] the scores, ({k},)."
            ).format(k=k),
            _("{given} you returned the output shapes {got}: swapped.").format(
                given=given, got=got
            ),
        )
    if got in ([(n, 5), (n,)], [(n,), (n, 5)]):
        return problem(
            _(
                "give each output self.top_k = {k} rows: the operator keeps only the "
                "best top_k rois."
            ).format(k=k),
            _("{given} your outputs have {n} rows, as many as the inputs.").format(
                given=given, n=n
            ),
        )
    if got != want:
        return problem(
            _(
                "give 'rois_output' top_k rows of 5 numbers and 'score' one score per "
                "kept roi: {want}."
            ).format(want=want),
            _("{given} you returned the output shapes {got}; expected {want}.").format(
                given=given, got=got, want=want
            ),
        )
    if [_shape(s) for s in ins] != [(n, 5), (n,)]:
        return problem(
            _("return in_shape itself as the first list: the inputs keep their shapes."),
            _(
                "{given} the first list, the input shapes, is {ins}; expected [[{n}, 5], [{n}]]."
            ).format(given=given, ins=list(ins), n=n),
        )
    return None


@check_function(
    "6.1 (top_rois_infer_shape)",
    N_(
        "infer_shape gives the two inputs their own "
        "shapes and the outputs, in list_outputs() order, (top_k, 5) and (top_k,)."
    ),
)
def top_rois_infer_shape(fn):
    """fn is the Prop's infer_shape; it must return [in_shape, [(k, 5), (k,)], []]."""
    prop_class, sym = _top_rois_symbol(fn)
    for n, k in ((10, 3), (20, 6)):
        found = _top_rois_problem(unfinished(fn)(prop_class(top_k=str(k)), [[n, 5], [n]]), n, k)
        if found:
            return found
        node = sym.Custom(
            rois=sym.Variable("rois"),
            scores=sym.Variable("scores"),
            op_type="lesson6_top_rois",
            top_k=k,
            name="top",
        )
        outs = node.infer_shape(rois=(n, 5), scores=(n,))[1]
        if outs != [(k, 5), (k,)]:
            return problem(
                _("give the outputs ({k}, 5) and ({k},) from self.top_k.").format(k=k),
                _(
                    "Through the engine, infer_shape(rois=({n}, 5), scores=({n},)) "
                    "with top_k={k} gave the outputs {outs}; expected [({k}, 5), "
                    "({k},)]."
                ).format(n=n, k=k, outs=outs),
            )
    return None


# --- 6.2: declare_backward_dependency of exp and double --------------------------------------
EXP_DOUBLE = {
    0: N_("out_grad[0] (the gradient arriving for 'exp')"),
    1: N_("out_grad[1] (the gradient arriving for 'double')"),
    2: N_("in_data[0] ('data', x)"),
    3: N_("out_data[0] ('exp', eˣ as forward wrote it)"),
    4: N_("out_data[1] ('double', 2x)"),
}
EXP_DOUBLE_READS = {0, 1, 3}


def _exp_double_symbol(fn):
    import minisym as mx

    class ExpDouble(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], mx.nd.exp(in_data[0]))
            self.assign(out_data[1], req[1], 2 * in_data[0])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            grad = out_grad[0] * out_data[0] + 2 * out_grad[1]
            self.assign(in_grad[0], req[0], grad)

    class ExpDoubleProp(mx.operator.CustomOpProp):
        def list_outputs(self):
            return ["exp", "double"]

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0], in_shape[0]], []

        declare_backward_dependency = unfinished(fn)

        def create_operator(self, ctx, shapes, dtypes):
            return ExpDouble()

    mx.operator.register("lesson6_exp_double")(ExpDoubleProp)
    return ExpDoubleProp


def _names(ids):
    """'a', 'a and b', 'a, b and c' of the arrays numbered ``ids``."""
    parts = [_(EXP_DOUBLE[i]) for i in sorted(ids)]
    if len(parts) == 1:
        return parts[0]
    return _("{first} and {last}").format(first=_(", ").join(parts[:-1]), last=parts[-1])


def _declared_problem(returned):
    """(what to change, what the declaration shows) for the ids declared for out_grad=[0, 1],
    in_data=[2], out_data=[3, 4], or None."""
    if not isinstance(returned, (list, tuple)):
        return (
            _(
                "return a list of ids taken from the three arguments, such as "
                "[out_grad[0], in_data[0]]."
            ),
            _("declare_backward_dependency returned {returned!r}.").format(returned=returned),
        )
    if any(isinstance(i, (list, tuple)) for i in returned):
        return (
            _(
                "return one flat list of ids: pick single entries (out_grad[0]) or join "
                "lists (out_grad + [out_data[0]])."
            ),
            _("declare_backward_dependency returned {returned}, a list of lists.").format(
                returned=list(returned)
            ),
        )
    ids = {int(i) for i in returned}
    missing, extra = EXP_DOUBLE_READS - ids, ids - EXP_DOUBLE_READS
    hint = ""
    if 2 in extra and 3 in missing:
        hint = _(
            " The derivative of eˣ is eˣ itself, which forward already wrote into "
            "out_data[0]: this backward reads that, not the input x (in_data[0])."
        )
    given = _(
        "With out_grad=[0, 1], in_data=[2], out_data=[3, 4] your declaration returned {ids}"
    ).format(ids=sorted(ids))
    if missing:
        one = len(missing) == 1
        change = (
            _("declare {names} too: backward reads it.")
            if one
            else _("declare {names} too: backward reads them.")
        )
        seen = (
            _(
                "{given}: it leaves out {names}, so backward would receive it as an empty "
                "array and fail.{hint}"
            )
            if one
            else _(
                "{given}: it leaves out {names}, so backward would receive them as empty "
                "arrays and fail.{hint}"
            )
        )
        names = _names(missing)
        return (change.format(names=names), seen.format(given=given, names=names, hint=hint))
    if extra:
        seen = (
            _(
                "{given}: backward never reads {names}. Declaring it keeps it in memory "
                "until backward for nothing.{hint}"
            )
            if len(extra) == 1
            else _(
                "{given}: backward never reads {names}. Declaring them keeps them in memory "
                "until backward for nothing.{hint}"
            )
        )
        names = _names(extra)
        return (
            _("declare exactly what backward reads: leave out {names}.").format(names=names),
            seen.format(given=given, names=names, hint=hint),
        )
    return None


@check_function(
    "6.2 (exp_double_dependency)",
    N_(
        "backward receives exactly out_grad[0], "
        "out_grad[1] and out_data[0], and its gradient out_grad[0]·eˣ + 2·out_grad[1] "
        "is right."
    ),
)
def exp_double_dependency(fn):
    """fn declares what the exp-and-double backward reads: [out_grad[0], out_grad[1],
    out_data[0]] (ids 0, 1, 3)."""
    import minisym as mx

    prop_class = _exp_double_symbol(fn)
    returned = unfinished(fn)(prop_class(), [0, 1], [2], [3, 4])
    declared = _declared_problem(returned)
    if declared and "leaves out" not in declared[1]:
        return problem(*declared)
    x = np.random.RandomState(6).uniform(-1, 1, (2, 3))
    heads = [np.full(x.shape, 0.5), np.full(x.shape, -1.5)]
    node = mx.sym.Custom(mx.sym.Variable("data"), op_type="lesson6_exp_double", name="ed")
    executor = node.simple_bind(mx.cpu(), data=x.shape)
    executor.arg_dict["data"][:] = x
    executor.forward(is_train=True)
    try:
        executor.backward([mx.nd.array(h) for h in heads])
    except mx.base.MXNetError as error:
        return problem(*declared, _("When it ran, the engine said: {error}").format(error=error))
    if declared:
        return problem(*declared)
    expected = heads[0] * np.exp(x) + 2 * heads[1]
    got = executor.grad_dict["data"].asnumpy()
    if not np.allclose(got, expected, rtol=1e-4, atol=1e-5):
        return problem(
            _("declare [out_grad[0], out_grad[1], out_data[0]], as lists of the ids given."),
            _(
                "The declaration looks right, but the gradient of 'data' came out "
                "{got} (first row) instead of {expected}."
            ).format(got=got[0], expected=expected[0].astype(np.float32)),
        )
    return None


# --- 6.3: a backward of zeros, under every req ----------------------------------------------
def _zeros_symbol(fn, names):
    """A loss-like operator of inputs ``names`` whose backward is the learner's."""
    import minisym as mx

    class Zeros(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0])

    Zeros.backward = unfinished(fn)

    class ZerosProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=False)

        def list_arguments(self):
            return list(names)

        def infer_shape(self, in_shape):
            return [in_shape[0]] * len(names), [in_shape[0]], []

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return []

        def create_operator(self, ctx, shapes, dtypes):
            return Zeros()

    op_type = f"lesson6_zeros_{len(names)}"
    mx.operator.register(op_type)(ZerosProp)
    return mx.sym.Custom(*[mx.sym.Variable(n) for n in names], op_type=op_type, name="zeros")


ZERO_RUNS = (["rois", "gt_boxes"], ["a", "b", "c"])


@check_function(
    "6.3 (zero_backward)",
    N_(
        "every in_grad[i] gets a zero gradient "
        "{req_verified}, on operators of two and three "
        "inputs."
    ),
    req_verified=REQ_VERIFIED,
)
def zero_backward(fn):
    """fn is a backward that must assign 0 into every in_grad[i] under req[i]."""
    import minisym as mx

    for names in ZERO_RUNS:
        node = _zeros_symbol(fn, names)
        executor = node.simple_bind(mx.cpu(), grad_req="write", **{names[0]: (2, 3)})
        for grad in executor.grad_dict.values():
            grad[:] = 7
        executor.forward(is_train=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            executor.backward()
        said = _warned(caught)
        if said and len(names) > 2 and "did not write in_grad[" in said[0]:
            return problem(
                _(
                    "loop over every input, for i in range(len(in_grad)), rather "
                    "than naming in_grad[0] and in_grad[1]: this operator has {count} "
                    "inputs."
                ).format(count=len(names)),
                _("The engine warned: {warning}").format(warning=said[0]),
            )
        if said:
            return engine_warned(said[0])
        for i, name in enumerate(names):
            values = np.unique(executor.grad_dict[name].asnumpy()).tolist()
            if values != [0.0]:
                return problem(
                    _(
                        "write a zero gradient into every in_grad[i]: "
                        "self.assign(in_grad[i], req[i], 0)."
                    ),
                    _(
                        "With grad_req='write' on an operator with inputs {names}, "
                        "in_grad[{i}] ({name!r}) holds {values} after backward, not "
                        "0."
                    ).format(names=names, i=i, name=name, values=values),
                )
        zeros = [np.zeros((2, 3))] * len(names)
        inputs = {
            "names": names,
            "out_grad": [np.zeros((2, 3))],
            "in_data": zeros,
            "out_data": [np.zeros((2, 3))],
            "aux": [],
        }
        found = backward_req_problem(
            fn,
            mx.operator.CustomOp(),
            inputs,
            dict.fromkeys(range(len(names)), 0.0),
            lambda i: _("self.assign(in_grad[i], req[i], 0) for every i"),
        )
        if found:
            return found
    return None
