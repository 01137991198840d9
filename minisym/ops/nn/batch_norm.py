"""BatchNorm: MXNet's statistics, fix_gamma and moving-average rules, and its fusion with
a following ReLU. Mirrors MXNet 1.9.1's src/operator/nn/batch_norm.cc."""

import copy

import numpy as np

from ...assign import assign
from ...base import MXNetError, MXNetValueError
from ...kernels import batchnorm as kbn
from ...kernels import finish, write_target
from ..common import all_but, fast_path, per_channel
from ..operator_base import Operator, register
from ..params import Param, boolean, optional
from ..rules import fmt

__all__ = []


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
    fuses_following_relu = True
    is_batchnorm = True
    train_mode_matters = True

    def mutates_aux_in_backward(self):
        """Backward updates the moving statistics unless ``use_global_stats``."""
        return not self.use_global_stats

    def predict_mode_runner(self, runner):
        """A copy of ``runner`` with use_global_stats=True (``runner`` when it has it)."""
        if runner.use_global_stats:
            return runner
        # MXNet: a backward in predict mode differentiates BatchNorm as use_global_stats
        # does (moving statistics are constants, and stay as they are)
        runner = copy.copy(runner)
        runner.use_global_stats = True
        return runner

    def list_arguments(self):
        return ["data", "gamma", "beta"]

    def list_outputs(self):
        return ["output", "mean", "var"]

    def num_visible_outputs(self):
        return 3 if self.output_mean_var else 1

    def list_auxiliary_states(self):
        return ["moving_mean", "moving_var"]

    def input_var_attrs(self, index):
        """moving_mean starts at 0, moving_var at 1 (MXNet's FSetInputVarAttrOnCompose)."""
        return {3: {"__init__": '["zero", {}]'}, 4: {"__init__": '["one", {}]'}}.get(index, {})

    def infer_shape(self, in_shape, out_shape):
        """data (.., C at axis, ..) -> output like data; gamma, beta, mean, var, moving (C,)."""
        data = in_shape[0]
        if data is None:
            return list(in_shape), list(out_shape), [None, None]
        axis = self.axis + len(data) if self.axis < 0 else self.axis
        if not 0 <= axis < len(data):
            raise MXNetValueError(
                f"{self.where}: axis={self.axis} is out of range for data "
                f"{fmt(data)} with {len(data)} dimensions"
            )
        channel = (data[axis],)
        return [data, channel, channel], [data, channel, channel], [channel, channel]

    def infer_type(self, in_type, out_type):
        """float16 data keeps gamma, beta, mean and var in float32; ints are rejected."""
        dtype = in_type[0] if in_type[0] is not None else out_type[0]
        if dtype is None:
            return list(in_type), list(out_type), [None, None]
        if dtype.kind != "f":
            raise MXNetValueError(
                f"{self.where}: BatchNorm only supports floating point data, "
                f"not {dtype.name}; cast it with mx.sym.cast(x, dtype='float32')"
            )
        param = np.dtype("float32") if dtype == np.float16 else dtype
        return [dtype, param, param], [dtype, param, param], [param, param]

    def is_train_note(self, is_train, phase):
        """Which statistics this call uses, and when moving_mean / moving_var change."""
        if self.use_global_stats:
            return (
                "use_global_stats=True: BatchNorm normalizes with moving_mean / moving_var "
                "and never updates them, whatever is_train is"
                if phase == "forward"
                else ""
            )
        if phase == "backward":
            return (
                "backward updates moving_mean / moving_var towards the statistics forward "
                f"normalized with: moving = moving * {self.momentum:g} + batch * "
                f"(1 - {self.momentum:g}), as MXNet does on the CPU (after "
                "forward(is_train=False) those are the moving statistics: they stay)"
            )
        if is_train:
            return (
                "is_train=True: BatchNorm normalizes with this batch's own mean and variance; "
                "backward then updates moving_mean / moving_var"
            )
        return (
            "is_train=False: BatchNorm uses moving_mean / moving_var (aux), not the batch "
            "statistics"
        )

    def forward(self, is_train, req, in_data, out_data, aux):
        """data (.., C, ..) -> (x - mean) * invstd * gamma + beta; also mean (C,), invstd (C,).

        Training uses the biased batch statistics; testing (or use_global_stats) the moving ones.
        The visible 'var' output is the INVERSE std 1/sqrt(var + eps), as in MXNet.
        """
        data, gamma, beta = in_data
        moving_mean, moving_var = aux
        axis = self.axis % data.ndim
        self._overwrite_fixed_gamma(gamma, req)
        if _fast(data, gamma):
            self._forward_fast(is_train, req, data, gamma, beta, aux, out_data)
            return
        x = data.astype(gamma.dtype)  # float16 data is normalised in float32, like MXNet
        if is_train and not self.use_global_stats:
            mean = x.mean(axis=all_but(data.ndim, axis))
            invstd = _batch_invstd(x.var(axis=all_but(data.ndim, axis)), self.eps)
        else:
            mean, invstd = moving_mean, 1 / np.sqrt(moving_var + self.eps)
        scale = invstd if self.fix_gamma else invstd * gamma
        out = (x - per_channel(mean, x.ndim, axis)) * per_channel(scale, x.ndim, axis)
        assign(out_data[0], req[0], out + per_channel(beta, x.ndim, axis))
        assign(out_data[1], req[1], mean)
        assign(out_data[2], req[2], invstd)

    def _forward_fast(
        self, is_train, req, data, gamma, beta, aux, out_data, fused_out=None, clip=None
    ):
        """The same forward through the numba kernels (one pass per channel). With
        ``fused_out`` the result goes through max(., 0), or Clip to the bounds ``clip``,
        straight into that array instead."""
        moving_mean, moving_var = aux
        axis = self.axis % data.ndim
        scale = np.ones_like(gamma) if self.fix_gamma else gamma
        fused = fused_out is not None
        relu = fused and clip is None
        target = fused_out if fused else write_target(out_data[0], req[0])
        if is_train and not self.use_global_stats:
            _, mean, invstd, _ = kbn.bn_forward_train(
                data, scale, beta, self.eps, axis, relu=relu, clip=clip, out=target
            )
        else:
            mean = moving_mean
            invstd = (1 / np.sqrt(moving_var + self.eps)).astype(data.dtype)
            kbn.bn_normalize(
                data, mean, invstd, scale, beta, axis, relu=relu, clip=clip, out=target
            )
        if not fused:
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
        return not self.output_mean_var and _fast(data, gamma)

    def foldable(self, in_data):
        """Whether a Convolution before this BatchNorm may fold it in (``folded_statistics``):
        4-D data normalised over its channels (axis 1), on the numba kernels' dtypes."""
        data, gamma, _ = in_data
        return data.ndim == 4 and self.axis % 4 == 1 and self.fusable_with_relu(in_data)

    def folded_statistics(self, is_train, req, in_data, out_data, aux):
        """(scale, shift) per channel of data's dtype where this forward normalises with the
        moving statistics (y = x * scale + shift), for the Convolution before it to fold in;
        the mean and invstd outputs are written as ``forward`` writes them. None in training
        on batch statistics (nothing written)."""
        if is_train and not self.use_global_stats:
            return None
        data, gamma, beta = in_data
        self._overwrite_fixed_gamma(gamma, req)
        moving_mean, moving_var = aux
        dtype = data.dtype  # no copies where the dtypes match: this runs every forward
        invstd = (1 / np.sqrt(moving_var + self.eps)).astype(dtype, copy=False)
        scale = invstd if self.fix_gamma else invstd * gamma.astype(dtype, copy=False)
        shift = beta.astype(dtype, copy=False) - moving_mean.astype(dtype, copy=False) * scale
        assign(out_data[1], req[1], moving_mean)
        assign(out_data[2], req[2], invstd)
        return scale, shift

    def forward_relu(self, is_train, req, in_data, out_data, aux, relu_out):
        """BatchNorm then ReLU in one pass (an executor optimisation, not part of the operator
        contract): like ``forward``, but max(y, 0) lands in ``relu_out`` and ``out_data[0]``
        (which only that ReLU reads) is left unwritten."""
        data, gamma, beta = in_data
        self._overwrite_fixed_gamma(gamma, req)
        self._forward_fast(is_train, req, data, gamma, beta, aux, out_data, relu_out)

    def forward_clip(self, is_train, req, in_data, out_data, aux, clip_out, bounds):
        """BatchNorm then Clip(a_min, a_max) = ``bounds`` in one pass (ReLU6; an executor
        optimisation where the Clip's backward never runs): the clipped result lands in
        ``clip_out``, and ``out_data[0]`` (which only that Clip reads) is left unwritten."""
        data, gamma, beta = in_data
        self._overwrite_fixed_gamma(gamma, req)
        self._forward_fast(is_train, req, data, gamma, beta, aux, out_data, clip_out, bounds)

    def backward_relu(self, req, out_grad, in_data, out_data, in_grad, aux, relu_out):
        """``backward`` of BatchNorm and the ReLU after it in one pass (an executor optimisation
        like ``forward_relu``): out_grad[0] is the ReLU's head gradient, ``relu_out`` its output."""
        self.backward(req, out_grad, in_data, out_data, in_grad, aux, relu_out=relu_out)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux, relu_out=None):
        """Standard BN backward; in training it also updates the moving stats (MXNet CPU does)."""
        data, gamma, beta = in_data
        _, saved_mean, saved_invstd = out_data  # what forward normalised with
        moving_mean, moving_var = aux
        axis = self.axis % data.ndim
        others = all_but(data.ndim, axis)
        if self.use_global_stats:
            mean, invstd = moving_mean, 1 / np.sqrt(moving_var + self.eps)
        else:
            mean, invstd = saved_mean, saved_invstd
            self._update_moving_stats(moving_mean, moving_var, mean, invstd)
        if _fast(data, gamma):
            scale = np.ones_like(gamma) if self.fix_gamma else gamma
            mean, invstd = mean.astype(data.dtype), invstd.astype(data.dtype)
            dx, dgamma, dbeta = kbn.bn_backward(
                out_grad[0], data, mean, invstd, scale, not self.use_global_stats, axis, relu_out
            )
            assign(in_grad[0], req[0], dx)
            assign(in_grad[1], req[1], 0 if self.fix_gamma else dgamma)
            assign(in_grad[2], req[2], dbeta)
            return
        if relu_out is not None:
            raise MXNetError(f"{self.where}: backward_relu needs the fast kernels")
        x, dy = data.astype(gamma.dtype), out_grad[0].astype(gamma.dtype)
        centered = x - per_channel(mean, x.ndim, axis)
        sum_dy, dot = dy.sum(axis=others), (centered * dy).sum(axis=others)
        scale = invstd if self.fix_gamma else invstd * gamma
        if self.use_global_stats:
            dx = dy * per_channel(scale, x.ndim, axis)
        else:
            count = data.size // data.shape[axis]
            projection = centered * per_channel(dot * invstd * invstd / count, x.ndim, axis)
            dx = (dy - per_channel(sum_dy / count, x.ndim, axis) - projection) * per_channel(
                scale, x.ndim, axis
            )
        assign(in_grad[0], req[0], dx)
        assign(in_grad[1], req[1], 0 if self.fix_gamma else dot * invstd)
        assign(in_grad[2], req[2], sum_dy)

    def _update_moving_stats(self, moving_mean, moving_var, mean, invstd):
        """moving = moving * momentum + batch * (1 - momentum), batch var from the saved invstd."""
        variance = 1 / (invstd * invstd) - self.eps
        moving_mean[...] = moving_mean * self.momentum + mean * (1 - self.momentum)
        moving_var[...] = moving_var * self.momentum + variance * (1 - self.momentum)


def _fast(data, gamma):
    """Whether the numba kernels run this BatchNorm: float32 / float64 data, and gamma of the
    same dtype (float16 data keeps float32 parameters and takes the NumPy path)."""
    return fast_path(data, 1) and data.dtype == gamma.dtype


def _batch_invstd(var, eps):
    """1/sqrt(var + eps) per channel; 0 when var and eps are both 0 (as MXNet does)."""
    with np.errstate(divide="ignore"):
        invstd = 1 / np.sqrt(var + eps)
    return np.where((var == 0) & (eps == 0), 0, invstd).astype(var.dtype)
