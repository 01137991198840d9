"""Write symbol JSON with minisym, for MXNet to read back.

    python tests/differential/make_minisym_json.py      (from the project root, with minisym)

It writes ``tests/fixtures/minisym_json/*.json``. The files are committed; program p076 loads
them (recorded under MXNet 1.9.1, so its fixture says what MXNet read) and
``tests/test_json_bytes.py`` checks that minisym still writes exactly these bytes.
"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "fixtures", "minisym_json"))


def nets(mx):
    """{file name: symbol}: a graph of each kind the JSON format has to carry."""
    data = mx.sym.Variable("data", shape=(0, 3, 8, 8))
    conv = mx.sym.Convolution(
        data, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True, name="conv"
    )
    bn = mx.sym.BatchNorm(conv, fix_gamma=False, eps=2e-5, name="bn")
    act = mx.sym.Activation(bn, act_type="relu", name="relu")
    pool = mx.sym.Pooling(act, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="pool")
    fc = mx.sym.FullyConnected(
        mx.sym.Flatten(pool), num_hidden=3, name="fc", attr={"__lr_mult__": "2"}
    )
    conv_net = mx.sym.SoftmaxOutput(fc, name="softmax")
    x = mx.sym.Variable("x")
    parts = mx.sym.split(x, num_outputs=3, axis=1, name="sp")
    joined = mx.sym.Concat(parts[2], parts[0] * 2 + 1, dim=1, name="cat")
    shared_mean = mx.sym.Variable("shared_mean")
    two_bn = mx.sym.BatchNorm(x, moving_mean=shared_mean, name="b1") + mx.sym.BatchNorm(
        x, moving_mean=shared_mean, name="b2"
    )
    return {
        "conv_bn_net.json": conv_net,
        "split_concat_group.json": mx.sym.Group(
            [joined, mx.sym.Reshape(parts[1], shape=(0, -1)), mx.sym.BlockGrad(x)]
        ),
        "shared_aux.json": two_bn,
    }


def build_files(mx, out_dir):
    """Write every net's ``tojson()`` into ``out_dir``; return the file names, sorted."""
    os.makedirs(out_dir, exist_ok=True)
    with mx.name.NameManager():
        written = nets(mx)
    for name, symbol in written.items():
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as fout:
            fout.write(symbol.tojson())
    return sorted(written)


if __name__ == "__main__":
    import minisym

    print("\n".join(build_files(minisym, OUT)))
