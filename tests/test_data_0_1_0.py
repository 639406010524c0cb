"""Text and JSON written by chkobba 0.1.0, read by this version (an audit of the formats).

What was read: 0.1.0's sources at 3ecc727 (``records.py``, ``notation.py``, ``cards.py``,
``moves.py``, ``render.py``, ``actions.py``, ``observations.py``, ``openspiel.py``,
``arena.py``, ``game.py``, ``bots/registry.py``, the ``cli`` package), its
``docs/records.md`` and ``docs/notation.md``, and CHANGELOG.md's unreleased round, for
every writer of text: records (``Record.to_json``, ``to_json(compact=True)``,
``to_dict``, ``save``, ``Game.record``, the arena's ``MatchResult.record``, ``chkobba
play``'s save, which ``chkobba replay`` reads), card and move notation (``str``,
``repr``, ``symbol``, ``format_cards``, the forms ``parse_move`` read), bot specs,
``render``'s boards, the adapters' action ids, action texts and observation vectors,
OpenSpiel's game strings, serialized states, information-state and observation strings,
and ``chkobba simulate --json``. 0.1.0 had no JSON form of a state or a view, no JSON
Lines reader and no ``simulate --records``, so nothing of theirs exists to be read (its
pickles: ``tests/test_pickles_0_1_0.py``); a 0.1.0 program that kept records one a line
wrote ``to_json(compact=True)`` lines. ``data/make_text_0_1_0.py`` wrote
``data/text_0_1_0/`` under 0.1.0 itself (its docstring has the command), with what
0.1.0 replayed from each record as the oracle. Before this file the suite read one
record 0.1.0 wrote (inside ``data/pickled_0_1_0.pkl``) and pinned the rest of the
format through hand-written dicts (``tests/test_profile_records.py``,
``tests/test_records.py``).

What was checked: every file loads (``Record.load``, ``from_json`` of text and bytes,
``load_lines``, ``iter_lines``, ``Game.from_record``, ``chkobba replay`` and
``analyse``, OpenSpiel's ``load_game`` and ``deserialize_game_and_state``) and gives
what 0.1.0 gave: the states after every deal, void deals included, and at the end, the
deal scores under their new names, every view, the boards, the action ids and texts,
the first 269 entries of the observation, OpenSpiel's strings; the same seeds and moves
played now make the same records, tournaments and strings (not ``chkobba play``'s,
whose menu and tags changed, as announced); records round-trip, and their text now
differs from 0.1.0's only by the whole profile that ``to_json`` writes one field a line;
the record schema accepts exactly the old files the reader reads. Each difference
found is one CHANGELOG.md announces, applied before comparing: the profile written
whole (#9), the board's "(you)" on the viewer's last take (#11), ``BotSpec``'s repr
(#9), ISMCTS's new options (#13), the tournament's new keys (#9, #10, #12), reworded
messages (compared by kind), capture values of at most 1000 (#10).

What was found, two changes no entry announced, both mended:

- A record of a profile 0.1.0 accepted, with a ``target`` above 10,000 or a ``name``
  that is empty, longer than 60 characters or not printable (a tab), is refused with a
  clear ``RecordError`` naming the field (``chkobba replay`` says it in one line), but no
  **Changed** entry said so: the limits were named only as a documentation fix (#11).
  A **Changed** entry of the rule profiles (#9) says so now.
- An OpenSpiel state 0.1.0 serialized deserialized without an error, with the right
  strings, and played on alike; but OpenSpiel restores a Python state by setting the
  attributes it pickled on a fresh initial state, so the two added since, ``_history``
  and ``_voided``, kept their empty start values, and ``information_state_tensor``
  (new) gave the deal's public history and voided cards as if none had been, until the
  next shuffle. Such a state now replays its actions for them, when it is first read
  or played on.
"""

from __future__ import annotations

import enum
import json
import random
import re
import shutil
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, cast

import attrs
import pytest

