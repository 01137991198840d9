"""Loss heads and gradient control (SoftmaxOutput, regression outputs, MakeLoss, BlockGrad) and
the softmax family. A loss head's backward ignores the head gradient: it makes its own."""
import numpy as np

from ..base import MXNetError, MXNetTypeError, MXNetValueError
from .assign import assign
from .params import Param, boolean, dtype_str, optional
from .registry import Operator, register
from .rules import fmt, known, merge_known_shape, prod, same_dtype, same_shape

__all__ = []


def _softmax(x, axis):
    """softmax of ``x`` along ``axis`` (the max is subtracted first); same shape and dtype."""
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x, axis):
    """log(softmax(x)) along ``axis``, computed as shifted - log(sum(exp(shifted)))."""
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _softmax_backward(y, dy, axis):
    """dL/dx of y = softmax(x) along ``axis``: y * (dy - sum(dy * y))."""
    return y * (dy - (dy * y).sum(axis=axis, keepdims=True))


def _masked_softmax(x, axis, length):
    """softmax over the first ``length`` entries along ``axis`` (length: x's shape without axis);
    the entries past the length, and whole rows of length 0, are 0."""
    position = np.arange(x.shape[axis]).reshape([-1 if a == axis else 1 for a in range(x.ndim)])
    keep = position < np.expand_dims(length.astype(np.int64), axis)
    shifted = np.where(keep, x, -np.inf)
    top = shifted.max(axis=axis, keepdims=True)
    e = np.where(keep, np.exp(shifted - np.where(np.isfinite(top), top, 0)), 0).astype(x.dtype)
    total = e.sum(axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def _f32_scale(scale, *divisors):
    """scale / d1 / d2 ... in 32-bit floats: MXNet stores grad_scale as a float32 and forms its
    gradient factors in float32 arithmetic (visible in float64 results from the 8th digit)."""
    value = np.float32(scale)
    for divisor in divisors:
        value = np.float32(value / np.float32(divisor))
    return float(value)


def _sigmoid(x):
    """1 / (1 + exp(-x)) without overflow for large |x|."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)


# --- SoftmaxOutput ---------------------------------------------------------------------------
def _class_index(values):
    """MXNet reads a float label (or ignore_label) as an int, truncating toward zero."""
    return np.trunc(values).astype(np.int64)


def _target_minus(prob, label, smooth_alpha):
    """prob (N, C, S) minus the (smoothed) one-hot of the labels (N, S); an out-of-range label
    (e.g. -1) has no one-hot entry."""
    classes = prob.shape[1]
    onehot = np.arange(classes)[None, :, None] == _class_index(label)[:, None, :]
    if not smooth_alpha:
        return prob - onehot
    # Label smoothing: the true class gets 1 - alpha, every other class alpha / (C - 1).
    target = np.where(onehot, 1.0 - _f32_scale(smooth_alpha),
                      _f32_scale(smooth_alpha, max(classes - 1, 1)))
    return prob - target.astype(prob.dtype)


def _count_valid(label, ignore_label):
    """How many labels differ from ignore_label (as ints), at least 1: the 'valid' divisor."""
    return max(1, int(np.count_nonzero(_class_index(label) != int(ignore_label))))


@register("SoftmaxOutput", "Softmax")
class SoftmaxOutput(Operator):
    """Forward: softmax. Backward: grad_scale * (softmax - onehot(label)) / normalization."""

    params = {
        "grad_scale": Param(float, 1.0),
        "ignore_label": Param(float, -1.0),
        "multi_output": Param(boolean, False),
        "use_ignore": Param(boolean, False),
        "preserve_shape": Param(boolean, False),
        "normalization": Param(str, "null", choices=("batch", "null", "valid")),
        "out_grad": Param(boolean, False),
        "smooth_alpha": Param(float, 0.0),
    }
    backward_needs = ("in_data", "out_data")

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C, ...) -> output like data; label data.shape[:-1], or with multi_output
        (N, prod(spatial)) / (N, *spatial), or data's own shape for probability labels."""
        data, label = in_shape
        if data is None:
            return [None, label], [out_shape[0]], []
        if label == data:  # a probability label: same shape as data
            return [data, label], [data], []
        if self.multi_output:
            if not known(data):  # MXNet computes the label from data's size: it must be known
                raise MXNetValueError(
                    f"{self.where}: with multi_output=True the label's shape comes from data's "
                    f"size, but data {fmt(data)} has unknown dimensions (0); give data's whole "
                    "shape")
            spatial = data[2:]
            flat = (data[0], prod(spatial))
            keep = data[:1] + spatial
            chan1 = data[:1] + (1,) + spatial
            if label is None:
                label = flat
            elif label not in (flat, keep, chan1):
                raise MXNetValueError(
                    f"{self.where}: label {fmt(label)} does not fit data {fmt(data)} with "
                    f"multi_output=True; expecting {fmt(flat)} or {fmt(keep)}")
            return [data, label], [data], []
        return [data, data[:-1]], [data], []

    def _softmax_view(self, shape):
        """The 3-D shape (N, C, S) whose axis 1 the softmax runs along."""
        if self.multi_output:
            return (shape[0], shape[1], prod(shape[2:]))
        if self.preserve_shape:
            return (prod(shape[:-1]), shape[-1], 1)
        # QUIRK (MXNet): by default every axis after the first is one softmax: (N, rest).
        return (shape[0], prod(shape[1:]), 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, ...) -> softmax (same shape); train and test alike."""
        data, label = in_data
        view = data.reshape(self._softmax_view(data.shape))
        assign(out_data[0], req[0], _softmax(view, axis=1).reshape(data.shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata from softmax and label (the head gradient is not read); label gets 0."""
        data, label = in_data
        out = out_data[0]
        if label.shape == out.shape:  # a probability label: never normalized
            grad = (out - label) * _f32_scale(self.grad_scale)
        else:
            grad = self._label_gradient(out, label)
        if self.out_grad:
            # QUIRK (MXNet 1.9.1): the backward node never receives the head gradient; it
            # multiplies by its first input, the softmax output itself.
            grad = grad * out
        assign(in_grad[0], req[0], grad)
        assign(in_grad[1], req[1], 0)

    def _label_gradient(self, out, label):
        """grad_scale * (softmax - onehot) / divisor for class-index labels; shape of out."""
        n, classes, spatial = self._softmax_view(out.shape)
        prob = out.reshape(n, classes, spatial)
        if self.multi_output:
            labels = label.reshape(n, spatial)
            smooth = 0.0  # MXNet applies smooth_alpha only without multi_output
        else:
            # QUIRK (MXNet): row i uses label.flat[i]; with the default (N, rest) view of
            # >=3-D data only the first N labels are read.
            labels = label.reshape(-1)[:n].reshape(n, 1)
            smooth = self.smooth_alpha
        grad = _target_minus(prob, labels, smooth)
        if self.use_ignore:
            grad = grad * (_class_index(labels) != int(self.ignore_label))[:, None, :]
        scale = _f32_scale(self.grad_scale, *self._divisors(label, n, spatial))
        return (grad * scale).reshape(out.shape)

    def _divisors(self, label, n, spatial):
        """What grad_scale is divided by under ``normalization`` (MXNet's exact counts)."""
        if self.normalization == "valid":
            count = _count_valid(label, self.ignore_label)
        elif self.normalization == "batch":
            count = n if self.multi_output else label.size
        else:
            count = 1
        if self.multi_output and self.normalization != "valid":
            # QUIRK (MXNet): with multi_output even 'null' divides by the spatial size.
            return (spatial, count)
        return (count,)


# --- regression heads ------------------------------------------------------------------------
class _Regression(Operator):
    """Forward: identity (Logistic: sigmoid). Backward: grad_scale/num_output * f(out - label)."""

    params = {"grad_scale": Param(float, 1.0)}
    backward_needs = ("in_data", "out_data")

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, ...) -> output like data; label like data ((N,) for data (N, 1))."""
        data, label = in_shape
        if data is None or not known(data):  # as MXNet: nothing until data is wholly known
            return [data, label], [None], []
        if label is None:
            label = (data[0],) if len(data) == 2 and data[1] == 1 else data
        elif not known(label):
            raise MXNetValueError(
                f"Error in operator {self.node_name}: Shape inconsistent, Provided={fmt(label)}, "
                f"inferred shape={fmt(data)}. {self.where}: input 1 'label' {fmt(label)} has "
                f"unknown dimensions (0) while data {fmt(data)} is known; give the label's whole "
                "shape, or leave it out and let inference fill it in")
        elif label[0] != data[0] or prod(label) != prod(data):
            raise MXNetValueError(
                f"Error in operator {self.node_name}: Shape inconsistent, Provided={fmt(label)}, "
                f"inferred shape={fmt(data)}. {self.where}: input 1 'label' must have as many "
                f"values per sample as data {fmt(data)}")
        return [data, label], [data], []

    def link(self, data):
        """The forward map: identity (LogisticRegressionOutput overrides with the sigmoid)."""
        return data

    def loss_grad(self, diff):
        """d loss / d out as a function of out - label (squared error: the difference)."""
        return diff

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, ...) -> out (same shape), train and test alike."""
        data, label = in_data
        assign(out_data[0], req[0], self.link(data))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = f(out - label) * grad_scale / num_output; the label gets a zero gradient."""
        data, label = in_data
        out = out_data[0]
        num_output = label.size // label.shape[0]
        diff = out - label.reshape(out.shape)  # label may be (N,) for data (N, 1)
        assign(in_grad[0], req[0], self.loss_grad(diff) * _f32_scale(self.grad_scale, num_output))
        assign(in_grad[1], req[1], 0)


@register("LinearRegressionOutput")
class LinearRegressionOutput(_Regression):
    """Squared-error head: grad = out - label."""


@register("LogisticRegressionOutput")
class LogisticRegressionOutput(_Regression):
    """Sigmoid head: out = sigmoid(x), grad = out - label."""

    def link(self, data):
        """sigmoid(data)."""
        return _sigmoid(data)


@register("MAERegressionOutput")
class MAERegressionOutput(_Regression):
    """Absolute-error head: grad = sign(out - label), with sign(0) = -1."""

    def loss_grad(self, diff):
        """sign(out - label) as +1 / -1."""
        # QUIRK (MXNet minus_sign): a difference of exactly 0 gives -1, not 0.
        return np.where(diff > 0, 1, -1).astype(diff.dtype)


# --- MakeLoss, make_loss, BlockGrad ----------------------------------------------------------
@register("MakeLoss")
class MakeLoss(Operator):
    """Forward: identity. Backward: grad_scale (normalized) whatever the head gradient."""

    params = {"grad_scale": Param(float, 1.0), "valid_thresh": Param(float, 0.0),
              "normalization": Param(str, "null", choices=("batch", "null", "valid"))}
    backward_needs = ("out_data",)

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output of the same shape."""
        return list(in_shape), [in_shape[0]], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> out (same shape): the identity."""
        data, = in_data
        assign(out_data[0], req[0], data)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = grad_scale / divisor everywhere (the head gradient is not read)."""
        out = out_data[0]
        assign(in_grad[0], req[0], np.full(out.shape, self._value(out), dtype=out.dtype))

    def _value(self, out):
        """grad_scale, divided by the rows of the (rest, last) view (batch) or by the count of
        outputs > valid_thresh (valid)."""
        if self.normalization == "valid":
            # MXNet divides in the data's dtype here, not in float32.
            valid = max(1, int(np.count_nonzero(out > self.valid_thresh)))
            return out.dtype.type(_f32_scale(self.grad_scale)) / out.dtype.type(valid)
        if self.normalization == "batch":
            # QUIRK (MXNet): 'batch' divides by prod(shape[:-1]), the rows of the 2-D view
            # (shape[0] only for 2-D data; 1 for 1-D data).
            return _f32_scale(self.grad_scale, prod(out.shape[:-1]))
        return _f32_scale(self.grad_scale)


