"""Checks for lesson 8, training: the learner writes the data iterator, a batch-end callback and
the optimizer's parameters, and each check trains the lesson's network with them (briefly).

The network is the lesson's small ResNet with the built-in ``SoftmaxOutput`` as its loss (the
same gradient as the lesson's custom softmax loss, and the same name, ``softmax``, so the same
label, ``softmax_label``), started from the lesson's seeded weights."""

import numpy as np

from ._check import N_, _, check_function, problem

BATCH = 32


def _digits():
    """(images (N, 1, 8, 8) in 0-1, labels (N,), train indices, held-out indices): the lesson's
    data and split."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = (digits.images / 16).astype(np.float32).reshape(-1, 1, 8, 8)
    order = np.random.RandomState(0).permutation(len(images))
    return images, digits.target.astype(np.float32), order[512:], order[:512]


def _residual_unit(data, num_filter, stride, dim_match, name):
    import minisym as mx

    act1 = mx.sym.Activation(
        mx.sym.BatchNorm(data, fix_gamma=False, name=name + "_bn1"),
        act_type="relu",
        name=name + "_relu1",
    )
    conv1 = mx.sym.Convolution(
        act1,
        num_filter=num_filter,
        kernel=(3, 3),
        stride=stride,
        pad=(1, 1),
        no_bias=True,
        name=name + "_conv1",
    )
    act2 = mx.sym.Activation(
        mx.sym.BatchNorm(conv1, fix_gamma=False, name=name + "_bn2"),
        act_type="relu",
        name=name + "_relu2",
    )
    conv2 = mx.sym.Convolution(
        act2, num_filter=num_filter, kernel=(3, 3), pad=(1, 1), no_bias=True, name=name + "_conv2"
    )
    shortcut = (
        data
        if dim_match
        else mx.sym.Convolution(
            act1,
            num_filter=num_filter,
            kernel=(1, 1),
            stride=stride,
            no_bias=True,
            name=name + "_sc",
        )
    )
    return conv2 + shortcut


def small_resnet():
    """The lesson's network, with SoftmaxOutput named 'softmax' as its loss."""
    import minisym as mx

    body = mx.sym.Convolution(
        mx.sym.Variable("data"),
        num_filter=16,
        kernel=(3, 3),
        pad=(1, 1),
        no_bias=True,
        name="conv0",
    )
    body = _residual_unit(body, 16, (1, 1), True, "stage1_unit1")
    body = _residual_unit(body, 32, (2, 2), False, "stage2_unit1")
    body = mx.sym.Activation(
        mx.sym.BatchNorm(body, fix_gamma=False, name="bn1"), act_type="relu", name="relu1"
    )
    pool = mx.sym.Pooling(body, global_pool=True, kernel=(4, 4), pool_type="avg", name="pool1")
    scores = mx.sym.FullyConnected(mx.sym.Flatten(pool), num_hidden=10, name="fc1")
    return mx.sym.SoftmaxOutput(scores, name="softmax")


def initial_params(net, batch_size=BATCH):
    """(arg_params, aux_params): the lesson's seeded starting weights."""
    import minisym as mx

    arg_shapes, aux_shapes = net.infer_shape(data=(batch_size, 1, 8, 8))[::2]
    rng = np.random.RandomState(0)
    arg_params = {}
    for name, shape in zip(net.list_arguments(), arg_shapes):
        if name.endswith("_weight"):
            arg_params[name] = mx.nd.array(rng.normal(0, np.sqrt(2 / np.prod(shape[1:])), shape))
        elif name.endswith("_gamma"):
            arg_params[name] = mx.nd.ones(shape)
        elif name.endswith(("_beta", "_bias")):
            arg_params[name] = mx.nd.zeros(shape)
    aux_params = {
        name: mx.nd.ones(shape) if name.endswith("_var") else mx.nd.zeros(shape)
        for name, shape in zip(net.list_auxiliary_states(), aux_shapes)
    }
    return arg_params, aux_params


def _module(net):
    import logging

    import minisym as mx

    return mx.mod.Module(net, context=mx.cpu(), logger=logging.getLogger("minisym.lesson8"))