import chkobba
from chkobba import (
    DECK,
    TUNISIAN,
    Card,
    ChkobbaError,
    DealScore,
    Game,
    Move,
    PlayerView,
    Record,
    RecordError,
    State,
    apply,
    card,
    cards,
    format_cards,
    legal_moves,
    new_match,
    observe,
    parse_move,
    render,
)
from chkobba.actions import Position, advance, describe, legal_actions
from chkobba.arena import play_match
from chkobba.bots import GreedyBot, RandomBot
from chkobba.bots.registry import BotSpec
from chkobba.cli import main
from chkobba.observations import LAYOUT, observation_vector
from tests.helpers import MOVE_LIMIT, play_randomly

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "text_0_1_0"
RECORDS = DATA / "records"
#: The size of 0.1.0's observation vector; the pieces added since come after it.
OLD_OBSERVATION_SIZE = 269
#: DealScore's 0.1.0 names of the fields renamed since (CHANGELOG, #9).
OLD_NAMES = {
    "cards_winner": "cards",
    "diamonds_winner": "diamonds",
    "bermila_winner": "bermila",
    "seven_of_diamonds_winner": "seven_of_diamonds",
}


@cache
def _data(name: str) -> Any:
    return json.loads((DATA / name).read_text("utf-8"))


@cache
def _expected() -> dict[str, Any]:
    expected: dict[str, Any] = _data("expected.json")
    assert expected["version"] == "0.1.0"
    return expected


def _source(name: str) -> dict[str, Any]:
    """What 0.1.0 replayed from the record file ``name``."""
    found: dict[str, Any] = _expected()["records"][_expected()["sources"][name]]
    return found


# (Only the files' data is cached: what the library makes of it is made again by each
# test, so that a mutation audit's mutant is never met through a value made before it.)
def _load(name: str) -> Record:
    return Record.load(RECORDS / name)


def _states(name: str) -> tuple[State, ...]:
    return _load(name).replay()


#: The profiles 0.1.0 accepted that this version refuses: the field named in the refusal,
#: and what a **Changed** entry of CHANGELOG.md must say for the refusal to be announced.
REFUSED = {
    "edge_rules_big_value.json": ("capture_values", r"capture values are at most 1000"),
    "edge_rules_big_target.json": ("target", r"target[^.]*\b10,?000\b"),
    "edge_rules_empty_name.json": ("name", r"\bname\b[^.]*(empty|blank)"),
    "edge_rules_long_name.json": ("name", r"\bname\b[^.]*\b60 characters"),
    "edge_rules_tab_in_name.json": ("name", r"\bname\b[^.]*(printable|control character)"),
}
ALL_FILES = sorted(path.name for path in RECORDS.glob("*.json"))
READ = [name for name in ALL_FILES if name not in REFUSED]
#: The records 0.1.0 wrote one field and one move a line (Record.save, to_json()).
PRETTY = [
    name
    for name in READ
    if not name.startswith(("compact", "to_dict", "saved_on_windows", "play_saved"))
]


