"""Module's label_names: naming an input the symbol does not have warns at creation and at bind,
then init_params raises (the argument became a parameter no initializer covers); label_names=None
on a net with a label; a label shape naming no argument; init_params with arg_params lacking the
label; a net without a label under the default label_names; and the fixed label_names training."""
import numpy as np
from _common import err


def _mlp(mx):
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def _train_iter(mx, rng):
    data = rng.standard_normal((8, 5)).astype(np.float32)
    label = np.array([0, 1, 2, 0, 1, 2, 0, 1], np.float32)
    return mx.io.NDArrayIter(data, label, batch_size=4)


def _params(mx, rng):
    return {"fc1_weight": mx.nd.array(rng.standard_normal((3, 5)) * 0.3),
            "fc1_bias": mx.nd.array(np.zeros(3))}


def run(mx):
    rng = np.random.RandomState(0)
    out = {}

    wrong = mx.mod.Module(_mlp(mx), label_names=["label"])
    out["fit_wrong"] = err(mx, wrong.fit, _train_iter(mx, rng), num_epoch=1)

    unset = mx.mod.Module(_mlp(mx), label_names=None)
    unset.bind(data_shapes=[("data", (4, 5))])
    out["init_unset"] = err(mx, unset.init_params)
    out["init_unset_mixed"] = err(mx, unset.init_params,
                                  initializer=mx.init.Mixed(["fc.*"], [mx.init.Uniform()]))
    out["init_unset_given"] = err(mx, unset.init_params, arg_params=_params(mx, rng))
    out["init_unset_allow_missing"] = err(mx, unset.init_params, arg_params=_params(mx, rng),
                                          allow_missing=True)

    shaped = mx.mod.Module(_mlp(mx), label_names=["label"])
    out["bind_label_shape_not_an_argument"] = err(
        mx, shaped.bind, data_shapes=[("data", (4, 5))], label_shapes=[("label", (4,))])

    body = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    nolabel = mx.mod.Module(body)
    nolabel.bind(data_shapes=[("data", (4, 5))])
    nolabel.init_params(arg_params=_params(mx, rng))
    nolabel.forward(mx.io.DataBatch([mx.nd.ones((4, 5))]), is_train=False)
    out["nolabel_output"] = nolabel.get_outputs()[0].asnumpy()

    fixed = mx.mod.Module(_mlp(mx), label_names=["softmax_label"])
    train = _train_iter(mx, rng)
    fixed.fit(train, num_epoch=2, arg_params=_params(mx, rng),
              optimizer_params=(("learning_rate", 0.5),))
    arg_params, _ = fixed.get_params()
    out["fixed_params"] = {k: v.asnumpy() for k, v in sorted(arg_params.items())}
    out["fixed_score"] = fixed.score(train, "acc")
    return out
