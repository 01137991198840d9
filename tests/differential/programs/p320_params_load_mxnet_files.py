"""mx.nd.load of .params files written by MXNet 1.9.1 (tests/fixtures/mxnet_params): kind, names in
file order, shapes, dtypes, contexts and values."""
from _common import describe_loaded, fixture_files


def run(mx):
    return {name: dict(describe_loaded(mx.nd.load(path)), sha256=digest)
            for name, path, digest in fixture_files("mxnet_params")}
