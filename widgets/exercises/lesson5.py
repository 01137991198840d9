"""Checks for lesson 5, auxiliary states and keyword arguments: the learner writes one method of
a center loss at a time (the Prop's ``__init__``, its ``infer_shape``, the Op's ``backward``),
and the check puts it into a working custom operator and looks at what it did."""

import warnings

import numpy as np

from ._check import N_, _, check_function, engine_warned, problem, unfinished
from ._req import REQ_VERIFIED, backward_req_problem, req_explains

ARGUMENTS, AUX = ["data", "label"], ["center"]


def _init(self, num_class, alpha=0.5):
    """The lesson's __init__, for the checks of the other methods."""
    import minisym as mx

    mx.operator.CustomOpProp.__init__(self, need_top_grad=False)
    self.num_class, self.alpha = int(num_class), float(alpha)


# What infer_shape gives for the one batch a check binds (5.3's X, four classes; 5.1's check
# infers no shape), recorded so that the answer to 5.2 stays out of the package:
# {(data shape, num_class): (argument shapes, output shapes, aux shapes)}.
RECORDED_SHAPES = {((6, 2), 4): ([(6, 2), (6,)], [(1,)], [(4, 2)])}


def _infer_shape(self, in_shape):
    """The recorded shapes, for the checks of the other methods."""
    args, outs, aux = RECORDED_SHAPES[(tuple(in_shape[0]), self.num_class)]
    return list(args), list(outs), list(aux)


def _forward(self, is_train, req, in_data, out_data, aux):
    import minisym as mx

    x = in_data[0].asnumpy()
    labels = in_data[1].asnumpy().astype(int)
    diff = x - aux[0].asnumpy()[labels]
    self.assign(out_data[0], req[0], mx.nd.array([0.5 * (diff**2).sum(axis=1).mean()]))


def _center_loss(op_type, init=_init, infer_shape=_infer_shape, backward=None, **keywords):
    """A center loss symbol 'closs' made of the lesson's methods and one of the learner's."""
    import minisym as mx

    def op_init(self, alpha):
        mx.operator.CustomOp.__init__(self)
        self.alpha = alpha

    methods = {"__init__": op_init, "forward": _forward}
    if backward is not None:
        methods["backward"] = unfinished(backward)
    op_class = type("CenterLoss", (mx.operator.CustomOp,), methods)

    class CenterLossProp(mx.operator.CustomOpProp):
        def list_arguments(self):
            return list(ARGUMENTS)

        def list_auxiliary_states(self):
            return list(AUX)

        def create_operator(self, ctx, shapes, dtypes):
            return op_class(self.alpha)

    CenterLossProp.__init__ = unfinished(init)
    CenterLossProp.infer_shape = unfinished(infer_shape)
    mx.operator.register(op_type)(CenterLossProp)
    return mx.sym.Custom(
        data=mx.sym.Variable("data"),
        label=mx.sym.Variable("label"),
        op_type=op_type,
        name="closs",
        **keywords,
    )


def _prop_of(symbol):
    """The Prop instance the engine made for the symbol's Custom node."""
    return symbol.outputs[0][0].op.prop


# --- 5.1 ------------------------------------------------------------------------------------
@check_function(
    "5.1 (center_loss_init)",
    N_(
        "need_top_grad=False, and num_class an int, alpha "
        "a float: converted from the strings "
        "mx.sym.Custom passes ('4', '0.25')."
    ),
)
def center_loss_init(fn):
    """fn is the Prop's __init__(self, num_class, alpha)."""
    for num_class, alpha in ((4, 0.25), (7, 0.5)):
        made = f"mx.sym.Custom(..., num_class={num_class}, alpha={alpha})"
        try:
            symbol = _center_loss("lesson5_init", init=fn, num_class=num_class, alpha=alpha)
        except RuntimeError as exc:
            if "super()" not in str(exc):
                raise
            return problem(
                _(
                    "call the base class by name: "
                    "mx.operator.CustomOpProp.__init__(self, need_top_grad=False); "
                    "outside a class, super() has no class to start from."
                ),
                _("center_loss_init() raised RuntimeError: {error}.").format(error=exc),
            )
        except ValueError as exc:
            if "invalid literal for int()" not in str(exc):
                raise
            return problem(
                _("convert alpha with float(alpha): it is a fraction; int() is for num_class."),
                _("{made}: center_loss_init() raised ValueError: {error}.").format(
                    made=made, error=exc
                ),
            )
        except AttributeError as exc:
            if "need_top_grad_" not in str(exc):
                raise
            return problem(
                _(
                    "start with mx.operator.CustomOpProp.__init__(self, "
                    "need_top_grad=False): it sets need_top_grad_."
                ),
                _(
                    "{made} raised AttributeError: {error}. Your __init__ never ran "
                    "the base class's."
                ).format(made=made, error=exc),
            )
        found = _stored(_prop_of(symbol), num_class, alpha)
        if found:
            return problem(found[0], _("After {made}: {found}").format(made=made, found=found[1]))
    return None


