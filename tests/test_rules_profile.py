"""The rules profile: capture values and the target (RULES.md §2 and §6)."""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import given, settings

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    PROFILES,
    TUNISIAN,
    ChkobbaError,
    Rank,
    Rules,
    card,
    new_match,
    score_deal,
)
from chkobba.rules import profile
from chkobba.scoring import CATEGORIES
from tests.strategies import examples, rule_profiles

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


def test_a_rank_is_valued_by_its_profile() -> None:
    # CardRulesPlus swaps Jack and Queen: asked by rank or by card, the same answer.
    assert (CARD_RULES_PLUS.value(Rank.JACK), CARD_RULES_PLUS.value(Rank.QUEEN)) == (8, 9)
    for rules in (TUNISIAN, CARD_RULES_PLUS):
        for c in DECK:
            assert rules.value(c.rank) == rules.value(c), (rules.name, c)


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


# --- every field of the profiles issue (#9) ---------------------------------------------


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("name", ""),
        ("name", "   "),
        ("name", 5),
        ("name", "x" * 61),
        ("name", "tab\there"),
        ("players", (5,)),
        ("players", ()),
        ("players", [2, 4]),
        ("players", (4, 2)),
        ("players", (2, 2)),
        ("players", (2, True)),
        ("cut", 1),
        ("cut", None),
        ("void_deal", "sometimes"),
        ("void_deal", None),
        ("equal_single_first", "yes"),
        ("courts_capture_sums", 0),
        ("last_card_chkobba", 1.0),
        ("majority", "half"),
        ("sevens_bermila", None),
        ("seven_of_diamonds", "True"),
        ("primiera", 1),
        ("ties_to_last_capturer", []),
        ("capture_values", (1, 2, 3, 4, 5, 6, 7, 8, 9, True)),
    ],
)
def test_a_bad_field_raises_an_error_naming_it(field: str, bad: object) -> None:
    with pytest.raises(ChkobbaError, match=f"^{field} must"):
        Rules(**{field: bad})  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [(4, 2), (2, 2)])
def test_refused_player_counts_are_told_the_whole_rule(bad: tuple[int, ...]) -> None:
    # Every count is one of 2, 3, 4 here: the message must say what else is wrong.
    with pytest.raises(ChkobbaError, match=r"at most once, in increasing order: \(2, 4\)"):
        Rules(players=bad)


def test_every_field_is_a_keyword_with_the_tunisian_default() -> None:
    expected = {
        "name": "tunisian",
        "capture_values": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
        "target": 21,
        "players": (2, 4),
        "cut": True,
        "void_deal": "three_of_a_rank",
        "equal_single_first": True,
        "courts_capture_sums": True,
        "last_card_chkobba": False,
        "majority": "more_than_half",
        "sevens_bermila": True,
        "seven_of_diamonds": True,
        "primiera": False,
        "ties_to_last_capturer": False,
    }
    fields = {f.name: getattr(TUNISIAN, f.name) for f in attrs.fields(Rules) if f.init}
    assert fields == expected
    assert Rules(**expected) == TUNISIAN  # type: ignore[arg-type]


def test_card_rules_plus_is_the_seeds_other_summary() -> None:
    changed = {
        f.name: getattr(CARD_RULES_PLUS, f.name)
        for f in attrs.fields(Rules)
        if f.init and getattr(CARD_RULES_PLUS, f.name) != getattr(TUNISIAN, f.name)
    }
    assert changed == {
        "name": "cardrulesplus",
        "capture_values": (1, 2, 3, 4, 5, 6, 7, 9, 8, 10),
        "target": 11,
        "players": (2, 3, 4),
        "cut": False,
        "void_deal": "three_kings",
        "majority": "most",
        "sevens_bermila": False,
    }
    assert CARD_RULES_PLUS.seven_of_diamonds and CARD_RULES_PLUS.courts_capture_sums
    assert CARD_RULES_PLUS.value(card("JS")) == 8 and CARD_RULES_PLUS.value(card("QS")) == 9


def test_profiles_by_name() -> None:
    assert dict(PROFILES) == {"tunisian": TUNISIAN, "cardrulesplus": CARD_RULES_PLUS}
    with pytest.raises(TypeError):
        PROFILES["house"] = TUNISIAN  # type: ignore[index]
    assert profile("cardrulesplus") is CARD_RULES_PLUS
    assert profile(attrs.evolve(TUNISIAN, target=16)).target == 16
    with pytest.raises(ChkobbaError, match="no rule profile is named 'house'"):
        profile("house")


def test_a_house_variant_is_one_field_away() -> None:
    sixteen = attrs.evolve(TUNISIAN, target=16)
    assert sixteen.target == 16 and sixteen.name == "tunisian" and sixteen != TUNISIAN
    assert new_match(rules=sixteen).rules is sixteen
    mine = Rules(name="my house", primiera=True)
    assert mine.primiera and mine.capture_values == TUNISIAN.capture_values
    assert hash(mine) == hash(Rules(name="my house", primiera=True))


@pytest.mark.parametrize(
    ("rules", "players", "sides"),
    [(TUNISIAN, 2, 2), (TUNISIAN, 4, 2), (CARD_RULES_PLUS, 3, 3), (CARD_RULES_PLUS, 4, 2)],
)
def test_sides(rules: Rules, players: int, sides: int) -> None:
    assert rules.sides(players) == sides == new_match(players, rules=rules).sides


@pytest.mark.parametrize(
    ("players", "refused"),
    [
        (3, "a match has 2 or 4 players, not 3"),
        (5, "a match has 2 or 4 players, not 5"),
        (1, "a match has 2 or 4 players, not 1"),
        # Refused for their type: "a match has 2 or 4 players, not 2.0" contradicted itself.
        ("2", "players must be an int, not '2' (str)"),
        (2.0, "players must be an int, not 2.0 (float)"),
        (True, "players must be an int, not True (bool)"),
    ],
)
def test_tunisian_refuses_other_player_counts(players: object, refused: str) -> None:
    with pytest.raises(ChkobbaError, match=re.escape(refused)):
        new_match(players, rules=TUNISIAN)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=re.escape(refused)):
        TUNISIAN.sides(players)  # type: ignore[arg-type]


@given(rules=rule_profiles(players=[2]))
@settings(max_examples=examples(60), deadline=None)
def test_categories_are_exactly_those_the_profile_scores(rules: Rules) -> None:
    # Side 0 holds every card: it wins every category the profile plays, and a category
    # it does not play has no winner at all.
    everything = score_deal([DECK, ()], [0, 0], rules)
    won = tuple(name for name, side in everything.winners.items() if side == 0)
    assert rules.categories == won
    assert all(everything.winners[name] is None for name in CATEGORIES if name not in won)


def test_categories_follow_the_scoring_order() -> None:
    assert CATEGORIES == ("cards", "diamonds", "bermila", "seven_of_diamonds", "primiera")
    every = attrs.evolve(TUNISIAN, primiera=True)
    assert every.categories == CATEGORIES
    assert attrs.evolve(TUNISIAN, sevens_bermila=False, seven_of_diamonds=False).categories == (
        "cards",
        "diamonds",
    )
