"""The call signature of every operator function both engines have: mx.sym.<op> takes its
inputs, then its parameters in their documented order, then name, attr, out; mx.nd.<op> ends
with out, name; variadic operators (Concat, Custom) take (*data, **kwargs)."""
import inspect

NAMES = """Activation BatchNorm BlockGrad Concat Convolution Custom Dropout Embedding Flatten
FullyConnected LeakyReLU LinearRegressionOutput LogisticRegressionOutput MAERegressionOutput
MakeLoss Pooling Reshape SliceChannel Softmax SoftmaxActivation SoftmaxOutput abs argmax argmin
broadcast_add broadcast_div broadcast_equal broadcast_greater broadcast_greater_equal
broadcast_lesser broadcast_lesser_equal broadcast_maximum broadcast_minimum broadcast_minus
broadcast_mod broadcast_mul broadcast_not_equal broadcast_plus broadcast_power broadcast_sub
concat elemwise_add elemwise_div elemwise_mul elemwise_sub exp expand_dims flatten log
log_softmax make_loss max max_axis mean min min_axis negative relu reshape sigmoid slice_axis
softmax split sqrt square stop_gradient sum sum_axis tanh transpose""".split()
INTERNAL = """_Plus _Minus _Mul _Div _Mod _Power _PlusScalar _MinusScalar _RMinusScalar _MulScalar
_DivScalar _RDivScalar _ModScalar _RModScalar _PowerScalar _plus_scalar _minus_scalar
_rminus_scalar _mul_scalar _div_scalar _rdiv_scalar _mod_scalar _rmod_scalar _power_scalar
_rpower_scalar _maximum_scalar _minimum_scalar _equal _not_equal _greater _greater_equal _lesser
_lesser_equal _equal_scalar _not_equal_scalar _greater_scalar _greater_equal_scalar
_lesser_scalar _lesser_equal_scalar""".split()


def run(mx):
    sym = {n: str(inspect.signature(getattr(mx.sym, n))) for n in NAMES}
    sym.update({n: str(inspect.signature(getattr(mx.sym._internal, n))) for n in INTERNAL})
    nd = {n: str(inspect.signature(getattr(mx.nd, n))) for n in NAMES}
    nd.update({n: str(inspect.signature(getattr(mx.nd._internal, n))) for n in INTERNAL})
    return {"sym": sym, "nd": nd}
