"""mx.operator.get_all_registered_operators (a sorted list of str, aliases included: which of
the course's operators it lists) and get_operator_arguments (the namedtuple
OperatorArguments(narg, names, types)) for operators whose parameters minisym has as MXNet;
an unknown operator's exception class."""
from _common import err

COURSE_OPERATORS = ["Activation", "BatchNorm", "Concat", "Convolution", "Custom", "Dropout",
                    "Flatten", "FullyConnected", "Pooling", "Reshape", "SliceChannel",
                    "SoftmaxOutput", "_Plus", "broadcast_add", "elemwise_add", "split", "sum",
                    "_plus_scalar", "relu", "exp", "transpose"]
NAMES_ONLY = ["Convolution", "BatchNorm", "SoftmaxOutput", "Reshape", "Pooling", "Dropout",
              "sum", "Embedding", "Concat"]
WITH_TYPES = ["FullyConnected", "Activation", "broadcast_add", "Custom", "Flatten"]


def run(mx):
    ops = mx.operator.get_all_registered_operators()
    res = {"type": type(ops).__name__, "item_type": type(ops[0]).__name__,
           "sorted": ops == sorted(ops),
           "course_operators_listed": [name in ops for name in COURSE_OPERATORS]}
    for name in NAMES_ONLY + WITH_TYPES:
        a = mx.operator.get_operator_arguments(name)
        entry = {"class": type(a).__name__, "fields": list(a._fields), "is_tuple":
                 isinstance(a, tuple), "narg": a.narg, "names": list(a.names)}
        if name in WITH_TYPES:
            entry["types"] = list(a.types)
        res[name] = entry
    res["unknown"] = err(mx, mx.operator.get_operator_arguments, "NoSuchOperator")
    return res
