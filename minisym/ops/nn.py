"""Neural-network layers: FullyConnected, Convolution, Pooling, BatchNorm, activations,
Dropout, Embedding. Each class is one operator: parameters, names, shape rule, backward needs."""
from ..base import MXNetValueError
from .params import Param, boolean, dtype_str, optional, shape_tuple
from .registry import Operator, register
from .rules import fmt, known, prod, same_shape

__all__ = []


def _at_least(lower):
    return lambda v: None if v >= lower else f"should be greater equal to {lower}"


def _in_range(lo, hi):
    return lambda v: None if lo <= v <= hi else f"must be between {lo} and {hi}"


@register("FullyConnected")
class FullyConnected(Operator):
    """out = data · weightᵀ + bias. data (N, K...) -> (N, num_hidden); weight (num_hidden, K)."""

    params = {
        "num_hidden": Param(int, check=_at_least(1), doc="number of output units"),
        "no_bias": Param(boolean, False, doc="leave out the bias"),
        "flatten": Param(boolean, True, doc="flatten data to (N, K); else act on the last axis"),
    }
    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["data", "weight"] if self.no_bias else ["data", "weight", "bias"]

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        out = out_shape[0]
        bias = (self.num_hidden,)
        if data is not None and (known(data[1:]) if self.flatten else data[-1] != 0):
            k = prod(data[1:]) if self.flatten else data[-1]
            weight = (self.num_hidden, k)
            out = (data[0], self.num_hidden) if self.flatten else data[:-1] + (self.num_hidden,)
        else:
            weight = (self.num_hidden, in_shape[1][1]) if in_shape[1] is not None else None
            if data is not None:
                out = (data[0], self.num_hidden) if self.flatten else data[:-1] + (self.num_hidden,)
        ins = [data, weight] + ([] if self.no_bias else [bias])
        return ins, [out], []


def _spatial(op, name, default):
    """A per-spatial-dimension parameter, filled to the kernel's length with ``default``."""
    value = getattr(op, name)
    return tuple(value) if value else (default,) * len(op.kernel)


def _check_spatial(op):
    for name in ("stride", "dilate", "pad"):
        value = getattr(op, name, None)
        if value and len(value) != len(op.kernel):
            raise MXNetValueError(f"{op.where}: {name}={value} has {len(value)} values but "
                                  f"kernel={op.kernel} has {len(op.kernel)}; give one per "
                                  "spatial dimension")


