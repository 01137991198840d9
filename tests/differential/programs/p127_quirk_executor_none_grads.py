"""Two Python-level accidents of MXNet 1.9.1's executor, on their own so that they can be
dropped separately: after bind(args_grad=None), reading grad_dict raises TypeError (it zips
names with grad_arrays, which is None); and a bad string inside a grad_req dict given to bind
raises KeyError (a plain dict lookup), not the ValueError of a bad grad_req string."""
from _common import err


def run(mx):
    x = mx.sym.Variable("x")
    z = mx.sym.Variable("z")
    ones = mx.nd.ones((3,))
    ex = (x * 2).bind(mx.cpu(), {"x": ones})
    return {
        "grad_dict_without_args_grad": err(mx, lambda: ex.grad_dict),
        "grad_req_dict_bad_string": err(mx, (x * z).bind, mx.cpu(), {"x": ones, "z": ones},
                                        args_grad={"x": mx.nd.zeros((3,))},
                                        grad_req={"x": "sum"}),
    }
