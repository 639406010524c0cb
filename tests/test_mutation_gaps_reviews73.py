"""Tests that kill what a mutation audit of stop 73's change left alive.

The audit made 115 small changes to the code the stop touched, one at a time: 25 that
changed behaviour survived the tests. Each test below fails on one or more of them:
a line that is not UTF-8 skipped as blank in a file of records, a whitespace line past
the limit accepted, a menu line ``0. ...`` playing the last move or the last line
refused, the tie narrated at 3 players only when seat 0 leads, an inferring bot the
command line checks only when it is named first, a space inside a card written with a
tab or a no-break space blamed on the rank, and the refusals' exact wording.
"""

from __future__ import annotations

import io

import attrs
import pytest

from chkobba import CARD_RULES_PLUS, RecordError, State
from chkobba import records as records_module
from chkobba.arena import play_match
from chkobba.cards import card
from chkobba.cli.narrate import deal_summary
from chkobba.errors import NotationError
from chkobba.moves import Move
from chkobba.records import Record, read_record_lines
from tests.helpers import run_cli

# --- files of records: blank lines and lines that cannot be read ---------------------------


def _record_line() -> bytes:
    return Record(players=2).to_json(compact=True).encode() + b"\n"


def _read(data: bytes) -> list[Record]:
    return list(read_record_lines(io.BytesIO(data), "f"))


def test_a_line_that_is_not_utf8_is_refused_not_skipped() -> None:
    with pytest.raises(RecordError, match=r"^f, line 2: the record is not UTF-8 text"):
        _read(_record_line() + b"\xff\xfe\n" + _record_line())


@pytest.mark.parametrize("blank", ["\ufeff", "\u00a0", "  \t ", "\ufeff \u00a0"])
def test_lines_of_a_bom_or_unicode_blanks_are_skipped(blank: str) -> None:
    assert len(_read(_record_line() + blank.encode() + b"\n" + _record_line())) == 2


def test_a_blank_line_up_to_the_limit_is_skipped_and_one_past_it_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(records_module, "FILE_LIMIT", 16)
    assert _read(b" " * 15 + b"\n") == []  # 16 bytes with its newline: at the limit
    with pytest.raises(RecordError, match=r"^f, line 1: the line is longer than"):
        _read(b" " * 40 + b"\n")


# --- chkobba play: lines of the move list typed whole --------------------------------------

# With --seed 3 the first menu is 1. 5♦ x 2♥+3♥, 2. 7♦, 3. 7♣.


def _typed(line: str) -> str:
    code, out, err = run_cli("play", "--seed", "3", stdin=f"{line}\nquit\nn\n")
    assert code == 0, err
    return out


@pytest.mark.parametrize("line", ["3. 7♣", " 3. 7C", "1. 5D"])
def test_the_last_line_and_a_short_form_play_their_move(line: str) -> None:
    out = _typed(line)
    assert ("you play 7♣" if "7" in line else "you play 5♦ and take 2♥ 3♥") in out


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("0. 7♣", "0. is not a move number: choose 1 to 3"),
        ("100. QH", "100. is not a move number: choose 1 to 3"),
        ("2. 7D x 2H", "'2. 7D x 2H': move 2 is 7♦; type its number (2) or a move, not both"),
    ],
)
def test_a_line_numbered_out_of_the_list_or_whose_move_is_another_is_refused(
    line: str, said: str
) -> None:
    out = _typed(line)
    assert f"{said}; type help for help" in out
    assert "you play" not in out


def test_a_menu_of_one_move_takes_its_line_whole() -> None:
    from chkobba.cli.play import _choice

    state = _one_choice_state()
    (move,) = _legal(state)
    label = f"1. {move.card.symbol}" if not move.capture else None
    assert label is not None
    assert _choice(label, [(move, move.card.symbol)], state) == move


def _legal(state: State) -> tuple[Move, ...]:
    from chkobba import legal_moves

    return legal_moves(state)


def _one_choice_state() -> State:
    """A position whose mover has one legal move, a lay (the last card of a round)."""
    import random

    from chkobba import Phase, apply, legal_moves, new_match, random_shuffle

    rng = random.Random(1)
    state = apply(new_match(), random_shuffle(rng))
    while True:
        if state.phase is Phase.SHUFFLE:
            state = apply(state, random_shuffle(rng))
            continue
        legal = legal_moves(state)
        if state.phase is Phase.PLAY and len(legal) == 1 and not legal[0].capture:
            return state
        state = apply(state, rng.choice(legal))


# --- the tie narrated at three players ------------------------------------------------------


def test_a_three_player_tie_past_the_target_names_the_leaders_total() -> None:
    # Greedy bots, seed 3, target 3: the second deal ends 0-3-3 (seat 0 behind).
    rules = attrs.evolve(CARD_RULES_PLUS, target=3)
    said: list[str] = []

    def narrate(before: State, move: Move, after: State) -> None:
        if len(after.deal_scores) > len(before.deal_scores):
            said.extend(deal_summary(after.deal_scores[-1], len(after.deal_scores), after))

    play_match(["greedy"] * 3, seed=3, players=3, rules=rules, on_move=narrate)
    at = next(i for i, line in enumerate(said) if line.endswith("match 0-3-3"))
    assert said[at + 1] == (
        "no winner yet: the leaders are level at 3, the target of 3 reached, so another "
        "deal is played"
    )


# --- the command line checks every bot it seats ---------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "1", "--bots", "greedy", "expert:iterations=5,inference=1"],
        ["demo", "--bots", "greedy", "greedy", "greedy", "ismcts:iterations=5,inference=1"],
    ],
)
def test_an_inferring_bot_named_last_is_refused_before_the_match(args: list[str]) -> None:
    code, out, err = run_cli(*args, "--players", "4", "--seed", "1")
    assert (code, out) == (2, "")
    spec = args[-1]
    assert err.startswith(
        f"chkobba {args[0]}: error: argument --bots: {spec}: inference=1 follows the "
        "opponent of a 2-player match, and this match has 4 players (use inference=0)"
    )


# --- a space inside a card, whatever the space ----------------------------------------------


@pytest.mark.parametrize("text", ["Q\tH", "Q\u00a0H", "q \t h"])
def test_any_blank_inside_a_card_is_named(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        card(text)
    assert str(caught.value).endswith(": a card is written without spaces inside it (QH)")


def test_text_that_is_no_card_without_its_spaces_is_not_called_one() -> None:
    with pytest.raises(NotationError) as caught:
        card("Q H 2")
    assert "without spaces" not in str(caught.value)


def test_the_card_meant_is_quoted_when_it_holds_an_invisible_character() -> None:
    with pytest.raises(NotationError) as caught:
        card("7 ♦\ufe0f")
    assert str(caught.value).endswith("without spaces inside it ('7♦\\ufe0f')")
