"""mx.sym.load_json: round trip is byte-identical, names and listings survive, loading does
not advance the NameManager counters, compact hand-written JSON is accepted."""
import json

from _common import names


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4)
    net = mx.sym.BatchNorm(net)
    net = mx.sym.Activation(net, act_type="tanh")
    text = net.tojson()
    loaded = mx.sym.load_json(text)
    after = mx.sym.FullyConnected(data, num_hidden=1).name  # counter continues at 1
    loaded_names = names(loaded)
    compact = json.dumps(json.loads(text), separators=(",", ":"))
    from_compact = mx.sym.load_json(compact)
    hand = ('{"nodes":[{"op":"null","name":"x","inputs":[]},'
            '{"op":"Activation","name":"act","attrs":{"act_type":"relu"},"inputs":[[0,0,0]]}],'
            '"arg_nodes":[0],"node_row_ptr":[0,1,2],"heads":[[1,0,0]],'
            '"attrs":{"mxnet_version":["int",10901]}}')
    hand_sym = mx.sym.load_json(hand)
    return {
        "identical": loaded.tojson() == text,
        "loaded_name": loaded.name,
        "names": loaded_names,
        "attr_dict": loaded.attr_dict(),
        "fc_after_load": after,
        "from_compact_identical": from_compact.tojson() == text,
        "hand_tojson": hand_sym.tojson(),
        "hand_names": names(hand_sym),
        "hand_infer_shape": hand_sym.infer_shape(x=(2, 2)),
    }
