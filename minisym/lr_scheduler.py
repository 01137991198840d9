"""``mx.lr_scheduler``: the learning rate as a function of the update count.

A scheduler is called with ``num_update`` (the most times any one weight has been updated) and
returns the learning rate. Like MXNet's, the step schedulers keep state: they lower ``base_lr``
in place as the count passes each step, and never raise it again.
"""

import logging
from math import cos, pi

__all__ = [
    "LRScheduler",
    "FactorScheduler",
    "MultiFactorScheduler",
    "PolyScheduler",
    "CosineScheduler",
]


class LRScheduler:
    """Base class: ``base_lr``, plus an optional warm-up over the first ``warmup_steps`` updates."""

    def __init__(self, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode="linear"):
        self.base_lr = base_lr
        assert isinstance(warmup_steps, int), (
            f"warmup_steps must be an int, got {type(warmup_steps).__name__}"
        )
        self.warmup_steps = warmup_steps
        self.warmup_final_lr = base_lr
        self.warmup_begin_lr = warmup_begin_lr
        if self.warmup_begin_lr > self.warmup_final_lr:
            raise ValueError(
                f"Base lr has to be higher than warmup_begin_lr "
                f"(base_lr={base_lr}, warmup_begin_lr={warmup_begin_lr})"
            )
        if self.warmup_steps < 0:
            raise ValueError(f"Warmup steps has to be positive or 0, got {warmup_steps}")
        if warmup_mode not in ("linear", "constant"):
            raise ValueError(
                f"Supports only linear and constant modes of warmup, got {warmup_mode!r}"
            )
        self.warmup_mode = warmup_mode

    def get_warmup_lr(self, num_update):
        """The warm-up learning rate at ``num_update`` (< warmup_steps)."""
        assert num_update < self.warmup_steps
        if self.warmup_mode == "linear":
            increase = (
                (self.warmup_final_lr - self.warmup_begin_lr)
                * float(num_update)
                / float(self.warmup_steps)
            )
            return self.warmup_begin_lr + increase
        return self.warmup_begin_lr

    def __call__(self, num_update):
        """The learning rate after ``num_update`` updates."""
        raise NotImplementedError("must override this")


class FactorScheduler(LRScheduler):
    """Multiply the rate by ``factor`` each time ``num_update`` passes another ``step`` updates."""

    def __init__(
        self,
        step,
        factor=1,
        stop_factor_lr=1e-8,
        base_lr=0.01,
        warmup_steps=0,
        warmup_begin_lr=0,
        warmup_mode="linear",
    ):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if step < 1:
            raise ValueError(f"Schedule step must be greater or equal than 1 round, got {step}")
        if factor > 1.0:
            raise ValueError(f"Factor must be no more than 1 to make lr reduce, got {factor}")
        self.step = step
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.count = 0

    def __call__(self, num_update):
        """The learning rate after ``num_update`` updates (the first drop is at step + 1)."""
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        # A loop, not an if: a count that jumps (resumed training) takes every drop it passed.
        while num_update > self.count + self.step:
            self.count += self.step
            self.base_lr *= self.factor
            if self.base_lr < self.stop_factor_lr:
                self.base_lr = self.stop_factor_lr
                logging.info(
                    "Update[%d]: now learning rate arrived at %0.5e, will not change in the future",
                    num_update,
                    self.base_lr,
                )
            else:
                logging.info("Update[%d]: Change learning rate to %0.5e", num_update, self.base_lr)
        return self.base_lr


class MultiFactorScheduler(LRScheduler):
    """Multiply the rate by ``factor`` as ``num_update`` passes each entry of the list ``step``."""

    def __init__(
        self, step, factor=1, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode="linear"
    ):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        assert isinstance(step, list) and len(step) >= 1, (
            f"step must be a non-empty list of update counts, got {step!r}"
        )
        for i, one_step in enumerate(step):
            if i != 0 and step[i] <= step[i - 1]:
                raise ValueError(f"Schedule step must be an increasing integer list, got {step}")
            if one_step < 1:
                raise ValueError(f"Schedule step must be greater or equal than 1 round, got {step}")
        if factor > 1.0:
            raise ValueError(f"Factor must be no more than 1 to make lr reduce, got {factor}")
        self.step = step
        self.cur_step_ind = 0
        self.factor = factor
        self.count = 0

    def __call__(self, num_update):
        """The learning rate after ``num_update`` updates."""
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while self.cur_step_ind < len(self.step) and num_update > self.step[self.cur_step_ind]:
            self.count = self.step[self.cur_step_ind]
            self.cur_step_ind += 1
            self.base_lr *= self.factor
            logging.info("Update[%d]: Change learning rate to %0.5e", num_update, self.base_lr)
        return self.base_lr


class _DecayToFinal(LRScheduler):
    """final_lr + (base_lr - final_lr) * ``_fraction(progress)`` over ``max_update`` updates."""

    def __init__(self, max_update, base_lr, final_lr, warmup_steps, warmup_begin_lr, warmup_mode):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        assert isinstance(max_update, int), "max_update must be an int"
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.base_lr_orig = self.base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def _fraction(self, progress):
        """How much of (base_lr - final_lr) is left at ``progress`` (0 to 1)."""
        raise NotImplementedError()

    def __call__(self, num_update):
        """The learning rate after ``num_update`` updates (final_lr after ``max_update``)."""
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            progress = float(num_update - self.warmup_steps) / float(self.max_steps)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * self._fraction(
                progress
            )
        return self.base_lr


class PolyScheduler(_DecayToFinal):
    """final_lr + (base_lr - final_lr) * (1 - progress) ** pwr, over ``max_update`` updates."""

    def __init__(
        self,
        max_update,
        base_lr=0.01,
        pwr=2,
        final_lr=0,
        warmup_steps=0,
        warmup_begin_lr=0,
        warmup_mode="linear",
    ):
        super().__init__(max_update, base_lr, final_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        self.power = pwr

    def _fraction(self, progress):
        """(1 - progress) ** pwr."""
        return pow(1 - progress, self.power)


class CosineScheduler(_DecayToFinal):
    """final_lr + (base_lr - final_lr) * (1 + cos(pi * progress)) / 2 over ``max_update``."""

    def __init__(
        self,
        max_update,
        base_lr=0.01,
        final_lr=0,
        warmup_steps=0,
        warmup_begin_lr=0,
        warmup_mode="linear",
    ):
        super().__init__(max_update, base_lr, final_lr, warmup_steps, warmup_begin_lr, warmup_mode)

    def _fraction(self, progress):
        """(1 + cos(pi * progress)) / 2."""
        return (1 + cos(pi * progress)) / 2
