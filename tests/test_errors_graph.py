"""Every mistake a learner can make while building symbols and inferring shapes raises an error
of MXNet's type whose text names the operator, the node, the argument and the fix."""

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError, NotImplementedForSymbol

x = mx.sym.Variable("x")
y = mx.sym.Variable("y")


def fc_net():
    data = mx.sym.Variable("data")
    return mx.sym.FullyConnected(data, num_hidden=10, name="fc1")


MISTAKES = {
    # name: (what the learner typed, exception types it must be, fragments the text must hold)
    "missing required parameter": (
        lambda: mx.sym.FullyConnected(x, name="fc1"),
        (MXNetError, ValueError),
        ["FullyConnected 'fc1'", "num_hidden", "required"],
    ),
    "unknown act_type": (
        lambda: mx.sym.Activation(x, act_type="relux", name="act"),
        (MXNetError, ValueError),
        ["Activation 'act'", "relux", "'relu'", "'tanh'"],
    ),
    "misspelt parameter": (
        lambda: mx.sym.FullyConnected(x, num_hiden=3, name="fc1"),
        (MXNetError, TypeError),
        ["num_hiden", "num_hidden", "no_bias"],
    ),
    "parameter that does not parse": (
        lambda: mx.sym.Convolution(x, kernel="three", num_filter=2, name="c1"),
        (MXNetError, ValueError),
        ["Convolution 'c1'", "kernel", "three"],
    ),
    "parameter out of range": (
        lambda: mx.sym.FullyConnected(x, num_hidden=0, name="fc1"),
        (MXNetError, ValueError),
        ["num_hidden=0", "greater equal to 1"],
    ),
    "stride of the wrong length": (
        lambda: mx.sym.Convolution(x, kernel=(3, 3), stride=(2,), num_filter=2, name="c1"),
        (MXNetError, ValueError),
        ["stride", "kernel=(3, 3)", "one per spatial dimension"],
    ),
    "pooling without a kernel": (
        lambda: mx.sym.Pooling(x, pool_type="max", name="p1"),
        (MXNetError, ValueError),
        ["Pooling 'p1'", "kernel", "global_pool"],
    ),
    "numpy array as input": (
        lambda: mx.sym.FullyConnected(np.ones((2, 3)), num_hidden=3),
        (AssertionError,),
        ["Argument data must be Symbol", "mx.sym.Variable('data')"],
    ),
    "misspelt input name": (
        lambda: mx.sym.FullyConnected(data=x, wieght=y, num_hidden=3, name="fc1"),
        (MXNetError, TypeError),
        ["wieght", "[1]weight", "FullyConnected 'fc1'"],
    ),
    "multi-output symbol as input": (
        lambda: mx.sym.Activation(
            mx.sym.split(x, num_outputs=2, name="sp"), act_type="relu", name="a1"
        ),
        (MXNetError, ValueError),
        ["Activation 'a1'", "2 outputs", "sp_output0"],
    ),
    "variable name not a string": (
        lambda: mx.sym.Variable(3),
        (TypeError,),
        ["Expect a string for variable `name`"],
    ),
    "variable attribute without dunders": (
        lambda: mx.sym.Variable("v", layout="NCHW"),
        (ValueError,),
        ["layout", "__layout__"],
    ),
    "weight of the wrong shape": (
        lambda: fc_net().infer_shape(data=(32, 784), fc1_weight=(10, 7)),
        (MXNetError, ValueError),
        ["fc1", "input 1 'weight'", "'fc1_weight'", "(10, 7)", "(10, 784)", "data=(32, 784)"],
    ),
    "elementwise shapes differ": (
        lambda: (x + y).infer_shape(x=(2, 3), y=(3, 2)),
        (MXNetError, ValueError),
        ["_plus0", "(2, 3)", "(3, 2)", "broadcast_add"],
    ),
    "shapes that do not broadcast": (
        lambda: mx.sym.broadcast_add(x, y, name="b").infer_shape(x=(2, 3), y=(4, 3)),
        (MXNetError, ValueError),
        ["broadcast_add 'b'", "(2, 3)", "(4, 3)", "axis 0"],
    ),
    "concat of mismatched inputs": (
        lambda: mx.sym.Concat(x, y, dim=1, name="cat").infer_shape(x=(2, 3), y=(4, 3)),
        (MXNetError, ValueError),
        ["Concat 'cat'", "(4, 3)", "dim=1"],
    ),
    "convolution on 2-D data": (
        lambda: mx.sym.Convolution(x, kernel=(3, 3), num_filter=2, name="c1").infer_shape(
            x=(8, 10)
        ),
        (MXNetError, ValueError),
        ["Convolution 'c1'", "(8, 10)", "needs 4"],
    ),
    "kernel larger than the input": (
        lambda: mx.sym.Convolution(x, kernel=(5, 5), num_filter=2, name="c1").infer_shape(
            x=(1, 1, 3, 3)
        ),
        (MXNetError, ValueError),
        ["Convolution 'c1'", "larger"],
    ),
    "reshape to the wrong size": (
        lambda: mx.sym.Reshape(x, shape=(7,), name="r").infer_shape(x=(2, 3, 4, 5)),
        (MXNetError, ValueError),
        ["Reshape 'r'", "120 values", "(7,)"],
    ),
    "unknown keyword in infer_shape": (
        lambda: fc_net().infer_shape(dat=(2, 3)),
        (MXNetError, TypeError),
        ["dat", "Candidate arguments", "[0]data", "[1]fc1_weight"],
    ),
    "auxiliary state given to infer_shape": (
        lambda: mx.sym.BatchNorm(x, name="bn").infer_shape(x=(2, 3), bn_moving_mean=(3,)),
        (MXNetError, TypeError),
        ["bn_moving_mean", "auxiliary states"],
    ),
    "a list instead of a tuple": (
        lambda: fc_net().infer_shape(data=[32, 784]),
        (TypeError,),
        ["'data'", "tuple", "(32, 784)"],
    ),
    "positional and keyword shapes together": (
        lambda: fc_net().infer_shape((32, 784), fc1_weight=(10, 784)),
        (ValueError,),
        ["either by positional or kwargs"],
    ),
    "too many positional shapes": (
        lambda: fc_net().infer_shape((1, 2), (1, 2), (1,), (4,)),
        (MXNetError, ValueError),
        ["4 positional", "3 arguments"],
    ),
    "group of non-symbols": (
        lambda: mx.sym.Group([x, 3]),
        (TypeError,),
        ["Expected a list of symbols", "int"],
    ),
    "output name that does not exist": (
        lambda: fc_net()["fc2_output"],
        (ValueError,),
        ["fc2_output", "fc1_output"],
    ),
    "output index out of range": (lambda: fc_net()[1], (IndexError,), ["1", "1 output(s)"]),
    "output index of the wrong type": (lambda: fc_net()[1.5], (TypeError,), ["integer index"]),
    "in-place addition": (
        lambda: x.__iadd__(y),
        (NotImplementedForSymbol,),
        ["+=", "only available in NDArray"],
    ),
    "symbol plus a string": (lambda: x + "1", (TypeError,), ["not supported", "str"]),
    "symbol used as a bool": (lambda: bool(x), (NotImplementedForSymbol,), ["bool"]),
    "composition with an unknown variable": (
        lambda: fc_net()(datum=x),
        (MXNetError, ValueError),
        ["datum", "data"],
    ),
    "composition by position": (
        lambda: fc_net()(x),
        (MXNetError, TypeError),
        ["kwargs", "data=other_symbol"],
    ),
    "variadic inputs both ways": (
        lambda: mx.sym.Concat(x, arg1=y),
        (TypeError,),
        ["either as positional or keyword"],
    ),
    "load_json of text that is not JSON": (
        lambda: mx.sym.load_json("{nodes"),
        (MXNetError, ValueError),
        ["not valid JSON"],
    ),
    "load_json of JSON that is not a graph": (
        lambda: mx.sym.load_json('{"a": 1}'),
        (MXNetError, ValueError),
        ["'nodes'", "'heads'"],
    ),
    "load_json naming an unknown operator": (
        lambda: mx.sym.load_json(
            '{"nodes": [{"op": "Convolve", "name": "c", "inputs": []}], "heads": [[0, 0, 0]]}'
        ),
        (MXNetError,),
        ["Convolve", "Convolution"],
    ),
    "AttrScope value not a string": (
        lambda: mx.AttrScope(group=1),
        (ValueError,),
        ["group", "'1'"],
    ),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_mistake_raises_a_teaching_error(mistake):
    action, types, fragments = MISTAKES[mistake]
    with pytest.raises(types[0]) as caught:
        action()
    for extra_type in types[1:]:
        assert isinstance(caught.value, extra_type), type(caught.value).__mro__
    text = str(caught.value)
    missing = [f for f in fragments if f not in text]
    assert not missing, f"message lacks {missing}:\n{text}"


def test_a_failed_call_leaves_state_usable():
    """After an error the learner's symbols still work and naming goes on where it was."""
    with mx.name.NameManager():
        good = mx.sym.FullyConnected(x, num_hidden=2)
        with pytest.raises(MXNetError):
            mx.sym.FullyConnected(x, num_hidden=0)
        again = mx.sym.FullyConnected(x, num_hidden=2)
    assert good.infer_shape(x=(1, 4))[1] == [(1, 2)]
    assert again.name in ("fullyconnected1", "fullyconnected2")
