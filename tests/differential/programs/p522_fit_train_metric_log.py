"""fit's log lines: Epoch[e] Train-<metric>=<value> is the metric over the whole epoch (read
before the batch-end callbacks), even when a Speedometer resets the metric's local part, and a
Validation line per epoch with eval_data."""
import logging

import numpy as np


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        text = record.getMessage()
        if "Train-" in text or "Validation-" in text:
            self.lines.append(text)


def _fit(mx, callback):
    rng = np.random.RandomState(0)
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    mod = mx.mod.Module(mx.sym.SoftmaxOutput(x, name="softmax"), logger=logging.getLogger("p522"))
    train = mx.io.NDArrayIter(rng.standard_normal((12, 5)).astype(np.float32),
                              np.array([0, 1, 2] * 4, np.float32), batch_size=2)
    valid = mx.io.NDArrayIter(rng.standard_normal((4, 5)).astype(np.float32),
                              np.array([0, 1, 2, 0], np.float32), batch_size=2)
    args = {"fc1_weight": mx.nd.array(rng.standard_normal((3, 5)) * 0.3),
            "fc1_bias": mx.nd.array(np.zeros(3))}
    logger = logging.getLogger("p522")
    handler = _Lines()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        mod.fit(train, eval_data=valid, num_epoch=2, arg_params=args, batch_end_callback=callback,
                optimizer_params=(("learning_rate", 0.5),))
    finally:
        logger.removeHandler(handler)
    return handler.lines


def run(mx):
    return {
        "plain": _fit(mx, None),
        "speedometer_auto_reset": _fit(mx, mx.callback.Speedometer(2, frequent=2)),
    }
