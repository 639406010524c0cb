"""Shared pytest setup: doctests see the whole public API, and hypothesis profiles."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import chkobba

# The typed clients are only type-checked (tests/test_typing_clients.py), never imported.
collect_ignore = ["tests/typing_clients"]

# HYPOTHESIS_PROFILE picks one: ``ci`` (the default), ``dev`` for a quicker run while
# editing (and for .ci/run's suites under the other Pythons, which check that the code
# runs there: the full counts run under 3.11 and against the compiled build), ``deep``
# for a long hunt before a release. Tests that set their own count scale it by the
# profile too (tests.strategies.examples).
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "deep", max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _public_names(doctest_namespace: dict[str, Any]) -> None:
    # Doctests in src/ and docs/ read like user code: every public name is at hand.
    for name in chkobba.__all__:
        doctest_namespace[name] = getattr(chkobba, name)


# CHKOBBA_TEST_DEADLINE, in seconds since the epoch: once it has passed, the run stops
# after the test under way, with the summary so far (pytest's status 2). .ci/run gives it
# to the suites under the other Pythons, which give way to its 20 minutes; no test is cut
# short, so every failure before the deadline is counted.
_DEADLINE = os.environ.get("CHKOBBA_TEST_DEADLINE")
_STOP_AT = float(_DEADLINE) if _DEADLINE else None
DEADLINE_REACHED = "CHKOBBA_TEST_DEADLINE reached: the rest of the suite did not run"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    yield
    if _STOP_AT is not None and time.time() > _STOP_AT:
        item.session.shouldstop = DEADLINE_REACHED
