"""Checks for lesson 7, ResNet: a bottleneck unit (names, shapes, strides), a parameter count
from ``infer_shape``, and the gradient of a feature map read with a monitor."""

import json

import numpy as np

from ._check import N_, _, check_function, problem

EPS = 2e-5


# --- shared ------------------------------------------------------------------------------------
def _nodes(symbol):
    """{node name: (op, attrs, [input node names])} from ``symbol.tojson()``."""
    nodes = json.loads(symbol.tojson())["nodes"]
    return {
        n["name"]: (n["op"], n.get("attrs", {}), [nodes[i[0]]["name"] for i in n["inputs"]])
        for n in nodes
    }


def _not_a_symbol(answer, fn):
    import minisym as mx

    if not isinstance(answer, mx.sym.Symbol):
        return problem(
            _("return the Symbol of the unit's last node (the add of body and shortcut)."),
            _("{function}() returned {kind} {answer!r:.60}.").format(
                function=fn.__name__, kind=type(answer).__name__, answer=answer
            ),
        )
    return None


def _bn_relu(data, name, i):
    import minisym as mx

    bn = mx.sym.BatchNorm(data, fix_gamma=False, eps=EPS, name=f"{name}_bn{i}")
    return mx.sym.Activation(bn, act_type="relu", name=f"{name}_relu{i}")


def _conv(data, num_filter, kernel, stride, pad, name):
    import minisym as mx

    return mx.sym.Convolution(
        data, num_filter=num_filter, kernel=kernel, stride=stride, pad=pad, no_bias=True, name=name
    )


def _basic_unit(data, num_filter, stride, dim_match, name):
    """The lesson's residual unit (the check's own copy)."""
    import minisym as mx

    act1 = _bn_relu(data, name, 1)
    body = _conv(act1, num_filter, (3, 3), stride, (1, 1), name + "_conv1")
    body = _conv(_bn_relu(body, name, 2), num_filter, (3, 3), (1, 1), (1, 1), name + "_conv2")
    shortcut = data if dim_match else _conv(act1, num_filter, (1, 1), stride, (0, 0), name + "_sc")
    return mx.sym.elemwise_add(body, shortcut, name=name + "_plus")


# The bottleneck units the checks compare with, recorded once from the answer to 7.1 (which
# stays out of the package): each layer in order, (op, name, its input, ...) and for a
# Convolution (num_filter, kernel, stride, pad); every Convolution has no_bias=True, every
# BatchNorm fix_gamma=False and eps=EPS, every Activation is a ReLU.
UNIT_NODES = {
    "b": (  # bottleneck_unit(data, 256, (2, 2), dim_match=False, name="b")
        ("BatchNorm", "b_bn1", "data"),
        ("Activation", "b_relu1", "b_bn1"),
        ("Convolution", "b_conv1", "b_relu1", 64, (1, 1), (1, 1), (0, 0)),
        ("BatchNorm", "b_bn2", "b_conv1"),
        ("Activation", "b_relu2", "b_bn2"),
        ("Convolution", "b_conv2", "b_relu2", 64, (3, 3), (2, 2), (1, 1)),
        ("BatchNorm", "b_bn3", "b_conv2"),
        ("Activation", "b_relu3", "b_bn3"),
        ("Convolution", "b_conv3", "b_relu3", 256, (1, 1), (1, 1), (0, 0)),
        ("Convolution", "b_sc", "b_relu1", 256, (1, 1), (2, 2), (0, 0)),
        ("elemwise_add", "b_plus", "b_conv3", "b_sc"),
    ),
    "c": (  # bottleneck_unit(data, 256, (1, 1), dim_match=True, name="c")
        ("BatchNorm", "c_bn1", "data"),
        ("Activation", "c_relu1", "c_bn1"),
        ("Convolution", "c_conv1", "c_relu1", 64, (1, 1), (1, 1), (0, 0)),
        ("BatchNorm", "c_bn2", "c_conv1"),
        ("Activation", "c_relu2", "c_bn2"),
        ("Convolution", "c_conv2", "c_relu2", 64, (3, 3), (1, 1), (1, 1)),
        ("BatchNorm", "c_bn3", "c_conv2"),
        ("Activation", "c_relu3", "c_bn3"),
        ("Convolution", "c_conv3", "c_relu3", 256, (1, 1), (1, 1), (0, 0)),
        ("elemwise_add", "c_plus", "c_conv3", "data"),
    ),
    "u": (  # bottleneck_unit(data, 256, (1, 1), dim_match=False, name="u")
        ("BatchNorm", "u_bn1", "data"),
        ("Activation", "u_relu1", "u_bn1"),
        ("Convolution", "u_conv1", "u_relu1", 64, (1, 1), (1, 1), (0, 0)),
        ("BatchNorm", "u_bn2", "u_conv1"),
        ("Activation", "u_relu2", "u_bn2"),
        ("Convolution", "u_conv2", "u_relu2", 64, (3, 3), (1, 1), (1, 1)),
        ("BatchNorm", "u_bn3", "u_conv2"),
        ("Activation", "u_relu3", "u_bn3"),
        ("Convolution", "u_conv3", "u_relu3", 256, (1, 1), (1, 1), (0, 0)),
        ("Convolution", "u_sc", "u_relu1", 256, (1, 1), (1, 1), (0, 0)),
        ("elemwise_add", "u_plus", "u_conv3", "u_sc"),
    ),
}


