"""mx.io.ResizeIter and mx.io.PrefetchingIter: the docstring examples, epochs, reset,
rename_data / rename_label, joined batches and mismatched iterators."""
import numpy as np

from _common import err


def _rows(batches):
    return [[[d.asnumpy()[:, 0].tolist() for d in b.data],
             [lab.asnumpy().tolist() for lab in b.label], b.pad] for b in batches]


def _descs(descs):
    return [[d.name, list(d.shape), np.dtype(d.dtype).name, d.layout] for d in descs]


def run(mx):
    out = {}
    nd_iter = mx.io.NDArrayIter(mx.nd.ones((100, 10)), batch_size=25)
    resize_iter = mx.io.ResizeIter(nd_iter, 2)
    out["resize_doc"] = [[repr(d).split("\n")[-1] for d in b.data] for b in resize_iter]
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    y = np.arange(5, dtype=np.float32)
    base = mx.io.NDArrayIter(x, y, batch_size=2)
    longer = mx.io.ResizeIter(base, 5)
    out["resize_longer"] = _rows(longer)
    longer.reset()
    out["resize_after_reset"] = _rows(longer)
    keep = mx.io.ResizeIter(mx.io.NDArrayIter(x, y, batch_size=2), 2, reset_internal=False)
    out["resize_no_reset"] = [_rows(keep)]
    keep.reset()
    out["resize_no_reset"].append(_rows(keep))
    out["resize_attrs"] = [longer.batch_size, _descs(longer.provide_data),
                           _descs(longer.provide_label), longer.getpad(), longer.cur]

    iter1 = mx.io.NDArrayIter({"data": mx.nd.ones((100, 10))}, batch_size=25)
    iter2 = mx.io.NDArrayIter({"data": mx.nd.ones((100, 10))}, batch_size=25)
    piter = mx.io.PrefetchingIter([iter1, iter2],
                                  rename_data=[{"data": "data_1"}, {"data": "data_2"}])
    out["prefetch_doc"] = [_descs(piter.provide_data), _descs(piter.provide_label),
                           piter.batch_size]
    out["prefetch_doc_batches"] = len(list(piter))

    a = mx.io.NDArrayIter(x, y, batch_size=2, data_name="a", label_name="la")
    b = mx.io.NDArrayIter(x * 10, y * 10, batch_size=2, data_name="b", label_name="lb",
                          layout="NTC")
    joined = mx.io.PrefetchingIter([a, b], rename_data=[{"a": "A"}, {"b": "B"}],
                                   rename_label=[{"la": "LA"}, {"lb": "LB"}])
    batches = list(joined)
    out["joined"] = _rows(batches)
    out["joined_descs"] = [_descs(joined.provide_data), _descs(joined.provide_label),
                           _descs(batches[0].provide_data), _descs(batches[0].provide_label)]
    out["joined_end"] = [joined.iter_next(), err(mx, joined.next)]
    joined.reset()
    out["joined_after_reset"] = _rows(joined)
    single = mx.io.PrefetchingIter(mx.io.NDArrayIter(x, y, batch_size=3,
                                                     last_batch_handle="discard"))
    out["single"] = [_rows(single), _descs(single.provide_data), single.batch_size]
    plain = mx.io.PrefetchingIter([mx.io.NDArrayIter(x, batch_size=2),
                                   mx.io.NDArrayIter(x, batch_size=2)])
    out["plain_names"] = _descs(plain.provide_data)
    first = plain.next()
    out["plain_getters"] = [len(plain.getdata()), plain.getlabel(), plain.getpad(),
                            plain.getindex(), len(first.data)]
    short = mx.io.PrefetchingIter([mx.io.NDArrayIter(x, batch_size=2),
                                   mx.io.NDArrayIter(x[:2], batch_size=2)])
    out["mismatch"] = [short.iter_next(), err(mx, short.iter_next)]
    out["bad_rename"] = err(mx, lambda: mx.io.PrefetchingIter(
        mx.io.NDArrayIter(x, batch_size=2), rename_data=[{"other": "z"}]))
    out["empty"] = err(mx, mx.io.PrefetchingIter, [])
    return out
