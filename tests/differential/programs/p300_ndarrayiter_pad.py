"""NDArrayIter(last_batch_handle='pad'): every batch's data, label and pad over 3 epochs with reset()."""
import numpy as np

HANDLE = "pad"


def epochs(mx, num, batch_size, count=3):
    """[[{data, label, pad, index, str}, ...] per epoch] and the cursor after each epoch."""
    data = np.arange(num * 3, dtype=np.float32).reshape(num, 3)
    label = np.arange(num, dtype=np.float32) * 10
    it = mx.io.NDArrayIter(data, label, batch_size=batch_size, last_batch_handle=HANDLE)
    out, cursors = [], []
    for _ in range(count):
        batches = []
        for batch in it:
            batches.append({"data": batch.data[0].asnumpy(), "label": batch.label[0].asnumpy(),
                            "pad": batch.pad, "index": batch.index, "str": str(batch)})
        out.append(batches)
        cursors.append(it.cursor)
        it.reset()
        cursors.append(it.cursor)
    return {"epochs": out, "cursors": cursors, "num_data": it.num_data}


def run(mx):
    return {"%d_samples_batch_%d" % (num, bs): epochs(mx, num, bs)
            for num in (5, 7) for bs in (2, 3)}
