"""Neural-network layers: FullyConnected, Convolution, Pooling, BatchNorm, activations,
Dropout, Embedding. Each class is one operator: parameters, names, shape rule, backward needs."""
import numpy as np

from ..base import MXNetError, MXNetValueError
from ..random import generator
from . import nn_reference as ref
from ..kernels import batchnorm as kbn, conv as kconv, pool as kpool
from ..kernels import fast_kernels_enabled, finish, write_target
from .assign import assign
from .params import Param, boolean, dtype_str, optional, shape_tuple
from .registry import Operator, register
from .rules import fmt, known, prod, same_shape

__all__ = []


def _at_least(lower):
    return lambda v: None if v >= lower else f"should be greater equal to {lower}"


def _in_range(lo, hi):
    return lambda v: None if lo <= v <= hi else f"must be between {lo} and {hi}"


def _all_but(ndim, axis):
    """Every axis of an ndim-array except ``axis`` (what per-channel sums reduce over)."""
    return tuple(i for i in range(ndim) if i != axis)


def _per_channel(values, ndim, axis):
    """A (C,) vector shaped to broadcast along ``axis`` of an ndim-array."""
    shape = [1] * ndim
    shape[axis] = -1
    return values.reshape(shape)


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
        if data is None:  # like MXNet, nothing is inferred before data's shape is known
            return list(in_shape), list(out_shape), []
        features = data[1:] if self.flatten else data[-1:]
        if not known(features):
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has an unknown feature dimension; the weight "
                f"(num_hidden, {'prod(data.shape[1:])' if self.flatten else 'data.shape[-1]'}) "
                "needs every dimension after the batch axis")
        weight = (self.num_hidden, prod(features))
        out = (data[0], self.num_hidden) if self.flatten else data[:-1] + (self.num_hidden,)
        ins = [data, weight] + ([] if self.no_bias else [(self.num_hidden,)])
        return ins, [out], []

    def _rows(self, data):
        """data as a matrix (rows, K): (N, prod(rest)) when flatten, else (prod(lead), last)."""
        return data.reshape(data.shape[0], -1) if self.flatten else data.reshape(-1, data.shape[-1])

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, K...) or (..., K), weight (H, K), bias (H,) -> (N, H) or (..., H)."""
        data, weight, *rest = in_data
        bias = rest[0] if rest else None
        out = self._rows(data) @ weight.T
        if bias is not None:
            out = out + bias
        assign(out_data[0], req[0], out.reshape(out_data[0].shape))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy . W, dW = dyᵀ . x, db = sum of dy over every row."""
        data, weight, *_ = in_data
        dy = out_grad[0].reshape(-1, self.num_hidden)
        if req[0] != "null":
            assign(in_grad[0], req[0], (dy @ weight).reshape(data.shape))
        if req[1] != "null":
            assign(in_grad[1], req[1], dy.T @ self._rows(data))
        if not self.no_bias:
            assign(in_grad[2], req[2], dy.sum(axis=0))


def _fast(data, spatial_dims):
    """Whether the numba/BLAS kernels handle this call (1-D or 2-D, float32 or float64)."""
    return (fast_kernels_enabled() and spatial_dims in (1, 2)
            and data.dtype in (np.float32, np.float64))


def _lift_1d(values, fill):
    """A 1-D geometry (k,) as the 2-D (fill, k) the kernels take."""
    return (fill,) + tuple(values) if len(values) == 1 else tuple(values)


def _as_4d(array):
    """(N, C, W) -> (N, C, 1, W); 4-D arrays pass unchanged."""
    return array.reshape(array.shape[:2] + (1,) + array.shape[2:]) if array.ndim == 3 else array


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


