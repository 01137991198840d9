"""Checks for lesson 2, shape and type inference."""
from ._check import check_function

CASES = [(28, 3, 1, 1), (28, 3, 1, 0), (28, 5, 2, 2), (32, 2, 2, 0), (7, 7, 1, 0), (15, 3, 2, 1),
         (224, 7, 2, 3), (9, 4, 3, 1)]


def _inferred_size(size, kernel, stride, pad):
    """What the engine infers for a Convolution's output height."""
    import minisym as mx
    conv = mx.sym.Convolution(mx.sym.Variable('data'), kernel=(kernel, kernel), num_filter=1,
                              stride=(stride, stride), pad=(pad, pad))
    return conv.infer_shape(data=(1, 1, size, size))[1][0][2]


@check_function("2.1 (conv_output_size)", f"matches infer_shape for all {len(CASES)} cases: "
                "(size + 2·pad − kernel) // stride + 1.")
def conv_output_size(fn):
    """fn(size, kernel, stride, pad) -> the convolution's output size."""
    for size, kernel, stride, pad in CASES:
        got, want = fn(size, kernel, stride, pad), _inferred_size(size, kernel, stride, pad)
        if got == want:
            continue
        hint = ("pad is added on both sides: size + 2·pad" if got == (size + pad - kernel)
                // stride + 1 else "count the positions the kernel fits: "
                "(size + 2·pad − kernel) // stride + 1, in whole steps (//, not /)")
        return (f"conv_output_size(size={size}, kernel={kernel}, stride={stride}, pad={pad}) "
                f"returned {got!r}, but infer_shape gives {want}: {hint}.")
    return None


@check_function("2.2 (scale_infer_shape)", "arguments (batch, features) and (features,), "
                "output (batch, features), no auxiliary states, for every batch and width.")
def scale_infer_shape(fn):
    """fn(in_shape) -> ([data, weight], [output], [])."""
    for data in [(8, 10), (2, 3), (1, 1)]:
        got = fn([list(data), [data[1]]])
        want = ([data, (data[1],)], [data], [])
        problem = _compare(got, want, data)
        if problem:
            return problem
    return None


def _tuples(shapes):
    return [tuple(int(d) for d in s) for s in shapes]


def _compare(got, want, data):
    """The first difference between ``got`` and ``want``, in words."""
    if not isinstance(got, (list, tuple)) or len(got) != 3:
        return (f"with in_shape = [{list(data)}, [{data[1]}]] it returned {got!r}; return three "
                "lists: [argument shapes], [output shapes], [aux shapes] (here []).")
    names = ("argument", "output", "auxiliary")
    for what, got_list, want_list in zip(names, got, want):
        try:
            got_list = _tuples(got_list)
        except TypeError:
            return f"the {what} shapes {got_list!r} are not a list of shapes (tuples of ints)."
        if got_list != want_list:
            return (f"with data {data}: the {what} shapes are {got_list}, expected {want_list}"
                    f"{_why(what, got_list, want_list)}")
    return None


def _why(what, got, want):
    if what == "argument" and len(got) != 2:
        return (": one shape per name of list_arguments() ['data', 'weight'], in that order.")
    if what == "argument" and got[1:] == [want[0][:1]]:
        return (": weight holds one number per feature, (features,) = (in_shape[0][1],); "
                "in_shape[0][0] is the batch.")
    if what == "output":
        return ": the output has the shape of data, in_shape[0]."
    return "."
