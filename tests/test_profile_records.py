"""Records carry the whole rule profile (the profiles issue, #9)."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import CARD_RULES_PLUS, TUNISIAN, Phase, Record, RecordError, Rules, apply, new_match
from tests.helpers import random_history, stacked_shuffle

HOUSE = Rules(
    name="my house",
    capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    target=16,
    players=(2, 3, 4),
    cut=False,
    void_deal="never",
    equal_single_first=False,
    courts_capture_sums=False,
    last_card_chkobba=True,
    majority="most",
    sevens_bermila=False,
    seven_of_diamonds=False,
    primiera=True,
    ties_to_last_capturer=True,
)


def test_a_record_writes_every_field_of_the_profile() -> None:
    data = Record(players=3, rules=HOUSE).to_dict()
    assert data["scores"] == [0, 0, 0]
    assert data["rules"] == {
        "name": "my house",
        "capture_values": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        "target": 16,
        "players": [2, 3, 4],
        "cut": False,
        "void_deal": "never",
        "equal_single_first": False,
        "courts_capture_sums": False,
        "last_card_chkobba": True,
        "majority": "most",
        "sevens_bermila": False,
        "seven_of_diamonds": False,
        "primiera": True,
        "ties_to_last_capturer": True,
    }
    assert Record.from_dict(json.loads(json.dumps(data))).rules == HOUSE


@pytest.mark.parametrize("field", [f.name for f in attrs.fields(Rules) if f.init][3:])
def test_each_field_survives_a_round_trip(field: str) -> None:
    changed = attrs.evolve(TUNISIAN, name="one off", **{field: getattr(HOUSE, field)})
    players = 3 if field == "players" else 2
    record = Record(players=players, rules=changed)
    assert Record.from_json(record.to_json()).rules == changed
    assert Record.from_json(record.to_json(compact=True)).rules == changed


def test_old_records_load_as_tunisian() -> None:
    data = Record(players=2).to_dict()
    data["rules"] = {"name": "tunisian", "capture_values": list(range(1, 11)), "target": 21}
    assert Record.from_dict(data).rules == TUNISIAN
    del data["rules"]
    assert Record.from_dict(data).rules == TUNISIAN
    data["rules"] = {"name": "short", "capture_values": list(range(1, 11)), "target": 11}
    assert Record.from_dict(data).rules == attrs.evolve(TUNISIAN, name="short", target=11)


def test_the_profile_decides_the_player_count_of_a_record() -> None:
    with pytest.raises(RecordError, match="2 or 4 players, not 3"):
        Record(players=3)
    assert Record(players=3, rules=CARD_RULES_PLUS).scores == (0, 0, 0)
    assert Record(players=4, rules=CARD_RULES_PLUS).scores == (0, 0)
    with pytest.raises(RecordError, match="3 whole numbers"):
        Record(players=3, rules=CARD_RULES_PLUS, scores=(0, 0))


@given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3, 4)))
def test_card_rules_plus_records_round_trip_and_rebuild(seed: int, players: int) -> None:
    states, moves = random_history(seed, players, rules=CARD_RULES_PLUS, max_moves=120)
    record = Record.from_moves(states[0], moves)
    assert Record.from_json(record.to_json()) == record
    assert record.replay() == states
    # Without a cut the shuffle is worked out from the dealt hands, table and stock (a
    # void deal hides its shuffle: any voiding one gives the same states).
    assert Record.from_states(states).replay() == states


def test_from_states_rebuilds_a_void_deal_without_a_cut() -> None:
    start = new_match(2, rules=CARD_RULES_PLUS)
    void = apply(
        start,
        stacked_shuffle(hands=["AS 2S 3S", "4H 6H 7H"], table="KS KH KC 2D", cut=False),
    )
    assert void.phase is Phase.SHUFFLE
    rebuilt = Record.from_states([start, void])
    assert rebuilt.replay() == (start, void)


def test_the_schema_accepts_records_of_every_profile() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    for players, rules in ((3, HOUSE), (3, CARD_RULES_PLUS), (4, TUNISIAN)):
        states, moves = random_history(1, players, rules=rules, max_moves=40)
        data = json.loads(Record.from_moves(states[0], moves).to_json())
        assert list(validator.iter_errors(data)) == []
