"""mx.test_utils.compare_optimizer: one update of the same random weight and gradient by two
optimizers; it returns None when their states and weights agree and raises AssertionError when
they do not (plain and momentum SGD, Adam, float64, the multi-tensor form with a list of shapes)."""
import numpy as np
from _common import err


def run(mx):
    tu = mx.test_utils
    opt = mx.optimizer
    co = tu.compare_optimizer
    return {
        "sgd_same": err(mx, co, opt.SGD(learning_rate=0.1), opt.SGD(learning_rate=0.1), (3, 4),
                        np.float32),
        "sgd_lr_differs": err(mx, co, opt.SGD(learning_rate=0.1), opt.SGD(learning_rate=0.2),
                              (3, 4), np.float32),
        "sgd_momentum_same": err(mx, co, opt.SGD(learning_rate=0.1, momentum=0.9),
                                 opt.SGD(learning_rate=0.1, momentum=0.9), (3, 4), "float32"),
        "sgd_momentum_vs_none": err(mx, co, opt.SGD(learning_rate=0.1, momentum=0.9),
                                    opt.SGD(learning_rate=0.1), (3, 4), "float32"),
        "sgd_wd_differs": err(mx, co, opt.SGD(learning_rate=0.1, wd=0.1),
                              opt.SGD(learning_rate=0.1), (5,), np.float32),
        "sgd_float64": err(mx, co, opt.SGD(learning_rate=0.1, momentum=0.5),
                           opt.SGD(learning_rate=0.1, momentum=0.5), (2, 2), np.float64),
        "adam_same": err(mx, co, opt.Adam(), opt.Adam(), (3, 4), "float32"),
        "adam_beta_differs": err(mx, co, opt.Adam(beta1=0.5), opt.Adam(), (3, 4), "float32"),
        "adam_vs_sgd": err(mx, co, opt.Adam(), opt.SGD(), (3, 4), "float32"),
        "adam_states_not_compared": err(mx, co, opt.Adam(beta2=0.9), opt.Adam(), (3, 4),
                                        "float32", compare_states=False),
        "sgd_multi_tensor": err(mx, co, opt.SGD(learning_rate=0.1), opt.SGD(learning_rate=0.1),
                                [(3, 4), (5,)], np.float32, ntensors=2),
        "sgd_multi_tensor_differs": err(mx, co, opt.SGD(learning_rate=0.1),
                                        opt.SGD(learning_rate=0.3), [(3, 4), (5,)], np.float32,
                                        ntensors=2),
        "ntensors_without_list": err(mx, co, opt.SGD(), opt.SGD(), (3,), np.float32, ntensors=2),
    }
