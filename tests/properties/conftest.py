"""Hypothesis profiles for the property tests.

``minisym-ci`` (the default, what ``make test`` and CI run): derandomized, so every run draws
the same examples; ``max_examples`` is EXAMPLES_PER_PROPERTY (100), which every property of
test_properties.py states again in its ``EXAMPLES`` table; no deadline (the first example
compiles numba kernels); no example database written into the work tree; a failure prints the
blob that replays it (``@reproduce_failure``).

``minisym-explore`` (``HYPOTHESIS_PROFILE=minisym-explore``): random, ten times the examples,
for hunting bugs by hand; a bug it finds is minimised, fixed and pinned by a plain regression
test (test_property_regressions.py).

The autouse fixtures of tests/conftest.py (fresh name counters, a seeded random state) run once
per test, not per example; the property tests name every node and seed every draw themselves,
so hypothesis's check against function-scoped fixtures is switched off.
"""

import os

from graphs import EXAMPLES_PER_PROPERTY
from hypothesis import HealthCheck, settings

settings.register_profile(
    "minisym-ci",
    derandomize=True,
    max_examples=EXAMPLES_PER_PROPERTY,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.register_profile(
    "minisym-explore",
    parent=settings.get_profile("minisym-ci"),
    derandomize=False,
    max_examples=10 * EXAMPLES_PER_PROPERTY,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "minisym-ci"))