@register("Convolution")
class Convolution(Operator):
    """Cross-correlation. data (N, C, *spatial), weight (num_filter, C/num_group, *kernel)."""

    params = {
        "kernel": Param(shape_tuple, doc="(kh, kw) or (k,)"),
        "stride": Param(shape_tuple, ()),
        "dilate": Param(shape_tuple, ()),
        "pad": Param(shape_tuple, ()),
        "num_filter": Param(int, check=_at_least(1)),
        "num_group": Param(int, 1, check=_at_least(1)),
        "workspace": Param(int, 1024),
        "no_bias": Param(boolean, False),
        "cudnn_tune": Param(optional(str), None),
        "cudnn_off": Param(boolean, False),
        "layout": Param(optional(str), None),
    }
    backward_needs = ("out_grad", "in_data")

    def validate(self):
        if not 1 <= len(self.kernel) <= 3:
            raise MXNetValueError(f"{self.where}: kernel={self.kernel} must have 1, 2 or 3 "
                                  "dimensions (1-D, 2-D or 3-D convolution)")
        _check_spatial(self)
        if self.num_filter % self.num_group:
            raise MXNetValueError(f"{self.where}: num_filter={self.num_filter} must be divisible "
                                  f"by num_group={self.num_group}")

    def list_arguments(self):
        return ["data", "weight"] if self.no_bias else ["data", "weight", "bias"]

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        nd = len(self.kernel)
        weight = bias = out = None
        bias = (self.num_filter,)
        if data is not None:
            if len(data) != nd + 2:
                raise MXNetValueError(
                    f"{self.where}: data {fmt(data)} has {len(data)} dimensions but a "
                    f"{nd}-D kernel {self.kernel} needs {nd + 2} (N, C, {'spatial, ' * nd}"[:-2]
                    + ")")
            channels = data[1]
            if channels and channels % self.num_group:
                raise MXNetValueError(f"{self.where}: data has {channels} channels, not "
                                      f"divisible by num_group={self.num_group}")
            weight = (self.num_filter, channels // self.num_group if channels else 0) + self.kernel
            stride, dilate, pad = (_spatial(self, "stride", 1), _spatial(self, "dilate", 1),
                                   _spatial(self, "pad", 0))
            spatial = []
            for x, k, s, d, p in zip(data[2:], self.kernel, stride, dilate, pad):
                extent = d * (k - 1) + 1
                if x and x + 2 * p < extent:
                    raise MXNetValueError(
                        f"{self.where}: kernel {self.kernel} (dilated size {extent}) is larger "
                        f"than the padded input {fmt(data)} with pad {pad}")
                spatial.append((x + 2 * p - extent) // s + 1 if x else 0)
            out = (data[0], self.num_filter) + tuple(spatial)
        ins = [data, weight] + ([] if self.no_bias else [bias])
        return ins, [out], []


@register("Pooling")
class Pooling(Operator):
    """Max / average / sum pooling over windows; global_pool pools each map to 1x1."""

    params = {
        "kernel": Param(shape_tuple, ()),
        "pool_type": Param(str, "max", choices=("avg", "lp", "max", "sum")),
        "global_pool": Param(boolean, False),
        "cudnn_off": Param(boolean, False),
        "pooling_convention": Param(str, "valid", choices=("full", "same", "valid")),
        "stride": Param(shape_tuple, ()),
        "pad": Param(shape_tuple, ()),
        "p_value": Param(optional(int), None),
        "count_include_pad": Param(optional(boolean), None),
        "layout": Param(optional(str), None),
    }
    backward_needs = ("out_grad", "in_data", "out_data")

    def validate(self):
        if not self.global_pool:
            if not 1 <= len(self.kernel) <= 3:
                raise MXNetValueError(f"{self.where}: kernel={self.kernel} must have 1 to 3 "
                                      "dimensions (or set global_pool=True)")
            _check_spatial(self)

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        if data is None:
            return [None], [None], []
        if self.global_pool:
            return [data], [data[:2] + (1,) * (len(data) - 2)], []
        nd = len(self.kernel)
        if len(data) != nd + 2:
            raise MXNetValueError(f"{self.where}: data {fmt(data)} has {len(data)} dimensions; "
                                  f"kernel {self.kernel} needs {nd + 2}")
        stride, pad = _spatial(self, "stride", 1), _spatial(self, "pad", 0)
        spatial = []
        for x, k, s, p in zip(data[2:], self.kernel, stride, pad):
            if not x:
                spatial.append(0)
                continue
            if x + 2 * p < k:
                raise MXNetValueError(f"{self.where}: kernel {self.kernel} is larger than the "
                                      f"padded input {fmt(data)} (pad {pad})")
            if self.pooling_convention == "valid":
                spatial.append((x + 2 * p - k) // s + 1)
            elif self.pooling_convention == "full":
                spatial.append(-(-(x + 2 * p - k) // s) + 1)
            else:
                spatial.append(-(-x // s))
        return [data], [data[:2] + tuple(spatial)], []


@register("BatchNorm")
class BatchNorm(Operator):
    """(x - mean) / sqrt(var + eps) * gamma + beta over every axis but ``axis``."""

    params = {
        "eps": Param(float, 1e-3),
        "momentum": Param(float, 0.9),
        "fix_gamma": Param(boolean, True),
        "use_global_stats": Param(boolean, False),
        "output_mean_var": Param(boolean, False),
        "axis": Param(int, 1),
        "cudnn_off": Param(boolean, False),
        "min_calib_range": Param(optional(float), None),
        "max_calib_range": Param(optional(float), None),
    }
    backward_needs = ("out_grad", "in_data", "out_data")

    def list_arguments(self):
        return ["data", "gamma", "beta"]

    def list_outputs(self):
        return ["output", "mean", "var"]

    def num_visible_outputs(self):
        return 3 if self.output_mean_var else 1

    def list_auxiliary_states(self):
        return ["moving_mean", "moving_var"]

    def input_var_attrs(self, index):
        return {3: {"__init__": '["zero", {}]'}, 4: {"__init__": '["one", {}]'}}.get(index, {})

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0] if in_shape[0] is not None else out_shape[0]
        if data is None:
            return [None, None, None], [None, None, None], [None, None]
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"{fmt(data)} with {len(data)} dimensions")
        channel = (data[axis],)
        return [data, channel, channel], [data, channel, channel], [channel, channel]


_ACT_TYPES = ("relu", "sigmoid", "softrelu", "softsign", "tanh")


@register("Activation")
class Activation(Operator):
    """Elementwise relu / sigmoid / tanh / softrelu (log(1+e^x)) / softsign (x/(1+|x|))."""

    params = {"act_type": Param(str, choices=_ACT_TYPES)}

    @property
    def backward_needs(self):
        # relu, sigmoid and tanh differentiate from their output; the others need the input.
        if self.act_type in ("relu", "sigmoid", "tanh"):
            return ("out_grad", "out_data")
        return ("out_grad", "in_data")

    def infer_shape(self, in_shape, out_shape):
        return same_shape(self, in_shape, out_shape)


@register("LeakyReLU")
class LeakyReLU(Operator):
    """leaky: x>0 ? x : slope*x; prelu learns gamma per channel; elu, selu, gelu, rrelu."""

    params = {
        "act_type": Param(str, "leaky", choices=("elu", "gelu", "leaky", "prelu", "rrelu", "selu")),
        "slope": Param(float, 0.25),
        "lower_bound": Param(float, 0.125),
        "upper_bound": Param(float, 0.334),
    }
    backward_needs = ("out_grad", "in_data", "out_data")

    def list_arguments(self):
        return ["data", "gamma"] if self.act_type == "prelu" else ["data"]

    def list_outputs(self):
        return ["output", "mask"] if self.act_type == "rrelu" else ["output"]

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0] if in_shape[0] is not None else out_shape[0]
        outs = [data] * len(self.list_outputs())
        if self.act_type != "prelu":
            return [data], outs, []
        gamma = in_shape[1]
        if data is not None:
            gamma = (data[1],) if len(data) > 1 else (1,)
        return [data, gamma], outs, []


@register("Dropout")
class Dropout(Operator):
    """Training: keep each value with probability 1-p and scale by 1/(1-p). Testing: identity."""

    params = {
        "p": Param(float, 0.5, check=_in_range(0, 1)),
        "mode": Param(str, "training", choices=("always", "training")),
        "axes": Param(shape_tuple, ()),
        "cudnn_off": Param(optional(boolean), False),
    }
    backward_needs = ("out_grad", "out_data")

    def list_outputs(self):
        return ["output", "mask"]

    def num_visible_outputs(self):
        return 1

    def infer_shape(self, in_shape, out_shape):
        data = merge_known(in_shape[0], out_shape[0])
        mask = data
        if data is not None and self.axes:
            mask = tuple(1 if i in self.axes else d for i, d in enumerate(data))
        return [data], [data, mask], []


def merge_known(a, b):
    """``a`` when known, else ``b`` (shapes flowing backward through identity-like ops)."""
    return a if a is not None else b


@register("Embedding")
class Embedding(Operator):
    """Row lookup: data (any shape, integer ids) -> data.shape + (output_dim,)."""

    params = {
        "input_dim": Param(int, check=_at_least(1)),
        "output_dim": Param(int, check=_at_least(1)),
        "dtype": Param(dtype_str, "float32"),
        "sparse_grad": Param(boolean, False),
    }
    backward_needs = ("out_grad", "in_data")

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        out = None if data is None else data + (self.output_dim,)
        return [data, (self.input_dim, self.output_dim)], [out], []

    def infer_type(self, in_type, out_type):
        import numpy as np
        dtype = np.dtype(self.dtype)
        data = in_type[0] if in_type[0] is not None else dtype
        return [data, dtype], [dtype], []
