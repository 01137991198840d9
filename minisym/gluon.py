"""``mx.gluon`` is not part of minisym: the course teaches MXNet's symbolic API only.

Importing it raises an ImportError that says what to use instead.
"""

GLUON_MESSAGE = (
    "mx.gluon is outside this course: minisym copies MXNet's symbolic API only (mx.sym, "
    "mx.mod.Module, mx.nd, mx.autograd, mx.io). Instead of a gluon block, build the network "
    "as a symbol and train it with Module:\n"
    "    data = mx.sym.Variable('data')\n"
    "    net = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')   # gluon.nn.Dense(10)\n"
    "    net = mx.sym.SoftmaxOutput(net, name='softmax')\n"
    "    mod = mx.mod.Module(net)                                       # gluon.Trainer\n"
    "    mod.fit(train_iter, num_epoch=5)\n"
    "A gluon.data.DataLoader becomes mx.io.NDArrayIter (or mx.io.CSVIter); a gluon loss "
    "becomes a loss symbol (SoftmaxOutput, LinearRegressionOutput, MakeLoss); "
    "autograd.record() + loss.backward() work on NDArrays with mx.autograd. If the line "
    "imports gluon beside what you use (from mxnet import gluon, autograd), import only the "
    "rest: from mxnet import autograd."
)

raise ImportError(GLUON_MESSAGE)
