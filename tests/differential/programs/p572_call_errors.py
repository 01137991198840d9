"""What MXNet 1.9.1 raises for call-convention mistakes (exception classes only)."""
import numpy as np

from _common import err


def run(mx):
    x, w, b, g = (mx.sym.Variable(n) for n in ("x", "w", "b", "g"))
    s = mx.sym
    cases = {
        "too_many_positional": lambda: s.Dropout(x, 0.5, "always", (), False, "n", None, None,
                                                 9),
        "too_many_no_params": lambda: s.Flatten(x, "n", None, None, 5),
        "param_twice": lambda: s.Dropout(x, 0.5, p=0.3),
        "input_twice": lambda: s.Dropout(x, data=x),
        "none_input_then_keyword": lambda: s.FullyConnected(None, data=x, num_hidden=2),
        "number_in_weight_slot": lambda: s.FullyConnected(x, 10),
        "string_in_weight_slot": lambda: s.FullyConnected(x, "a", num_hidden=3),
        "number_as_weight_keyword": lambda: s.FullyConnected(x, weight=3, num_hidden=3),
        "numpy_as_data": lambda: s.FullyConnected(np.ones((2, 3)), num_hidden=3),
        "bias_with_no_bias": lambda: s.Convolution(x, w, b, kernel=(3, 3), num_filter=4,
                                                   no_bias=True),
        "bias_positional_with_no_bias": lambda: s.FullyConnected(x, None, b, 10, True),
        "gamma_without_prelu": lambda: s.LeakyReLU(x, g),
        "length_without_use_length": lambda: s.softmax(x, g),
        "number_in_length_slot": lambda: s.softmax(x, 0),
        "concat_positional_param": lambda: s.Concat(x, w, 0),
        "concat_none": lambda: s.Concat(x, None),
        "name_not_a_string": lambda: s.Activation(x, act_type="relu", name=5),
        "make_loss_positional_param_is_name": lambda: s.make_loss(x, 2),
        "attr_not_a_dict": lambda: s.Activation(x, "relu", "nm", 7),
        "float_for_int_param": lambda: s.FullyConnected(x, num_hidden=10.0),
    }
    return {name: err(mx, fn) for name, fn in cases.items()}