@register("make_loss")
class MakeLossNew(Operator):
    """Forward: identity; its output is ``loss``. Backward: ones, whatever the head gradient."""

    # MXNet 1.9.1 accepts MakeLoss's grad_scale and normalization here and ignores them: the
    # gradient stays ones (observed: grad_scale=2, normalization='batch' still gives 1).
    params = {"grad_scale": Param(float, 1.0),
              "normalization": Param(str, "null", choices=("batch", "null", "valid"))}
    call_params = ()  # mx.sym.make_loss(data, name, attr, out): parameters by keyword only
    backward_needs = ()

    def list_outputs(self):
        return ["loss"]

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> loss (same shape): the identity."""
        data, = in_data
        assign(out_data[0], req[0], data)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = 1 everywhere (the head gradient is not read)."""
        assign(in_grad[0], req[0], 1)


@register("BlockGrad", "stop_gradient")
class BlockGrad(Operator):
    """Forward: identity. Backward: a zero gradient; needs no head gradient."""

    backward_needs = ()
    passes_gradient = False

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data -> out (same shape): the identity."""
        data, = in_data
        assign(out_data[0], req[0], data)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = 0."""
        assign(in_grad[0], req[0], 0)


# --- softmax family --------------------------------------------------------------------------
class _SoftmaxFamily(Operator):
    """softmax(data / temperature) along ``axis``; an ordinary op (needs a head gradient)."""

    params = {"axis": Param(int, -1), "temperature": Param(optional(float), None),
              "dtype": Param(optional(dtype_str), None),
              "use_length": Param(optional(boolean), False)}
    backward_needs = ("out_grad", "out_data")

    def list_arguments(self):
        return ["data", "length"] if self.use_length else ["data"]

    def infer_shape(self, in_shape, out_shape):
        """data (any shape) -> output like data; length: data's shape without ``axis``.

        As in MXNet, the output's shape reaches back to data only for log_softmax (softmax
        never infers its data from its output), and use_length needs data's shape first.
        """
        if self.use_length and in_shape[0] is None:
            raise MXNetValueError(
                f"{self.where}: with use_length=True the shape of 'length' comes from data's, "
                "so data's shape must be known first (MXNet does not infer it from the output "
                "either); give data's shape")
        ins, outs, _ = same_shape(self, in_shape[:1], out_shape)
        data = ins[0]
        if data is not None and not -len(data) <= self.axis < len(data):  # MXNet does not check
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"{fmt(data)}")
        if not self.infers_data_from_output:
            ins = [in_shape[0]]
        if self.use_length:
            given = in_shape[0]
            axis = self.axis % len(given)
            ins.append(given[:axis] + given[axis + 1:] or (1,))
        return ins, outs, []

    def infer_type(self, in_type, out_type):
        """The output takes ``dtype`` when given (and an unknown data dtype becomes it too, as
        in MXNet's SoftmaxOpType), else the data's dtype."""
        if self.dtype:
            out = np.dtype(self.dtype)
            return [in_type[0] if in_type[0] is not None else out] + list(in_type[1:]), [out], []
        return list(in_type), [in_type[0]], []

    def _scaled(self, data):
        """data / temperature (data itself without a temperature)."""
        return data if self.temperature is None else data / self.temperature

    def _unscale(self, grad):
        """The chain rule through data / temperature."""
        return grad if self.temperature is None else grad / self.temperature


