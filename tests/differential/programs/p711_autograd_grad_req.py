"""mx.autograd's bookkeeping: grad_req 'write' / 'add' / 'null' over several backward calls,
retain_graph, attach_grad again (a fresh zero gradient), autograd.grad (new arrays, .grad
unchanged), mark_variables, detach, pause, the recording / training states of every scope,
and the dtype of an int32 array's gradient."""
import numpy as np


def _states(mx):
    return [mx.autograd.is_recording(), mx.autograd.is_training()]


def run(mx):
    res = {}
    x = mx.nd.array([1.0, 2.0, 3.0])
    res["grad_before_attach"] = x.grad is None
    x.attach_grad(grad_req="add")
    res["grad_after_attach"] = x.grad.asnumpy()
    steps = []
    for _ in range(3):
        with mx.autograd.record():
            y = x * x
        y.backward()
        steps.append(x.grad.asnumpy())
    res["add_steps"] = steps
    x.attach_grad()
    res["reattached"] = x.grad.asnumpy()
    for _ in range(2):
        with mx.autograd.record():
            y = x * x * x
        y.backward()
    res["write_twice"] = x.grad.asnumpy()
    with mx.autograd.record():
        y = (x * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.asnumpy()
    y.backward()
    res["retain_graph"] = [first, x.grad.asnumpy()]
    n = mx.nd.array([1.0, 2.0])
    n.attach_grad(grad_req="null")
    res["null_grad"] = n.grad.asnumpy()
    z = mx.nd.array([1.0, 2.0])
    z.attach_grad()
    with mx.autograd.record():
        out = z * 2 + n * 5
    out.backward()
    res["null_beside_write"] = {"z": z.grad.asnumpy(), "n_grad_is_none": n.grad is None}
    v = mx.nd.array([1.0, 2.0])
    v.attach_grad()
    with mx.autograd.record():
        c = v * v * v
    g = mx.autograd.grad(c, [v])
    res["autograd_grad"] = {"type": type(g).__name__, "len": len(g), "grad": g[0].asnumpy(),
                            "dot_grad_unchanged": v.grad.asnumpy()}
    with mx.autograd.record():
        c = v * v
    res["autograd_grad_single"] = mx.autograd.grad(c, v)[0].asnumpy()
    m, gm = mx.nd.array([1.0, 2.0]), mx.nd.zeros(2)
    mx.autograd.mark_variables([m], [gm])
    with mx.autograd.record():
        o = m * 5 + m * m
    mx.autograd.backward([o])
    res["mark_variables"] = {"given_array": gm.asnumpy(), "grad": m.grad.asnumpy()}
    mx.autograd.mark_variables([m], [gm], grad_reqs="add")
    with mx.autograd.record():
        o = m * 5
    mx.autograd.backward(o)
    res["mark_variables_add"] = gm.asnumpy()
    with mx.autograd.record():
        p = v * v
        with mx.autograd.pause():
            q = v * 10
        r = p * q
    r.backward()
    res["pause"] = v.grad.asnumpy()
    states = {"outside": _states(mx)}
    with mx.autograd.record():
        states["record"] = _states(mx)
        with mx.autograd.pause():
            states["pause"] = _states(mx)
        with mx.autograd.pause(train_mode=True):
            states["pause_train"] = _states(mx)
    with mx.autograd.record(train_mode=False):
        states["record_predict"] = _states(mx)
        with mx.autograd.train_mode():
            states["train_mode"] = _states(mx)
    with mx.autograd.train_mode():
        with mx.autograd.predict_mode():
            states["predict_mode"] = _states(mx)
    states["after"] = _states(mx)
    states["set_recording"] = [mx.autograd.set_recording(True), mx.autograd.set_recording(False)]
    states["set_training"] = [mx.autograd.set_training(True), mx.autograd.set_training(False)]
    res["states"] = states
    w = mx.nd.array([1.0, 2.0])
    w.attach_grad()
    w.backward()
    res["backward_of_variable"] = w.grad.asnumpy()
    i = mx.nd.array([1, 2], dtype="int32")
    i.attach_grad()
    res["int_grad_dtype"] = np.dtype(i.grad.dtype).name
    return res
