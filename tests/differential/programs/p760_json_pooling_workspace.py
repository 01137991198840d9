"""JSON as pip's MXNet 1.9.1 (built with oneDNN) writes it around Pooling: a max Pooling with a
1- to 3-D kernel and a channel-first or no layout has a hidden second output (oneDNN's
workspace) that only ``node_row_ptr`` counts; every other pooling (avg, sum, lp, a global pool
without a kernel, NHWC / NWC / NDHWC) has one. The bytes of tojson and save for each form, the
listings (the workspace is never listed), a Group and get_internals, and reading back files
whose node_row_ptr leaves the workspace out (as minisym wrote before) or is missing: MXNet
recomputes it."""
import json
import os
import tempfile


def pooling_cases(mx):
    data = mx.sym.Variable("data")
    P = mx.sym.Pooling
    return {
        "max_2d": P(data, kernel=(2, 2), pool_type="max", name="p"),
        "default_type_is_max": P(data, kernel=(2, 2), name="p"),
        "max_1d": P(data, kernel=(3,), stride=(2,), pool_type="max", name="p"),
        "max_3d": P(data, kernel=(2, 2, 2), pool_type="max", name="p"),
        "max_1x1": P(data, kernel=(1, 1), pool_type="max", name="p"),
        "max_full": P(data, kernel=(3, 3), stride=(2, 2), pooling_convention="full", name="p"),
        "max_same": P(data, kernel=(3, 3), pooling_convention="same", name="p"),
        "max_global_with_kernel": P(data, kernel=(3, 3), global_pool=True, name="p"),
        "max_global_no_kernel": P(data, global_pool=True, pool_type="max", name="p"),
        "max_layout_nchw": P(data, kernel=(2, 2), layout="NCHW", name="p"),
        "max_layout_ncw": P(data, kernel=(2,), layout="NCW", name="p"),
        "max_layout_nhwc": P(data, kernel=(2, 2), layout="NHWC", name="p"),
        "max_layout_nwc": P(data, kernel=(2,), layout="NWC", name="p"),
        "max_layout_ndhwc": P(data, kernel=(2, 2, 2), layout="NDHWC", name="p"),
        "max_cudnn_off": P(data, kernel=(2, 2), cudnn_off=True, name="p"),
        "avg_2d": P(data, kernel=(2, 2), pool_type="avg", name="p"),
        "sum_2d": P(data, kernel=(2, 2), pool_type="sum", name="p"),
        "lp_2d": P(data, kernel=(2, 2), pool_type="lp", p_value=2, name="p"),
    }


def conv_net(mx):
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv")
    x = mx.sym.BatchNorm(x, name="bn")
    a = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool_max")
    b = mx.sym.Pooling(a, kernel=(2, 2), pool_type="avg", name="pool_avg")
    c = mx.sym.Pooling(b, kernel=(1, 1), pool_type="max", name="pool_max2")
    return mx.sym.FullyConnected(mx.sym.Flatten(c), num_hidden=3, name="fc")


def run(mx):
    out = {}
    for key, sym in sorted(pooling_cases(mx).items()):
        graph = json.loads(sym.tojson())
        out[key] = {"node_row_ptr": graph["node_row_ptr"], "heads": graph["heads"],
                    "outputs": sym.list_outputs(),
                    "internals": sym.get_internals().list_outputs()}
    net = conv_net(mx)
    out["net_tojson"] = net.tojson()
    out["net_internals_tojson"] = net.get_internals().tojson()
    out["net_internals"] = net.get_internals().list_outputs()
    out["net_shapes"] = net.get_internals().infer_shape(data=(1, 2, 10, 10))[1]
    group = mx.sym.Group([pooling_cases(mx)["max_2d"], pooling_cases(mx)["avg_2d"]])
    out["group_tojson"] = group.tojson()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "net-symbol.json")
        net.save(path)
        with open(path, encoding="utf-8") as f:
            out["save_equals_tojson"] = f.read() == net.tojson()
    older = json.loads(net.tojson())
    older["node_row_ptr"] = list(range(len(older["node_row_ptr"])))  # wrong on purpose
    out["read_wrong_row_ptr"] = mx.sym.load_json(json.dumps(older)).tojson() == net.tojson()
    del older["node_row_ptr"]
    out["read_without_row_ptr"] = mx.sym.load_json(json.dumps(older)).tojson() == net.tojson()
    return out
