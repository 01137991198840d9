"""Adam and its relatives in ``mx.optimizer``: Adam, Adamax, Nadam, LAMB and FTML.

Adam, LAMB and FTML follow the fused kernels MXNet 1.9.1's classes call (``adam_update``,
``lamb_update_phase1/2`` or ``multi_lamb_update``, ``ftml_update``) in the weight's dtype;
Adamax and Nadam are computed in Python in MXNet, step by step as here. ``t`` is the index's
own update count.
"""

import math
import os

import numpy as np

from .optimizer import (
    Optimizer,
    check_ndarrays,
    fused_clip,
    python_clip,
    register,
    rescaled,
    scalars,
    zeros_like,
)

__all__ = ["Adam", "Adamax", "Nadam", "LAMB", "FTML"]


@register
class Adam(Optimizer):
    """Adam, bias correction folded into the rate: lr_t = lr * sqrt(1-beta2^t) / (1-beta1^t)."""

    def __init__(
        self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, lazy_update=True, **kwargs
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        """(mean, variance), both zeros like ``weight``."""
        return (zeros_like(weight), zeros_like(weight))

    def update(self, index, weight, grad, state):
        """One Adam step on ``weight``; t is this index's own update count."""
        check_ndarrays("Adam", weight, grad)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        lr *= math.sqrt(1.0 - self.beta2**t) / (1.0 - self.beta1**t)
        mean, var = state
        g = rescaled(grad, self.rescale_grad, self.clip_gradient, weight, wd)
        mean[:] = self.beta1 * mean._data + (1.0 - self.beta1) * g
        var[:] = self.beta2 * var._data + (1.0 - self.beta2) * g * g
        weight[:] = weight._data - lr * mean._data / (np.sqrt(var._data) + self.epsilon)


@register
class Adamax(Optimizer):
    """Adamax (Adam with the infinity norm): ``u = max(beta2*u, |g|); w -= lr_t * m / u``."""

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index, weight):
        """(mean, infinity norm), both zeros like ``weight``."""
        return (zeros_like(weight), zeros_like(weight))

    def update(self, index, weight, grad, state):
        """One Adamax step; lr_t = lr / (1 - beta1^t)."""
        check_ndarrays("Adamax", weight, grad)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        lr /= 1.0 - self.beta1 ** self._index_update_count[index]
        g = python_clip(grad._data * self.rescale_grad + wd * weight._data, self.clip_gradient)
        mean, norm = state
        mean[:] = mean._data * self.beta1
        mean[:] = mean._data + (1.0 - self.beta1) * g
        norm[:] = np.maximum(self.beta2 * norm._data, np.abs(g))
        weight[:] = weight._data - lr * mean._data / norm._data


@register
class Nadam(Optimizer):
    """Nesterov Adam with MXNet's warming momentum schedule (``schedule_decay``)."""

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        beta2=0.999,
        epsilon=1e-8,
        schedule_decay=0.004,
        **kwargs,
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        # One product for the whole optimizer, as in MXNet: every update of any index
        # multiplies it by that index's momentum_t.
        self.m_schedule = 1.0

    def create_state(self, index, weight):
        """(mean, variance), both zeros like ``weight``."""
        return (zeros_like(weight), zeros_like(weight))

    def update(self, index, weight, grad, state):
        """One Nadam step."""
        check_ndarrays("Nadam", weight, grad)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        g = python_clip(grad._data * self.rescale_grad + wd * weight._data, self.clip_gradient)
        momentum_t = self.beta1 * (1.0 - 0.5 * (pow(0.96, t * self.schedule_decay)))
        momentum_t_1 = self.beta1 * (1.0 - 0.5 * (pow(0.96, (t + 1) * self.schedule_decay)))
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        mean, var = state
        mean[:] = mean._data * self.beta1
        mean[:] = mean._data + (1.0 - self.beta1) * g
        var[:] = var._data * self.beta2
        var[:] = var._data + (1.0 - self.beta2) * g * g
        g_prime = g / (1.0 - self.m_schedule)
        mean_prime = mean._data / (1.0 - m_schedule_next)
        var_prime = var._data / (1.0 - pow(self.beta2, t))
        mean_bar = (1.0 - momentum_t) * g_prime + momentum_t_1 * mean_prime
        weight[:] = weight._data - lr * mean_bar / (np.sqrt(var_prime) + self.epsilon)


