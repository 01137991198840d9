"""NDArrayIter(shuffle=True): what does not depend on the random order (every example once, labels
follow their data, int32 inputs come back float32)."""
import numpy as np


def run(mx):
    data = mx.nd.array(np.arange(14).reshape(7, 2), dtype="int32")
    label = mx.nd.array(np.arange(7) * 100, dtype="int32")
    it = mx.io.NDArrayIter(data, label, batch_size=3, shuffle=True, last_batch_handle="pad")
    epochs = []
    for _ in range(3):
        rows, aligned, pads, shapes = [], True, [], []
        for batch in it:
            d, l = batch.data[0].asnumpy(), batch.label[0].asnumpy()
            aligned &= bool(np.all(d[:, 0] * 50 == l))
            rows.extend(d[: d.shape[0] - batch.pad, 0].astype(int).tolist())
            pads.append(batch.pad)
            shapes.append(list(d.shape))
        epochs.append({"rows_sorted": sorted(rows), "aligned": aligned, "pads": pads,
                       "shapes": shapes})
        it.reset()
    return {
        "epochs": epochs,
        "batch_dtype": np.dtype(it.next().data[0].dtype).name,
        "provide_data": [repr(d) for d in it.provide_data],
        "provide_label": [repr(d) for d in it.provide_label],
        "idx_is_permutation": sorted(it.idx.tolist()) == list(range(7)),
    }
