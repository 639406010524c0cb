"""The rules profile: capture values and the target (RULES.md §2 and §6)."""

from __future__ import annotations

import attrs
import pytest

from chkobba import DECK, TUNISIAN, ChkobbaError, Rank, Rules, card, new_match

EXPECTED = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "Q": 8, "J": 9, "K": 10}


def test_capture_values_of_every_card() -> None:
    for c in DECK:
        assert TUNISIAN.value(c) == EXPECTED[c.rank.value], c


def test_courts_are_queen_8_jack_9_king_10() -> None:
    # The seeds of the *other* rule set swap Jack and Queen; the Tunisian profile does not.
    assert TUNISIAN.value(card("QH")) == 8
    assert TUNISIAN.value(card("JH")) == 9
    assert TUNISIAN.value(card("KH")) == 10
    assert TUNISIAN.value(Rank.QUEEN) == 8
    assert TUNISIAN.value(Rank.JACK) == 9


def test_target_is_21_and_the_default_profile_is_tunisian() -> None:
    assert TUNISIAN.target == 21
    assert Rules() == TUNISIAN
    assert TUNISIAN.name == "tunisian"
    assert new_match().rules is TUNISIAN


def test_rules_are_frozen_and_hashable() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        TUNISIAN.target = 11  # type: ignore[misc]
    assert hash(Rules()) == hash(TUNISIAN)
    assert {TUNISIAN: 1}[Rules()] == 1
    assert Rules(target=11) != TUNISIAN


@pytest.mark.parametrize(
    "values",
    [(1, 2, 3), (0, 2, 3, 4, 5, 6, 7, 8, 9, 10), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "AKQ"],
)
def test_bad_capture_values_are_rejected(values: object) -> None:
    with pytest.raises(ChkobbaError, match="capture_values"):
        Rules(capture_values=values)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", [0, -3, 21.0, "21"])
def test_bad_target_is_rejected(target: object) -> None:
    with pytest.raises(ChkobbaError, match="target"):
        Rules(target=target)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        {"target": 21.0},
        {"target": True},
        {"capture_values": (1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10)},
        {"name": "tunisian", "target": 0},
    ],
)
def test_a_rejected_profile_leaves_the_default_profile_untouched(bad: dict[str, object]) -> None:
    Rules(target=1)  # so that target=True could collide with an existing profile
    with pytest.raises(ChkobbaError):
        Rules(**bad)  # type: ignore[arg-type]
    assert type(TUNISIAN.target) is int and TUNISIAN.target == 21
    assert all(type(v) is int for v in TUNISIAN.capture_values)
    assert TUNISIAN.capture_values == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert Rules(target=1).target == 1 and type(Rules(target=1).target) is int
