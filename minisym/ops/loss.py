"""Loss heads and gradient control (SoftmaxOutput, regression outputs, MakeLoss, BlockGrad) and
the softmax family. A loss head's backward ignores the head gradient: it makes its own."""
import numpy as np

from ..base import MXNetValueError
from .params import Param, boolean, dtype_str, optional
from .registry import Operator, register
from .rules import fmt, known, prod, same_shape

__all__ = []


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
        data, label = in_shape
        if data is None:
            return [None, label], [out_shape[0]], []
        if label == data:  # a probability label: same shape as data
            return [data, label], [data], []
        if self.multi_output:
            spatial = data[2:]
            flat = (data[0], prod(spatial)) if known(spatial) else None
            keep = data[:1] + spatial
            chan1 = data[:1] + (1,) + spatial
            if label is None:
                label = keep
            elif label not in (flat, keep, chan1):
                raise MXNetValueError(
                    f"{self.where}: label {fmt(label)} does not fit data {fmt(data)} with "
                    f"multi_output=True; expecting {fmt(flat)} or {fmt(keep)}")
            return [data, label], [data], []
        return [data, data[:-1]], [data], []


class _Regression(Operator):
    """Forward: identity (Logistic: sigmoid). Backward: grad_scale/num_output * f(out - label)."""

    params = {"grad_scale": Param(float, 1.0)}
    backward_needs = ("in_data", "out_data")

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape, out_shape):
        data, label = in_shape
        if data is None or not known(data):
            return [data, label], [data], []
        if label is None:
            label = (data[0],) if len(data) == 2 and data[1] == 1 else data
        elif known(label) and (label[0] != data[0] or prod(label) != prod(data)):
            raise MXNetValueError(
                f"Error in operator {self.node_name}: Shape inconsistent, Provided={fmt(label)}, "
                f"inferred shape={fmt(data)}. {self.where}: input 1 'label' must have as many "
                f"values per sample as data {fmt(data)}")
        return [data, label], [data], []


for _name, _doc in (("LinearRegressionOutput", "Squared-error head: grad = out - label."),
                    ("LogisticRegressionOutput", "Sigmoid head: grad = sigmoid(x) - label."),
                    ("MAERegressionOutput", "Absolute-error head: grad = sign(out - label).")):
    register(_name)(type(_name, (_Regression,), {"__doc__": _doc}))


@register("MakeLoss")
class MakeLoss(Operator):
    """Forward: identity. Backward: grad_scale (normalized) whatever the head gradient."""

    params = {"grad_scale": Param(float, 1.0), "valid_thresh": Param(float, 0.0),
              "normalization": Param(str, "null", choices=("batch", "null", "valid"))}
    backward_needs = ("out_data",)

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)


@register("make_loss")
class MakeLossNew(Operator):
    """Forward: identity; its output is ``loss``. Backward: ones, whatever the head gradient."""

    backward_needs = ()

    def list_outputs(self):
        return ["loss"]

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)


@register("BlockGrad", "stop_gradient")
class BlockGrad(Operator):
    """Forward: identity. Backward: a zero gradient; needs no head gradient."""

    backward_needs = ()

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)


class _SoftmaxFamily(Operator):
    """softmax(data / temperature) along ``axis``; an ordinary op (needs a head gradient)."""

    params = {"axis": Param(int, -1), "temperature": Param(optional(float), None),
              "dtype": Param(optional(dtype_str), None),
              "use_length": Param(optional(boolean), False)}
    backward_needs = ("out_grad", "out_data")

    def list_arguments(self):
        return ["data", "length"] if self.use_length else ["data"]

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0] if in_shape[0] is not None else out_shape[0]
        if data is not None and not -len(data) <= self.axis < len(data):
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"{fmt(data)}")
        ins = [data]
        if self.use_length:
            axis = self.axis % len(data) if data is not None else None
            ins.append(None if data is None else data[:axis] + data[axis + 1:])
        return ins, [data], []

    def infer_type(self, in_type, out_type):
        out = np.dtype(self.dtype) if self.dtype else in_type[0]
        return list(in_type), [out], []


register("softmax")(type("softmax", (_SoftmaxFamily,), {"__doc__": _SoftmaxFamily.__doc__}))
register("log_softmax")(type("log_softmax", (_SoftmaxFamily,),
                             {"__doc__": "log(softmax(data / temperature)) along axis."}))


@register("SoftmaxActivation")
class SoftmaxActivation(Operator):
    """Deprecated softmax: mode='instance' per row, 'channel' over axis 1 at each position."""

    params = {"mode": Param(str, "instance", choices=("channel", "instance"))}
    backward_needs = ("out_grad", "out_data")

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        if self.mode == "channel" and data is not None and len(data) < 3:
            raise MXNetValueError(f"{self.where}: mode='channel' needs data with at least 3 "
                                  f"dimensions (N, C, ...); got {fmt(data)}")
        return same_shape(self, in_shape, out_shape)
