"""print_summary quirks with shapes: several inputs, multi-output ops (no shape, FC counts 0 channels),
num_group, Embedding, Concat's extra "Previous Layer" lines, a head variable, incomplete shapes."""
import warnings

from _common import err, summary_text


def branchy(mx):
    data = mx.sym.Variable("data")
    a = mx.sym.Convolution(data, kernel=(1, 1), num_filter=2, no_bias=True, name="a")
    b = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2, name="b")
    cat = mx.sym.Concat(a, b, name="cat")
    parts = mx.sym.SliceChannel(cat, num_outputs=2, name="sl")
    emb = mx.sym.Embedding(mx.sym.Variable("tok"), input_dim=7, output_dim=3, name="emb")
    fc = mx.sym.FullyConnected(parts[1], num_hidden=5, name="fcs")
    act = mx.sym.LeakyReLU(fc, act_type="elu", name="lr")
    return mx.sym.Group([act + 1, emb])


def run(mx):
    net = branchy(mx)
    x = mx.sym.Variable("x")
    y = mx.sym.Variable("y")
    two_inputs = mx.sym.FullyConnected(x + y, num_hidden=4, name="fc")
    fc_on_second_var = mx.sym.FullyConnected(
        mx.sym.Activation(x, act_type="relu", name="r"), num_hidden=3, name="f1") + \
        mx.sym.FullyConnected(y, num_hidden=3, name="f2")
    out = {
        "branchy": summary_text(mx, net, shape={"data": (1, 4, 5, 5), "tok": (1, 3)}),
        "two_inputs": summary_text(mx, two_inputs, shape={"x": (2, 6), "y": (2, 6)}),
        "fc_on_second_var": summary_text(mx, fc_on_second_var,
                                         shape={"x": (2, 6), "y": (2, 6)}),
        "variable_only": summary_text(mx, x, shape={"x": (3, 4)}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # infer_shape's own warning, covered elsewhere
        out["incomplete"] = err(mx, mx.viz.print_summary, net, shape={"data": (1, 4, 5, 5)})
    out["not_a_symbol"] = err(mx, mx.viz.print_summary, "net")
    return out