# --- 8.1 -----------------------------------------------------------------------------------
def _shape_problem(name, shape, batch_size):
    if shape[0] != batch_size:
        return problem(
            _("pass batch_size=batch_size to NDArrayIter."),
            _(
                "Its batches hold {count} examples, but the check asked for "
                "batch_size={batch_size}."
            ).format(count=shape[0], batch_size=batch_size),
        )
    if shape[1:] == (64,):
        return problem(
            _("reshape the pixels with pixels.reshape(-1, 1, 8, 8)."),
            _(
                "Its {name} batches are {shape}: flat rows of 64 pixels. The network "
                "starts with a Convolution, which needs (batch, channels, height, "
                "width) = {needed}."
            ).format(name=name, shape=shape, needed=(batch_size, 1, 8, 8)),
        )
    if shape[1:] == (8, 8):
        return problem(
            _("add the channel axis: pixels.reshape(-1, 1, 8, 8)."),
            _(
                "Its {name} batches are {shape}: the channel axis is missing. A "
                "Convolution needs (batch, channels, height, width)."
            ).format(name=name, shape=shape),
        )
    if shape[1:] != (1, 8, 8):
        return problem(
            _("reshape the pixels with pixels.reshape(-1, 1, 8, 8)."),
            _("Its {name} batches are {shape}; the network needs {needed}.").format(
                name=name, shape=shape, needed=(batch_size, 1, 8, 8)
            ),
        )
    return None


def _batches(it):
    """Every batch of one epoch of ``it``, from its start: [(data, label, pad)] in NumPy."""
    it.reset()
    out = [(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad or 0) for b in it]
    it.reset()
    return out


def _pairing_problem(batches, pixels, targets):
    """What is wrong with the examples the batches hold, compared with ``pixels``."""
    largest = max(float(batch[0].max()) for batch in batches)
    if largest > 1.0 + 1e-6:
        return problem(
            _(
                "scale the pixels to 0-1 (pixels / 16), as the lesson did: the "
                "starting weights suit inputs of that size."
            ),
            _("Its pixels go up to {largest:g}.").format(largest=largest),
        )
    if largest < 0.5:
        return problem(
            _(
                "divide by 16 (not 255) to scale the pixels to 0-1: the grey levels "
                "go from 0 to 16."
            ),
            _("Its pixels only go up to {largest:.3g}.").format(largest=largest),
        )
    expected = (pixels / 16).astype(np.float32).reshape(-1, 64)
    where = {}
    for i, row in enumerate(expected):
        where.setdefault(row.round(4).tobytes(), set()).add(int(targets[i]))
    seen = 0
    for data, label, pad in batches:
        rows = data.reshape(len(data), -1)[: len(data) - pad]
        for row, y in zip(rows, label[: len(rows)]):
            found = where.get(row.round(4).tobytes())
            if found is None:
                return problem(
                    _(
                        "reshape with pixels.reshape(-1, 1, 8, 8), which keeps each "
                        "image's 64 pixels in order (no transpose)."
                    ),
                    _("Its batches hold images that are not the pixels reshaped row by row."),
                )
            if int(y) not in found:
                return problem(
                    _(
                        "give NDArrayIter pixels and targets together, in the same "
                        "order (shuffle=True shuffles both)."
                    ),
                    _(
                        "An image of a {digit} comes with the label {label}: the "
                        "labels no longer belong to their images."
                    ).format(digit=sorted(found)[0], label=int(y)),
                )
            seen += 1
    if seen != len(pixels):
        return problem(
            _("use all of pixels and targets."),
            _("One epoch gives {seen} examples, but {given} were given.").format(
                seen=seen, given=len(pixels)
            ),
        )
    return None


@check_function(
    "8.1 (digits_iter)",
    N_(
        "batches of data (32, 1, 8, 8) in 0-1 with their labels "
        "as softmax_label, and one training step of the "
        "network runs on them."
    ),
)
def digits_iter(fn):
    """fn(pixels (N, 64) in 0-16, targets (N,), batch_size) -> an NDArrayIter for the network."""
    from sklearn.datasets import load_digits

    import minisym as mx

    digits = load_digits()
    pixels, targets = digits.data[:100].copy(), digits.target[:100].copy()
    it = fn(pixels, targets, BATCH)
    if not isinstance(it, mx.io.DataIter):
        return problem(
            _("return the iterator itself: mx.io.NDArrayIter(data, label, batch_size=batch_size)."),
            _("digits_iter() returned {kind}.").format(kind=type(it).__name__),
        )
    data_names = [d.name for d in it.provide_data]
    if data_names != ["data"]:
        return problem(
            _("give NDArrayIter one array (it is then named 'data'), not a dict or a list."),
            _("Its data is named {names}, but the network's input is the Variable 'data'.").format(
                names=data_names
            ),
        )
    label_names = [d.name for d in it.provide_label]
    if not label_names:
        return problem(
            _(
                "pass targets as NDArrayIter's second argument: NDArrayIter(images, "
                "targets, batch_size=batch_size)."
            ),
            _("It provides no labels (provide_label is [])."),
        )
    if label_names != ["softmax_label"]:
        return problem(
            _(
                "keep NDArrayIter's default label name, or pass "
                "label_name='softmax_label': Module finds arrays by name."
            ),
            _(
                "Its labels are named {names}, but the network's label argument is "
                "'softmax_label' (mx.sym.Custom named 'softmax' made it from its "
                "Prop's 'label')."
            ).format(names=label_names),
        )
    found = _shape_problem("data", tuple(it.provide_data[0].shape), BATCH)
    if found:
        return found
    if tuple(it.provide_label[0].shape) != (BATCH,):
        return problem(
            _("pass targets as they are, one number each."),
            _(
                "Its label batches are {shape}; the loss wants one class per example, {wanted}."
            ).format(shape=tuple(it.provide_label[0].shape), wanted=(BATCH,)),
        )
    found = _pairing_problem(_batches(it), pixels, targets)
    if found:
        return found
    mod = _module(small_resnet())
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    arg_params, aux_params = initial_params(mod.symbol)
    mod.init_params(arg_params=arg_params, aux_params=aux_params)
    mod.init_optimizer(optimizer_params={"learning_rate": 0.1})
    mod.forward_backward(next(iter(it)))
    mod.update()
    it.reset()
    return None


