"""A learner's backward run under every ``req`` it can receive, judged by the values it leaves
in ``in_grad``: 'write' replaces what is there, 'add' adds to it, 'null' leaves it as it was.

The backward is called directly, with arrays of the check's own, so that every buffer can be
seen before and after (in an executor a 'null' gradient goes to a scratch array)."""

import numpy as np

from ._check import N_, _, problem

REQS = ("write", "add", "null")
MUST = {
    "write": N_("it must replace what is there"),
    "add": N_("it must add to what is there"),
    "null": N_("it must leave the buffer as it is"),
}
EXPECTED = {"write": N_("the gradient"), "add": N_("old + gradient"), "null": N_("old, untouched")}
DID = {
    "write": N_(" (it wrote the gradient over what was there)"),
    "add": N_(" (it added the gradient to what was there)"),
    "null": N_(" (it left the buffer as it was)"),
}


def req_runs(count):
    """One req per input for each run: every input gets each req, beside different ones."""
    return [[REQS[(k + i) % len(REQS)] for i in range(count)] for k in range(len(REQS))]


def _nd(arrays):
    import minisym as mx

    return [mx.nd.array(a) for a in arrays]


def _show(values):
    flat = np.asarray(values, dtype=float).ravel()
    shown = ", ".join(f"{v:.3g}" for v in flat[:4])
    return f"[{shown}{', ...' if flat.size > 4 else ''}]"


def _what_it_did(req, got, old, grad):
    """The req the values look like, in words ('' when they look like none)."""
    looks = {"write": grad, "add": old + grad, "null": old}
    for other, want in looks.items():
        if other != req and np.allclose(got, want, rtol=1e-4, atol=1e-5):
            return _(DID[other])
    return ""


def req_explains(fn, op, inputs, gradients, fix):
    """The req message when a check failed because ``fn`` computes the right gradients but
    writes them under the wrong req (the values are those of another req), else None."""
    try:
        return backward_req_problem(fn, op, inputs, gradients, fix, recognised_only=True)
    except Exception:  # noqa: BLE001 -- the code fails outside the engine too: the check's own message stands
        return None


def backward_req_problem(fn, op, inputs, gradients, fix, recognised_only=False):
    """Run ``fn`` (a CustomOp.backward, ``op`` its self) under every req; the first input
    whose in_grad does not follow its req, as a message, or None.

    ``inputs``: {'names': list_arguments(), 'out_grad', 'in_data', 'out_data', 'aux': lists of
    arrays}; ``gradients``: {input index: the gradient it must receive}, the inputs judged;
    ``fix(i)``: the line that writes in_grad[i] right. With ``recognised_only``, only values
    that are those of another req count."""
    names = inputs["names"]
    rng = np.random.RandomState(17)
    for reqs in req_runs(len(names)):
        shapes = [np.shape(a) for a in inputs["in_data"]]
        old = [(rng.uniform(0.5, 2, s) * rng.choice([-1, 1], s)).astype(np.float32) for s in shapes]
        in_grad = _nd(old)
        fn(
            op,
            list(reqs),
            _nd(inputs["out_grad"]),
            _nd(inputs["in_data"]),
            _nd(inputs["out_data"]),
            in_grad,
            _nd(inputs["aux"]),
        )
        for i, grad in gradients.items():
            got = in_grad[i].asnumpy()
            grad = np.broadcast_to(np.asarray(grad, dtype=np.float32), old[i].shape)
            want = {"write": grad, "add": old[i] + grad, "null": old[i]}[reqs[i]]
            did = _what_it_did(reqs[i], got, old[i], grad)
            if np.allclose(got, want, rtol=1e-4, atol=1e-5) or (recognised_only and not did):
                continue
            return problem(
                _(
                    "in_grad[{i}] ({name!r}) ignores req[{i}]: with req[{i}]={req!r} {must}; "
                    "write it with {fix}."
                ).format(i=i, name=names[i], req=reqs[i], must=_(MUST[reqs[i]]), fix=fix(i)),
                _(
                    "With req = {reqs}, in_grad[{i}] held {old} before backward and the gradient "
                    "is {grad}:"
                ).format(reqs=list(reqs), i=i, old=_show(old[i]), grad=_show(grad)),
                _("expected {what} = {values}").format(
                    what=_(EXPECTED[reqs[i]]), values=_show(want)
                ),
                _("got {values}{did}.").format(values=_show(got), did=did),
            )
    return None


REQ_VERIFIED = N_(
    "under req 'write' (replaced), 'add' (added to what was there) and 'null' (left as it was)"
)