def _jsonable(value: object) -> Any:
    """A value as the generator wrote it under 0.1.0: cards as text, enums by name, attrs
    classes as objects of their fields, a deal score's winners under their 0.1.0 names."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, DealScore):
        fields = [f.name for f in attrs.fields(DealScore)]
        return {OLD_NAMES.get(name, name): _jsonable(getattr(value, name)) for name in fields}
    if attrs.has(type(value)):
        names = [f.name for f in attrs.fields(cast(Any, type(value)))]
        return {name: _jsonable(getattr(value, name)) for name in names}
    if isinstance(value, (tuple, list)):
        return [_jsonable(item) for item in value]
    return value


def _as_0_1_0(found: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """``found`` with only the fields 0.1.0 had (deal scores included): what a 0.1.0
    value is compared with."""
    kept = {name: found[name] for name in old}
    if isinstance(old.get("deal_scores"), list):
        kept["deal_scores"] = [
            {name: score[name] for name in old_score}
            for score, old_score in zip(found["deal_scores"], old["deal_scores"], strict=True)
        ]
    return kept


def _state_now(state: State) -> dict[str, Any]:
    data: dict[str, Any] = _jsonable(state)
    data["rules"] = state.rules.name
    return data


def _board_announced(board: str, player: int) -> str:
    """0.1.0's board of ``player`` with the change CHANGELOG.md announces: the last taker
    is marked "(you)" when it is the viewer (#11)."""
    lines = board.split("\n")
    mine = f"player {player}"
    return "\n".join(
        f"{line} (you)" if line.startswith("Last take") and line.endswith(mine) else line
        for line in lines
    )


# --- records ----------------------------------------------------------------------------


def test_every_record_file_has_its_0_1_0_replay() -> None:
    assert sorted(_expected()["sources"]) == ALL_FILES
    assert set(_expected()["sources"].values()) == set(_expected()["records"])
    assert len(ALL_FILES) >= 20


@pytest.mark.parametrize("name", READ)
def test_a_record_of_0_1_0_replays_to_the_states_0_1_0_replayed(name: str) -> None:
    old = _source(name)
    states = _states(name)
    assert len(states) == old["states"]
    for index, entry in old["deals"].items():
        state = states[int(index)]
        counts = {"deal_scores": len(state.deal_scores), "stock_size": len(state.stock)}
        found = {k: counts[k] if k in counts else _jsonable(getattr(state, k)) for k in entry}
        assert found == entry, f"after move {index}"
    assert _as_0_1_0(_state_now(states[-1]), old["final"]) == old["final"]
    assert render(states[-1]) == old["render"]


def test_deal_scores_of_0_1_0_records_read_under_their_new_names() -> None:
    # The renamed winners hold 0.1.0's values, and the primiera, new, is never won under
    # the Tunisian profile (it is not played); the other fields are compared with the
    # states above.
    compared = 0
    for name in READ:
        old_scores = _source(name)["final"]["deal_scores"]
        for score, old in zip(_states(name)[-1].deal_scores, old_scores, strict=True):
            for new_name, old_name in OLD_NAMES.items():
                assert getattr(score, new_name) == old[old_name]
            assert score.primiera_winner is None
            compared += 1
    assert compared >= 30


@pytest.mark.parametrize(
    "name", sorted(n for n, s in _expected()["records"].items() if "views" in s)
)
def test_views_and_boards_at_the_end_of_a_0_1_0_record(name: str) -> None:
    old, final = _source(name), _states(name)[-1]
    for seat, view in old["views"].items():
        found = _jsonable(observe(final, int(seat)))
        found["rules"], found["deal_scores"] = final.rules.name, len(final.deal_scores)
        assert found == view
        board = _board_announced(old["boards"][seat], int(seat))
        assert render(final, int(seat)) == board == render(observe(final, int(seat)))


@pytest.mark.parametrize("name", READ)
def test_a_record_of_0_1_0_round_trips(name: str, tmp_path: Path) -> None:
    record = _load(name)
    assert Record.from_json(record.to_json()) == record
    assert Record.from_json(record.to_json(compact=True)) == record
    assert Record.from_dict(json.loads(json.dumps(record.to_dict()))) == record
    assert Record.from_json((RECORDS / name).read_bytes()) == record
    record.save(tmp_path / name)
    assert Record.load(tmp_path / name) == record


@pytest.mark.parametrize("name", READ)
def test_written_now_a_0_1_0_record_gains_only_the_profiles_other_fields(name: str) -> None:
    old = json.loads((RECORDS / name).read_text("utf-8"))
    new = _load(name).to_dict()
    # 0.1.0 wrote name, capture_values and target; the fields added since take the
    # Tunisian values, which were the only ones 0.1.0 played (CHANGELOG, #9).
    assert new == {**old, "rules": {**TUNISIAN.to_dict(), **old["rules"]}}
    assert list(new) == list(json.loads((RECORDS / "game_2p.json").read_text("utf-8")))


def test_a_compact_0_1_0_record_and_its_text_now_differ_only_by_the_profile() -> None:
    old = (RECORDS / "compact_2p.json").read_text("utf-8")
    assert "\n" not in old
    data = {**json.loads(old), "rules": TUNISIAN.to_dict()}
    compact = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    assert _load("compact_2p.json").to_json(compact=True) == compact


@pytest.mark.parametrize("name", PRETTY)
def test_a_saved_0_1_0_record_and_its_text_now_differ_only_by_the_rules_lines(
    name: str,
) -> None:
    old = (RECORDS / name).read_text("utf-8")
    new = _load(name).to_json()
    # Written now, the profile takes one line per field (CHANGELOG, #9); 0.1.0 wrote its
    # three fields on one line. Nothing else of the text changed.
    start = new.index('  "rules": {\n')
    end = new.index("\n  },\n", start) + len("\n  },\n")
    rules = json.loads(new[start + len('  "rules": ') : end - 2])
    first = {key: rules[key] for key in ("name", "capture_values", "target")}
    one_line = f'  "rules": {json.dumps(first, ensure_ascii=False)},\n'
    assert new[:start] + one_line + new[end:] == old


def _random_moves(seed: int, start: State, stop: int | None = None) -> list[Move]:
    """The generator's random match (its own loop, for 0.1.0, draws as this helper does):
    a shuffle from the generator, else a choice among the legal moves."""
    limit = MOVE_LIMIT if stop is None else stop
    return [move for _, move, _ in play_randomly(start, random.Random(seed), limit=limit)]


def _made_now() -> dict[str, Callable[[], Record]]:
    house = attrs.evolve(
        TUNISIAN, name="house", capture_values=(1, 2, 3, 4, 5, 6, 7, 9, 8, 10), target=11
    )

    def random_record(seed: int, start: State, stop: int | None = None, **tags: str) -> Record:
        return Record.from_moves(start, _random_moves(seed, start, stop), tags=tags)

    def game() -> Record:
        played = Game(players=2, dealer=0, seed=11)
        played.deal()
        played.play("keep")
        for number in (1, 2):
            legal = played.legal_moves
            played.play(legal[number % len(legal)])
        return played.record(tags={"event": "docs"})

    tags = {"player0": "Amira ♥", "player1": "Ben", "site": "Tunis — café", "date": "2026-11-29"}
    return {
        "random_2p_finished.json": lambda: random_record(2026, new_match(2)),
        "random_4p_unfinished.json": lambda: random_record(7, new_match(4, dealer=1), 100, **tags),
        "resumed_2p.json": lambda: random_record(99, new_match(2, dealer=1, scores=(12, 18))),
        "house_rules_2p.json": lambda: random_record(11, new_match(2, rules=house)),
        # play_match tags its record now (docs/upgrading.md); the match is 0.1.0's.
        "arena_4p.json": lambda: attrs.evolve(
            play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=3, players=4).record, tags={}
        ),
        "arena_2p.json": lambda: attrs.evolve(
            play_match([RandomBot(seed=5), GreedyBot(seed=6)], seed=8).record, tags={}
        ),
        "game_2p.json": game,
    }


