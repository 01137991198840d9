"""MXNet reads what minisym writes: mx.nd.load and mx.model.load_checkpoint of the files minisym wrote
(tests/fixtures/minisym_params, made by make_minisym_files.py). Recorded under MXNet 1.9.1."""
import os

from _common import describe_loaded, fixture_dir, fixture_files

DIR = fixture_dir("minisym_params")


def run(mx):
    out = {"sha256": {}}
    for name, path, digest in fixture_files("minisym_params"):
        out["sha256"][name] = digest
        if name.endswith(".params"):
            out[name] = describe_loaded(mx.nd.load(path))
    sym, arg_params, aux_params = mx.model.load_checkpoint(os.path.join(DIR, "mlp"), 2)
    with open(os.path.join(DIR, "mlp-symbol.json"), encoding="utf-8") as f:
        text = f.read()
    out["checkpoint"] = {
        "arguments": sym.list_arguments(),
        "outputs": sym.list_outputs(),
        "tojson_equals_file": sym.tojson() == text,
        "arg_params": describe_loaded(arg_params),
        "aux_params": describe_loaded(aux_params),
        "infer_shape": sym.infer_shape(data=(2, 3)),
    }
    return out