@register("softmax")
class softmax(_SoftmaxFamily):  # noqa: N801 (named as the MXNet operator)
    """softmax(data / temperature) along axis; with use_length only the first length entries."""

    infers_data_from_output = False  # MXNet's SoftmaxOpShape never writes the data's shape back

    call_inputs = ("data", "length")  # mx.sym.softmax(data, length, axis, ...)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., K, ...) -> softmax along axis (same shape); length: data without axis."""
        data = in_data[0]
        x = self._scaled(data)
        if self.use_length:
            _, length = in_data
            y = _masked_softmax(x, self.axis % data.ndim, length)
        else:
            y = _softmax(x, self.axis)
        assign(out_data[0], req[0], y)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = y * (dy - sum(dy * y)) / temperature; the length gets 0."""
        dtype = in_grad[0].dtype  # the output may have another dtype (the dtype parameter)
        y, dy = out_data[0].astype(dtype), out_grad[0].astype(dtype)
        assign(in_grad[0], req[0], self._unscale(_softmax_backward(y, dy, self.axis)))
        if self.use_length:
            assign(in_grad[1], req[1], 0)


@register("log_softmax")
class log_softmax(_SoftmaxFamily):  # noqa: N801 (named as the MXNet operator)
    """log(softmax(data / temperature)) along axis."""

    infers_data_from_output = True

    def _check_no_length(self):
        """use_length is not supported (MXNet 1.9.1 cannot bind log_softmax with it either)."""
        if self.use_length:
            raise NotImplementedError(
                f"{self.where}: use_length=True is not supported by log_softmax (MXNet 1.9.1 "
                f"fails to bind it too); mask with softmax(use_length=True) and take the log")

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., K, ...) -> log softmax along axis (same shape)."""
        self._check_no_length()
        data, = in_data
        assign(out_data[0], req[0], _log_softmax(self._scaled(data), self.axis))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = (dy - exp(y) * sum(dy)) / temperature."""
        self._check_no_length()
        dtype = in_grad[0].dtype  # the output may have another dtype (the dtype parameter)
        y, dy = out_data[0].astype(dtype), out_grad[0].astype(dtype)
        grad = dy - np.exp(y) * dy.sum(axis=self.axis, keepdims=True)
        assign(in_grad[0], req[0], self._unscale(grad))


@register("SoftmaxActivation")
class SoftmaxActivation(Operator):
    """Deprecated softmax: mode='instance' over the last axis, 'channel' over axis 1."""

    params = {"mode": Param(str, "instance", choices=("channel", "instance"))}
    backward_needs = ("out_grad", "out_data")

    def infer_shape(self, in_shape, out_shape):
        """data (N, ...) -> output of the same shape, inferred either way ('channel' needs 3 or
        more dimensions: MXNet finds that out only when it runs)."""
        ins, outs, aux = same_shape(self, in_shape, out_shape)
        data = ins[0]
        if self.mode == "channel" and data is not None and len(data) < 3:
            raise MXNetValueError(f"{self.where}: mode='channel' needs data with at least 3 "
                                  f"dimensions (N, C, ...); got {fmt(data)}")
        return ins, outs, aux

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, ...) -> softmax over the last axis (instance) or axis 1 (channel)."""
        data, = in_data
        # MXNet's 'instance' views data as (rest, last): a softmax over the last axis only.
        axis = 1 if self.mode == "channel" else -1
        assign(out_data[0], req[0], _softmax(data, axis))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = y * (dy - sum over axis 1 of dy * y), in both modes."""
        y, dy = out_data[0], out_grad[0]
        if y.ndim < 2:
            raise MXNetValueError(f"{self.where}: backward needs data with at least 2 "
                                  f"dimensions (N, C, ...); got {fmt(y.shape)}")
        # QUIRK (MXNet): backward always sums over axis 1, so for 'instance' mode on >=3-D data
        # it is not the derivative of the forward (which normalizes over the last axis).
        assign(in_grad[0], req[0], _softmax_backward(y, dy, axis=1))


@register("softmin")
class softmin(softmax):  # noqa: N801 (named as the MXNet operator)
    """softmax(-data / temperature) along axis: the smallest value gets the largest share."""

    infers_data_from_output = True  # MXNet's softmin uses ElemwiseShape: both ways
    call_inputs = ("data",)

    def validate(self):
        """softmin has one input: use_length=True has no length to read (MXNet fails later)."""
        if self.use_length:
            raise MXNetValueError(
                f"{self.where}: use_length=True is not supported by softmin (it takes only "
                "data; MXNet 1.9.1 fails at inference); mask with softmax(-data, "
                "use_length=True) instead")

    def list_arguments(self):
        return ["data"]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., K, ...) -> softmin along axis (same shape); floating-point data only."""
        if not np.issubdtype(in_data[0].dtype, np.floating):  # MXNet's kernel has floats only
            raise MXNetTypeError(
                f"{self.where}: data is {in_data[0].dtype.name}, but softmin computes in "
                "floating point (MXNet 1.9.1 fails here too); cast it first: "
                "mx.sym.cast(x, dtype='float32')")
        super().forward(is_train, req, in_data, out_data, aux)

    def _scaled(self, data):
        """-data / temperature."""
        return -super()._scaled(data)

    def _unscale(self, grad):
        """The chain rule through -data / temperature."""
        return -super()._unscale(grad)