def _recorded_unit(name):
    """The Symbol of UNIT_NODES[name], layer by layer."""
    import minisym as mx

    made = {"data": mx.sym.Variable("data")}
    for op, node, *rest in UNIT_NODES[name]:
        if op == "BatchNorm":
            made[node] = mx.sym.BatchNorm(made[rest[0]], fix_gamma=False, eps=EPS, name=node)
        elif op == "Activation":
            made[node] = mx.sym.Activation(made[rest[0]], act_type="relu", name=node)
        elif op == "Convolution":
            source, num_filter, kernel, stride, pad = rest
            made[node] = _conv(made[source], num_filter, kernel, stride, pad, node)
        else:
            made[node] = mx.sym.elemwise_add(made[rest[0]], made[rest[1]], name=node)
    return made[node]


# --- 7.1 ---------------------------------------------------------------------------------------
BOTTLENECK_CASES = (  # (num_filter, stride, dim_match, name, data shape)
    (256, (2, 2), False, "b", (2, 64, 16, 16)),
    (256, (1, 1), True, "c", (2, 256, 8, 8)),
)


@check_function(
    "7.1 (bottleneck_unit)",
    N_(
        "names, weight shapes, strides and output shapes "
        "match the bottleneck unit, with the projection and without it."
    ),
)
def bottleneck_unit(fn):
    """fn(data, num_filter, stride, dim_match, name) -> the unit's Symbol."""
    import minisym as mx

    for num_filter, stride, dim_match, name, shape in BOTTLENECK_CASES:
        call = _(
            "bottleneck_unit(data, {num_filter}, {stride}, dim_match={dim_match}, "
            "name='{name}') with data {shape}"
        ).format(num_filter=num_filter, stride=stride, dim_match=dim_match, name=name, shape=shape)
        with mx.name.NameManager():
            got = fn(mx.sym.Variable("data"), num_filter, stride, dim_match, name)
            found = _not_a_symbol(got, fn)
            if found:
                return found
        want = _recorded_unit(name)
        found = (
            _compare_arguments(got, want, name, dim_match, call)
            or _compare_layers(got, want, name, call)
            or _compare_shapes(got, want, shape, call)
        )
        if found:
            return found
    return None


