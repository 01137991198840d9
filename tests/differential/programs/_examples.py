"""MXNet's example networks (tests/fixtures/mxnet_json/examples/, written by MXNet 1.9.1 with
tests/differential/make_mxnet_examples.py) loaded, inferred, bound and run: the code that
programs p740-p769 share.

Every argument and auxiliary state is drawn from one seeded ``numpy.random.Generator`` in
sorted name order, scaled so that a deep network neither explodes nor dies: weights
``N(0, 2 / fan_in)``, biases, betas and moving means ``N(0, 0.1^2)``, gammas ``1 + N(0, 0.1^2)``,
moving variances ``U(0.5, 1.5)``, labels whole classes, data ``N(0, 1)``.
"""
import hashlib
import json
import os

import numpy as np

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                      "mxnet_json", "examples")
LARGEST_RECORDED = 4096  # gradients with more elements are summarised, not stored whole


def path_of(name):
    """The path of examples/``name``.json."""
    return os.path.join(FOLDER, name + ".json")


def load(mx, name):
    """(symbol read with mx.sym.load, what is known about the file and its reading)."""
    path = path_of(name)
    with open(path, "rb") as f:
        raw = f.read()
    sym = mx.sym.load(path)
    text = raw.decode("utf-8")
    facts = {
        "file_sha256": hashlib.sha256(raw).hexdigest(),
        "tojson_equals_file": sym.tojson() == text,
        "load_json_equals_file": mx.sym.load_json(text).tojson() == text,
        "num_arguments": len(sym.list_arguments()),
        "num_auxiliary_states": len(sym.list_auxiliary_states()),
        "outputs": sym.list_outputs(),
        "num_internals": len(sym.get_internals().list_outputs()),
    }
    return sym, facts


def draw(rng, name, shape, num_classes):
    """One input's values, by what its name says it is."""
    if name.endswith("label"):
        return rng.integers(0, num_classes, size=shape).astype(np.float32)
    if name.endswith("_weight"):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    if name.endswith("_gamma"):
        return (1 + 0.1 * rng.standard_normal(shape)).astype(np.float32)
    if name.endswith("_moving_var"):
        return rng.uniform(0.5, 1.5, size=shape).astype(np.float32)
    if name == "data":
        return rng.standard_normal(shape).astype(np.float32)
    return (0.1 * rng.standard_normal(shape)).astype(np.float32)


def draw_all(sym, rng, shapes, num_classes):
    """({argument: array}, {aux: array}) for ``sym`` at the input ``shapes``, in sorted order."""
    arg_shapes, _, aux_shapes = sym.infer_shape(**shapes)
    wanted = dict(zip(sym.list_arguments(), arg_shapes))
    wanted.update(zip(sym.list_auxiliary_states(), aux_shapes))
    values = {n: draw(rng, n, tuple(wanted[n]), num_classes) for n in sorted(wanted)}
    args = {n: values[n] for n in sym.list_arguments()}
    aux = {n: values[n] for n in sym.list_auxiliary_states()}
    return args, aux


def first_dropout_input(sym):
    """The output that feeds the first Dropout node (training stops there), or None."""
    nodes = json.loads(sym.tojson())["nodes"]
    for node in nodes:
        if node["op"] == "Dropout":
            return nodes[node["inputs"][0][0]]["name"] + "_output"
    return None


def watched_names(sym, first_layers=True):
    """The arguments whose gradients are recorded: the last weight and bias and, with
    ``first_layers``, the first weight and gamma and data (as the network lists them)."""
    args = sym.list_arguments()
    weights = [n for n in args if n.endswith("_weight")]
    biases = [n for n in args if n.endswith("_bias")]
    gammas = [n for n in args if n.endswith("_gamma")]
    picked = weights[-1:] + biases[-1:]
    if first_layers:
        picked += weights[:1] + gammas[:1] + ["data"]
    return sorted(set(picked), key=args.index)


