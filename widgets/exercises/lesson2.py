"""Checks for lesson 2, shape and type inference."""

from ._check import N_, _, check_function, problem

CASES = [
    (28, 3, 1, 1),
    (28, 3, 1, 0),
    (28, 5, 2, 2),
    (32, 2, 2, 0),
    (7, 7, 1, 0),
    (15, 3, 2, 1),
    (224, 7, 2, 3),
    (9, 4, 3, 1),
]


def _inferred_size(size, kernel, stride, pad):
    """What the engine infers for a Convolution's output height."""
    import minisym as mx

    conv = mx.sym.Convolution(
        mx.sym.Variable("data"),
        kernel=(kernel, kernel),
        num_filter=1,
        stride=(stride, stride),
        pad=(pad, pad),
    )
    return conv.infer_shape(data=(1, 1, size, size))[1][0][2]


@check_function(
    "2.1 (conv_output_size)",
    N_("matches infer_shape in all {cases} cases of size, kernel, stride and pad."),
    cases=len(CASES),
)
def conv_output_size(fn):
    """fn(size, kernel, stride, pad) -> the convolution's output size."""
    for size, kernel, stride, pad in CASES:
        got, want = fn(size, kernel, stride, pad), _inferred_size(size, kernel, stride, pad)
        if got == want:
            continue
        change = (
            _("add pad on both sides: the padded input is size + 2·pad.")
            if got == (size + pad - kernel) // stride + 1
            else _(
                "count the positions the kernel fits, in "
                "whole steps: (size + 2·pad − kernel) // stride + 1 (//, not /)."
            )
        )
        return problem(
            change,
            _(
                "conv_output_size(size={size}, kernel={kernel}, "
                "stride={stride}, pad={pad}) returned {got!r}, but infer_shape "
                "gives {want}."
            ).format(size=size, kernel=kernel, stride=stride, pad=pad, got=got, want=want),
        )
    return None


# (data shape, whether weight's shape is known yet): weight is an implicit variable, whose
# shape inference must work out from data's; the engine passes [] for a shape not known yet.
SCALE_CASES = [((8, 10), False), ((2, 3), True), ((1, 1), False)]


@check_function(
    "2.2 (scale_infer_shape)",
    N_(
        "arguments (batch, features) and (features,), "
        "output (batch, features), no auxiliary states, for every batch and width, "
        "with weight's shape known and not known yet, and through mx.sym.Custom."
    ),
)
def scale_infer_shape(fn):
    """fn(in_shape) -> ([data, weight], [output], []); in_shape[1] may be [] (unknown)."""
    for data, known in SCALE_CASES:
        in_shape = [list(data), [data[1]] if known else []]
        got = fn(in_shape)
        want = ([data, (data[1],)], [data], [])
        found = _compare(got, want, in_shape)
        if found:
            return found
    return _through_the_engine(fn)


def _through_the_engine(fn):
    """The learner's infer_shape inside a custom operator whose weight is implicit."""
    import minisym as mx

    class ScaleProp(mx.operator.CustomOpProp):
        def list_arguments(self):
            return ["data", "weight"]

        def infer_shape(self, in_shape):
            return fn(in_shape)

    mx.operator.register("lesson2_scale")(ScaleProp)
    node = mx.sym.Custom(data=mx.sym.Variable("data"), op_type="lesson2_scale", name="scale")
    args, outs, aux = node.infer_shape(data=(4, 5))
    if args == [(4, 5), (5,)] and outs == [(4, 5)] and aux == []:
        return None
    return problem(
        _("work weight's shape out from data's: (in_shape[0][1],)."),
        _(
            "mx.sym.Custom(data=data, op_type=..., name='scale') with data (4, 5) "
            "inferred the arguments {args}, outputs {outs}, aux {aux}; expected "
            "[(4, 5), (5,)], [(4, 5)], []."
        ).format(args=args, outs=outs, aux=aux),
    )


def _tuples(shapes):
    return [tuple(int(d) for d in s) for s in shapes]


def _compare(got, want, in_shape):
    """The first difference between ``got`` and ``want``, as a message."""
    if not isinstance(got, (list, tuple)) or len(got) != 3:
        return problem(
            _("return three lists: [argument shapes], [output shapes], [aux shapes] (here [])."),
            _("With in_shape = {in_shape} it returned {got!r}.").format(in_shape=in_shape, got=got),
        )
    names = ("argument", "output", "auxiliary")
    for what, got_list, want_list in zip(names, got, want):
        try:
            got_list = _tuples(got_list)
        except TypeError:
            return problem(
                _("give every shape as a tuple of ints, such as (in_shape[0][1],)."),
                _(NOT_SHAPES[what]).format(in_shape=in_shape, got=got_list),
            )
        if got_list != want_list:
            return problem(
                _change(what, got_list, want_list),
                _(SHAPES_ARE[what]).format(in_shape=in_shape, got=got_list, want=want_list),
            )
    return None


NOT_SHAPES = {  # one whole sentence per list, so that a translation can name each its own way
    "argument": N_(
        "With in_shape = {in_shape}, the argument shapes {got!r} are not a list of shapes."
    ),
    "output": N_("With in_shape = {in_shape}, the output shapes {got!r} are not a list of shapes."),
    "auxiliary": N_(
        "With in_shape = {in_shape}, the auxiliary shapes {got!r} are not a list of shapes."
    ),
}
SHAPES_ARE = {
    "argument": N_("With in_shape = {in_shape}, the argument shapes are {got}, expected {want}."),
    "output": N_("With in_shape = {in_shape}, the output shapes are {got}, expected {want}."),
    "auxiliary": N_("With in_shape = {in_shape}, the auxiliary shapes are {got}, expected {want}."),
}


def _change(what, got, want):
    if what == "argument" and len(got) != 2:
        return _("give one shape per name of list_arguments() ['data', 'weight'], in that order.")
    if what == "argument" and got[1:] == [want[0][:1]]:
        return _(
            "weight holds one number per feature: (in_shape[0][1],); in_shape[0][0] is the batch."
        )
    if what == "argument" and got[1:] == [()]:
        return _(
            "work weight's shape out from data's: (in_shape[0][1],). weight is an "
            "implicit variable: in_shape[1] is [] until its shape is known, so it cannot "
            "be returned as it came."
        )
    if what == "output":
        return _("give the output the shape of data: in_shape[0].")
    if what == "auxiliary":
        return _("there are no auxiliary states: the third list is [].")
    return _("weight is (features,) = (in_shape[0][1],), worked out from data's shape.")
