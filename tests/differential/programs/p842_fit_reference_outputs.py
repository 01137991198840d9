"""Module.fit as MXNet runs a batch: forward_backward, update, update_metric, then the next
batch is fetched (and prepared) before the batch-end callbacks run; a callback reads the
outputs of its batch's forward (mod.get_outputs(), the executor's outputs), the weights after
that batch's update, and locals() holding data_batch and next_data_batch. The MXNet test
test_reference_single_batch_during_fit: a bare BaseModule with its steps replaced fits on an
iterator whose batches may only be read while current."""
import numpy as np


def _fit_trace(mx):
    rng = np.random.RandomState(0)
    x = rng.rand(12, 4).astype(np.float32)
    y = (x[:, 0] > 0.5).astype(np.float32)
    train = mx.io.NDArrayIter(x, y, batch_size=4)
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2,
                                                     name="fc"), name="softmax")
    mod = mx.mod.Module(net, context=mx.cpu())
    seen = []

    def callback(param):
        local = param.locals
        nxt = local.get("next_data_batch")
        seen.append({
            "epoch": param.epoch, "nbatch": param.nbatch,
            "outputs": mod.get_outputs()[0].asnumpy(),
            "exec_outputs": mod._exec_group.execs[0].outputs[0].asnumpy(),
            "weight": mod._exec_group.execs[0].arg_dict["fc_weight"].asnumpy(),
            "batch_first_row": local["data_batch"].data[0].asnumpy()[0],
            "next_first_row": None if nxt is None else nxt.data[0].asnumpy()[0],
            "metric": param.eval_metric.get_name_value(),
        })

    weight = mx.nd.array(rng.standard_normal((2, 4)) * 0.5)
    mod.fit(train, num_epoch=2, batch_end_callback=callback,
            arg_params={"fc_weight": weight, "fc_bias": mx.nd.zeros((2,))},
            optimizer_params=(("learning_rate", 0.5),))
    return seen


def _single_batch(mx):
    """MXNet's test_reference_single_batch_during_fit, recording the order of events."""
    events = []
    state = {"current": None}

    class MockBatch:
        def __init__(self, i):
            self.i = i

        @property
        def label(self):
            events.append(("label", self.i, self.i == state["current"]))

    class MockTrainData:
        def __init__(self, batches):
            self._i, self._batches = 0, batches
            self.provide_data = self.provide_label = None
            self.reset = lambda: events.append(("reset",))

        def __iter__(self):
            self._i = 0
            return self

        def __next__(self):
            if self._i < self._batches:
                state["current"] = self._i
                self._i += 1
                events.append(("next", state["current"]))
                return MockBatch(state["current"])
            events.append(("stop",))
            raise StopIteration

        next = __next__

    mod = mx.mod.BaseModule()
    step = lambda name: (lambda *args, **kwargs: events.append((name,)))
    for name in ("bind", "init_params", "init_optimizer", "forward", "backward", "update",
                 "update_metric"):
        setattr(mod, name, step(name))
    mod.get_params = lambda: (None, None)
    mod.fit(MockTrainData(batches=2), num_epoch=1,
            batch_end_callback=lambda p: events.append(("callback", p.nbatch)))
    return events


def run(mx):
    return {"trace": _fit_trace(mx), "single_batch": _single_batch(mx)}