def describe(array):
    """An array as it is recorded: whole when small, else its shape and a few statistics."""
    if array.size <= LARGEST_RECORDED:
        return array
    a = array.astype(np.float64)
    return {"shape": list(array.shape), "abs_sum": float(np.abs(a).sum()),
            "first": array.ravel()[:16], "max": float(a.max()), "min": float(a.min())}


def scaled(grad):
    """A gradient as its largest magnitude and itself divided by it.

    A whole network's float32 gradients agree with MXNet's to a fraction of their largest
    element, not element by element: a near-zero entry of a large gradient is noise in both.
    So the tolerance applies to ``grad / max|grad|``."""
    largest = float(np.abs(grad).max())
    return {"max_abs": largest, "scaled": describe(grad / largest if largest else grad)}


def bind(mx, sym, args, aux, with_grads):
    """Bind ``sym`` to copies of ``args`` / ``aux``; labels get no gradient."""
    nd_args = {n: mx.nd.array(v) for n, v in args.items()}
    nd_aux = {n: mx.nd.array(v) for n, v in aux.items()}
    if not with_grads:
        return sym.bind(mx.cpu(), args=nd_args, aux_states=nd_aux, grad_req="null")
    req = {n: "null" if n.endswith("label") else "write" for n in args}
    grads = {n: mx.nd.zeros(v.shape) for n, v in args.items() if req[n] == "write"}
    return sym.bind(mx.cpu(), args=nd_args, args_grad=grads, grad_req=req, aux_states=nd_aux)


def run_example(mx, name, shapes, seed, num_classes=10, train=True, first_layers=True):
    """Load examples/``name``.json and run it at the input ``shapes`` {name: shape}.

    Records the file facts, the inferred output shapes, the forward output in inference mode
    and, with ``train``, one training step: forward(is_train=True), backward (with a drawn head
    gradient when the step stops before a Dropout, whose mask cannot match MXNet's), the
    gradients of watched_names, scaled, and the first and last auxiliary state after it.
    ``first_layers=False`` leaves out the gradients of the first layers, for a network so deep
    that float32 rounding, amplified layer by layer, moves them by more than the tolerance.
    """
    sym, facts = load(mx, name)
    rng = np.random.default_rng(seed)
    args, aux = draw_all(sym, rng, shapes, num_classes)
    result = dict(facts)
    result["drawn_check"] = float(sum(np.abs(v.astype(np.float64)).sum() for v in args.values()))
    result["infer_shape"] = sym.infer_shape(**shapes)[1]
    ex = bind(mx, sym, args, aux, with_grads=False)
    ex.forward(is_train=False)
    result["inference"] = [describe(o.asnumpy()) for o in ex.outputs]
    if not train:
        return result
    stop = first_dropout_input(sym)
    net = sym if stop is None else sym.get_internals()[stop]
    result["train_output"] = net.list_outputs()
    names = watched_names(net, first_layers)
    ex = bind(mx, net, {n: args[n] for n in net.list_arguments()},
              {n: aux[n] for n in net.list_auxiliary_states()}, with_grads=True)
    ex.forward(is_train=True)
    result["train"] = [describe(o.asnumpy()) for o in ex.outputs]
    if stop is None:
        ex.backward()
    else:
        heads = [rng.standard_normal(o.shape).astype(np.float32) for o in ex.outputs]
        ex.backward([mx.nd.array(h) for h in heads])
    # MXNet's threaded engine may hand back a moving statistic from before backward updated it
    # (the update is not ordered before asnumpy); waitall orders it. A no-op in minisym.
    mx.nd.waitall()
    result["grads"] = {n: scaled(ex.grad_dict[n].asnumpy()) for n in names}
    aux_names = net.list_auxiliary_states()
    result["aux_after_train"] = {n: describe(ex.aux_dict[n].asnumpy())
                                 for n in sorted(set(aux_names[:1] + aux_names[-1:]))}
    return result