# --- 8.2 -----------------------------------------------------------------------------------
def _cross_entropy(probs, labels):
    return float(-np.log(probs[np.arange(len(labels)), labels.astype(int)] + 1e-12).mean())


def _accuracy(probs, labels):
    return float((probs.argmax(axis=1) == labels.astype(int)).mean())


def _is_number(value):
    return isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool)


@check_function(
    "8.2 (loss_recorder)",
    N_("one cross-entropy per batch, each of that batch alone, and fit's own totals left intact."),
)
def loss_recorder(fn):
    """fn(losses) -> a batch_end_callback appending each batch's cross-entropy to losses."""
    import minisym as mx

    images, labels, train = _digits()[:3]
    picked = train[: 5 * BATCH]
    it = mx.io.NDArrayIter(images[picked], labels[picked], batch_size=BATCH)
    losses = []
    callback = fn(losses)
    if not callable(callback):
        return problem(
            _(
                "return the function fit calls after each batch (def record(param): "
                "..., then return record)."
            ),
            _("loss_recorder(losses) returned {kind}.").format(kind=type(callback).__name__),
        )
    truth = {"ce": [], "acc": [], "running": [], "global": []}

    def before(param):  # the batch's own values, from the module's outputs
        probs = param.locals["self"].get_outputs()[0].asnumpy()
        label = param.locals["data_batch"].label[0].asnumpy()
        truth["ce"].append(_cross_entropy(probs, label))
        truth["acc"].append(_accuracy(probs, label))
        epoch_so_far = truth["ce"][len(truth["ce"]) - param.nbatch - 1 :]
        truth["running"].append(float(np.mean(epoch_so_far)))

    def after(param):  # what fit's progress line and log will read
        truth["global"].append(dict(param.eval_metric.get_global_name_value())["cross-entropy"])

    net = small_resnet()
    arg_params, aux_params = initial_params(net)
    _module(net).fit(
        it,
        eval_metric=["acc", "ce"],
        optimizer_params={"learning_rate": 0.1},
        arg_params=arg_params,
        aux_params=aux_params,
        num_epoch=2,
        batch_end_callback=[before, callback, after],
        progress_bar=False,
    )
    return _judge_losses(losses, truth)


def _judge_losses(losses, truth):
    batches = len(truth["ce"])
    if len(losses) != batches:
        return problem(
            _("append one value per call of the callback."),
            _(
                "losses holds {count} values after 2 epochs of 5 batches; expected {batches}."
            ).format(count=len(losses), batches=batches),
        )
    first = losses[0]
    if not _is_number(first):
        return problem(
            _(
                "append only the cross-entropy's value, a number: "
                "dict(param.eval_metric.get_name_value())['cross-entropy']."
            ),
            _("losses[0] is {first!r}.").format(first=first),
        )
    got = np.array(losses, dtype=float)
    if np.allclose(got, truth["ce"], rtol=1e-4, atol=1e-6):
        if not np.allclose(truth["global"], truth["running"], rtol=1e-4, atol=1e-6):
            return problem(
                _("call param.eval_metric.reset_local(), not reset()."),
                _(
                    "Each value is right, but the callback also cleared the metric's "
                    "totals for the epoch, which fit's progress line and log show."
                ),
            )
        return None
    if np.allclose(got, truth["running"], rtol=1e-4, atol=1e-6):
        return problem(
            _(
                "after reading the value, call param.eval_metric.reset_local(), as "
                "mx.callback.Speedometer(auto_reset=True) does."
            ),
            _(
                "losses[1] is {got:.4f}, the mean over batches 0 and 1 of the epoch, "
                "not batch 1 alone ({alone:.4f}): get_name_value() gives the metric "
                "since its last reset."
            ).format(got=got[1], alone=truth["ce"][1]),
        )
    if np.allclose(got, truth["acc"], rtol=1e-4, atol=1e-6):
        return problem(
            _("take the value named 'cross-entropy'."),
            _(
                "Those are the batches' accuracies: the metric is accuracy and "
                "cross-entropy together."
            ),
        )
    k = int(np.argmax(~np.isclose(got, truth["ce"], rtol=1e-4, atol=1e-6)))
    return problem(
        _(
            "read dict(param.eval_metric.get_name_value())['cross-entropy'], then "
            "call param.eval_metric.reset_local()."
        ),
        _("losses[{k}] is {got:.4f}, but batch {k}'s cross-entropy was {want:.4f}.").format(
            k=k, got=got[k], want=truth["ce"][k]
        ),
    )


