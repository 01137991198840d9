"""In-place operators raise (NotImplementedForSymbol is an MXNetError); unsupported operand
types raise TypeError; a bool scalar is rejected by the parameter parser; truth-testing a
symbol raises."""
from _common import err


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")

    def iadd():
        x = a
        x += b

    def isub():
        x = a
        x -= 1

    def imul():
        x = a
        x *= 2

    def idiv():
        x = a
        x /= b

    return {
        "iadd": err(mx, iadd), "isub": err(mx, isub), "imul": err(mx, imul), "idiv": err(mx, idiv),
        "add_str": err(mx, lambda: a + "x"),
        "radd_str": err(mx, lambda: "x" + a),
        "mul_none": err(mx, lambda: a * None),
        "sub_list": err(mx, lambda: a - [1]),
        "rsub_str": err(mx, lambda: "x" - a),
        "div_str": err(mx, lambda: a / "x"),
        "pow_str": err(mx, lambda: a ** "x"),
        "add_bool": err(mx, lambda: a + True),
        "bool_of_symbol": err(mx, lambda: bool(a)),
    }