@pytest.mark.parametrize("name", sorted(_made_now()))
def test_the_same_game_played_now_makes_the_same_record(name: str) -> None:
    assert _made_now()[name]() == _load(name)


def test_json_lines_of_0_1_0_records_read_one_record_a_line() -> None:
    expected = [_load(name) for name in _expected()["jsonl"]]
    assert list(Record.load_lines(DATA / "records.jsonl")) == expected
    assert list(Record.iter_lines(DATA / "records.jsonl")) == expected


def test_voided_deals_of_0_1_0_records_are_told_where_0_1_0_voided_them() -> None:
    told = 0
    for name in READ:
        record, old = _load(name), _source(name)
        ends, count = {}, 0
        for index, entry in sorted(old["deals"].items(), key=lambda item: int(item[0])):
            ends[int(index)] = entry["deal_scores"] == count  # voided: no deal scored
            count = entry["deal_scores"]
        found = {
            deal.first_index + len(deal.moves): deal.voided
            for deal in record.deals()
            if deal.finished
        }
        assert found == ends, name
        assert len(record.players_of_moves()) == len(record.moves)
        told += sum(ends.values())
    assert told >= 3


@pytest.mark.parametrize("name", ["void_deals_2p.json", "void_deal_4p.json", "arena_2p.json"])
def test_from_states_rebuilds_a_0_1_0_record_that_replays_the_same(name: str) -> None:
    # A voided deal's shuffle cannot be told from its states: any voiding shuffle will do.
    rebuilt = Record.from_states(_states(name), tags=_load(name).tags)
    assert rebuilt.replay() == _states(name)


@pytest.mark.parametrize("name", ["random_4p_unfinished.json", "play_saved_quit_4p.json"])
def test_a_game_resumes_from_a_0_1_0_record(name: str) -> None:
    game = Game.from_record(_load(name))
    assert game.history == _states(name)
    assert game.record(tags=_load(name).tags) == _load(name)
    game.play(game.legal_moves[0])
    assert game.state == apply(_states(name)[-1], legal_moves(_states(name)[-1])[0])


