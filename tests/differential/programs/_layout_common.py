"""What the layout programs (p636-p640) share: gradients after two backward calls under
grad_req='add'."""


def add_twice(mx, sym, inputs, heads):
    """Every argument's gradient after forward + backward(heads) twice with grad_req='add'
    (gradient buffers start at 1)."""
    ex = sym.simple_bind(mx.cpu(), grad_req="add", **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
        ex.grad_dict[k][:] = 1.0
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward([mx.nd.array(h) for h in heads])
    return {k: ex.grad_dict[k].asnumpy() for k in inputs}