def _compare_arguments(got, want, name, dim_match, call):
    have, need = got.list_arguments(), want.list_arguments()
    if have == need:
        if got.list_auxiliary_states() != want.list_auxiliary_states():
            return problem(
                _(
                    "give every step BatchNorm (with its moving mean and variance), "
                    "named name + '_bn1', '_bn2', '_bn3'."
                ),
                _("For {call}, list_auxiliary_states() is {got}, expected {want}.").format(
                    call=call, got=got.list_auxiliary_states(), want=want.list_auxiliary_states()
                ),
            )
        return None
    missing = [n for n in need if n not in have]
    extra = [n for n in have if n not in need]
    if sorted(have) == sorted(need):
        return problem(
            _(
                "make each step BatchNorm, then ReLU, then the convolution: bn1 → "
                "relu1 → conv1 → bn2 → relu2 → conv2 → bn3 → relu3 → conv3."
            ),
            _(
                "For {call}, the names are right but list_arguments() lists them in "
                "another order: {have}."
            ).format(call=call, have=have),
        )
    if any(n.endswith("_bias") for n in extra):
        return problem(
            _("give every Convolution no_bias=True (the BatchNorm after it shifts anyway)."),
            _("For {call}, there are biases {biases}.").format(
                call=call, biases=[n for n in extra if n.endswith("_bias")]
            ),
        )
    if not dim_match and f"{name}_sc_weight" in missing:
        return problem(
            _(
                "with dim_match=False, make the shortcut a projection: "
                "mx.sym.Convolution(act1, num_filter=num_filter, kernel=(1, 1), "
                "stride=stride, no_bias=True, name=name + '_sc')."
            ),
            _("For {call}, there is no '{name}_sc_weight'.").format(call=call, name=name),
        )
    if dim_match and f"{name}_sc_weight" in extra:
        return problem(
            _(
                "with dim_match=True, make the shortcut data itself: the input and "
                "the output have the same shape."
            ),
            _("For {call}, there is a '{name}_sc_weight'.").format(call=call, name=name),
        )
    return problem(
        _(
            "name every layer name + '_bn1', '_relu1', '_conv1', ... so its variables "
            "are named after it."
        ),
        _("For {call}, list_arguments() is {have};").format(call=call, have=have),
        _("expected {need} (missing {missing}, not expected {extra}).").format(
            need=need, missing=missing, extra=extra
        ),
    )


def _compare_layers(got, want, name, call):
    have, need = _nodes(got), _nodes(want)
    for i in (1, 2, 3):
        bn = have.get(f"{name}_bn{i}")
        if bn and bn[0] == "BatchNorm" and bn[1].get("fix_gamma", "True") == "True":
            return problem(
                _("give every BatchNorm fix_gamma=False: a residual unit learns gamma."),
                _(
                    "For {call}, '{name}_bn{i}' keeps gamma fixed at 1: BatchNorm's "
                    "default is fix_gamma=True."
                ).format(call=call, name=name, i=i),
            )
    for i in (1, 2, 3):
        conv = f"{name}_conv{i}"
        if conv not in have:
            return problem(
                _("name the convolutions name + '_conv1', '_conv2', '_conv3'."),
                _("For {call}, there is no node named '{conv}'.").format(call=call, conv=conv),
            )
        op, attrs, inputs = have[conv]
        wanted, sources = need[conv][1:]
        if op != "Convolution":
            return problem(
                _("make '{conv}' a Convolution.").format(conv=conv),
                _("For {call}, '{conv}' is a {op}, expected a Convolution.").format(
                    call=call, conv=conv, op=op
                ),
            )
        for key in ("kernel", "stride"):
            value, expected = _tuple(attrs.get(key, "(1, 1)")), _tuple(wanted.get(key))
            if value != expected:
                return problem(
                    _(
                        "put the stride on the 3×3 conv2, as in MXNet's ResNet; conv1 and conv3 "
                        "are 1×1 with stride 1."
                    )
                    if key == "stride"
                    else _("make the kernels 1×1, then 3×3, then 1×1."),
                    _("For {call}, '{conv}' has {key}={value}, expected {expected}.").format(
                        call=call, conv=conv, key=key, value=value, expected=expected
                    ),
                )
        if inputs[:1] != sources[:1]:
            return problem(
                _("give each convolution the ReLU just before it."),
                _("For {call}, '{conv}' reads '{got}', expected '{want}'.").format(
                    call=call, conv=conv, got=inputs[0], want=sources[0]
                ),
            )
    sc = f"{name}_sc"
    if sc in need and sc in have and have[sc][2][:1] != need[sc][2][:1]:
        return problem(
            _(
                "give the projection act1 ('{name}_relu1'), the normalized input, as "
                "conv1 has: this is the pre-activation unit."
            ).format(name=name),
            _("For {call}, the projection '{sc}' reads '{got}'.").format(
                call=call, sc=sc, got=have[sc][2][0]
            ),
        )
    return None


