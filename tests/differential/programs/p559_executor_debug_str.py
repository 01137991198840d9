"""Executor.debug_str ends with MXNet's two summary lines: "Total N MB allocated" (whole MB,
read the way MXNet's memonger example reads it: the third line from the end) and a
"Total ... TempSpace resource requested" line. Recorded: their form, not the numbers (each
engine plans its own memory) and not the operators listed before them (MXNet fuses some when
no gradient is needed)."""
import re


def _tail(ex):
    """The form of the last lines of ``ex.debug_str()``."""
    text = ex.debug_str()
    lines = text.split("\n")
    return {
        "ends_with_newline": text.endswith("\n"),
        "allocated_line": bool(re.fullmatch(r"Total \d+ MB allocated", lines[-3])),
        "allocated_is_int": isinstance(int(lines[-3].split()[1]), int),
        "tempspace_line": bool(re.fullmatch(r"Total \d+ TempSpace resource requested",
                                            lines[-2])),
        "lists_variables": "Variable:data" in text and "Variable:fc_weight" in text,
    }


def run(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=64, name="fc")
    net = mx.sym.SoftmaxOutput(mx.sym.Activation(fc, act_type="relu"), name="sm")
    small = net.simple_bind(mx.cpu(), data=(2, 3))
    big = net.simple_bind(mx.cpu(), data=(4096, 3), grad_req="null")
    mb = lambda ex: int(ex.debug_str().split("\n")[-3].split()[1])
    return {
        "small": _tail(small),
        "big": _tail(big),
        "small_is_zero_mb": mb(small) == 0,
        "big_at_least_one_mb": mb(big) >= 1,
        "reshaped": _tail(big.reshape(data=(16, 3), sm_label=(16,))),
    }
