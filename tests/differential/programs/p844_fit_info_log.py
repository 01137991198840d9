"""What Module.fit prints when the learner turned logging on at INFO: MXNet's lines alone
(minisym draws no progress line then), ``INFO:root:Epoch[0] Train-accuracy=...``, ``Time
cost``, ``Validation-...``, a Speedometer's and a checkpoint's lines, in MXNet's order, for
logging.basicConfig(level=INFO), for getLogger().setLevel(INFO) with no handler (logging.info
adds basicConfig's), and for a Module(logger=...) of its own at INFO. At WARNING, fit logs
nothing. Times and speeds differ run to run: their form is kept, not their digits; metric
values are compared as numbers."""
import contextlib
import io
import logging
import os
import re
import tempfile

import numpy as np

TOLERANCE = dict(rtol=1e-3, atol=1e-5)
_TIMED = [(re.compile(r"Time cost=\d+\.\d{3}$"), "Time cost=<seconds>"),
          (re.compile(r"Speed: \d+\.\d{2} samples/sec"), "Speed: <rate> samples/sec")]
_NUMBER = re.compile(r"(?<==)-?\d+\.\d+")


def _line(text):
    """[text with times masked and metric values as '#', [values]]."""
    for pattern, mask in _TIMED:
        text = pattern.sub(mask, text)
    return [_NUMBER.sub("#", text), [float(v) for v in _NUMBER.findall(text)]]


def _fit(mx, logger=logging, checkpoint=None):
    rng = np.random.RandomState(0)
    x = rng.rand(16, 4).astype(np.float32)
    y = (x[:, 0] > 0.5).astype(np.float32)
    train = mx.io.NDArrayIter(x, y, batch_size=4)
    valid = mx.io.NDArrayIter(x[:8], y[:8], batch_size=4)
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2,
                                                     name="fc"), name="softmax")
    mod = mx.mod.Module(net, context=mx.cpu(), logger=logger)
    args = {"fc_weight": mx.nd.array(rng.standard_normal((2, 4)) * 0.5),
            "fc_bias": mx.nd.zeros((2,))}
    mod.fit(train, eval_data=valid, num_epoch=2, arg_params=args, eval_metric=["acc", "ce"],
            optimizer_params=(("learning_rate", 0.5),),
            batch_end_callback=mx.callback.Speedometer(4, frequent=2),
            epoch_end_callback=checkpoint)


@contextlib.contextmanager
def _root(level, handler=True):
    """The root logger at ``level`` with one handler in basicConfig's format (or none), and
    sys.stderr captured; restores both."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    for h in saved[1]:
        root.removeHandler(h)
    log, err = io.StringIO(), io.StringIO()
    if handler:
        added = logging.StreamHandler(log)
        added.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
        root.addHandler(added)
    root.setLevel(level)
    try:
        with contextlib.redirect_stderr(err):
            yield log, err
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in saved[1]:
            root.addHandler(h)
        root.setLevel(saved[0])


def _lines(text):
    return [_line(t) for t in text.splitlines() if t.strip()]


def run(mx):
    out = {}
    with tempfile.TemporaryDirectory() as tmp, _root(logging.INFO) as (log, err):
        prefix = os.path.join(tmp, "net")
        _fit(mx, checkpoint=mx.callback.do_checkpoint(prefix))
        out["basic_config"] = {"log": [[t.replace(prefix, "<prefix>"), v]
                                       for t, v in _lines(log.getvalue())],
                               "stderr": _lines(err.getvalue())}
    with _root(logging.INFO, handler=False) as (log, err):
        _fit(mx)
        out["set_level_only"] = {"stderr": _lines(err.getvalue())}
    with _root(logging.WARNING) as (log, err):
        _fit(mx)
        out["warning_level_log"] = _lines(log.getvalue())
    own = logging.getLogger("p844")
    own_log = io.StringIO()
    handler = logging.StreamHandler(own_log)
    handler.setFormatter(logging.Formatter("%(name)s|%(levelname)s|%(message)s"))
    own.addHandler(handler)
    own.setLevel(logging.INFO)
    own.propagate = False
    try:
        with _root(logging.WARNING) as (log, err):
            _fit(mx, logger=own)
            out["own_logger"] = {"log": _lines(own_log.getvalue()),
                                 "stderr": _lines(err.getvalue()),
                                 "root": _lines(log.getvalue())}
    finally:
        own.removeHandler(handler)
    return out
