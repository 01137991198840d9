"""SGD and its relatives in ``mx.optimizer``: SGD (and its old alias ccSGD), NAG, Signum
(signSGD) and SGLD.

Each follows the arithmetic of the kernel MXNet 1.9.1's class calls (``sgd_update``,
``sgd_mom_update``, ``nag_mom_update``, ``signsgd_update``, ``signum_update``), in the weight's
dtype. The momentum state MXNet keeps is the *negative* accumulated step.
"""

import math
import os

import numpy as np

from ..arrays.ndarray import NDArray
from ..random import generator
from .optimizer import (
    Optimizer,
    check_ndarrays,
    fused_clip,
    learner_warning,
    python_clip,
    register,
    rescaled,
    scalars,
    zeros_like,
)

__all__ = ["SGD", "ccSGD", "NAG", "Signum", "SGLD"]


def _float16_warning(name):
    learner_warning(
        "Accumulating with float16 in optimizer can lead to poor accuracy or slow "
        "convergence. Consider using multi_precision=True option of the "
        f"{name} optimizer"
    )


@register
class SGD(Optimizer):
    """SGD: ``state = momentum*state - lr*(g + wd*w); w += state`` (state starts at 0)."""

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "4"))

    def create_state(self, index, weight):
        """The momentum buffer (zeros like ``weight``), or None without momentum."""
        if self.momentum == 0.0:
            return None
        return zeros_like(weight)

    def create_state_multi_precision(self, index, weight):
        """``create_state``; under multi_precision, (state, float32 master copy) for float16."""
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (self.create_state(index, master), master)
        if weight.dtype == np.float16:
            _float16_warning("SGD")
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """One SGD step on ``weight`` (or on lists of indices, weights, grads and states)."""
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        """``update``, through float32 master copies for float16 weights under multi_precision."""
        first = weight[0] if isinstance(index, (list, tuple)) else weight
        self._update_impl(
            index,
            weight,
            grad,
            state,
            multi_precision=self.multi_precision and first.dtype == np.float16,
        )

    def _update_impl(self, indices, weights, grads, states, multi_precision):
        if not isinstance(indices, (list, tuple)):
            indices, weights, grads, states = [indices], [weights], [grads], [states]
        for weight, grad in zip(weights, grads):
            assert isinstance(weight, NDArray) and isinstance(grad, NDArray), (
                "SGD updates NDArrays: weight and grad must be NDArray"
            )
        self._update_count(indices)
        lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        for weight, grad, state, lr, wd in zip(weights, grads, states, lrs, wds):
            if multi_precision:
                momentum, master = state
                self._step(master, grad.astype(np.float32), momentum, lr, wd)
                weight[:] = master.asnumpy().astype(weight.dtype)
            else:
                self._step(weight, grad, state, lr, wd)

    def _step(self, weight, grad, momentum, lr, wd):
        g = rescaled(grad, self.rescale_grad, self.clip_gradient)
        if momentum is None:
            weight[:] = (1 - lr * wd) * weight._data - lr * g
        else:
            mom = self.momentum if self.momentum > 0 else 0.0
            momentum[:] = mom * momentum._data - lr * wd * weight._data - lr * g
            weight[:] = weight._data + momentum._data


@register
class ccSGD(SGD):  # -- MXNet's name, registered as 'ccsgd'
    """[Deprecated in MXNet] the same as SGD, kept because old examples use ``'ccsgd'``."""


@register
class NAG(Optimizer):
    """Nesterov momentum: ``m = mu*m - lr*(g + wd*w); w += mu*m_new - lr*(g + wd*w)``."""

    def __init__(self, momentum=0.0, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def create_state(self, index, weight):
        """The momentum buffer (zeros like ``weight``), or None without momentum."""
        return None if self.momentum == 0.0 else zeros_like(weight)

    def create_state_multi_precision(self, index, weight):
        """``create_state``; under multi_precision, (state, float32 master copy) for float16."""
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (self.create_state(index, master), master)
        if weight.dtype == np.float16:
            _float16_warning("NAG")
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """One NAG step on ``weight`` (``nag_mom_update``, or ``sgd_update`` without state)."""
        self._step(index, weight, grad, state)

    def update_multi_precision(self, index, weight, grad, state):
        """``update``, through the float32 master copy for float16 weights under multi_precision."""
        if self.multi_precision and weight.dtype == np.float16 and isinstance(state, tuple):
            momentum, master = state
            self._step(index, master, grad.astype(np.float32), momentum)
            weight[:] = master.asnumpy().astype(weight.dtype)
        else:
            self._step(index, weight, grad, state)

    def _step(self, index, weight, grad, momentum):
        check_ndarrays("NAG", weight, grad)
        self._update_count(index)
        lr, wd, rescale = scalars(
            weight, self._get_lr(index), self._get_wd(index), self.rescale_grad
        )
        g = fused_clip(rescale * grad._data, self.clip_gradient)
        if momentum is None:
            weight[:] = (1 - lr * wd) * weight._data - lr * g
            return
        (mu,) = scalars(weight, self.momentum if self.momentum > 0 else 0.0)
        mom = mu * momentum._data
        weight[:] = weight._data - mom + (mu + 1) * (mom - lr * (g + wd * weight._data))
        # The kernel writes the weight in place before it updates the momentum, so the
        # momentum's weight-decay term reads the *new* weight.
        momentum[:] = mom - lr * (g + wd * weight._data)


@register
class Signum(Optimizer):
    """Signum: ``m = mu*m - (1-mu)*(g + wd*w); w = (1 - lr*wd_lh)*w + lr*sign(m)``."""

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        """The momentum buffer (zeros like ``weight``), or None with momentum 0 (signSGD)."""
        return None if self.momentum == 0.0 else zeros_like(weight)

    def update(self, index, weight, grad, state):
        """One Signum step (``signum_update``), or signSGD (``signsgd_update``) without state."""
        check_ndarrays("Signum", weight, grad)
        self._update_count(index)
        lr, wd, rescale = scalars(
            weight, self._get_lr(index), self._get_wd(index), self.rescale_grad
        )
        if state is None:
            # signsgd_update takes the sign of the raw gradient: no rescale_grad, no clipping
            weight[:] = (1 - lr * wd) * weight._data - lr * np.sign(grad._data)
            return
        mu, wd_lh = scalars(weight, self.momentum if self.momentum > 0 else 0.0, self.wd_lh or 0.0)
        g = fused_clip(rescale * grad._data, self.clip_gradient)
        state[:] = mu * state._data - (1 - mu) * wd * weight._data - (1 - mu) * g
        weight[:] = (1 - lr * wd_lh) * weight._data + lr * np.sign(state._data)


@register
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: ``w += -lr/2 * (g + wd*w) + N(0, sqrt(lr))``."""

    def create_state(self, index, weight):
        """None: SGLD keeps no state."""
        return None

    def update(self, index, weight, grad, state):
        """Half a gradient step plus Gaussian noise of variance lr (from ``mx.random.seed``'s
        generator, so it never matches MXNet's draws)."""
        check_ndarrays("SGLD", weight, grad)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        g = python_clip(grad._data * self.rescale_grad, self.clip_gradient)
        weight[:] = weight._data + (-lr / 2) * (g + weight._data * wd)
        noise = generator().normal(0.0, math.sqrt(lr), weight.shape).astype(weight._data.dtype)
        weight[:] = weight._data + noise
