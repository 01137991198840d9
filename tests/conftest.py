"""Shared test setup: every test starts with fresh automatic-name counters, as a new
notebook does, so expected names like ``activation0`` never depend on test order."""
import pytest

import minisym as mx


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield
