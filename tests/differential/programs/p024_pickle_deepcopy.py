"""pickle and copy.deepcopy/copy.copy round trips go through JSON."""
import copy
import pickle

from _common import names


def run(mx):
    data = mx.sym.Variable("data", shape=(2, 3), lr_mult=2)
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    net = mx.sym.BatchNorm(net, name="bn") + 1
    pickled = pickle.loads(pickle.dumps(net))
    deep = copy.deepcopy(net)
    shallow = copy.copy(net)
    after = (data * 2).name
    return {
        "pickle_tojson": pickled.tojson(),
        "pickle_identical": pickled.tojson() == net.tojson(),
        "deepcopy_tojson": deep.tojson(),
        "deepcopy_identical": deep.tojson() == net.tojson(),
        "copy_identical": shallow.tojson() == net.tojson(),
        "names": names(deep),
        "deepcopy_attr_dict": deep.attr_dict(),
        "counter_after_copies": after,
        "group_pickle": pickle.loads(pickle.dumps(mx.sym.Group([net, data]))).list_outputs(),
    }