def _tuple(text):
    return tuple(int(x) for x in str(text).strip("()[] ").replace(",", " ").split())


def _compare_shapes(got, want, shape, call):
    got_args, got_out = got.infer_shape(data=shape)[:2]
    want_args, want_out = want.infer_shape(data=shape)[:2]
    names = want.list_arguments()
    for name, have, need in zip(names, got_args, want_args):
        if tuple(have) != tuple(need):
            change = (
                _("give conv1 and conv2 num_filter // 4 filters, and conv3 num_filter.")
                if "conv" in name
                else _("make {name} {shape}.").format(name=name, shape=tuple(need))
            )
            return problem(
                change,
                _("For {call}, {name} has shape {have}, expected {need}.").format(
                    call=call, name=name, have=tuple(have), need=tuple(need)
                ),
            )
    if tuple(got_out[0]) != tuple(want_out[0]):
        return problem(
            _("give the 3×3 convolution pad=(1, 1)."),
            _("For {call}, the output is {got}, expected {want}.").format(
                call=call, got=tuple(got_out[0]), want=tuple(want_out[0])
            ),
        )
    return None


# --- 7.2 ---------------------------------------------------------------------------------------
def _count_cases():
    """(description, symbol, shapes) for the parameter count."""
    import minisym as mx

    with mx.name.NameManager():
        data = mx.sym.Variable("data")
        stage = _basic_unit(data, 128, (2, 2), False, "stage2_unit1")
        stage = _basic_unit(stage, 128, (1, 1), True, "stage2_unit2")
        yield (
            _("stage 2 of ResNet-18 (two units, 64 → 128 channels)"),
            stage,
            {"data": (1, 64, 32, 32)},
        )
        fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=10, name="fc")
        yield (
            _("a FullyConnected layer and its softmax"),
            mx.sym.SoftmaxOutput(fc, name="softmax"),
            {"data": (5, 20)},
        )
        unit = _recorded_unit("u")
        yield _("a bottleneck unit, 64 → 256 channels"), unit, {"data": (2, 64, 8, 8)}


def _expected_count(symbol, shapes):
    """(parameter count, {what might be wrongly added: its size})."""
    arg_shapes, aux_shapes = symbol.infer_shape(**shapes)[::2]
    sizes = dict(zip(symbol.list_arguments(), (int(np.prod(s)) for s in arg_shapes)))
    inputs = sum(sizes[n] for n in shapes)
    labels = sum(v for n, v in sizes.items() if n.endswith("label") and n not in shapes)
    count = sum(v for n, v in sizes.items() if n not in shapes and not n.endswith("label"))
    params = [n for n in sizes if n not in shapes and not n.endswith("label")]
    dims = sum(int(sum(s)) for n, s in zip(symbol.list_arguments(), arg_shapes) if n in params)
    aux = sum(int(np.prod(s)) for s in aux_shapes)
    return count, {
        "inputs": inputs,
        "labels": labels,
        "aux": aux,
        "arrays": len(params),
        "dims": dims,
    }


@check_function(
    "7.2 (count_parameters)",
    N_(
        "the counts are right for a ResNet-18 stage, a "
        "classifier with its label, and a bottleneck "
        "unit."
    ),
)
def count_parameters(fn):
    """fn(symbol, **shapes) -> the number of learned values."""
    for what, symbol, shapes in _count_cases():
        got = fn(symbol, **shapes)
        call = _("For {what}, count_parameters(symbol, {shapes})").format(
            what=what, shapes=_kwargs(shapes)
        )
        if isinstance(got, (list, tuple, dict, np.ndarray)) or got is None:
            return problem(
                _("return one number: the sum over the parameters of the product of each shape."),
                _("{call} returned {kind}.").format(call=call, kind=type(got).__name__),
            )
        want, parts = _expected_count(symbol, shapes)
        if got == want:
            continue
        change, why = _count_hint(got, want, parts)
        return problem(
            change,
            _("{call} returned {got}, expected {want}.").format(call=call, got=got, want=want),
            why,
        )
    return None


def _kwargs(shapes):
    return ", ".join(f"{k}={v}" for k, v in shapes.items())


