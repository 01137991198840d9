"""A convolution whose kernel is larger than the input is accepted when padding makes it fit.
(MXNet also accepts LinearRegressionOutput(grad_scale='x') until it runs; minisym checks every
parameter when the symbol is created: README, "Differences from MXNet", item 9.)"""


def run(mx):
    data = mx.sym.Variable("data")
    conv = mx.sym.Convolution(data, kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=8,
                              name="c")
    return {"conv_kernel_fits_with_pad": conv.infer_shape(data=(1, 3, 1, 1))}
