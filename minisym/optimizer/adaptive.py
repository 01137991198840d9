"""Optimizers that scale each element's step by its gradient history in ``mx.optimizer``:
AdaGrad, RMSProp (plain and centered), AdaDelta and Ftrl.

RMSProp and Ftrl follow the fused kernels MXNet 1.9.1's classes call (``rmsprop_update``,
``rmspropalex_update``, ``ftrl_update``) in the weight's dtype; AdaGrad and AdaDelta are computed
in Python in MXNet, step by step as here. Their states are float32 whatever the weight's dtype,
as in MXNet.
"""

import numpy as np

from .optimizer import (
    Optimizer,
    check_ndarrays,
    fused_clip,
    python_clip,
    register,
    scalars,
    zeros_like,
)

__all__ = ["AdaGrad", "RMSProp", "AdaDelta", "Ftrl"]


@register
class AdaGrad(Optimizer):
    """AdaGrad: ``h += g*g; w -= lr * (g / sqrt(h + eps) + wd*w)``."""

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        """The history of squared gradients (float32 zeros)."""
        return zeros_like(weight, dtype=np.float32)

    def update(self, index, weight, grad, state):
        """One AdaGrad step."""
        check_ndarrays("AdaGrad", weight, grad)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        g = python_clip(grad._data * self.rescale_grad, self.clip_gradient)
        state[:] = state._data + np.square(g)
        div = g / np.sqrt(state._data + self.float_stable_eps)
        weight[:] = weight._data + (div + weight._data * wd) * -lr


@register
class RMSProp(Optimizer):
    """RMSProp (Tieleman & Hinton), or with ``centered=True`` Graves' version with momentum."""

    def __init__(
        self,
        learning_rate=0.001,
        gamma1=0.9,
        gamma2=0.9,
        epsilon=1e-8,
        centered=False,
        clip_weights=None,
        **kwargs,
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        """(n,) — the mean square — or, centered, (n, g, delta): float32 zeros."""
        count = 3 if self.centered else 1
        return tuple(zeros_like(weight, dtype=np.float32) for _ in range(count))

    def update(self, index, weight, grad, state):
        """One RMSProp step (``rmsprop_update`` or, centered, ``rmspropalex_update``)."""
        check_ndarrays("RMSProp", weight, grad)
        self._update_count(index)
        lr, wd, gamma1, gamma2, eps, rescale = scalars(
            weight,
            self._get_lr(index),
            self._get_wd(index),
            self.gamma1,
            self.gamma2,
            self.epsilon,
            self.rescale_grad,
        )
        g = fused_clip(rescale * grad._data + wd * weight._data, self.clip_gradient)
        if not self.centered:
            (n,) = state
            n[:] = (1 - gamma1) * (g * g) + gamma1 * n._data
            new = weight._data - lr * (g / np.sqrt(n._data + eps))
        else:
            n, mean, delta = state
            n[:] = (1 - gamma1) * g * g + gamma1 * n._data
            mean[:] = (1 - gamma1) * g + gamma1 * mean._data
            delta[:] = gamma2 * delta._data - (
                lr * g / np.sqrt(n._data - mean._data * mean._data + eps)
            )
            new = weight._data + delta._data
        weight[:] = fused_clip(new, self.clip_weights)


@register
class AdaDelta(Optimizer):
    """AdaDelta, which has no learning rate: ``w -= sqrt(D + eps) / sqrt(G + eps) * g + wd*w``."""

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index, weight):
        """(accumulated g², accumulated delta²): float32 zeros."""
        return (zeros_like(weight, dtype=np.float32), zeros_like(weight, dtype=np.float32))

    def update(self, index, weight, grad, state):
        """One AdaDelta step. Like MXNet's, it multiplies ``grad`` itself by rescale_grad."""
        check_ndarrays("AdaDelta", weight, grad)
        wd = self._get_wd(index)
        self._update_count(index)
        grad[:] = grad._data * self.rescale_grad  # MXNet's `grad *= rescale_grad`: in place
        g = python_clip(grad._data, self.clip_gradient)
        acc_g, acc_delta = state
        rho, eps = self.rho, self.epsilon
        acc_g[:] = acc_g._data * rho
        acc_g[:] = acc_g._data + (1.0 - rho) * g * g
        delta = np.sqrt(acc_delta._data + eps) / np.sqrt(acc_g._data + eps) * g
        acc_delta[:] = acc_delta._data * rho
        acc_delta[:] = acc_delta._data + (1.0 - rho) * delta * delta
        weight[:] = weight._data - (delta + wd * weight._data)


@register
class Ftrl(Optimizer):
    """FTRL-proximal: z and n per weight; elements with |z| <= lamda1 become exactly 0."""

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(**kwargs)
        self.lamda1 = lamda1
        self.beta = beta
        self.lr = learning_rate

    def create_state(self, index, weight):
        """(z, n): float32 zeros."""
        return (zeros_like(weight, dtype=np.float32), zeros_like(weight, dtype=np.float32))

    def update(self, index, weight, grad, state):
        """One FTRL step (``ftrl_update``)."""
        check_ndarrays("Ftrl", weight, grad)
        self._update_count(index)
        wd, lr, rescale, beta, lamda1 = scalars(
            weight,
            self._get_wd(index),
            self._get_lr(index),
            self.rescale_grad,
            self.beta,
            self.lamda1,
        )
        z, n = state
        g = fused_clip(grad._data * rescale, self.clip_gradient)
        w = weight._data
        z[:] = z._data + (g - (np.sqrt(n._data + np.square(g)) - np.sqrt(n._data)) * w / lr)
        n[:] = n._data + np.square(g)
        weight[:] = (
            (np.sign(z._data) * lamda1 - z._data)
            / ((beta + np.sqrt(n._data)) / lr + wd)
            * (np.abs(z._data) > lamda1)
        )