def _count_hint(got, want, parts):
    """(what to change, why the count is off)."""
    extra = got - want
    added = {
        "inputs": (
            N_("leave out the inputs you gave shapes for: they are data, not parameters."),
            N_("The difference, {extra}, is the size of the inputs you gave shapes for."),
        ),
        "labels": (
            N_("leave out the label: softmax_label is an input too; skip names ending in 'label'."),
            N_("The difference, {extra}, is the size of the label."),
        ),
        "aux": (
            N_(
                "leave out the auxiliary states: moving_mean / moving_var are not "
                "learned (infer_shape returns them apart, in its third list)."
            ),
            N_("The difference, {extra}, is the size of the auxiliary states."),
        ),
    }
    for key in ("inputs", "labels", "aux"):
        if parts[key] and extra == parts[key]:
            return _(added[key][0]), _(added[key][1]).format(extra=extra)
    if parts["inputs"] and parts["labels"] and extra == parts["inputs"] + parts["labels"]:
        return (
            _("count only the arguments that are neither the data nor the label."),
            _("The difference, {extra}, is the size of the data and the label.").format(
                extra=extra
            ),
        )
    if got == parts["arrays"]:
        return (
            _(
                "count the values of each parameter array: the product of its shape "
                "(np.prod(shape)), summed."
            ),
            _("That is how many parameter arrays there are."),
        )
    if got == parts["dims"]:
        return (
            _("multiply each shape's dimensions (np.prod), then sum."),
            _(
                "That adds up the dimensions; a (128, 64, 3, 3) weight holds 128 · 64 · 3 · "
                "3 = 73,728 values."
            ),
        )
    return (
        _(
            "take arg_shapes from symbol.infer_shape(**shapes), pair them with "
            "symbol.list_arguments(), and sum np.prod(shape) over the names that are not "
            "inputs and not labels."
        ),
        "",
    )


# --- 7.3 ---------------------------------------------------------------------------------------
GRADIENT_NODES = ("stage2_unit1_conv2", "fc1", "stage1_unit1_bn1")