def _stored(prop, num_class, alpha):
    """(what to change, what __init__ stored) when that is wrong, or None."""
    kept = {k: v for k, v in vars(prop).items() if k != "need_top_grad_"}
    if getattr(prop, "need_top_grad_", True) is not False:
        return (
            _(
                "mark it a loss, which makes its own gradient: "
                "mx.operator.CustomOpProp.__init__(self, need_top_grad=False)."
            ),
            _("need_top_grad is True, so backward would wait for a gradient from above."),
        )
    for name, want, convert in (("num_class", num_class, "int"), ("alpha", alpha, "float")):
        if name not in kept:
            stored = (
                _("your __init__ did not set self.{name} (it stored {kept}).").format(
                    name=name, kept=kept
                )
                if kept
                else _("your __init__ did not set self.{name} (it stored nothing).").format(
                    name=name
                )
            )
            return (
                _("keep {name} for the other methods: self.{name} = {convert}({name}).").format(
                    name=name, convert=convert
                ),
                stored,
            )
        got = kept[name]
        if isinstance(got, str):
            return (
                _(
                    "convert {name}: self.{name} = {convert}({name}); every keyword of "
                    "mx.sym.Custom arrives as a str."
                ).format(name=name, convert=convert),
                _("self.{name} is the string {got!r}.").format(name=name, got=got),
            )
        if name == "num_class" and not isinstance(got, (int, np.integer)):
            return (
                _(
                    "make num_class an int, int(num_class): it is a size (center is "
                    "(num_class, features)), and sizes are ints."
                ),
                _("self.num_class is {got!r}, a {kind}.").format(got=got, kind=type(got).__name__),
            )
        if name == "alpha" and not isinstance(got, float):
            return (
                _("make alpha a float, float(alpha): it is a fraction."),
                _("self.alpha is {got!r}, a {kind}.").format(got=got, kind=type(got).__name__),
            )
        if got != want:
            return (
                _("store the keyword as it came: self.{name} = {convert}({name}).").format(
                    name=name, convert=convert
                ),
                _("self.{name} is {got!r}, but the keyword was {name}={want}.").format(
                    name=name, got=got, want=want
                ),
            )
    return None


# --- 5.2 ------------------------------------------------------------------------------------
@check_function(
    "5.2 (center_loss_infer_shape)",
    N_(
        "data and label (batch, features) and "
        "(batch,), the loss (1,), and center (num_class, features), the third list."
    ),
)
def center_loss_infer_shape(fn):
    """fn is the Prop's infer_shape(self, in_shape); self.num_class is an int."""
    for num_class, data in ((3, (6, 2)), (7, (5, 4))):
        symbol = _center_loss("lesson5_infer_shape", infer_shape=fn, num_class=num_class)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "Cannot decide shape": explained below
                args, outs, aux = symbol.infer_shape(data=data)
        except ValueError as exc:
            if "aux state shapes" not in str(exc):
                raise
            return problem(
                _(
                    "return a third list, the aux shapes, one per "
                    "list_auxiliary_states() name: [(self.num_class, features)]."
                ),
                _("With num_class={num_class} and data {data}: {error}").format(
                    num_class=num_class, data=data, error=exc
                ),
            )
        if args is None:  # it raised while the label was unknown, and the engine moved on
            fn(_prop_of(symbol), [list(data), []])
            return problem(
                _("work every shape out from in_shape[0]: the label is (batch,)."),
                _(
                    "With data {data} and the label's shape not known yet (in_shape = "
                    "[{shape}, []]), infer_shape gave no label shape."
                ).format(data=data, shape=list(data)),
            )
        found = _shape_problem(args, outs, aux, num_class, data)
        if found:
            gave = _(
                "With num_class={num_class} and data {data}, infer_shape gave arguments "
                "{args}, outputs {outs}, aux {aux}."
            ).format(num_class=num_class, data=data, args=args, outs=outs, aux=aux)
            return problem(found[0], gave + (f" {found[1]}" if found[1] else ""))
    return None


