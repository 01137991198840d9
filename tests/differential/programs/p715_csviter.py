"""mx.io.CSVIter: provide_data / provide_label, every batch's data, label, pad and index over
several epochs with round_batch=True (the last batch wraps around and the next epoch starts
after the rows it took; a batch larger than the file) and round_batch=False (the pad rows keep
the previous batch's values), labels from a file or zeros, label_shape (2,) and (1,), data_shape
(1, 3), int32 / int64 dtypes (hex and octal fields, a decimal's integer part), numbers with
18 significant digits as np.savetxt writes them (MXNet's float32 parser), and the exception
classes of wrong files and parameters."""
import os
import tempfile

import numpy as np
from _common import err


def _write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def _rows(array):
    return "".join(",".join("%g" % v for v in row) + "\n" for row in array)


def _epochs(it, n):
    epochs = []
    for _ in range(n):
        epochs.append([{"data": b.data[0].asnumpy(), "label": b.label[0].asnumpy(), "pad": b.pad,
                        "index": [int(i) for i in b.index]} for b in it])
        it.reset()
    return epochs


def _descs(descs):
    return [[d.name, list(d.shape), np.dtype(d.dtype).name] for d in descs]


def _first(mx, **kwargs):
    return mx.io.CSVIter(**kwargs).next().data[0].asnumpy()


def run(mx):
    folder = tempfile.mkdtemp()
    data = _write(folder, "data.csv", _rows(np.arange(30).reshape(10, 3)))
    label = _write(folder, "label.csv", _rows(np.arange(10).reshape(10, 1)))
    label2 = _write(folder, "label2.csv", _rows(np.arange(20).reshape(10, 2) / 4))
    res = {}
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), label_csv=label, label_shape=(1,),
                       batch_size=4)
    res["round_batch"] = {"provide_data": _descs(it.provide_data),
                          "provide_label": _descs(it.provide_label),
                          "batch_size": it.batch_size, "epochs": _epochs(it, 3)}
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=3)
    res["round_batch_3"] = _epochs(it, 4)
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=3, round_batch=False)
    res["no_round_batch"] = _epochs(it, 2)
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=5)
    res["exact"] = _epochs(it, 2)
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=20)
    res["batch_larger_than_file"] = _epochs(it, 3)
    it = mx.io.CSVIter(data_csv=data, data_shape=(1, 3), label_csv=label2, label_shape=(2,),
                       batch_size=4, dtype="int32")
    res["int32_label2"] = {"provide_data": _descs(it.provide_data),
                           "provide_label": _descs(it.provide_label), "epochs": _epochs(it, 1)}
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=4, dtype="int64",
                       label_shape=(1, 1), data_name="x", label_name="y")
    res["int64_names"] = {"provide_data": _descs(it.provide_data),
                          "provide_label": _descs(it.provide_label)}
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=4)
    steps = [bool(it.iter_next()), it.getdata().asnumpy(), it.getlabel().asnumpy(), it.getpad(),
             [int(i) for i in it.getindex()], type(it.getdata()).__name__]
    steps += [bool(it.iter_next()), bool(it.iter_next()), it.getpad(), bool(it.iter_next())]
    res["iter_next"] = steps
    res["next_at_end"] = err(mx, it.next)
    spaced = _write(folder, "spaced.csv", "1.5, 2.5 ,3e2\n\n4,5,6")
    res["spaces_blank_lines"] = _epochs(mx.io.CSVIter(data_csv=spaced, data_shape=(3,),
                                                      batch_size=2), 1)
    long_digits = os.path.join(folder, "long.csv")
    np.savetxt(long_digits, np.random.RandomState(0).rand(40, 3) * [1, 1e3, 1e-3],
               delimiter=",")  # 18 significant digits and exponents, as np.savetxt writes
    res["long_decimals"] = _epochs(mx.io.CSVIter(data_csv=long_digits, data_shape=(3,),
                                                 batch_size=40), 1)
    ints = _write(folder, "ints.csv", "0x1f,017,1.5\n-7,+3,2e3\n")
    res["int_forms"] = _epochs(mx.io.CSVIter(data_csv=ints, data_shape=(3,), batch_size=2,
                                             dtype="int32"), 1)
    header = _write(folder, "header.csv", "a,b,c\n1,2,3\n")
    ragged = _write(folder, "ragged.csv", "1,2,3\n4,5\n")
    res["errors"] = {
        "row_longer_than_shape": err(mx, _first, mx, data_csv=data, data_shape=(2,),
                                     batch_size=2),
        "ragged": err(mx, _first, mx, data_csv=ragged, data_shape=(3,), batch_size=1),
        "header": err(mx, _first, mx, data_csv=header, data_shape=(3,), batch_size=1),
        "missing_file": err(mx, _first, mx, data_csv=os.path.join(folder, "nope.csv"),
                            data_shape=(3,), batch_size=2),
        "no_data_shape": err(mx, _first, mx, data_csv=data, batch_size=2),
        "no_batch_size": err(mx, _first, mx, data_csv=data, data_shape=(3,)),
        "float64": err(mx, _first, mx, data_csv=data, data_shape=(3,), batch_size=2,
                       dtype="float64"),
        "uint8": err(mx, _first, mx, data_csv=data, data_shape=(3,), batch_size=2,
                     dtype="uint8"),
        "numpy_dtype": err(mx, _first, mx, data_csv=data, data_shape=(3,), batch_size=2,
                           dtype=np.int32),
        "fewer_labels": err(mx, _first, mx, data_csv=data, data_shape=(3,), batch_size=4,
                            label_csv=spaced, label_shape=(3,)),
        "batch_size_25": err(mx, lambda: [b.pad for b in mx.io.CSVIter(
            data_csv=data, data_shape=(3,), batch_size=25)]),
    }
    return res
