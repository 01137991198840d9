"""The graph generator itself: it draws from the whole registry, reaches every operator family
within the CI examples, keeps its promises (smooth, batch-free), and measures the distance to a
kink correctly."""

import json

import numpy as np
import pytest
from graphs import (
    DRAWN,
    FAMILIES,
    LOSSES,
    NOT_DRAWN,
    NOT_SMOOTH,
    RANDOM,
    SMOOTH_BINARY,
    SMOOTH_BROADCAST,
    SMOOTH_SCALAR,
    SMOOTH_UNARY,
    Kink,
    graphs,
    kink_distance,
)
from hypothesis import given, settings

from minisym.ops.operator_base import all_ops


def test_every_registered_operator_is_drawn_or_left_out_with_a_reason():
    registered = set(all_ops())
    assert DRAWN <= registered, f"not registered: {sorted(DRAWN - registered)}"
    missing = registered - DRAWN - set(NOT_DRAWN)
    assert not missing, (
        f"operators graphs() never draws: {sorted(missing)}; add them to a "
        "family in tests/properties/graphs.py, or to NOT_DRAWN with a reason"
    )
    assert not DRAWN & set(NOT_DRAWN)


def _ops_in(graph):
    return {n["op"] for n in json.loads(graph.symbol.tojson())["nodes"]} - {"null"}


@pytest.mark.slow  # 200 graphs: ~2 s
def test_the_examples_reach_every_family_and_most_operators():
    families, ops = set(), set()

    @settings(max_examples=200)
    @given(graphs(losses=True, random_ops=True, max_ops=8))
    def collect(graph):
        families.update(graph.families)
        ops.update(_ops_in(graph))
        assert _ops_in(graph) <= DRAWN

    collect()
    every = set(FAMILIES) | set(NOT_SMOOTH) | set(RANDOM) | set(LOSSES)
    assert families == every, f"never drawn: {sorted(every - families)}"
    assert len(ops) >= 0.6 * len(DRAWN), f"only {sorted(ops)}"


SMOOTH = (
    SMOOTH_UNARY
    | SMOOTH_SCALAR
    | SMOOTH_BINARY
    | SMOOTH_BROADCAST
    | {"log", "sqrt", "_rdiv_scalar"}
    | {
        "Activation",
        "LeakyReLU",
        "FullyConnected",
        "Convolution",
        "Pooling",
        "BatchNorm",
        "Reshape",
        "Flatten",
        "transpose",
        "expand_dims",
        "slice_axis",
        "Concat",
        "SliceChannel",
        "sum",
        "mean",
        "max",
        "min",
        "softmax",
        "log_softmax",
        "SoftmaxActivation",
    }
)


@pytest.mark.slow  # 100 graphs: ~1 s
def test_smooth_and_batch_free_graphs_keep_their_promises():
    @settings(max_examples=100)
    @given(graphs(smooth=True, max_ops=6))
    def smooth(graph):
        assert _ops_in(graph) <= SMOOTH, graph
        assert not graph.labels
        assert "selu" not in graph.symbol.tojson() and "rrelu" not in graph.symbol.tojson()

    @settings(max_examples=100)
    @given(graphs(batch_free=True, losses=True, max_ops=6))
    def batch_free(graph):
        n = graph.batch_size
        for name in graph.data_names:
            assert graph.var_shapes[name][0] == n
        for other in (1, 4):  # valid for any batch size
            _, outs, _ = graph.symbol.infer_shape(**graph.shapes(batch_size=other))
            assert all(o[0] == other for o in outs), (graph, outs)

    smooth()
    batch_free()


# --- the distance to a non-differentiable point ----------------------------------------------
def test_distance_to_a_kink_at_zero_ignores_exact_zeros():
    kink = Kink("zero", [None], {"offset": 0.0})
    assert kink_distance(kink, [np.array([0.5, -0.2, 0.0])]) == pytest.approx(0.2)
    assert kink_distance(kink, [np.array([0.0, 0.0])]) == np.inf  # relu zeros: constant there
    shifted = Kink("zero", [None], {"offset": 0.5})
    assert kink_distance(shifted, [np.array([0.5001, 2.0])]) == pytest.approx(1e-4)


def test_distance_between_the_sides_of_a_maximum():
    kink = Kink("pair", [None, None])
    lhs, rhs = np.array([[1.0, 2.0]]), np.array([[1.25], [3.0]])
    assert kink_distance(kink, [lhs, rhs]) == pytest.approx(0.25)
    same = np.array([1.0, 2.0])
    assert kink_distance(kink, [same, same]) == np.inf  # one value two ways: moves together


def test_distance_to_a_tie_in_a_reduction():
    data = np.array([[1.0, 1.0005, -3.0], [0.0, 0.0, -1.0]])
    assert kink_distance(
        Kink("reduce", [None], {"axes": (1,), "op": "max"}), [data]
    ) == pytest.approx(5e-4)  # the second row ties at 0 (relu zeros): ignored
    assert kink_distance(
        Kink("reduce", [None], {"axes": (0,), "op": "min"}), [data]
    ) == pytest.approx(2.0)  # columns: min 0 twice (ignored), then -3 against -1
    assert kink_distance(
        Kink("reduce", [None], {"axes": (0, 1), "op": "max"}), [data]
    ) == pytest.approx(5e-4)


def test_distance_to_a_tie_in_a_max_pooling_window():
    data = np.array([[[1.0, 3.0, 2.999, -1.0]]])  # (N, C, W)
    info = {"kernel": (2,), "stride": (2,), "pad": (0,), "out_spatial": (2,)}
    assert kink_distance(Kink("pool", [None], info), [data]) == pytest.approx(2.0)
    overlapping = dict(info, stride=(1,), out_spatial=(3,))
    assert kink_distance(Kink("pool", [None], overlapping), [data]) == pytest.approx(1e-3)
    padded = {"kernel": (2,), "stride": (2,), "pad": (1,), "out_spatial": (3,)}  # -inf at ends
    assert kink_distance(Kink("pool", [None], padded), [data]) == pytest.approx(1e-3)
