"""Shared test setup: every test starts as a new notebook does, with fresh automatic-name
counters (expected names like ``activation0`` never depend on test order) and with the engine's
random generator freshly seeded (initial weights, shuffles and dropout masks of a test that does
not seed it itself never depend on which tests ran before it in the same worker)."""

import pytest

import minisym as mx


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield


@pytest.fixture(autouse=True)
def fresh_random_state():
    mx.random.seed(0)
    yield
