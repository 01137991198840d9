"""NDArrayIter(last_batch_handle='pad'): every batch's data, label and pad over 3 epochs with reset()."""
from _common import ndarrayiter_epochs


def run(mx):
    return {"%d_samples_batch_%d" % (num, bs): ndarrayiter_epochs(mx, "pad", num, bs)
            for num in (5, 7) for bs in (2, 3)}
