"""NDArrayIter inputs: dict, list and single arrays, numpy vs NDArray dtypes, provide_data/provide_label."""
import numpy as np


def describe(it):
    """What an iterator provides and its first batch."""
    batch = it.next()
    return {
        "provide_data": [repr(d) for d in it.provide_data],
        "provide_label": [repr(d) for d in it.provide_label],
        "provide_data_tuples": [[d.name, list(d.shape), np.dtype(d.dtype).name, d.layout]
                                for d in it.provide_data],
        "names": [name for name, _ in it.data] + [name for name, _ in it.label],
        "batch_data": [d.asnumpy() for d in batch.data],
        "batch_label": [l.asnumpy() for l in batch.label],
        "batch_dtypes": [np.dtype(d.dtype).name for d in batch.data + batch.label],
        "str": str(batch),
        "num_source": it.num_source,
        "batch_size": it.batch_size,
    }


def run(mx):
    img = np.arange(4 * 2 * 3, dtype=np.float64).reshape(4, 2, 3)
    ids = mx.nd.array(np.arange(8).reshape(4, 2), dtype="int32")
    out = {
        "dict": describe(mx.io.NDArrayIter({"zeta": img, "alpha": ids},
                                           {"lab": np.arange(4), "aux_label": np.ones((4, 2))},
                                           batch_size=3)),
        "list": describe(mx.io.NDArrayIter([img, ids], [np.arange(4)], batch_size=2)),
        "single_names": describe(mx.io.NDArrayIter(img, np.arange(4), batch_size=2,
                                                   data_name="x", label_name="y")),
        "no_label": describe(mx.io.NDArrayIter(ids, batch_size=4)),
        "python_list_values": describe(mx.io.NDArrayIter({"v": [[1, 2], [3, 4], [5, 6]]},
                                                         batch_size=2)),
        # the number of examples is always read from axis 0, whatever the layout says
        "layout_tnc": describe(mx.io.NDArrayIter(np.arange(48.0).reshape(4, 4, 3), batch_size=3,
                                                 layout="TNC")),
    }
    user_dict = {"x": np.ones((3, 2))}
    mx.io.NDArrayIter(user_dict, batch_size=2)
    out["user_dict_value_replaced_by"] = type(user_dict["x"]).__name__
    return out
