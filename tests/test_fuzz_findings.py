"""What coverage-guided fuzzing of the readers found (tools/fuzz/README.md).

Each test is a reproducer, shrunk by hand: an exception other than a
:class:`~chkobba.ChkobbaError` escaped a reader of outside input before; a
:class:`~chkobba.ChkobbaError` naming the input and the reason comes now.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Move,
    PlayerView,
    Record,
    Rules,
    State,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    rollout,
)
from chkobba.events import MoveOutcome, apply_with_outcome

# Deep enough that reading it level by level overflows the stack (1000 frames, two a
# level), shallow enough that json.loads itself still reads it.
DEPTH = 600


def nested(depth: int = DEPTH) -> Any:
    """``[[[...[1]...]]]``: a list inside a list, ``depth`` times."""
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _scored() -> State:
    """A state after the first deal of a match is scored (its deal_scores is not empty)."""
    return rollout(new_match(), random.Random(5))


@pytest.mark.parametrize("field", ["name", "capture_values", "target", "players", "cut"])
def test_a_deeply_nested_list_in_a_profile_is_refused(field: str) -> None:
    """Rules.from_dict refuses a field holding a list nested hundreds deep with the
    field's own message (a RecursionError escaped: the lists were turned into tuples
    level by level)."""
    with pytest.raises(ChkobbaError, match=f"^rules: {field} ") as caught:
        Rules.from_dict({**TUNISIAN.to_dict(), field: nested()})
    assert len(str(caught.value)) < 300


def test_a_deeply_nested_list_in_a_profile_file_is_refused(tmp_path: Path) -> None:
    """Rules.load names the file when a field nests lists hundreds deep (a
    RecursionError escaped after the JSON itself was read)."""
    path = tmp_path / "house.json"
    path.write_text(json.dumps({**TUNISIAN.to_dict(), "target": nested()}), "utf-8")
    with pytest.raises(ChkobbaError, match=r"house\.json.*target must be a positive integer"):
        Rules.load(path)


def test_a_deeply_nested_list_in_a_snapshots_rules_is_refused() -> None:
    """State.from_dict and PlayerView.from_dict refuse rules whose name nests lists
    hundreds deep (a RecursionError escaped)."""
    state = new_match()
    bad_rules = {**TUNISIAN.to_dict(), "name": nested()}
    with pytest.raises(ChkobbaError, match=r"^rules: name must be"):
        State.from_dict({**state.to_dict(), "rules": bad_rules})
    with pytest.raises(ChkobbaError, match=r"^rules: name must be"):
        PlayerView.from_dict({**observe(state, 0).to_dict(), "rules": bad_rules})


def test_a_deeply_nested_list_in_a_deal_score_is_refused() -> None:
    """A deal score whose points nest lists hundreds deep is refused, in a state's
    deal_scores and in a move outcome's score (a RecursionError escaped)."""
    state = _scored()
    data = state.to_dict()
    data["deal_scores"][0]["points"] = nested()
    with pytest.raises(ChkobbaError, match=r"^deal_scores\[0\]\.points\[0\] must be"):
        State.from_dict(data)
    before = new_match()
    while True:  # the move that ends the first deal: its outcome carries the score
        after, outcome = apply_with_outcome(before, _first(before))
        if outcome.deal_score is not None:
            break
        before = after
    sent = outcome.to_dict()
    sent["deal_score"]["points"] = nested()
    with pytest.raises(ChkobbaError, match=r"^deal_score\.points\[0\] must be"):
        MoveOutcome.from_dict(sent)


def _first(state: State) -> Move:
    """The first legal move, or a fixed shuffle at a chance node."""
    if state.is_chance:
        return random_shuffle(random.Random(len(state.deal_scores)))
    return legal_moves(state)[0]


def test_a_profile_nested_a_few_levels_keeps_its_message() -> None:
    """A list inside a list (a typo, not an attack) is still refused and quoted as the
    JSON wrote it."""
    with pytest.raises(ChkobbaError, match=r"got \[\[1, 2\], 3"):
        Rules.from_dict({**TUNISIAN.to_dict(), "capture_values": [[1, 2], *range(3, 12)]})


def _state_data(phase: str) -> dict[str, Any]:
    return {**new_match().to_dict(), "phase": phase}


def _record_text(name: str) -> str:
    data = Record(players=2, moves=()).to_dict()
    return json.dumps({**data, "rules": {**TUNISIAN.to_dict(), "name": name}})


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (
            lambda: Rules.from_dict({**TUNISIAN.to_dict(), "majority": "most\ufe0f"}),
            'rules: majority must be one of "more_than_half", "most", got "most\\ufe0f"',
        ),
        (
            lambda: State.from_dict(_state_data("play\u200b")),
            'phase must be one of "shuffle", "cut", "play", "over", not "play\\u200b" (text)',
        ),
        (
            lambda: Record.from_json(_record_text("\u200b")),
            "rules: name must be printable text, not blank, of at most 60 characters, "
            'got "\\u200b"',
        ),
        (
            lambda: Rules.from_dict({**TUNISIAN.to_dict(), "majority": "a\x85b\U000e0001"}),
            'rules: majority must be one of "more_than_half", "most", '
            'got "a\\u0085b\\udb40\\udc01"',
        ),
    ],
    ids=["variation selector", "zero-width space", "in a record", "beyond the BMP"],
)
def test_a_json_reader_escapes_what_would_not_show_in_the_value_it_quotes(
    read: Any, message: str
) -> None:
    """Found by a newcomer's walk through the docs (2026-12-06): ``"most\\ufe0f"`` was
    quoted as it is, and read on screen as "most" refused for not being "most"; the
    Python-side messages (``shown``) already escaped such characters."""
    with pytest.raises(ChkobbaError) as caught:
        read()
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "quoted"),
    [
        ("a" * 50 + "\u200b" * 5, '"' + "a" * 50 + "\\u200b..."),
        ("a" * 48 + "\U000e0100" * 3, '"' + "a" * 48 + "..."),  # never half a pair
        ("\u200b" * 60, '"' + "\\u200b" * 9 + "..."),
        (["é" * 100], '["' + "é" * 55 + "..."),
    ],
    ids=["an escape kept whole", "a surrogate pair", "escapes only", "in a list"],
)
def test_a_quoted_value_is_cut_between_escapes_never_inside_one(value: object, quoted: str) -> None:
    """A review of the escaping (2026-12-06): escaped then cut, a quote could end in half
    an escape (``\\u...``) or half a surrogate pair; now whole escapes are kept."""
    from chkobba._describe import json_shown
    from chkobba.errors import QUOTE_LIMIT

    shown = json_shown(value)
    assert shown == quoted and len(shown) <= QUOTE_LIMIT
    assert re.fullmatch(r'(?:[^\\]|\\u[0-9a-f]{4}|\\")*', shown)  # each escape whole