@register
class LAMB(Optimizer):
    """LAMB: an Adam direction (plus wd*w) scaled per weight by ||w|| / ||direction||."""

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        beta2=0.999,
        epsilon=1e-6,
        lower_bound=None,
        upper_bound=None,
        bias_correction=True,
        **kwargs,
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction
        self.aggregate_num = max(
            1, min(45, int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "45")))
        )

    def create_state(self, index, weight):
        """(mean, variance), both zeros like ``weight``."""
        return (zeros_like(weight), zeros_like(weight))

    def update(self, index, weight, grad, state):
        """One LAMB step on ``weight``, or on lists of indices, weights, grads and states."""
        if not isinstance(index, (list, tuple)):
            check_ndarrays("LAMB", weight, grad)
            self._update_count(index)
            self._step(
                weight,
                grad,
                state,
                self._get_lr(index),
                self._get_wd(index),
                self._index_update_count[index],
            )
            return
        # multi_lamb_update: every count first, then the rates (a scheduler sees the new count)
        for w, g in zip(weight, grad):
            check_ndarrays("LAMB", w, g)
        self._update_count(list(index))
        lrs, wds = self._get_lrs(index), self._get_wds(index)
        for i, w, g, s, lr, wd in zip(index, weight, grad, state, lrs, wds):
            self._step(w, g, s, lr, wd, self._index_update_count[i])

    def update_multi_precision(self, index, weight, grad, state):
        """``update``; under multi_precision a float16 weight moves through its float32 master
        copy (state = (master, (mean, var))). Like MXNet's, the one-index kernel
        (``mp_lamb_update_phase2``) writes the new value into the float16 weight only and
        leaves the master as it was; lists (the Updater's ``multi_mp_lamb_update``) update
        both."""
        listed = isinstance(index, (list, tuple))
        first = weight[0] if listed else weight
        if not (self.multi_precision and first.dtype == np.float16):
            self.update(index, weight, grad, state)
            return
        if not listed:
            check_ndarrays("LAMB", weight, grad)
            self._update_count(index)
            master, inner = state
            new = self._step(
                master,
                grad.astype(np.float32),
                inner,
                self._get_lr(index),
                self._get_wd(index),
                self._index_update_count[index],
                write=False,
            )
            weight[:] = new.astype(weight._data.dtype)
            return
        self._update_count(list(index))
        lrs, wds = self._get_lrs(index), self._get_wds(index)
        for i, w, g, (master, inner), lr, wd in zip(index, weight, grad, state, lrs, wds):
            self._step(master, g.astype(np.float32), inner, lr, wd, self._index_update_count[i])
            w[:] = master._data.astype(w._data.dtype)

    def _step(self, weight, grad, state, lr, wd, t, write=True):
        """One LAMB step of ``weight`` (written in place unless not ``write``); the new values."""
        mean, var = state
        beta1, beta2, eps, rescale, wd = scalars(
            weight, self.beta1, self.beta2, self.epsilon, self.rescale_grad, wd
        )
        g = fused_clip(grad._data * rescale, self.clip_gradient)
        mean[:] = beta1 * mean._data + (1 - beta1) * g
        var[:] = beta2 * var._data + (1 - beta2) * g * g
        m, v = mean._data, var._data
        if self.bias_correction:
            m, v = m / (1 - beta1**t), v / (1 - beta2**t)
        direction = m / (np.sqrt(v) + eps) + wd * weight._data
        r1 = np.sqrt(np.sum(np.square(weight._data)))
        r2 = np.sqrt(np.sum(np.square(direction)))
        if self.lower_bound:
            r1 = max(r1, self.lower_bound)
        if self.upper_bound:
            r1 = min(r1, self.upper_bound)
        ratio = 1.0 if r1 == 0 or r2 == 0 else r1 / r2
        new = weight._data - scalars(weight, lr * ratio)[0] * direction
        if write:
            weight[:] = new
        return new


@register
class FTML(Optimizer):
    """Follow the moving leader: ``w = -z / d_t`` with d, v, z kept per weight."""

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index, weight):
        """(d, v, z): three buffers of zeros like ``weight``."""
        return (zeros_like(weight), zeros_like(weight), zeros_like(weight))

    def update(self, index, weight, grad, state):
        """One FTML step (``ftml_update``)."""
        check_ndarrays("FTML", weight, grad)
        self._update_count(index)
        lr, wd, beta1, beta2, eps, rescale, t = scalars(
            weight,
            self._get_lr(index),
            self._get_wd(index),
            self.beta1,
            self.beta2,
            self.epsilon,
            self.rescale_grad,
            self._index_update_count[index],
        )
        d, v, z = state
        g = fused_clip(rescale * grad._data + wd * weight._data, self.clip_gradient)
        v[:] = beta2 * v._data + (1 - beta2) * np.square(g)
        d_t = (1 - beta1**t) / lr * (np.sqrt(v._data / (1 - beta2**t)) + eps)
        z[:] = beta1 * z._data + (1 - beta1) * g - (d_t - beta1 * d._data) * weight._data
        d[:] = d_t
        weight[:] = -z._data / d_t
