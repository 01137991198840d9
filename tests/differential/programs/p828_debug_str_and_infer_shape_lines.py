"""Symbol.debug_str() as MXNet prints it (the outputs, `Variable:` lines in DFS order, each
operator's inputs with a variable's version, sorted attributes; one variable alone; an
operator without inputs), Executor.debug_str()'s last two lines, and the lines MXNet prints
before an infer_shape error (`infer_shape error. Arguments:`, positional and keyword)."""
from _common import printed


def _error_lines(mx, sym, *args, **kwargs):
    """MXNet's 'infer_shape error. Arguments:' lines (MXNet prints them; minisym adds them to
    the error as a note, after its own message), and the exception's class name."""
    notes = []

    def call():
        try:
            sym.infer_shape(*args, **kwargs)
        except mx.base.MXNetError as exc:
            notes.extend(getattr(exc, "__notes__", []))
            return "MXNetError"
        return "no error"
    text, outcome = printed(call)
    lines = "\n".join([text] + notes).split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("infer_shape error")),
                 len(lines))
    end = start + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    return {"lines": lines[start:end], "outcome": outcome}


def run(mx):
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    bn = mx.sym.BatchNorm(fc1, name="bn")
    act = mx.sym.Activation(bn, act_type="relu", name="relu1")
    parts = mx.sym.split(act, num_outputs=2, axis=1, name="sp")
    out = parts[0] + parts[1] * 2
    mm, mv = mx.sym.Variable("mm"), mx.sym.Variable("mv")
    b1 = mx.sym.BatchNorm(data, moving_mean=mm, moving_var=mv, name="b1")
    b2 = mx.sym.BatchNorm(b1, moving_mean=mm, moving_var=mv, name="b2")
    with mx.AttrScope(ctx_group="dev1"):
        scoped = mx.sym.FullyConnected(data, num_hidden=3, name="f", attr={"lr_mult": "2"})
    zeros = mx.sym.zeros(shape=(2,))
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    found = {
        "net": out.debug_str(),
        "group": mx.sym.Group([out, fc1]).debug_str(),
        "shared_aux": b2.debug_str(),
        "attrs": scoped.debug_str(),
        "variable": data.debug_str(),
        "atomic": zeros.debug_str(),
        "no_inputs_then_op": (zeros + 1).debug_str(),
        "internals_head": fc1.get_internals()[1].debug_str(),
    }
    ex = scoped.simple_bind(mx.cpu(), data=(2, 3), grad_req="null")
    found["executor_tail"] = ex.debug_str().split("\n")[-2:]
    found["error_keyword"] = _error_lines(mx, a + b, a=(2, 3), b=(3, 4))
    found["error_positional"] = _error_lines(mx, a + b, (2, 3), (3, 4))
    found["error_fc"] = _error_lines(
        mx, mx.sym.FullyConnected(data, num_hidden=4, name="fc"), data=(2, 3), fc_weight=(5, 3))
    found["partial_prints_nothing"] = printed(
        lambda: _swallow(mx, lambda: (a + b).infer_shape_partial(a=(2, 3), b=(3, 4))))[0]
    return found


def _swallow(mx, fn):
    try:
        fn()
    except mx.base.MXNetError:
        pass