# --- softmax_cross_entropy and SVMOutput ----------------------------------------------------
def _row_labels(op, label, classes):
    """The class index of each row (a float label truncated toward zero), refused when outside
    0..classes-1: MXNet 1.9.1 reads past the row there and returns a neighbour's value."""
    index = _class_index(label)
    bad = (index < 0) | (index >= classes)
    if bad.any():
        row = int(np.argmax(bad))
        raise MXNetValueError(
            f"{op.where}: label[{row}] = {label[row]:g} is not a class index: data has "
            f"{classes} classes, so each label must be 0..{classes - 1}. (MXNet 1.9.1 reads "
            "outside the row there and returns a wrong loss.) Check the labels you feed.")
    return index


@register("softmax_cross_entropy")
class SoftmaxCrossEntropy(Operator):
    """sum over rows of -log(softmax(data)[row, label[row]]): one number, shape (1,)."""

    backward_needs = ("out_grad", "in_data")
    no_gradient_inputs = ("label",)

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        """data (N, C), label (N,) -> (1,): the loss summed over the batch. Both shapes must
        be given, as in MXNet (the label's is not inferred)."""
        data, label = in_shape
        if data is None or len(data) != 2:
            raise MXNetValueError(
                f"{self.where}: SoftmaxCrossEntropy only accept 2D data: data is "
                f"{fmt(data)}, but it must be (batch, classes); flatten it first "
                "(mx.sym.flatten) or give its shape")
        if label is None or len(label) != 1:
            raise MXNetValueError(
                f"{self.where}: SoftmaxCrossEntropy only accept 1D label: label is "
                f"{fmt(label)}, but it must be ({data[0] or 'batch'},), one class index per "
                "row of data; give its shape (MXNet does not infer it)")
        if data[0] and label[0] and data[0] != label[0]:
            raise MXNetValueError(
                f"{self.where}: SoftmaxCrossEntropy: data label shape mismatch: data "
                f"{fmt(data)} has {data[0]} rows but label {fmt(label)} has {label[0]} "
                "entries; give one label per row")
        return [data, label], [(1,)], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C), label (N,) -> (1,): -sum of log(max(p, 1e-8)) of each row's class."""
        data, label = in_data
        prob = _softmax(data, axis=1)
        index = _row_labels(self, label, data.shape[1])
        picked = prob[np.arange(data.shape[0]), index]
        loss = -np.log(np.maximum(picked, data.dtype.type(1e-8))).sum()
        assign(out_data[0], req[0], np.reshape(loss, (1,)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dL/ddata = dL/dout * (softmax(data) - onehot(label)); the label has no gradient."""
        data, label = in_data
        if req[1] != "null":
            raise MXNetError(
                f"{self.where}: SoftmaxCrossEntropy: Cannot take gradient wrt label: a class "
                "index has none. Give the label variable grad_req 'null': a dict such as "
                "grad_req={'softmax_label': 'null', ...} (with your label's name) in bind / "
                "simple_bind, or train with mx.mod.Module, which never asks for label "
                "gradients.")
        grad = _softmax(data, axis=1)
        grad[np.arange(data.shape[0]), _row_labels(self, label, data.shape[1])] -= 1
        assign(in_grad[0], req[0], out_grad[0] * grad)


@register("SVMOutput")
class SVMOutput(Operator):
    """Forward: identity. Backward: the hinge (L1) or squared hinge (L2) gradient of the
    labels' one-vs-rest margins, whatever the head gradient."""

    params = {"margin": Param(float, 1.0), "regularization_coefficient": Param(float, 1.0),
              "use_linear": Param(boolean, False)}

    def list_arguments(self):
        return ["data", "label"]

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The label and the output only (as MXNet's SVMOutput): no head gradient."""
        return [in_data[1], out_data[0]]

    def infer_shape(self, in_shape, out_shape):
        """data (..., C) -> output like data, label data.shape[:-1] (one class per row)."""
        data, label = in_shape
        if data is None:
            return [None, label], [out_shape[0]], []
        if len(data) < 2:
            raise MXNetValueError(f"{self.where}: data {fmt(data)} needs at least 2 "
                                  "dimensions (batch, classes)")
        try:
            label = merge_known_shape(label, data[:-1])
        except ValueError:
            raise MXNetValueError(
                f"{self.where}: label has shape {fmt(label)} but data {fmt(data)} needs "
                f"{fmt(data[:-1])}: one class index per row (data's shape without its last "
                "axis)") from None
        return [data, label], [data], []

    def infer_type(self, in_type, out_type):
        """Every input and the output take data's dtype, which must be known first (MXNet)."""
        if in_type[0] is None:
            if any(t is not None for t in list(in_type) + list(out_type)):
                raise MXNetTypeError(
                    f"{self.where}: First input must have specified type: give data's dtype "
                    "(the label's follows from it)")
            return list(in_type), list(out_type), []
        return same_dtype(self, in_type, out_type)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (..., C) -> the same values (the scores)."""
        assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Per row with label k, on the scores s (the output): L1 gives -c at k where s_k <
        margin and c elsewhere where s_x > -margin; L2 gives -2c (margin - s_k) and
        2c (margin + s_x) there (c = regularization_coefficient); 0 otherwise."""
        out = out_data[0]
        dtype = out.dtype.type
        scores = out.reshape(-1, out.shape[-1])
        k = _class_index(in_data[1].reshape(-1))
        is_label = np.arange(scores.shape[1])[None, :] == k[:, None]
        margin, coef = dtype(self.margin), dtype(self.regularization_coefficient)
        if self.use_linear:
            grad = np.where(is_label, np.where(margin > scores, -coef, 0),
                            np.where(margin > -scores, coef, 0))
        else:
            grad = -coef * np.where(is_label, np.where(margin > scores, 2 * (margin - scores), 0),
                                    np.where(margin > -scores, -2 * (margin + scores), 0))
        assign(in_grad[0], req[0], grad.astype(out.dtype).reshape(out.shape))
        assign(in_grad[1], req[1], 0)
