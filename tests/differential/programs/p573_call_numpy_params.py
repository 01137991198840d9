"""NumPy scalars and tuples of them inside parameters (stored as NumPy 1.x prints them), lists,
ints for shapes; a NumPy array is refused (MXNet cannot read its text '[2 0 1]')."""
import numpy as np

from _common import err, node_ops


def run(mx):
    x = mx.sym.Variable("x")
    perm = tuple(np.random.RandomState(0).permutation(3))
    made = {
        "transpose_numpy_tuple": mx.sym.transpose(x, axes=perm),
        "transpose_list": mx.sym.transpose(x, axes=[2, 0, 1]),
        "fc_int64": mx.sym.FullyConnected(x, num_hidden=np.int64(10)),
        "fc_int32": mx.sym.FullyConnected(x, num_hidden=np.int32(10)),
        "dropout_float32": mx.sym.Dropout(x, p=np.float32(0.3)),
        "dropout_float64": mx.sym.Dropout(x, p=np.float64(0.3)),
        "conv_stride_numpy": mx.sym.Convolution(x, kernel=(3, 3), num_filter=2,
                                                stride=(np.int64(2), np.int64(2))),
        "conv_num_filter_int64": mx.sym.Convolution(x, kernel=(3, 3), num_filter=np.int64(2)),
        "conv_no_bias_bool": mx.sym.Convolution(x, kernel=(3, 3), num_filter=2,
                                                no_bias=np.bool_(True)),
        "conv_kernel_list": mx.sym.Convolution(x, kernel=[3, 3], num_filter=2),
        "reshape_numpy_tuple": mx.sym.Reshape(x, shape=(np.int64(0), np.int64(-1))),
        "sum_axis_int64": mx.sym.sum(x, axis=np.int64(1)),
        "sum_axis_mixed_tuple": mx.sym.sum(x, axis=(np.int64(1), 2)),
        "plus_scalar_float32": mx.sym._internal._plus_scalar(x, scalar=np.float32(0.1)),
        "overload_float32": x + np.float32(0.1),
        "overload_int64": x * np.int64(2),
        "embedding_dtype_class": mx.sym.Embedding(x, input_dim=5, output_dim=2,
                                                  dtype=np.float16),
        "embedding_dtype_object": mx.sym.Embedding(x, input_dim=5, output_dim=2,
                                                   dtype=np.dtype("float16")),
        "slice_axis_numpy_and_none": mx.sym.slice_axis(x, axis=np.int64(1), begin=np.int64(0),
                                                       end=None),
        "activation_numpy_str": mx.sym.Activation(x, act_type=np.str_("relu")),
        "leaky_slope_float32": mx.sym.LeakyReLU(x, slope=np.float32(0.1)),
    }
    res = {k: node_ops(v)[-1] for k, v in made.items()}
    res["transpose_numpy_tuple_shape"] = made["transpose_numpy_tuple"].infer_shape(x=(2, 3, 4))
    res["nd_transpose_numpy_tuple"] = mx.nd.transpose(
        mx.nd.array(np.arange(24).reshape(2, 3, 4)), axes=perm).asnumpy()
    res["nd_sum_axis_int64"] = mx.nd.sum(mx.nd.ones((2, 3)), axis=np.int64(0)).asnumpy()
    res["errors"] = {
        "transpose_numpy_array": err(mx, mx.sym.transpose, x, axes=np.array([2, 0, 1])),
        "conv_kernel_numpy_array": err(mx, mx.sym.Convolution, x, kernel=np.array([3, 3]),
                                       num_filter=2),
        "reshape_numpy_array": err(mx, mx.sym.Reshape, x, shape=np.array([0, -1])),
        "nd_transpose_numpy_array": err(mx, mx.nd.transpose, mx.nd.ones((2, 3)),
                                        axes=np.array([1, 0])),
    }
    return res