_CHANNEL_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _check_layout(op, ndim):
    """Only channel-first layouts run; say so at forward (the graph itself accepts others)."""
    expected = _CHANNEL_FIRST.get(ndim)
    if op.layout is not None and op.layout != expected:
        raise MXNetValueError(
            f"{op.where}: layout={op.layout!r} is not supported; minisym computes "
            f"{op.op_name} only in the channel-first layout {expected!r}. Transpose the data "
            "with mx.sym.transpose and leave layout unset")


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
        if data is None:
            return list(in_shape), list(out_shape), []
        bias = (self.num_filter,)
        if len(data) != nd + 2:
            raise MXNetValueError(
                f"{self.where}: data {fmt(data)} has {len(data)} dimensions but the {nd}-D "
                f"kernel {self.kernel} needs {nd + 2}: (batch, channels, {nd} spatial)")
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

    def _geometry(self):
        """(stride, dilate, pad), each with one value per spatial axis."""
        return _spatial(self, "stride", 1), _spatial(self, "dilate", 1), _spatial(self, "pad", 0)

    def _grouped(self, array, rows):
        """(N, F or C, ...) -> (N, num_group, rows per group, positions)."""
        return array.reshape(array.shape[0], self.num_group, rows // self.num_group, -1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x), weight (F, C/g, *k), bias (F,) -> (N, F, *out) via im2col."""
        data, weight, *rest = in_data
        bias = rest[0] if rest else None
        _check_layout(self, len(self.kernel))
        stride, dilate, pad = self._geometry()
        if _fast(data, len(self.kernel)):
            target = write_target(out_data[0], req[0])
            kconv.conv2d_forward(_as_4d(data), _as_4d(weight), bias, _lift_1d(stride, 1),
                                 _lift_1d(pad, 0), _lift_1d(dilate, 1), self.num_group,
                                 out=_as_4d(target))
            finish(out_data[0], req[0], target)
            return
        out_shape = out_data[0].shape
        cols = ref.im2col(data, self.kernel, stride, dilate, pad, out_shape[2:])
        cols = self._grouped(cols, data.shape[1] * prod(self.kernel))  # (N, g, C/g*K, L)
        w = weight.reshape(self.num_group, self.num_filter // self.num_group, -1)
        out = (w @ cols).reshape(out_shape)  # (g, F/g, C/g*K) @ (N, g, C/g*K, L)
        if bias is not None:
            out = out + bias.reshape((-1,) + (1,) * len(self.kernel))
        assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx by col2im of Wᵀ.dy, dW = dy.colsᵀ summed over the batch, db = sum of dy."""
        data, weight, *_ = in_data
        stride, dilate, pad = self._geometry()
        if _fast(data, len(self.kernel)):
            self._backward_fast(req, out_grad[0], data, weight, in_grad, stride, dilate, pad)
            return
        dy = self._grouped(out_grad[0], self.num_filter)  # (N, g, F/g, L)
        w = weight.reshape(self.num_group, self.num_filter // self.num_group, -1)
        if req[0] != "null":
            dcols = (w.swapaxes(1, 2) @ dy).reshape(
                data.shape[:2] + self.kernel + out_grad[0].shape[2:])
            assign(in_grad[0], req[0], ref.col2im(dcols, data.shape, self.kernel, stride,
                                                  dilate, pad))
        if req[1] != "null":
            cols = ref.im2col(data, self.kernel, stride, dilate, pad, out_grad[0].shape[2:])
            cols = self._grouped(cols, data.shape[1] * prod(self.kernel))
            dw = (dy @ cols.swapaxes(2, 3)).sum(axis=0)  # (g, F/g, C/g*K)
            assign(in_grad[1], req[1], dw.reshape(weight.shape))
        if not self.no_bias:
            assign(in_grad[2], req[2], out_grad[0].sum(axis=_all_but(out_grad[0].ndim, 1)))

    def _backward_fast(self, req, dy, data, weight, in_grad, stride, dilate, pad):
        """The same gradients through im2col / col2im kernels and BLAS."""
        dx, dw, db = kconv.conv2d_backward(
            _as_4d(dy), _as_4d(data), _as_4d(weight), _lift_1d(stride, 1), _lift_1d(pad, 0),
            _lift_1d(dilate, 1), self.num_group, need_dx=req[0] != "null",
            need_dw=req[1] != "null")
        if dx is not None:
            assign(in_grad[0], req[0], dx.reshape(data.shape))
        if dw is not None:
            assign(in_grad[1], req[1], dw.reshape(weight.shape))
        if not self.no_bias:
            assign(in_grad[2], req[2], db)


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

    def _geometry(self, data):
        """(kernel, stride, pad) for ``data``; global pooling covers each whole map."""
        if self.global_pool:
            spatial = data.shape[2:]
            return spatial, (1,) * len(spatial), (0,) * len(spatial)
        return self.kernel, _spatial(self, "stride", 1), _spatial(self, "pad", 0)

    def _check_runnable(self, data):
        _check_layout(self, data.ndim - 2)
        if self.pool_type == "lp":
            raise NotImplementedError(f"{self.where}: pool_type='lp' is not implemented in "
                                      "minisym; use 'max', 'avg' or 'sum'")
        if self.pooling_convention == "same":
            raise MXNetValueError(f"{self.where}: pooling_convention='same' cannot run (MXNet "
                                  "1.9.1 rejects it for every input); use 'valid' or 'full'")

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, *x) -> (N, C, *out): max / avg / sum over each (padded) window."""
        (data,) = in_data
        self._check_runnable(data)
        kernel, stride, pad = self._geometry(data)
        if _fast(data, len(kernel)):
            target = write_target(out_data[0], req[0])
            kpool.pool2d_forward(_as_4d(data), self.pool_type, _lift_1d(kernel, 1),
                                 _lift_1d(stride, 1), _lift_1d(pad, 0),
                                 _as_4d(target).shape[2:], self.count_include_pad is not False,
                                 out=_as_4d(target))
            finish(out_data[0], req[0], target)
            return
        out = ref.pool_forward(data, self.pool_type, kernel, stride, pad, out_data[0].shape[2:],
                               self.count_include_pad is not False)
        assign(out_data[0], req[0], out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """max: dy to the first max of each window; sum/avg: dy (/ divisor) to every cell."""
        (data,) = in_data
        kernel, stride, pad = self._geometry(data)
        if req[0] == "null":
            return
        include_pad = self.count_include_pad is not False
        if _fast(data, len(kernel)):
            grad = kpool.pool2d_backward(
                _as_4d(out_grad[0]), _as_4d(data), _as_4d(out_data[0]), self.pool_type,
                _lift_1d(kernel, 1), _lift_1d(stride, 1), _lift_1d(pad, 0), include_pad)
            assign(in_grad[0], req[0], grad.reshape(data.shape))
            return
        grad = ref.pool_backward(out_grad[0], data, out_data[0], self.pool_type, kernel,
                                 stride, pad, include_pad)
        assign(in_grad[0], req[0], grad)


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
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), [None, None]
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(f"{self.where}: axis={self.axis} is out of range for data "
                                  f"{fmt(data)} with {len(data)} dimensions")
        channel = (data[axis],)
        return [data, channel, channel], [data, channel, channel], [channel, channel]

    def infer_type(self, in_type, out_type):
        """float16 data keeps gamma, beta, mean and var in float32; ints are rejected."""
        dtype = in_type[0] if in_type[0] is not None else out_type[0]
        if dtype is None:
            return list(in_type), list(out_type), [None, None]
        if dtype.kind != "f":
            raise MXNetValueError(f"{self.where}: BatchNorm only supports floating point data, "
                                  f"not {dtype.name}; cast it with mx.sym.cast(x, dtype='float32')")
        param = np.dtype("float32") if dtype == np.float16 else dtype
        return [dtype, param, param], [dtype, param, param], [param, param]

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (.., C, ..) -> (x - mean) * invstd * gamma + beta; also mean (C,), invstd (C,).

        Training uses the biased batch statistics; testing (or use_global_stats) the moving ones.
        The visible 'var' output is the INVERSE std 1/sqrt(var + eps), as in MXNet.
        """
        data, gamma, beta = in_data
        moving_mean, moving_var = aux
        axis = self.axis % data.ndim
        self._overwrite_fixed_gamma(gamma, req)
        if _fast(data, 1) and data.dtype == gamma.dtype:
            self._forward_fast(is_train, req, data, gamma, beta, aux, out_data, axis)
            return
        x = data.astype(gamma.dtype)  # float16 data is normalised in float32, like MXNet
        if is_train and not self.use_global_stats:
            mean = x.mean(axis=_all_but(data.ndim, axis))
            invstd = _batch_invstd(x.var(axis=_all_but(data.ndim, axis)), self.eps)
        else:
            mean, invstd = moving_mean, 1 / np.sqrt(moving_var + self.eps)
        scale = invstd if self.fix_gamma else invstd * gamma
        out = (x - _per_channel(mean, x.ndim, axis)) * _per_channel(scale, x.ndim, axis)
        assign(out_data[0], req[0], out + _per_channel(beta, x.ndim, axis))
        assign(out_data[1], req[1], mean)
        assign(out_data[2], req[2], invstd)

    def _forward_fast(self, is_train, req, data, gamma, beta, aux, out_data, axis,
                      relu_out=None):
        """The same forward through the numba kernels (one pass per channel). With
        ``relu_out`` the result goes through max(., 0) straight into that array instead."""
        moving_mean, moving_var = aux
        scale = np.ones_like(gamma) if self.fix_gamma else gamma
        relu = relu_out is not None
        target = relu_out if relu else write_target(out_data[0], req[0])
        if is_train and not self.use_global_stats:
            _, mean, invstd, _ = kbn.bn_forward_train(data, scale, beta, self.eps, axis,
                                                      relu=relu, out=target)
        else:
            mean = moving_mean
            invstd = (1 / np.sqrt(moving_var + self.eps)).astype(data.dtype)
            kbn.bn_normalize(data, mean, invstd, scale, beta, axis, relu=relu, out=target)
        if not relu:
            finish(out_data[0], req[0], target)
        assign(out_data[1], req[1], mean)
        assign(out_data[2], req[2], invstd)

    def _overwrite_fixed_gamma(self, gamma, req):
        # MXNet tests req[kGamma] = req[1], which in forward is the req of the *mean output*:
        # gamma is overwritten with 1 whenever the mean is written, whatever gamma's grad_req.
        if self.fix_gamma and req[1] in ("write", "inplace"):
            gamma[...] = 1

    def fusable_with_relu(self, in_data):
        """Whether ``forward_relu`` can replace this BatchNorm and the relu after it."""
        data, gamma, _ = in_data
        return not self.output_mean_var and _fast(data, 1) and data.dtype == gamma.dtype

    def forward_relu(self, is_train, req, in_data, out_data, aux, relu_out):
        """BatchNorm then ReLU in one pass (an executor optimisation, not part of the operator
        contract): like ``forward``, but max(y, 0) lands in ``relu_out`` and ``out_data[0]``
        (which only that ReLU reads) is left unwritten."""
        data, gamma, beta = in_data
        self._overwrite_fixed_gamma(gamma, req)
        self._forward_fast(is_train, req, data, gamma, beta, aux, out_data,
                           self.axis % data.ndim, relu_out=relu_out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Standard BN backward; in training it also updates the moving stats (MXNet CPU does)."""
        data, gamma, beta = in_data
        _, saved_mean, saved_invstd = out_data  # what forward normalised with
        moving_mean, moving_var = aux
        axis = self.axis % data.ndim
        others = _all_but(data.ndim, axis)
        if self.use_global_stats:
            mean, invstd = moving_mean, 1 / np.sqrt(moving_var + self.eps)
        else:
            mean, invstd = saved_mean, saved_invstd
            self._update_moving_stats(moving_mean, moving_var, mean, invstd)
        if _fast(data, 1) and data.dtype == gamma.dtype:
            scale = np.ones_like(gamma) if self.fix_gamma else gamma
            dx, dgamma, dbeta = kbn.bn_backward(out_grad[0], data, mean.astype(data.dtype),
                                                invstd.astype(data.dtype), scale,
                                                not self.use_global_stats, axis)
            assign(in_grad[0], req[0], dx)
            assign(in_grad[1], req[1], 0 if self.fix_gamma else dgamma)
            assign(in_grad[2], req[2], dbeta)
            return
        x, dy = data.astype(gamma.dtype), out_grad[0].astype(gamma.dtype)
        centered = x - _per_channel(mean, x.ndim, axis)
        sum_dy, dot = dy.sum(axis=others), (centered * dy).sum(axis=others)
        scale = invstd if self.fix_gamma else invstd * gamma
        if self.use_global_stats:
            dx = dy * _per_channel(scale, x.ndim, axis)
        else:
            count = data.size // data.shape[axis]
            projection = centered * _per_channel(dot * invstd * invstd / count, x.ndim, axis)
            dx = (dy - _per_channel(sum_dy / count, x.ndim, axis) - projection) \
                * _per_channel(scale, x.ndim, axis)
        assign(in_grad[0], req[0], dx)
        assign(in_grad[1], req[1], 0 if self.fix_gamma else dot * invstd)
        assign(in_grad[2], req[2], sum_dy)

    def _update_moving_stats(self, moving_mean, moving_var, mean, invstd):
        """moving = moving * momentum + batch * (1 - momentum), batch var from the saved invstd."""
        variance = 1 / (invstd * invstd) - self.eps
        moving_mean[...] = moving_mean * self.momentum + mean * (1 - self.momentum)
        moving_var[...] = moving_var * self.momentum + variance * (1 - self.momentum)


def _batch_invstd(var, eps):
    """1/sqrt(var + eps) per channel; 0 when var and eps are both 0 (as MXNet does)."""
    with np.errstate(divide="ignore"):
        invstd = 1 / np.sqrt(var + eps)
    return np.where((var == 0) & (eps == 0), 0, invstd).astype(var.dtype)


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

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) -> act(data), same shape."""
        (data,) = in_data
        if self.act_type == "relu" and req[0] == "write":  # the hot case: one pass, no copy
            np.maximum(data, 0, out=out_data[0])
            return
        assign(out_data[0], req[0], ref.activation(self.act_type, data))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * act'(x), from the output for relu/sigmoid/tanh, else from the input."""
        (data,) = in_data
        if self.act_type == "relu" and req[0] == "write":
            np.multiply(out_grad[0], out_data[0] > 0, out=in_grad[0])
            return
        grad = ref.activation_grad(self.act_type, data, out_data[0])
        assign(in_grad[0], req[0], out_grad[0] * grad)


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

    def input_var_attrs(self, index):
        return {"__init__": '["Constant", {"value": 0.25}]'} if index == 1 else {}

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        outs = [data] * len(self.list_outputs())
        if self.act_type != "prelu":
            return [data], outs, []
        channels = (data[1],) if len(data) > 1 else (1,)
        gamma = in_shape[1]
        if gamma not in ((1,), channels):  # (1,) broadcasts one slope to every channel
            gamma = channels
        return [data, gamma], outs, []

    def _slope(self, gamma, ndim):
        """prelu's gamma shaped to broadcast: (C,) along axis 1, (1,) everywhere."""
        return gamma if gamma.size == 1 or ndim < 2 else _per_channel(gamma, ndim, 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (N, C, ...) -> same shape; rrelu also outputs its per-element slopes (mask)."""
        data, *rest = in_data
        if self.act_type == "prelu":
            slope = self._slope(rest[0], data.ndim)
            assign(out_data[0], req[0], np.where(data > 0, data, slope * data))
        elif self.act_type == "rrelu":
            if is_train:
                uniform = generator().random(data.shape)
                slope = self.lower_bound + (self.upper_bound - self.lower_bound) * uniform
            else:
                slope = np.full(data.shape, (self.lower_bound + self.upper_bound) / 2)
            slope = slope.astype(data.dtype)
            # The mask is written in test mode too, so that backward can always read it.
            assign(out_data[1], req[1], slope)
            assign(out_data[0], req[0], np.where(data > 0, data, slope * data))
        else:
            assign(out_data[0], req[0], ref.activation(self.act_type, data, self.slope))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * act'(x); prelu's dgamma sums dy * min(x, 0) over all but the channel axis."""
        data, *rest = in_data
        output, *mask = out_data
        dy = out_grad[0]
        if self.act_type == "prelu":
            gamma = rest[0]
            slope = self._slope(gamma, data.ndim)
            assign(in_grad[0], req[0], dy * np.where(data > 0, 1, slope))
            dgamma = dy * np.where(data > 0, 0, data)
            dgamma = dgamma.sum() if gamma.size == 1 else dgamma.sum(axis=_all_but(data.ndim, 1))
            assign(in_grad[1], req[1], np.reshape(dgamma, gamma.shape))
        elif self.act_type == "rrelu":
            assign(in_grad[0], req[0], dy * np.where(output > 0, 1, mask[0]))
        else:
            grad = ref.activation_grad(self.act_type, data, output, self.slope)
            assign(in_grad[0], req[0], dy * grad)


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
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        mask = data
        if data is not None and self.axes:
            mask = tuple(1 if i in self.axes else d for i, d in enumerate(data))
        return [data], [data, mask], []

    def forward(self, is_train, req, in_data, out_data, aux):
        """output = data * mask; mask (1 along ``axes``) holds 0 or 1/(1-p). Identity when off."""
        (data,) = in_data
        mask_shape = out_data[1].shape
        if self.p > 0 and (is_train or self.mode == "always"):
            keep = generator().random(mask_shape) < 1 - self.p
            with np.errstate(divide="ignore", invalid="ignore"):  # p=1 gives NaN, like MXNet
                mask = keep.astype(data.dtype) / data.dtype.type(1 - self.p)
        else:
            mask = np.ones(mask_shape, data.dtype)
        assign(out_data[1], req[1], mask)
        assign(out_data[0], req[0], data * mask)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dx = dy * mask (the mask broadcast along ``axes``)."""
        _, mask = out_data
        assign(in_grad[0], req[0], out_grad[0] * mask)


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
    no_gradient_inputs = ("data",)

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shape, out_shape):
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), []
        return [data, (self.input_dim, self.output_dim)], [data + (self.output_dim,)], []

    def infer_type(self, in_type, out_type):
        dtype = np.dtype(self.dtype)
        data = in_type[0] if in_type[0] is not None else dtype
        return [data, dtype], [dtype], []

    def _rows(self, data):
        """The weight row of every id: truncated to an integer, clipped to [0, input_dim)."""
        return np.clip(data.astype(np.int64), 0, self.input_dim - 1)

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (any shape) of ids, weight (input_dim, output_dim) -> data.shape + (output_dim,)."""
        data, weight = in_data
        assign(out_data[0], req[0], weight[self._rows(data)])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """dweight[i] = sum of dy over the positions whose id is i; ids have no gradient."""
        data, weight = in_data
        if req[0] != "null":
            raise MXNetError(f"{self.where}: Embedding layer doesn't support calculate data "
                             f"gradient: the ids have none. Bind with grad_req 'null' for the "
                             f"data input (e.g. grad_req={{'{self.node_name}_weight': 'write'}}"
                             " or Module's default inputs_need_grad=False).")
        if req[1] != "null":
            dweight = np.zeros_like(weight)
            np.add.at(dweight, self._rows(data), out_grad[0])
            assign(in_grad[1], req[1], dweight)
