"""plot_network options: hide_weights=False (weight edges drawn, nodes unstyled), dtype edge labels,
node_attrs, title and save_format, multi-output edges (always the last output's shape), repeated names."""
import warnings

from _common import describe_dot, parse_dot


def branchy(mx):
    data = mx.sym.Variable("data")
    a = mx.sym.Convolution(data, kernel=(1, 1), num_filter=2, no_bias=True, name="a")
    b = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2, name="b")
    cat = mx.sym.Concat(a, b, name="cat")
    parts = mx.sym.SliceChannel(cat, num_outputs=2, name="sl")
    emb = mx.sym.Embedding(mx.sym.Variable("tok"), input_dim=7, output_dim=3, name="emb")
    fc = mx.sym.FullyConnected(parts[0], num_hidden=5, name="fcs")
    act = mx.sym.LeakyReLU(fc, act_type="elu", name="lr")
    bn = mx.sym.BatchNorm(mx.sym.Reshape(act, shape=(0, 5, 1), name="rs"), name="bn")
    return mx.sym.Group([bn + 1, emb, parts[1]])


def run(mx):
    net = branchy(mx)
    shapes = {"data": (1, 4, 5, 5), "tok": (1, 3)}
    out = {
        "hidden": describe_dot(mx.viz.plot_network(net, shape=shapes)),
        "shown_weights_with_types": describe_dot(mx.viz.plot_network(
            net, shape=shapes, dtype={"data": "float32", "tok": "float32"}, hide_weights=False)),
        "types_only": describe_dot(mx.viz.plot_network(
            net, dtype={"data": "float64", "tok": "int32"})),
        "options": describe_dot(mx.viz.plot_network(
            net, title="my net", save_format="svg",
            node_attrs={"fixedsize": "false", "shape": "ellipse", "fontsize": "9"})),
    }
    a1, a2 = mx.sym.Variable("a"), mx.sym.Variable("a")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dup = mx.viz.plot_network(a1 + a2)
    out["repeated_names"] = {
        "warnings": [[w.category.__name__, str(w.message)] for w in caught
                     if "Repeated names" in str(w.message)],
        "graph": parse_dot(dup.source),
    }
    return out
