"""Symbol files written by MXNet before 1.0 ("param" / "attr" keys, two-number inputs) load."""

import json

import minisym as mx

LEGACY = {
    "nodes": [
        {
            "op": "null",
            "param": {},
            "name": "data",
            "inputs": [],
            "backward_source_id": -1,
            "attr": {"__shape__": "(1, 4)"},
        },
        {"op": "null", "param": {}, "name": "fc_weight", "inputs": [], "backward_source_id": -1},
        {"op": "null", "param": {}, "name": "fc_bias", "inputs": [], "backward_source_id": -1},
        {
            "op": "FullyConnected",
            "param": {"no_bias": "False", "num_hidden": "3"},
            "name": "fc",
            "inputs": [[0, 0], [1, 0], [2, 0]],
            "backward_source_id": -1,
        },
        {
            "op": "Activation",
            "param": {"act_type": "relu"},
            "name": "relu",
            "inputs": [[3, 0]],
            "backward_source_id": -1,
        },
    ],
    "arg_nodes": [0, 1, 2],
    "heads": [[4, 0]],
}


def test_legacy_json_loads_and_runs():
    sym = mx.sym.load_json(json.dumps(LEGACY))
    assert sym.list_arguments() == ["data", "fc_weight", "fc_bias"]
    assert sym.list_outputs() == ["relu_output"]
    assert sym.infer_shape()[1] == [(1, 3)]  # the __shape__ attribute of data
    assert sym.attr_dict()["fc"] == {"no_bias": "False", "num_hidden": "3"}
    reloaded = mx.sym.load_json(sym.tojson())
    assert reloaded.tojson() == sym.tojson()
