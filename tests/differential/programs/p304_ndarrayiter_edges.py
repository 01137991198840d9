"""NDArrayIter by hand: next() and StopIteration, the cursor, getpad, tiling a short set, hard_reset, errors."""
import numpy as np

from _common import err


def drain(it):
    return [[b.data[0].asnumpy().tolist(), b.pad] for b in it]


def run(mx):
    out = {}
    it = mx.io.NDArrayIter(np.arange(5), batch_size=2)
    steps = []
    for _ in range(4):
        try:
            batch = it.next()
            steps.append([batch.data[0].asnumpy().tolist(), batch.pad, it.getpad(), it.cursor])
        except StopIteration:
            steps.append(["StopIteration", it.cursor])
    out["manual_next"] = steps
    try:
        it.getdata()
        out["getdata_after_end"] = "returned"
    except AssertionError:
        out["getdata_after_end"] = "AssertionError"
    it.reset()
    out["iter_next_then_getdata"] = [it.iter_next(), it.getdata()[0].asnumpy().tolist(),
                                     it.getlabel(), it.getpad(), it.getindex()]

    # fewer examples than a batch: 'pad' repeats the whole set
    out["pad_tiles"] = drain(mx.io.NDArrayIter(np.arange(2), batch_size=7))
    # (fewer examples than a 'discard' batch, and an unknown last_batch_handle, which MXNet
    # accepts, are deliberate differences: minisym warns / refuses, tests/catalogue/test_io.py)

    roll = mx.io.NDArrayIter(np.arange(5), batch_size=2, last_batch_handle="roll_over")
    first = drain(roll)
    roll.hard_reset()
    out["hard_reset_drops_roll_over"] = [first, drain(roll)]
    roll = mx.io.NDArrayIter(np.arange(5), batch_size=2, last_batch_handle="roll_over")
    first = drain(roll)
    roll.reset()
    out["reset_keeps_roll_over"] = [first, drain(roll)]

    out["errors"] = {
        "data_none": err(mx, mx.io.NDArrayIter, None),
        "data_int": err(mx, mx.io.NDArrayIter, 3),
        "data_str": err(mx, mx.io.NDArrayIter, "x"),
        "data_tuple": err(mx, mx.io.NDArrayIter, (np.ones(2),)),
        "empty_list": err(mx, mx.io.NDArrayIter, []),
    }
    return out
