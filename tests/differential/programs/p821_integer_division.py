"""Integer arrays divided: NDArray / NDArray, elemwise_div and broadcast_div (which raised
NumPy's casting error in minisym), by a scalar and of a scalar; MXNet's integer kernels divide
toward zero. (Dividing by an integer 0 kills MXNet 1.9.1 with SIGFPE, so no divisor here is 0;
minisym gives 0 there, see OBSERVED.md.)"""


def run(mx):
    a = mx.nd.array([7, -7, 7, -7, 0, 5], dtype="int32")
    b = mx.nd.array([2, 2, -2, -2, 3, 4], dtype="int32")
    row = mx.nd.array([[3], [-2]], dtype="int32")
    results = {
        "div": a / b,
        "elemwise_div": mx.nd.elemwise_div(a, b),
        "broadcast_div": mx.nd.broadcast_div(a.reshape((1, 6)), row),
        "divide": mx.nd.divide(a, b),
        "by_scalar": a / 2,
        "by_float_scalar": a / 2.5,
        "of_scalar": 7 / b,
        "int64": mx.nd.array([9, -9], dtype="int64") / mx.nd.array([4, 4], dtype="int64"),
        "uint8": mx.nd.array([9, 200], dtype="uint8") / mx.nd.array([4, 3], dtype="uint8"),
    }
    return {name: {"dtype": str(value.dtype.__name__ if hasattr(value.dtype, "__name__")
                                else value.dtype), "values": value.asnumpy().tolist()}
            for name, value in results.items()}
