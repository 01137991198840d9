"""DataDesc (a (name, shape) tuple with dtype and layout), DataBatch and the DataIter base class."""
import numpy as np


class Counter:
    """A DataIter subclass of three batches of one row, written as tutorials do."""

    def __new__(cls, mx):
        class _Counter(mx.io.DataIter):
            def __init__(self):
                super().__init__(batch_size=1)
                self.i = 0
                self.provide_data = [mx.io.DataDesc("data", (1, 2))]

            def reset(self):
                self.i = 0

            def iter_next(self):
                self.i += 1
                return self.i <= 3

            def getdata(self):
                return [mx.nd.ones((1, 2)) * self.i]

            def getlabel(self):
                return [mx.nd.array([self.i])]

            def getpad(self):
                return 0
        return _Counter()


def run(mx):
    desc = mx.io.DataDesc("data", (32, 3, 8, 8))
    typed = mx.io.DataDesc("ids", (4, 7), np.int32, "NT")
    name, shape = desc
    out = {
        "repr": repr(desc),
        "str": str(desc),
        "repr_typed": repr(typed),
        "unpacked": [name, list(shape)],
        "len": len(desc),
        "index1": list(desc[1]),
        "fields": [desc.name, list(desc.shape), np.dtype(desc.dtype).name, desc.layout],
        "equals_tuple": desc == ("data", (32, 3, 8, 8)),
        "equal_despite_dtype": mx.io.DataDesc("a", (1,), np.int32) == mx.io.DataDesc("a", (1,)),
        "batch_axis": [mx.io.DataDesc.get_batch_axis(l) for l in ("NCHW", "TNC", "CHW", None)],
        "get_list": [repr(d) for d in mx.io.DataDesc.get_list([("a", (1, 2)), ("b", (3,))],
                                                             [("a", np.int32), ("b", np.float64)])],
        "get_list_untyped": [repr(d) for d in mx.io.DataDesc.get_list([("a", (1, 2))], None)],
    }
    batch = mx.io.DataBatch([mx.nd.ones((2, 3))], [mx.nd.zeros((2,))], pad=1, index=np.arange(2),
                            bucket_key=5, provide_data=[desc])
    out["batch_str"] = str(batch)
    out["batch_fields"] = [batch.pad, batch.index, batch.bucket_key, repr(batch.provide_data[0]),
                           batch.provide_label]
    out["batch_no_label_str"] = str(mx.io.DataBatch(data=[mx.nd.ones((1, 4)), mx.nd.ones((1, 2))]))
    out["batch_empty_label_str"] = str(mx.io.DataBatch(data=[mx.nd.ones((1, 4))], label=[]))
    for key, bad in {"data_not_list": dict(data=mx.nd.ones((1,))),
                     "label_not_list": dict(data=[mx.nd.ones((1,))], label=mx.nd.ones((1,)))}.items():
        try:
            mx.io.DataBatch(**bad)
            out[key] = "returned"
        except AssertionError:
            out[key] = "AssertionError"

    it = Counter(mx)
    batches = [[b.data[0].asnumpy().tolist(), b.label[0].asnumpy().tolist(), b.pad, b.index]
               for b in it]
    it.reset()
    out["custom_iter"] = {"batches": batches, "again": len(list(it)),
                          "provide_data": repr(it.provide_data[0]), "batch_size": it.batch_size,
                          "iter_is_self": iter(it) is it}
    base = mx.io.DataIter()
    out["base"] = {"batch_size": base.batch_size, "iter_next": base.iter_next(),
                   "getdata": base.getdata(), "getpad": base.getpad(), "getindex": base.getindex(),
                   "has_provide_data": hasattr(base, "provide_data"),
                   "reset": base.reset()}
    try:
        next(base)
        out["base"]["next"] = "returned"
    except StopIteration:
        out["base"]["next"] = "StopIteration"
    return out