def _shape_problem(args, outs, aux, num_class, data):
    """(what to change, what else the shapes show) or None."""
    batch, features = data
    if args[0] != data:
        return _("return in_shape[0] unchanged as the first argument shape: data keeps it."), ""
    if args[1] != (batch,):
        return _("give label one class index per example: (batch,) = ({batch},).").format(
            batch=batch
        ), ""
    if outs != [(1,)]:
        return (
            _("give the output the shape (1,): it is the loss, one number per batch."),
            _("The loss is the mean over the batch, not one number per example.")
            if outs == [(batch,)]
            else "",
        )
    center = aux[0]
    if center == (num_class, features):
        return None
    want = f"(num_class, features) = ({num_class}, {features})"
    if center == data:
        return (
            _("make center {want}: one center per class, whatever the batch.").format(want=want),
            _("center came out {center}, the shape of the batch.").format(center=center),
        )
    if center == (features, num_class):
        return (
            _("make center {want}: row c is the center of class c.").format(want=want),
            _("center came out {center}: swapped.").format(center=center),
        )
    return (
        _(
            "make center {want}: one row per class, each as wide as an embedding (in_shape[0][1])."
        ).format(want=want),
        "",
    )


# --- 5.3 ------------------------------------------------------------------------------------
ALPHA = 0.25
X = np.array([[1.0, 2.0], [1.5, 1.0], [2.0, 2.5], [-1.0, 0.5], [0.5, -2.0], [1.0, -1.5]])
LABELS = np.array([0, 0, 0, 1, 2, 2])  # class 3 has no example in the batch


def _step(center, x=X, labels=LABELS, alpha=ALPHA):
    """One step of the lesson's backward: (in_grad[0], the new centers)."""
    diff = x - center[labels]
    new = center.copy()
    for c in np.unique(labels):
        mine = labels == c
        new[c] += alpha * diff[mine].sum(axis=0) / (1 + mine.sum())
    return diff / len(x), new