# --- 8.3 -----------------------------------------------------------------------------------
@check_function("8.3 (optimizer_params)", N_("past 90% held-out accuracy after two epochs."))
def optimizer_params(fn):
    """fn() -> optimizer_params for 'sgd' that reach 90% held-out accuracy in two epochs."""
    import minisym as mx

    params = fn()
    if isinstance(params, (list, tuple)) and all(
        isinstance(p, tuple) and len(p) == 2 for p in params
    ):
        params = dict(params)
    if not isinstance(params, dict):
        return problem(
            _("return a dict, such as {'learning_rate': 0.1}."),
            _("optimizer_params() returned {kind}.").format(kind=type(params).__name__),
        )
    if "lr" in params:
        return problem(
            _("name the key 'learning_rate', not 'lr': {{'learning_rate': {lr!r}}}.").format(
                lr=params["lr"]
            ),
            _("SGD has no parameter named lr."),
        )
    images, labels, train, held_out = _digits()
    train_iter = mx.io.NDArrayIter(images[train], labels[train], batch_size=BATCH)
    test_iter = mx.io.NDArrayIter(images[held_out], labels[held_out], batch_size=BATCH)
    curve = []
    net = small_resnet()
    arg_params, aux_params = initial_params(net)
    mod = _module(net)
    mod.fit(
        train_iter,
        eval_data=test_iter,
        eval_metric=["acc", "ce"],
        optimizer="sgd",
        optimizer_params=params,
        arg_params=arg_params,
        aux_params=aux_params,
        num_epoch=2,
        eval_end_callback=lambda p: curve.append(dict(p.eval_metric.get_name_value())),
        progress_bar=False,
    )
    accuracy, losses = curve[-1]["accuracy"], [c["cross-entropy"] for c in curve]
    weights = mod.get_params()[0]
    if not all(np.isfinite(w.asnumpy()).all() for w in weights.values()):
        return problem(
            _("use a smaller learning rate (0.1 to 1 suits this network) or less momentum."),
            _(
                "With {params} the weights became nan: the steps were so large that "
                "training blew up."
            ).format(params=params),
        )
    if accuracy > 0.9:
        return None
    return _too_slow_or_too_far(params, accuracy, losses)


CHANCE = float(np.log(10))  # the cross-entropy of guessing: probability 1/10 for every digit


def _too_slow_or_too_far(params, accuracy, losses):
    """Why two epochs with ``params`` stayed below 90%, from the held-out loss after each."""
    seen = _(
        "With {params} held-out accuracy is {accuracy:.1%} after two epochs, and the loss "
        "was {first:.3f} after the first, {last:.3f} after the second"
    ).format(params=params, accuracy=accuracy, first=losses[0], last=losses[-1])
    stuck = losses[-1] > CHANCE - 0.3 and losses[0] - losses[-1] < 0.05
    if losses[-1] > losses[0] or losses[-1] > CHANCE + 0.2 or stuck:
        how = (
            _("worse than guessing")
            if losses[-1] > CHANCE
            else _("going up")
            if losses[-1] > losses[0]
            else _("stuck near guessing")
        )
        return problem(
            _(
                "try a smaller learning rate (0.1 to 1 suits this network) or less "
                "momentum: the steps overshoot."
            ),
            _("{seen}: {how} (guessing gives {chance:.3f}).").format(
                seen=seen, how=how, chance=CHANCE
            ),
        )
    if losses[-1] > CHANCE - 0.3:
        return problem(
            _("try a learning rate ten times larger: the steps are far too small."),
            _("{seen}: hardly better than guessing ({chance:.3f}).").format(
                seen=seen, chance=CHANCE
            ),
        )
    if losses[-1] > 0.95 * losses[0]:
        return problem(
            _(
                "try a smaller learning rate or less momentum (momentum 0.9 carries "
                "{share} of each step into the next)."
            ).format(share="90%"),
            _(
                "{seen}: it stopped falling, the steps swing to and fro around a "
                "minimum instead of going down into it."
            ).format(seen=seen),
        )
    change = (
        _("try a larger learning rate (a few times larger): the steps are too small.")
        if params.get("momentum")
        else _(
            "try a larger learning rate (a few times larger) or add 'momentum': 0.5: the "
            "steps are too small."
        )
    )
    return problem(change, _("{seen}: still falling.").format(seen=seen))
