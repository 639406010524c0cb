"""The hypothesis profiles scale every property test, its own example count included."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.strategies import examples


@pytest.fixture
def restore_profile() -> Iterator[None]:
    yield
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))  # as conftest.py


@pytest.mark.parametrize(
    ("profile", "count", "expected"),
    [("ci", 60, 60), ("dev", 60, 24), ("deep", 60, 900), ("dev", 1, 1), ("deep", 3, 45)],
)
def test_a_tests_own_count_scales_with_the_profile(
    restore_profile: None, profile: str, count: int, expected: int
) -> None:
    settings.load_profile(profile)
    assert examples(count) == expected