def _small_module():
    """A bound ResNet (two stages of one unit, 4 and 8 filters), fixed weights, and a batch."""
    import minisym as mx

    rng = np.random.RandomState(7)
    with mx.name.NameManager():
        data = mx.sym.Variable("data")
        body = mx.sym.BatchNorm(data, fix_gamma=True, eps=EPS, name="bn_data")
        body = _conv(body, 4, (3, 3), (1, 1), (1, 1), "conv0")
        body = _basic_unit(body, 4, (1, 1), False, "stage1_unit1")
        body = _basic_unit(body, 8, (2, 2), False, "stage2_unit1")
        body = mx.sym.Activation(
            mx.sym.BatchNorm(body, fix_gamma=False, eps=EPS, name="bn1"),
            act_type="relu",
            name="relu1",
        )
        body = mx.sym.Pooling(body, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool1")
        body = mx.sym.FullyConnected(mx.sym.Flatten(body, name="flatten"), num_hidden=3, name="fc1")
        net = mx.sym.SoftmaxOutput(body, name="softmax")
    module = mx.mod.Module(
        net, data_names=["data"], label_names=["softmax_label"], context=mx.cpu()
    )
    module.bind(data_shapes=[("data", (2, 3, 8, 8))], label_shapes=[("softmax_label", (2,))])
    module.init_params(mx.init.Xavier())
    args, auxs = module.get_params()
    args = {n: mx.nd.array(rng.normal(0, 0.5, a.shape)) for n, a in args.items()}
    module.set_params(args, auxs)
    batch = mx.io.DataBatch([mx.nd.array(rng.uniform(-1, 1, (2, 3, 8, 8)))], [mx.nd.array([0, 2])])
    return net, module, batch


def _recorded(net, module, batch):
    """{node: (in_grad[0], [(name, other in_grad)], out_data[0], in_data[0])} as the executor's
    trace records them, on an executor of its own with the module's parameters."""
    import minisym as mx

    args, auxs = module.get_params()
    executor = net.simple_bind(mx.cpu(), data=batch.data[0].shape, grad_req="write")
    executor.copy_params_from(args, auxs)
    executor.arg_dict["data"][:] = batch.data[0]
    executor.arg_dict["softmax_label"][:] = batch.label[0]
    trace = executor.enable_trace(keep_bytes=64 << 20)
    executor.forward(is_train=True)
    executor.backward()
    recorded = {}
    for node in GRADIENT_NODES:
        back = trace.find(node, "backward")[0]
        grads = [(s.name, s.array) for s in back.slots if s.role == "in_grad"]
        recorded[node] = (
            grads[0][1],
            grads[1:],
            trace.find(node, "forward")[0].slot("out_data[0]").array,
            trace.find(node, "forward")[0].slot("in_data[0]").array,
        )
    return recorded


@check_function(
    "7.3 (input_gradient)",
    N_(
        "the arrays you read from the monitor are the "
        "gradients the executor computed, for a convolution, the classifier and a "
        "BatchNorm."
    ),
)
def input_gradient(fn):
    """fn(module, batch, node) -> in_grad[0] of node, as a NumPy array."""
    net, module, batch = _small_module()
    recorded = _recorded(net, module, batch)
    for node in GRADIENT_NODES:
        got = fn(module, batch, node)
        found = _gradient_problem(got, node, recorded[node])
        if found:
            return problem(
                found[0],
                _("input_gradient(module, batch, '{node}') {found}").format(
                    node=node, found=found[1]
                ),
            )
    return None


def _gradient_problem(got, node, recorded):
    """(what to change, what ``got`` is instead of in_grad[0] of ``node``), or None."""
    import minisym as mx

    want, others, output, feature = recorded
    name = f"'{node}_backward_output0'"
    if got is None:
        return (
            _(
                "call monitor.tic() before forward, then read monitor.queue after backward "
                "and before monitor.toc()."
            ),
            _(
                "returned None. The monitor collects only between tic() and toc(), and toc() "
                "empties monitor.queue."
            ),
        )
    if isinstance(got, mx.nd.NDArray):
        return _("return a NumPy array: .asnumpy()."), _("returned an NDArray.")
    if isinstance(got, str):
        return (
            _("read the array itself from monitor.queue before toc()."),
            _("returned the text {text!r}: that is what toc() makes of an array.").format(
                text=got[:40]
            ),
        )
    got = np.asarray(got)
    if got.size == 1 and want.size > 1:
        return (
            _("keep the array itself: stat_func=lambda g: g.copy()."),
            _(
                "returned one number, {value:.4g}: the Monitor's default stat_func is a norm."
            ).format(value=got.ravel()[0]),
        )
    if got.shape == output.shape and np.allclose(got, output):
        return (
            _("take in_grad[0], {name}.").format(name=name),
            _(
                "returned '{node}_output', the feature map {node} makes in forward, not a gradient."
            ).format(node=node),
        )
    if got.shape == feature.shape and np.allclose(got, feature) and not np.allclose(got, want):
        return (
            _("take the gradient, {name}.").format(name=name),
            _("returned the feature map {node} reads (its in_data[0]), not its gradient.").format(
                node=node
            ),
        )
    for i, (slot, other) in enumerate(others, start=1):
        if got.shape == other.shape and np.allclose(got, other, rtol=1e-4, atol=1e-7):
            return (
                _("take the feature map's gradient, in_grad[0]: {name}.").format(name=name),
                _(
                    "returned in_grad[{i}] ('{node}_backward_output{i}', the gradient of "
                    "{node}'s {slot})."
                ).format(i=i, node=node, slot=slot),
            )
    if got.shape != want.shape:
        return (
            _(
                "pick the name {name} (pattern= is a regular expression matched at the start "
                "of each name)."
            ).format(name=name),
            _(
                "returned an array of shape {got}; in_grad[0] of {node} has the shape of its "
                "data input, {want}."
            ).format(got=got.shape, node=node, want=want.shape),
        )
    if not np.allclose(got, want, rtol=1e-4, atol=1e-7):
        return (
            _(
                "run forward(batch, is_train=True) then backward() between tic() and reading "
                "the queue, and take {name}."
            ).format(name=name),
            _("returned an array of the right shape, {shape}, but other values.").format(
                shape=want.shape
            ),
        )
    return None
