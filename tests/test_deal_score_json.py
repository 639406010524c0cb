"""DealScore as JSON: ``to_dict``/``from_dict``/``to_json``/``from_json``.

A server that tells its clients how a deal was scored sends one ``DealScore``; the
same form is every entry of a state snapshot's ``deal_scores`` and a move outcome's
``deal_score``. Reading one back checks it as a state's deal scores are checked.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    DealScore,
    State,
    apply_with_outcome,
    score_deal,
)
from chkobba.events import MoveOutcome
from tests.helpers import spades_and_diamonds_score, two_sided_score, whole_match


@pytest.mark.parametrize(
    ("players", "rules", "seed"),
    [(2, TUNISIAN, 1), (4, TUNISIAN, 2), (2, CARD_RULES_PLUS, 3), (3, CARD_RULES_PLUS, 4)],
)
def test_every_score_of_a_match_round_trips(players: int, rules: Any, seed: int) -> None:
    states, _ = whole_match(seed, players, rules=rules)
    scores = states[-1].deal_scores
    assert scores
    for index, score in enumerate(scores):
        data = score.to_dict()
        assert json.loads(json.dumps(data)) == data  # plain JSON data
        assert DealScore.from_dict(data) == score
        assert DealScore.from_json(score.to_json()) == score
        assert DealScore.from_json(score.to_json(compact=True).encode()) == score
        # the same form as a snapshot's entry: one way to write a deal score
        assert states[-1].to_dict()["deal_scores"][index] == data


def test_the_outcome_of_a_deals_last_play_holds_the_same_form() -> None:
    states, moves = whole_match(5)
    last = next(i for i in range(len(states) - 1) if states[i + 1].deal_scores)
    _, what = apply_with_outcome(states[last], moves[last])
    assert what.deal_score is not None
    assert what.to_dict()["deal_score"] == what.deal_score.to_dict()
    assert MoveOutcome.from_json(what.to_json()) == what


def test_to_dict_writes_fields_by_name_in_order() -> None:
    score = spades_and_diamonds_score()
    data = score.to_dict()
    assert list(data) == [
        "cards_winner",
        "diamonds_winner",
        "bermila_winner",
        "seven_of_diamonds_winner",
        "chkobbas",
        "points",
        "card_counts",
        "diamond_counts",
        "seven_counts",
        "six_counts",
        "primiera_winner",
        "primiera_sums",
    ]
    assert data["points"] == [2, 1] and data["card_counts"] == [20, 20]
    assert data["cards_winner"] is None and data["seven_of_diamonds_winner"] == 0
    assert json.loads(score.to_json()) == data
    assert "\n" not in score.to_json(compact=True) and " " not in score.to_json(compact=True)


def test_numpy_counts_are_written_as_plain_ints() -> None:
    np = pytest.importorskip("numpy")
    made = spades_and_diamonds_score()  # a score built from an array's counts, by hand:
    score = attrs.evolve(
        made, chkobbas=tuple(np.array(made.chkobbas)), points=tuple(np.array(made.points))
    )
    assert type(score.points[1]) is not int and score == made
    data = score.to_dict()
    assert all(type(n) is int for n in data["chkobbas"] + data["points"])
    assert DealScore.from_json(score.to_json()) == score


def test_to_json_refuses_a_compact_that_is_no_flag() -> None:
    with pytest.raises(ChkobbaError, match="compact"):
        spades_and_diamonds_score().to_json(compact="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"points": [2]}, "deal_score.points must be 2 or 3 whole numbers, one per side"),
        ({"points": [1, 1, 1, 0]}, "deal_score.points must be 2 or 3 whole numbers"),
        ({"points": [3, 1]}, "deal_score.points (3, 1) are not the chkobbas plus the"),
        ({"cards_winner": 2}, "deal_score.cards_winner must be a side from 0 to 1 or None"),
        ({"chkobbas": [0, -1]}, "deal_score.chkobbas must be 2 whole numbers >= 0"),
        ({"card_counts": [30, 20]}, "count more than the 40 cards there are"),
        ({"six_counts": [2, 2.0]}, "deal_score.six_counts"),
        ({"cards_winner": True}, "deal_score.cards_winner"),
        ({"points": "21"}, "deal_score.points"),
    ],
)
def test_from_dict_refuses_a_score_no_deal_makes(change: dict[str, Any], message: str) -> None:
    data = spades_and_diamonds_score().to_dict() | change
    with pytest.raises(ChkobbaError) as caught:
        DealScore.from_dict(data)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_from_dict_names_missing_and_unknown_fields() -> None:
    data = spades_and_diamonds_score().to_dict()
    missing = {k: v for k, v in data.items() if k != "six_counts"}
    with pytest.raises(ChkobbaError, match="deal_score: missing field 'six_counts'"):
        DealScore.from_dict(missing)
    with pytest.raises(ChkobbaError, match="deal_score: unknown field 'cards'"):
        DealScore.from_dict(data | {"cards": 0})
    with pytest.raises(ChkobbaError, match="deal_score"):
        DealScore.from_dict([data])


@pytest.mark.parametrize("text", ["", "{", "[]", "null", b"\xff", '{"points": [1, 1]}'])
def test_from_json_refuses_text_that_holds_no_score(text: str | bytes) -> None:
    with pytest.raises(ChkobbaError):
        DealScore.from_json(text)


def test_a_state_snapshot_still_reads_and_checks_its_deal_scores() -> None:
    states, _ = whole_match(6)
    data = states[-1].to_dict()
    assert State.from_dict(data) == states[-1]
    data["deal_scores"][0]["cards_winner"] = "0"
    with pytest.raises(ChkobbaError, match=r"deal_scores\[0\]\.cards_winner"):
        State.from_dict(data)


def test_a_hand_built_three_sided_score_round_trips() -> None:
    score = two_sided_score()
    assert DealScore.from_dict(score.to_dict()) == score
    rng = random.Random(7)
    piles: list[list[Any]] = [[], [], []]
    for c in DECK:
        piles[rng.randrange(3)].append(c)
    three = score_deal(piles, (1, 0, 2), CARD_RULES_PLUS)
    assert DealScore.from_json(three.to_json()) == three
    assert three.to_dict()["primiera_sums"] == list(three.primiera_sums)


def test_reading_a_score_does_not_touch_the_data() -> None:
    data = spades_and_diamonds_score().to_dict()
    before = json.dumps(data)
    DealScore.from_dict(data)
    assert json.dumps(data) == before


def test_every_score_written_holds_to_its_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = DealScore.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for seed, players, rules in ((8, 2, TUNISIAN), (9, 3, CARD_RULES_PLUS), (10, 4, TUNISIAN)):
        for score in whole_match(seed, players, rules=rules)[0][-1].deal_scores:
            validator.validate(score.to_dict())
    assert not validator.is_valid(spades_and_diamonds_score().to_dict() | {"points": "21"})
    # The caller's to keep: a change to one answer reaches no other.
    changed = DealScore.json_schema()
    changed["properties"]["points"]["minItems"] = 9
    assert DealScore.json_schema()["properties"]["points"]["minItems"] == 2