@pytest.mark.parametrize("name", ALL_FILES)
def test_the_record_schema_accepts_exactly_the_0_1_0_files_the_reader_reads(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    data = json.loads((RECORDS / name).read_text("utf-8"))
    errors = sorted({error.json_path for error in validator.iter_errors(data)})
    if name in REFUSED:
        assert errors == [f"$.rules.{REFUSED[name][0]}" + ("[9]" if "value" in name else "")]
    else:
        assert errors == []


def _announced(pattern: str) -> bool:
    """Whether a **Changed** entry of CHANGELOG.md's unreleased round matches."""
    text = (ROOT / "CHANGELOG.md").read_text("utf-8").split("\n## [0.1.0]")[0]
    # Each announcement runs to the end of its list item (or to the next bold word).
    changes = [re.split(r"\n\s*- |\n\n|\*\*", part)[0] for part in text.split("**Changed:**")[1:]]
    return any(re.search(pattern, " ".join(change.split())) for change in changes)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_profile_0_1_0_accepted_is_read_or_its_refusal_announced(name: str) -> None:
    field, pattern = REFUSED[name]
    try:
        record = Record.load(RECORDS / name)
    except RecordError as error:
        assert f"rules: {field} must be" in str(error)
        assert _announced(pattern), f"{name} is refused ({error}), and no **Changed** says so"
    else:
        old = _source(name)["final"]
        assert _as_0_1_0(_state_now(record.final()), old) == old


# --- the command line -------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["--no-colour", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "name",
    [
        "play_saved_finished.json",
        "play_saved_quit_4p.json",
        "void_deals_2p.json",
        "odd_tags_2p.json",
    ],
)
def test_replay_shows_a_0_1_0_record_as_the_same_record_saved_now(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    shutil.copy(RECORDS / name, tmp_path / "old" / name)
    _load(name).save(tmp_path / "new" / name)
    shown = []
    for folder in ("old", "new"):
        status, out, err = _run(capsys, "replay", str(tmp_path / folder / name), "--no-step")
        assert (status, err) == (0, "")
        shown.append(out.replace(str(tmp_path / folder), "FOLDER"))
    assert shown[0] == shown[1]
    assert shown[0].count("\n") > len(_load(name).moves)


def test_replay_and_analyse_read_a_0_1_0_file_of_records_one_a_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines, second = str(DATA / "records.jsonl"), _load(_expected()["jsonl"][1])
    status, out, _ = _run(capsys, "replay", lines, "--game", "2", "--no-step", "--no-boards")
    assert status == 0 and f"4 players, {len(second.moves)} moves" in out
    assert "the deal is void" in out
    status, out, _ = _run(
        capsys, "analyse", lines, "--game", "2", "--bot", "ismcts:iterations=5", "--json"
    )
    review = json.loads(out)
    assert status == 0 and review["moves"]
    assert all(entry["played"] in {str(m) for m in second.moves} for entry in review["moves"])


def test_a_refused_0_1_0_record_is_one_line_naming_the_field(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "replay", str(RECORDS / "edge_rules_big_value.json"))
    assert (status, out, err.count("\n")) == (1, "", 1)
    assert "is not a valid record: rules: capture_values must be" in err
    assert "from 1 to 1000" in err


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("simulate_2p.json", ["--seed", "4"]),
        ("simulate_4p.json", ["--players", "4", "--seed", "9"]),
    ],
)
def test_simulate_json_keeps_every_0_1_0_key_and_value(
    name: str, arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    old = _data(name)
    base = ["simulate", "--games", "2", "--bots", "greedy", "random", "--json"]
    status, out, _ = _run(capsys, *base, *arguments)
    new = json.loads(out)
    assert status == 0
    # Keys were added (rules and target #9, profile #10, head_to_head and ratings #12),
    # none changed; greedy and random play as they did, so every 0.1.0 value is the same.
    assert {key: new[key] for key in old} == old
    assert set(new) - set(old) == {"rules", "target", "profile", "head_to_head", "ratings"}


# --- notation ---------------------------------------------------------------------------


NAMES = {name: getattr(chkobba, name) for name in chkobba.__all__}


def test_cards_read_and_write_as_in_0_1_0() -> None:
    for old in _data("notation.json")["cards"]:
        found = card(old["str"])
        assert (str(found), found.symbol, repr(found)) == (old["str"], old["symbol"], old["repr"])
        assert eval(old["repr"], NAMES) is found
    assert [str(c) for c in DECK] == [old["str"] for old in _data("notation.json")["cards"]]
    for old in _data("notation.json")["format_cards"]:
        assert format_cards(cards(" ".join(old["cards"])), old["separator"]) == old["text"]


def test_moves_read_and_write_as_in_0_1_0() -> None:
    moves = _data("notation.json")["moves"]
    assert len(moves) >= 50 and any(old["str"].startswith("shuffle ") for old in moves)
    for old in moves:
        move = parse_move(old["str"])
        assert (str(move), repr(move)) == (old["str"], old["repr"])
        assert eval(old["repr"], NAMES) == move


def test_the_forms_0_1_0_read_are_read_as_the_same_moves() -> None:
    for old in _data("notation.json")["forgiving"]:
        assert str(parse_move(old["text"])) == old["move"], old["text"]


def test_short_forms_resolve_in_a_position_as_in_0_1_0() -> None:
    # The move, or the same kind of error: the messages were reworded (#10, #11), so an
    # ambiguous card is compared by the choices it lists.
    forms = _data("notation.json")["short_forms"]
    assert any("ambiguous" in form.get("message", "") for form in forms)
    for form in forms:
        state = _states(form["record"])[form["index"]]
        where: State | PlayerView = (
            state if form.get("seat") is None else observe(state, form["seat"])
        )
        try:
            found = {"move": str(parse_move(form["text"], where))}
        except ChkobbaError as error:
            found = {"error": type(error).__name__, "message": str(error)}
        if "move" in form:
            assert found == {"move": form["move"]}, form
            continue
        assert found.get("error") == form["error"], form
        if "ambiguous" in form["message"]:
            choices = form["message"].split(": ", 1)[1].split(", ")
            assert sorted(re.findall(r"\w\w x [\w+]+", found["message"])) == sorted(choices)


def test_bot_specs_of_0_1_0_build_the_same_bots() -> None:
    for old in _data("notation.json")["bot_specs"]:
        spec = BotSpec.parse(old["text"])
        assert str(spec) == old["str"]
        # The repr is BotSpec.parse(...) now, which evaluates back (#9): 0.1.0's
        # BotSpec('ismcts:iterations=50') raised when evaluated.
        assert eval(repr(spec), {"BotSpec": BotSpec}) == spec
        if ":" not in old["str"]:
            assert eval(old["repr"], {"BotSpec": BotSpec}) == spec
        options = spec.build(seed=1).options()
        # Options were added (ISMCTS's inference and seconds, #13), off by default.
        assert {key: options[key] for key in old["options"]} == old["options"]
        assert {key: options[key] for key in set(options) - set(old["options"])} in (
            {},
            {"inference": 0, "seconds": 0.0},
        )


# --- the adapters' encoding -------------------------------------------------------------


def test_action_ids_and_texts_are_those_of_0_1_0() -> None:
    entries = _data("encoding.json")
    assert sum("pending" in entry for entry in entries) == 3
    for entry in entries:
        position = Position(_states(entry["record"])[entry["index"]])
        if "pending" in entry:
            position, _ = advance(position, card(entry["pending"]).index)
        found = {str(a): describe(position, a) for a in legal_actions(position)}
        assert found == entry["actions"]


def test_observations_keep_0_1_0s_entries_at_their_offsets() -> None:
    # "the existing pieces keep their offsets" (CHANGELOG, #9); the pieces added at the
    # end are the third side's, all zero with 2 or 4 players.
    assert sum(size for _, size in LAYOUT[: LAYOUT.index(("three_players", 1))]) == (
        OLD_OBSERVATION_SIZE
    )
    compared = 0
    for entry in _data("encoding.json"):
        state = _states(entry["record"])[entry["index"]]
        pending = card(entry["pending"]) if "pending" in entry else None
        for seat, old in entry["vectors"].items():
            vector = observation_vector(observe(state, int(seat)), pending)
            assert vector[:OLD_OBSERVATION_SIZE] == old
            assert not any(vector[OLD_OBSERVATION_SIZE:])
            compared += 1
    assert compared >= 15


# --- OpenSpiel --------------------------------------------------------------------------


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401 (registers python_chkobba)

    return pyspiel


def _games() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = _data("openspiel.json")
    return games


def _replayed(pyspiel: Any, game: dict[str, Any], step: int) -> Any:
    state = pyspiel.load_game(game["game"]).new_initial_state()
    for action in game["actions"][:step]:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("index", range(len(_data("openspiel.json"))))
def test_openspiel_game_strings_of_0_1_0_load_the_same_game(index: int) -> None:
    pyspiel, game = _pyspiel(), _games()[index]
    loaded = pyspiel.load_game(game["game_string"])
    old = dict(re.findall(r"(\w+)=(\w+)", game["game_string"]))
    # The parameters rules and target were added (#9), at the 0.1.0 game's values.
    assert {key: str(value) for key, value in loaded.get_parameters().items()} == {
        **old,
        "rules": "tunisian",
        "target": "0",
    }
    assert str(loaded) == str(pyspiel.load_game(game["game"]))


@pytest.mark.parametrize("index", range(len(_data("openspiel.json"))))
def test_openspiel_strings_of_the_same_actions_are_0_1_0s(index: int) -> None:
    pyspiel, game = _pyspiel(), _games()[index]
    state = pyspiel.load_game(game["game"]).new_initial_state()
    points = {point["step"]: point for point in game["points"]}
    for step in range(len(game["actions"]) + 1):
        if step in points:
            point = points[step]
            assert state.current_player() == point["current_player"]
            assert (state.is_terminal(), state.returns()) == (point["terminal"], point["returns"])
            players = range(len(point["returns"]))
            if "information_states" in point:
                assert [state.information_state_string(p) for p in players] == (
                    point["information_states"]
                )
                assert [state.observation_string(p) for p in players] == point["observations"]
            if "action_texts" in point:
                current = state.current_player()
                found = {str(a): state.action_to_string(current, a) for a in state.legal_actions()}
                assert found == point["action_texts"]
            if "board" in point:
                assert str(state) == point["board"]
        if step < len(game["actions"]):
            state.apply_action(game["actions"][step])
    assert state.is_terminal()


def _deserialized(index: int) -> tuple[Any, Any, Any]:
    """0.1.0's serialized game and state read now, and the same state replayed now."""
    pyspiel, game = _pyspiel(), _games()[index]
    point = next(point for point in game["points"] if "game_and_state" in point)
    loaded_game, loaded = pyspiel.deserialize_game_and_state(point["game_and_state"])
    return loaded_game, loaded, _replayed(pyspiel, game, point["step"])


@pytest.mark.parametrize("index", range(len(_data("openspiel.json"))))
def test_an_openspiel_state_0_1_0_serialized_reads_back_and_plays_on(index: int) -> None:
    game, loaded, replayed = _deserialized(index)
    assert str(game) == str(replayed.get_game())
    assert loaded.history() == replayed.history()
    assert str(loaded) == str(replayed)
    assert loaded.legal_actions() == replayed.legal_actions()
    for player in range(game.num_players()):
        assert loaded.information_state_string(player) == replayed.information_state_string(player)
        assert loaded.observation_string(player) == replayed.observation_string(player)
        assert loaded.observation_tensor(player) == replayed.observation_tensor(player)
    rng = random.Random(index)
    while not replayed.is_terminal():
        if replayed.is_chance_node():
            assert loaded.chance_outcomes() == replayed.chance_outcomes()
            action = rng.choice([a for a, _ in replayed.chance_outcomes()])
        else:
            assert loaded.legal_actions() == replayed.legal_actions()
            action = rng.choice(replayed.legal_actions())
        loaded.apply_action(action)
        replayed.apply_action(action)
        assert loaded.information_state_string(0) == replayed.information_state_string(0)
    assert loaded.returns() == replayed.returns()


@pytest.mark.parametrize("index", range(len(_data("openspiel.json"))))
def test_an_openspiel_state_0_1_0_serialized_has_the_information_state_tensor(
    index: int,
) -> None:
    # OpenSpiel sets the attributes a state pickled on a fresh state: 0.1.0's had no deal
    # history, which the state replays from its actions, whether it is read first or
    # played on first.
    game, loaded, replayed = _deserialized(index)
    for player in range(game.num_players()):
        assert loaded.information_state_tensor(player) == replayed.information_state_tensor(player)
    _, played_on, replayed = _deserialized(index)
    rng = random.Random(index)
    for _ in range(12):
        if replayed.is_terminal():
            break
        if replayed.is_chance_node():
            action = rng.choice([a for a, _ in replayed.chance_outcomes()])
        else:
            action = rng.choice(replayed.legal_actions())
        played_on.apply_action(action)
        replayed.apply_action(action)
        for player in range(game.num_players()):
            tensor = played_on.information_state_tensor(player)
            assert tensor == replayed.information_state_tensor(player)