@check_function(
    "5.3 (center_loss_backward)",
    N_(
        "after each of two steps, in_grad[0] = (x − "
        "center[label]) / batch, and every center moved a fraction alpha toward its "
        "examples, in aux[0]; and in_grad[0] is right {req_verified}."
    ),
    req_verified=REQ_VERIFIED,
)
def center_loss_backward(fn):
    """fn is the Op's backward; it must write in_grad[0] and update aux[0] in place."""
    import minisym as mx

    symbol = _center_loss("lesson5_backward", backward=fn, num_class=4, alpha=ALPHA)
    executor = symbol.simple_bind(
        mx.cpu(), data=X.shape, grad_req={"data": "write", "label": "null"}
    )
    executor.arg_dict["data"][:] = X
    executor.arg_dict["label"][:] = LABELS
    center = np.zeros((4, 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in (1, 2):
            executor.forward(is_train=True)
            executor.backward()
            want_grad, want_center = _step(center)
            grad = executor.grad_dict["data"].asnumpy()
            got_center = executor.aux_dict["closs_center"].asnumpy()
            found = _grad_problem(grad, want_grad, center, step, caught)
            if found and not _warned(caught):
                found = _req_problem(fn, req_explains) or found
            found = found or _center_problem(got_center, want_center, center, step)
            if found:
                return found
            center = want_center
    said = _warned(caught)
    if said:
        return engine_warned(said[0])
    return _req_problem(fn, backward_req_problem)


def _req_problem(fn, judge):
    """``judge`` (backward_req_problem or req_explains) of in_grad[0] under every req, with
    centers that are not zero; label's gradient is not judged (the lesson binds it 'null')."""
    import minisym as mx

    op = mx.operator.CustomOp()
    op.alpha = ALPHA
    x = X[::-1].copy()
    center = _step(np.zeros((4, 2)))[1]
    inputs = {
        "names": ARGUMENTS,
        "out_grad": [np.ones(1)],
        "in_data": [x, LABELS],
        "out_data": [np.zeros(1)],
        "aux": [center],
    }
    return judge(
        fn,
        op,
        inputs,
        {0: (x - center[LABELS]) / len(x)},
        lambda i: "self.assign(in_grad[0], req[0], grad)",
    )


def _warned(caught):
    import minisym as mx

    return [str(w.message) for w in caught if issubclass(w.category, mx.operator.CustomOpWarning)]


def _show(array):
    return np.array2string(np.asarray(array, dtype=float).round(3), separator=", ")


def _grad_problem(grad, want, center, step, caught):
    if np.allclose(grad, want, atol=1e-5):
        return None
    said = _warned(caught)
    if said:
        return engine_warned(said[0])
    shown = _("Step {step}: in_grad[0] ('data') is\n{got}\nexpected\n{want}").format(
        step=step, got=_show(grad), want=_show(want)
    )
    moved = _step(center)[1]
    if np.allclose(grad, want * len(X), atol=1e-5):
        change, why = (
            _("divide by the batch size: the gradient is (x − center[label]) / batch."),
            _("It is {times} times too large: the loss is a mean over the batch.").format(
                times=len(X)
            ),
        )
    elif np.allclose(grad, -want, atol=1e-5):
        change, why = (
            _("flip the sign: the gradient is +(x − center[label]) / batch."),
            _("It has the wrong sign: the loss grows as x moves away from its center."),
        )
    elif np.allclose(grad, X / len(X), atol=1e-5):
        change, why = (
            _(
                "subtract each example's center: (x − center[label]) / batch, with "
                "center = aux[0].asnumpy() and label = in_data[1]."
            ),
            _("It is x / batch, as if every center were 0 (true only at the start)."),
        )
    elif np.allclose(grad, (X - moved[LABELS]) / len(X), atol=1e-5):
        change, why = (
            _("compute the gradient first, from the centers forward used, then update aux[0]."),
            _("It is computed from the centers after your update."),
        )
    else:
        change, why = (
            _("write (x − center[label]) / batch into in_grad[0], with center = aux[0].asnumpy()."),
            "",
        )
    return problem(change, shown, why)


def _center_problem(got, want, before, step):
    if np.allclose(got, want, atol=1e-5):
        return None
    shown = _("Step {step}: aux[0] ('center') is\n{got}\nexpected\n{want}").format(
        step=step, got=_show(got), want=_show(want)
    )
    if step == 2 and np.allclose(got, _step(np.zeros_like(before))[1], atol=1e-5):
        return problem(
            _(
                "start from the centers in aux[0] every time: the executor keeps them "
                "between calls."
            ),
            shown,
            _(
                "Right after one step, wrong after two: the centers moved as if they "
                "had started from 0 again."
            ),
        )
    if np.allclose(got, before, atol=1e-7):
        return problem(
            _("write the new centers into the array itself: aux[0][:] = center."),
            shown,
            _(
                "It did not change. aux[0].asnumpy() is a copy, and aux[0] = "
                "... only replaces an entry of a Python list."
            ),
        )
    if np.allclose(got, 2 * before - want, atol=1e-5):
        return problem(
            _(
                "move each center toward its examples: center[c] += alpha · "
                "Σ (x_i − center[c]) / (1 + n_c)."
            ),
            shown,
            _("The centers moved away from their examples."),
        )
    wrong = next(c for c in range(len(want)) if not np.allclose(got[c], want[c], atol=1e-5))
    count = int((LABELS == wrong).sum())
    if count == 0:
        return problem(
            _(
                "leave the center of class {c} where it is: no example of it is in this batch."
            ).format(c=wrong),
            shown,
            _("Class {c} has no example in this batch.").format(c=wrong),
        )
    return problem(
        _(
            "move center[{c}] by alpha · Σ (x_i − center[{c}]) / (1 + {count}), with "
            "alpha = self.alpha."
        ).format(c=wrong, count=count),
        shown,
        _("Class {c} has {count} examples here.").format(c=wrong, count=count),
    )
