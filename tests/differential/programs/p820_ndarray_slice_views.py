"""Which basic slices of an NDArray are views (writing into them changes the array) and which are
copies: MXNet 1.9.1 gives a view when the selected elements are one contiguous block in memory,
and a copy otherwise (x[:, :, 1] from the issue of a docstring reader)."""
import numpy as np

KEYS = {
    "first_int": (1,),
    "first_range": (slice(1, 2),),
    "all": (slice(None),),
    "two_ints": (0, 1),
    "int_then_range": (1, slice(1, 3)),
    "inner_column": (slice(None), slice(None), 1),
    "middle_row": (slice(None), 1),
    "stepped": (slice(None, None, 2),),
    "last_range": (0, 1, slice(1, 3)),
    "whole_inner": (0, slice(1, 3)),
}


def run(mx):
    found = {}
    for name, key in KEYS.items():
        x = mx.nd.array(np.arange(24).reshape(2, 3, 4))
        part = x[key if len(key) > 1 else key[0]]
        part[:] = -1
        found[name] = {"shape": list(part.shape),
                       "x_changed": int((x.asnumpy() == -1).sum()),
                       "part": part.asnumpy().tolist()}
    return found
