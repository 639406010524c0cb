"""Bad input to the ``chkobba`` command and to records: one specific error, never a crash.

Each test runs in the process (no subprocess), so the whole file takes a second or two.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    Cut,
    Play,
    Record,
    RecordError,
    Shuffle,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    random_shuffle,
)
from chkobba.bots.registry import BotSpec
from chkobba.cli import _RUNNERS, build_parser, main
from chkobba.cli.output import Output
from chkobba.cli.play import run_play

DOCS = Path(__file__).resolve().parent.parent / "docs"


def play(typed: str) -> str:
    """What ``chkobba play --seed 1`` writes when ``typed`` is its whole input."""
    out = io.StringIO()
    status = run_play(
        Output(out, colour=False),
        io.StringIO(typed),
        players=2,
        opponent=BotSpec.parse("greedy"),
        seed=1,
    )
    assert status == 0
    return out.getvalue()


def first_deal() -> list[Any]:
    rng = random.Random(4)
    state, moves = new_match(), []
    while not state.deal_scores:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        moves.append(move)
        state = apply(state, move)
    return moves


# --- play: the move prompt and the save prompt -------------------------------------------


@pytest.mark.parametrize("typed", ["²", "1" * 4000, "123456789012"])
def test_play_says_a_number_like_text_is_not_a_move_number(typed: str) -> None:
    out = play(typed + "\n")
    assert "is not a move number: choose 1 to" in out
    assert out.rstrip().endswith("End of input: goodbye.")  # asked again, then input ended


def test_play_still_reads_a_short_number_and_names_it_unquoted() -> None:
    assert "99 is not a move number: choose 1 to" in play("99\n")


def test_play_asks_again_for_a_file_name_with_a_nul(tmp_path: Path) -> None:
    out = play(f"quit\ny\n{tmp_path}/a\0b.json\nno\n")
    assert "a file name cannot hold a NUL character; choose another name" in out
    assert "\\x00b.json" in out  # the name, quoted
    assert out.rstrip().endswith("not saved")


# --- records: file names, broken states, scores, moves that would not read back ---------


def test_save_and_load_refuse_a_name_with_a_nul(tmp_path: Path) -> None:
    path = f"{tmp_path}/a\0b.json"
    with pytest.raises(RecordError, match=r"b\.json': a file name cannot hold a NUL"):
        Record(players=2).save(path)
    with pytest.raises(RecordError, match=r"b\.json': a file name cannot hold a NUL"):
        Record.load(path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"hands": ((), ())}, "cards missing"),
        ({"hands": None}, "hands must be"),
        ({"table": None}, "table must be"),
        ({"players": "2"}, "players must be"),
    ],
)
def test_from_states_names_a_broken_later_state(fields: dict[str, Any], fragment: str) -> None:
    start = new_match(rules=CARD_RULES_PLUS)
    dealt = apply(start, random_shuffle(random.Random(1)))
    with pytest.raises(RecordError, match=f"no legal move leads from state 1 .*{fragment}"):
        Record.from_states([start, attrs.evolve(dealt, **fields)])


def test_a_score_too_long_to_write_is_a_record_error() -> None:
    with pytest.raises(
        RecordError, match=r"start this way: scores must be at most 1,000,000,000, not \(an integer"
    ):
        Record(players=2, scores=(10**5000, 0))


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        (Shuffle(()), "a shuffle orders all 40 cards"),
        (Shuffle((card("AS"),) * 40), "a shuffle names each card once"),
        (Play("QH", "QH"), "QH cannot capture itself"),
    ],
)
def test_a_record_refuses_a_move_whose_text_would_not_read_back(move: Any, fragment: str) -> None:
    with pytest.raises(RecordError, match=rf"move 2 \(index 1\): .*{fragment}"):
        Record(players=2, moves=[Cut(keep=True), move])


def test_every_record_that_builds_loads_again_unverified() -> None:
    record = Record(players=2, moves=[Play("QH", "2D 6S"), Cut(keep=False), *first_deal()])
    assert Record.from_json(record.to_json(), verify=False) == record


# --- analyse and replay: file names and illegal moves ------------------------------------


def test_analyse_quotes_a_file_name_with_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", f"{tmp_path}/no\nsuch\x07.json"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x07" not in err
    assert "no\\nsuch\\x07.json'" in err
    assert main(["analyse", f"{tmp_path}/a\0b.json"]) == 1
    assert "a file name cannot hold a NUL character" in capsys.readouterr().err


def test_analyse_names_an_illegal_move_as_replay_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = first_deal()
    path = tmp_path / "corrupt.json"
    broken = Record(players=2, moves=[*moves[:2], Play(card("KD"), cards("AS")), *moves[3:]])
    path.write_text(broken.to_json())
    assert main(["replay", str(path), "--no-boards", "--no-step"]) == 1
    replayed = capsys.readouterr().err
    assert main(["analyse", str(path)]) == 1
    analysed = capsys.readouterr().err
    assert "corrupt.json': move 3 (index 2) ('KD x AS') is not legal: KD" in analysed
    # The same message, each under its own command's name.
    assert analysed.replace("chkobba analyse:", "chkobba replay:") == replayed


def test_replay_refuses_a_file_name_with_a_nul(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "a\0b.json"]) == 1
    assert "cannot read 'a\\x00b.json': a file name cannot hold a NUL" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["analyse", "x.json", "--seat", "9" * 5000], "is too long for a whole number here"),
        (["demo", "--players", "9" * 3000], "is too long for a whole number here"),
        (["demo", "--players", "two"], "'two' is not a whole number"),
        (["simulate", "--games", "-" + "9" * 3000, "--bots", "greedy", "random"], "digits"),
        (["play", "--seat", "1" * 3000], "unrecognized arguments: --seat 111"),
    ],
)
def test_a_huge_argument_is_not_echoed_in_full(
    arguments: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert fragment in error and len(error) < 400 and error.count("\n") == 1


def test_a_player_count_and_a_seat_still_read_as_numbers() -> None:
    parsed = build_parser().parse_args(["analyse", "x.json", "--seat", " 1", "--bot", "greedy"])
    assert parsed.seat == 1
    assert build_parser().parse_args(["demo", "--players", "4"]).players == 4


# --- help and docs ------------------------------------------------------------------------


def test_analyse_bot_has_help() -> None:
    commands = next(a for a in build_parser()._actions if a.dest == "command")
    analyse = commands.choices["analyse"]  # type: ignore[index]
    bot = next(action for action in analyse._actions if action.dest == "bot")
    assert bot.help and "(default expert)" in bot.help and "NAME:KEY=VALUE" in bot.help


def test_every_command_the_parser_declares_has_a_runner() -> None:
    # The arguments (chkobba.cli.arguments) and the runners (chkobba.cli) are two tables:
    # a command in one only would end in a KeyError traceback, not a message.
    commands = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(commands.choices) == list(_RUNNERS)  # type: ignore[arg-type]


def test_the_documented_bot_error_is_the_real_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--games", "2", "--bots", "greedy", "ismcts:iters=5"])
    real = capsys.readouterr().err.strip()
    text = (DOCS / "cli.md").read_text("utf-8")
    assert real.startswith("chkobba simulate: error:") and real in text


def test_the_docs_give_every_exit_status_and_quote_file_names() -> None:
    text = (DOCS / "cli.md").read_text("utf-8")
    assert "**130**" in text
    assert "chkobba replay: error: 'corrupt.json': move 3 (index 2)" in text


def test_play_reads_a_move_number_written_as_the_menu_writes_it() -> None:
    # Found by a review: the menu reads "  1. keep", and "1." typed back was refused.
    echoed = play("1.\n2.\n")  # (piped input is echoed: "your move> 1.")
    assert re.sub(r"(?m)^(your move> \d)\.$", r"\1", echoed) == play("1\n2\n")
    assert "1.. is not a move number: choose 1 to" in play("1..\n")
    assert "99. is not a move number: choose 1 to" in play("99.\n")
