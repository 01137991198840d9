"""``mx.optimizer.Updater``: what Module calls as ``updater(index, grad, weight)``. It keeps one
optimizer state per index, and saves and restores them (``get_states`` / ``set_states``) in
MXNet's format, parsed and never unpickled (``minisym.mxnet_states``), or with the optimizer
in minisym's own (``minisym.optimizer_states``)."""

from ..mxnet_states import write_states

__all__ = ["Updater", "get_updater"]


class Updater:
    """``updater(index, grad, weight)``: what Module calls; keeps one optimizer state per index."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        """Update ``weight`` (or a list) in place, creating each index's state on first use."""
        if isinstance(index, (list, tuple)):
            indices, grads, weights = list(index), list(grad), list(weight)
        else:
            indices, grads, weights = [index], [grad], [weight]
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        for idx, w in zip(indices, weights):
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, w)
                self.states_synced[idx] = True
            elif not self.states_synced[idx]:
                self.states_synced[idx] = True  # one device: nothing to move
        if self.aggregate_updates:
            self._update_aggregated(indices, weights, grads)
        else:
            for idx, w, g in zip(indices, weights, grads):
                self.optimizer.update_multi_precision(idx, w, g, self.states[idx])

    def _update_aggregated(self, indices, weights, grads):
        """Update in groups of ``aggregate_num`` weights of one dtype, as MXNet's SGD does."""
        by_dtype = {}
        for item in zip(indices, weights, grads):
            by_dtype.setdefault(item[1].dtype, []).append(item)
        size = self.optimizer.aggregate_num
        for items in by_dtype.values():
            for start in range(0, len(items), size):
                idxs, ws, gs = zip(*items[start : start + size])
                self.optimizer.update_multi_precision(
                    list(idxs), list(ws), list(gs), [self.states[i] for i in idxs]
                )

    def set_states(self, states):
        """Restore the states (and maybe the optimizer) written by ``get_states``, or MXNet's
        pickled states when they hold only arrays. The bytes are parsed, never unpickled
        (``minisym.optimizer_states``, ``minisym.mxnet_states``)."""
        # deferred: optimizer_states reads and writes optimizers (it imports this package)
        from .. import optimizer_states

        states, optimizer = optimizer_states.loads(states)
        self.states = states
        if optimizer is not None:
            self.optimizer = optimizer
            # MXNet keeps the old optimizer's choice, and loops forever when it aggregated
            # and the restored one does not (aggregate_num 0)
            self.aggregate_updates = optimizer.aggregate_num > 0
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def set_loaded_states(self, states):
        """Use ``states`` ({index: state}, as read from a file) from the next update on."""
        self.states = dict(states)
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """The states as bytes: MXNet's format ({index: state} as MXNet pickles it, written
        opcode by opcode), or with ``dump_optimizer`` minisym's own (arrays and a JSON layout,
        optimizer included), which MXNet cannot read."""
        # deferred: optimizer_states reads and writes optimizers (it imports this package)
        from .. import optimizer_states

        if not dump_optimizer:
            return write_states(self.states)
        return optimizer_states.dumps(self.states, self.optimizer)


def get_updater(optimizer):
    """The Updater that applies ``optimizer`` and keeps its states."""
    return Updater(optimizer)
