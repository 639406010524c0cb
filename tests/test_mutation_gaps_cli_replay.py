"""Tests for the gaps a mutmut audit of ``chkobba/cli/replay.py`` found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the ``chkobba replay`` command that the rest of the suite let through
(tools/mutation/README.md). They pin the whole output of a short record (every move
numbered, ``shuffle`` for a shuffle, the narration, a board after every other move, the
phase and scores where an unfinished record ends), the last lines of a complete record and
of ``--deal N``, and the styles on a terminal (the heading and the moves bold, the boards
dim). Stepping on a terminal is pinned by where the prompts fall: after every move but a
shuffle, Enter for the next one, ``d`` (or a word starting with it) to the end of the deal,
``a``/``all`` for the rest, ``q``/``quit`` (any case) to stop with status 0, the end of the
input for the rest; and no prompt at all unless both standard input and output are
terminals, or with ``--no-step``. The errors are pinned whole, one line naming the command
and the file (exit status 1): a missing file (a long name cut at 200 characters), a file
that is no record, an illegal move of a file of records, which is read without being
played, and the size limit: a file of exactly ``FILE_LIMIT`` bytes is one record, a larger
one is read as records one per line and refused in MiB when it holds none, and an endless
pipe is refused after reading just past the limit.

Everything runs in this process, where a mutant is seen: the terminals are in-memory
streams that say they are terminals, and the size limit is lowered for the test.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import attrs
import pytest

from chkobba import TUNISIAN, Record
from chkobba.arena import play_match
from chkobba.bots import GreedyBot
from chkobba.cli import main
from chkobba.cli import replay as replay_module
from chkobba.cli.output import Output
from chkobba.cli.replay import CommandError, run_replay
from tests.helpers import colour_terminal, run_cli, terminal_text

#: What the replay shows on a terminal after each move it waits on.
PROMPT = "-- Enter: next move, d: to the end of the deal, a: all the rest, q: quit -- "
#: A house profile whose matches end after one deal.
QUICK = attrs.evolve(TUNISIAN, name="quick", target=1)
MIB = 1024 * 1024


class _Terminal(io.StringIO):
    """An in-memory stream that says it is a terminal, as a console's streams do."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def match() -> Record:
    """A whole 21-point match between greedy bots: its first deal is 38 moves (1-38),
    the second starts with move 39."""
    record = play_match([GreedyBot(seed=1), GreedyBot(seed=2)], seed=11).record
    record = attrs.evolve(record, tags={})  # a record without tags: no tag line
    assert [deal.first_index for deal in record.deals()][:2] == [0, 38]
    return record


def _saved(record: Record, path: Path, moves: int | None = None) -> Path:
    """``record`` saved at ``path``, cut after its first ``moves`` moves when given."""
    if moves is not None:
        record = attrs.evolve(record, moves=record.moves[:moves])
    record.save(path)
    return path


@pytest.fixture
def short(match: Record, tmp_path: Path) -> Path:
    """The shuffle, the cut and two plays."""
    return _saved(match, tmp_path / "short.json", 4)


@pytest.fixture
def two_deals(match: Record, tmp_path: Path) -> Path:
    """The first deal (moves 1-38) and the start of the second: shuffle 39, cut 40, two
    plays."""
    return _saved(match, tmp_path / "two.json", 42)


def _run(args: list[str], stdin: io.StringIO, stdout: io.StringIO) -> tuple[int, str, str]:
    """``chkobba ARGS`` on these standard input and output: status, output, errors."""
    err = io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = stdout, err, stdin
    try:
        code = main(args)
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return code, stdout.getvalue(), err.getvalue()


def _stepped(path: Path, typed: str) -> tuple[int, str, str]:
    """``chkobba replay PATH --no-boards --no-colour`` on a terminal where ``typed`` is
    typed (not echoed, as a test's terminal does not echo)."""
    args = ["replay", str(path), "--no-boards", "--no-colour"]
    return _run(args, _Terminal(typed), _Terminal())


def _by_line(out: str) -> str:
    """``out`` with a line break after each prompt, where the next move starts."""
    return out.replace(PROMPT, PROMPT + "\n")


def _pauses(out: str) -> list[int]:
    """The number of the last move shown before each prompt."""
    pauses: list[int] = []
    shown = 0
    for found in re.finditer(rf"^(\d+)\. |{re.escape(PROMPT)}", _by_line(out), re.M):
        if found.group(1) is None:
            pauses.append(shown)
        else:
            shown = int(found.group(1))
    return pauses


def _moves_shown(out: str) -> list[int]:
    """The numbers of the moves shown, in order."""
    return [int(n) for n in re.findall(r"^(\d+)\. ", _by_line(out), re.M)]


# --- the output -------------------------------------------------------------------------


def test_a_short_record_is_shown_whole_with_a_board_after_each_move_but_the_shuffle(
    short: Path,
) -> None:
    code, out, err = run_cli("replay", str(short), "--no-step")
    assert (code, err) == (0, "")
    assert out == (
        f"replaying '{short}': 2 players, 4 moves, 1 deal\n"
        "1. shuffle\n"
        "   deal 1: player 1 deals (scores 0-0)\n"
        "2. keep\n"
        "   player 0 cuts and keeps the top card\n"
        "   table: Q♣ 5♦ 2♣ 4♥\n"
        "   Chkobba: 2 players, tunisian rules, match to 21\n"
        "   Scores     player 0: 0   player 1: 0\n"
        "   Dealer     player 1\n"
        "   Turn       player 0 to play\n"
        "   Table      Q♣ 5♦ 2♣ 4♥\n"
        "   Hands      player 0: 2♦ 3♠ 3♦\n"
        "              player 1: 4♣ 7♠ 7♣\n"
        "   Stock      30 cards\n"
        "   Piles      player 0: 0 cards, 0 chkobbas\n"
        "              player 1: 0 cards, 0 chkobbas\n"
        "3. 2D x 2C\n"
        "   player 0 plays 2♦ and takes 2♣\n"
        "   Chkobba: 2 players, tunisian rules, match to 21\n"
        "   Scores     player 0: 0   player 1: 0\n"
        "   Dealer     player 1\n"
        "   Turn       player 1 to play\n"
        "   Table      Q♣ 5♦ 4♥\n"
        "   Hands      player 0: 3♠ 3♦\n"
        "              player 1: 4♣ 7♠ 7♣\n"
        "   Stock      30 cards\n"
        "   Last take  player 0\n"
        "   Piles      player 0: 2 cards, 1 diamond, 0 sevens, 0 sixes, 0 chkobbas\n"
        "              player 1: 0 cards, 0 chkobbas\n"
        "4. 4C x 4H\n"
        "   player 1 plays 4♣ and takes 4♥\n"
        "   Chkobba: 2 players, tunisian rules, match to 21\n"
        "   Scores     player 0: 0   player 1: 0\n"
        "   Dealer     player 1\n"
        "   Turn       player 0 to play\n"
        "   Table      Q♣ 5♦\n"
        "   Hands      player 0: 3♠ 3♦\n"
        "              player 1: 7♠ 7♣\n"
        "   Stock      30 cards\n"
        "   Last take  player 1\n"
        "   Piles      player 0: 2 cards, 1 diamond, 0 sevens, 0 sixes, 0 chkobbas\n"
        "              player 1: 2 cards, 0 diamonds, 0 sevens, 0 sixes, 0 chkobbas\n"
        "the record ends in phase PLAY, scores 0-0\n"
    )


def test_run_replay_shows_the_boards_unless_told_not_to(short: Path) -> None:
    stream = io.StringIO()
    assert run_replay(Output(stream), str(short)) == 0
    assert stream.getvalue() == run_cli("replay", str(short), "--no-step")[1]


def test_a_complete_record_and_one_deal_end_with_the_match_scores(tmp_path: Path) -> None:
    record = play_match([GreedyBot(seed=1), GreedyBot(seed=2)], seed=11, rules=QUICK).record
    path = _saved(record, tmp_path / "quick.json")
    code, out, err = run_cli("replay", str(path), "--no-boards", "--no-step")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"replaying '{path}': 2 players, 38 moves, 1 deal"
    assert lines[-3:] == [
        "     points     1-3; match 1-3",
        "   player 1 wins the match 1-3 after 1 deal",
        "the record is complete",
    ]
    code, one, err = run_cli("replay", str(path), "--no-boards", "--deal", "1")
    assert (code, err) == (0, "")
    assert one.splitlines()[1:] == [*lines[1:-1], "end of deal 1; match 1-3"]


def test_a_terminal_shows_the_heading_and_moves_bold_and_the_boards_dim(
    match: Record, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    colour_terminal(monkeypatch)
    path = _saved(match, tmp_path / "cut.json", 2)
    code, out, err = _run(["replay", str(path), "--no-step"], _Terminal(), _Terminal())
    assert (code, err) == (0, "")
    bold, dim, end = "\x1b[1m", "\x1b[2m", "\x1b[0m"
    board = [
        "   Chkobba: 2 players, tunisian rules, match to 21",
        "   Scores     player 0: 0   player 1: 0",
        "   Dealer     player 1",
        "   Turn       player 0 to play",
        "   Table      Q♣ 5♦ 2♣ 4♥",
        "   Hands      player 0: 2♦ 3♠ 3♦",
        "              player 1: 4♣ 7♠ 7♣",
        "   Stock      30 cards",
        "   Piles      player 0: 0 cards, 0 chkobbas",
        "              player 1: 0 cards, 0 chkobbas",
    ]
    assert terminal_text(out).splitlines() == [
        f"{bold}replaying '{path}': 2 players, 2 moves, 1 deal{end}",
        f"{bold}1. shuffle{end}",
        "   deal 1: player 1 deals (scores 0-0)",
        f"{bold}2. keep{end}",
        "   player 0 cuts and keeps the top card",
        "   table: Q♣ 5♦ 2♣ 4♥",
        *(f"{dim}{line}{end}" for line in board),
        "the record ends in phase PLAY, scores 0-0",
    ]


# --- stepping on a terminal -------------------------------------------------------------


def test_enter_shows_the_next_move_and_q_stops(two_deals: Path) -> None:
    code, out, err = _stepped(two_deals, "\n\nq\n")
    assert (code, err) == (0, "")
    assert _pauses(out) == [2, 3, 4]
    assert _moves_shown(out) == [1, 2, 3, 4]
    assert out.endswith(f"   player 1 plays 4♣ and takes 4♥\n{PROMPT}replay stopped\n")


def test_quit_in_any_case_stops_at_once(two_deals: Path) -> None:
    code, out, err = _stepped(two_deals, " QUIT \n\n")
    assert (code, err) == (0, "")
    assert _pauses(out) == [2]
    assert out.endswith(f"   table: Q♣ 5♦ 2♣ 4♥\n{PROMPT}replay stopped\n")


def test_d_waits_again_at_the_end_of_the_deal_then_after_each_move(two_deals: Path) -> None:
    code, out, err = _stepped(two_deals, "d\n\nq\n")
    assert (code, err) == (0, "")
    # Move 38 ends the first deal; 39 is the next shuffle, where the replay never waits.
    assert _pauses(out) == [2, 38, 40]
    assert _moves_shown(out) == list(range(1, 41))
    assert out.endswith(f"{PROMPT}replay stopped\n")


def test_d_waits_at_the_last_move_of_the_record(two_deals: Path) -> None:
    code, out, err = _stepped(two_deals, "d\nd\n")
    assert (code, err) == (0, "")
    assert _pauses(out) == [2, 38, 42]
    # The input ends at the last prompt: a new line, and the end of the record.
    assert out.endswith(f"{PROMPT}\nthe record ends in phase PLAY, scores 1-3\n")


def test_all_shows_the_rest_without_waiting(two_deals: Path) -> None:
    code, out, err = _stepped(two_deals, "all\nq\n")
    assert (code, err) == (0, "")
    assert _pauses(out) == [2]
    assert _moves_shown(out) == list(range(1, 43))
    assert out.endswith("\nthe record ends in phase PLAY, scores 1-3\n")


def test_the_end_of_the_input_shows_the_rest_after_a_new_line(two_deals: Path) -> None:
    code, out, err = _stepped(two_deals, "")
    assert (code, err) == (0, "")
    assert _pauses(out) == [2]
    assert f"   table: Q♣ 5♦ 2♣ 4♥\n{PROMPT}\n3. 2D x 2C\n" in out
    assert out.endswith("\nthe record ends in phase PLAY, scores 1-3\n")


@pytest.mark.parametrize(
    ("stdin", "stdout", "options"),
    [
        (_Terminal, io.StringIO, []),  # output to a pipe or a file
        (io.StringIO, _Terminal, []),  # input from a pipe or a file
        (_Terminal, _Terminal, ["--no-step"]),
    ],
    ids=["piped-output", "piped-input", "no-step"],
)
def test_no_prompt_unless_input_and_output_are_terminals(
    two_deals: Path,
    stdin: type[io.StringIO],
    stdout: type[io.StringIO],
    options: list[str],
) -> None:
    args = ["replay", str(two_deals), "--no-boards", "--no-colour", *options]
    code, out, err = _run(args, stdin("q\n"), stdout())
    assert (code, err) == (0, "")
    assert out == run_cli("replay", str(two_deals), "--no-boards")[1]
    assert PROMPT not in out and _moves_shown(out) == list(range(1, 43))


def test_a_standard_input_the_program_closed_replays_all_without_prompting(
    two_deals: Path,
) -> None:
    closed = _Terminal()
    closed.close()  # reading it would raise ValueError
    args = ["replay", str(two_deals), "--no-boards", "--no-colour"]
    code, out, err = _run(args, closed, _Terminal())
    assert (code, err) == (0, "")
    assert PROMPT not in out and _moves_shown(out) == list(range(1, 43))


# --- errors -----------------------------------------------------------------------------


def test_a_missing_file_is_named_with_the_system_s_reason(tmp_path: Path) -> None:
    path = tmp_path / "nothing.json"
    assert run_cli("replay", str(path)) == (
        1,
        "",
        f"chkobba replay: error: cannot read '{path}': No such file or directory\n",
    )


def test_a_long_file_name_is_cut_at_200_characters(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 230 + ".json")
    assert len(str(path)) > 200
    assert run_cli("replay", str(path)) == (
        1,
        "",
        f"chkobba replay: error: cannot read '{str(path)[:198]}…: No such file or directory\n",
    )


def test_a_file_that_is_no_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("this is not json\n", encoding="utf-8")
    assert run_cli("replay", str(path)) == (
        1,
        "",
        f"chkobba replay: error: '{path}' is not a valid record: the record is not valid "
        "JSON: Expecting value: line 1 column 1 (char 0)\n",
    )


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize("content", ["", " \n\n"])
def test_an_empty_file_is_told_empty(tmp_path: Path, command: str, content: str) -> None:
    # As Record.load says it (it used to be a JSON parser's "line 1 column 1 (char 0)").
    path = tmp_path / "empty.json"
    path.write_text(content, encoding="utf-8")
    assert run_cli(command, str(path)) == (
        1,
        "",
        f"chkobba {command}: error: '{path}' is empty, not a record\n",
    )


def test_records_one_per_line_are_read_without_being_played(match: Record, tmp_path: Path) -> None:
    short = attrs.evolve(match, moves=match.moves[:4])
    data = json.loads(short.to_json())
    assert data["moves"][2] == "2D x 2C"
    data["moves"][2] = "QC"  # on the table, not in player 0's hand
    path = tmp_path / "games.jsonl"
    path.write_text(short.to_json(compact=True) + "\n" + json.dumps(data) + "\n", "utf-8")
    code, first, err = run_cli("replay", str(path), "--game", "1", "--no-boards")
    assert (code, err) == (0, "")
    assert first.endswith(
        "4. 4C x 4H\n   player 1 plays 4♣ and takes 4♥\nthe record ends in phase PLAY, scores 0-0\n"
    )
    assert run_cli("replay", str(path), "--game", "2", "--no-boards") == (
        1,
        f"replaying '{path}': 2 players, 4 moves, 1 deal\n"
        "1. shuffle\n"
        "   deal 1: player 1 deals (scores 0-0)\n"
        "2. keep\n"
        "   player 0 cuts and keeps the top card\n"
        "   table: Q♣ 5♦ 2♣ 4♥\n",
        f"chkobba replay: error: '{path}': move 3 (index 2) ('QC') is not legal: "
        "QC is not in player 0's hand\n",
    )


# --- the size limit ---------------------------------------------------------------------


def test_a_file_of_exactly_the_limit_is_one_record_and_a_larger_one_is_lines(
    short: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    size = short.stat().st_size
    monkeypatch.setattr(replay_module, "FILE_LIMIT", size)
    code, out, err = run_cli("replay", str(short), "--no-boards")
    assert (code, err) == (0, "")
    assert out.startswith(f"replaying '{short}': 2 players, 4 moves, 1 deal\n")
    # One byte more than the limit: only a file of records, one per line, is that large.
    monkeypatch.setattr(replay_module, "FILE_LIMIT", size - 1)
    assert run_cli("replay", str(short), "--no-boards") == (
        1,
        "",
        f"chkobba replay: error: '{short}', line 1: the record is not valid JSON: Expecting "
        "property name enclosed in double quotes at column 2 (a record saved over several "
        "lines reads with Record.load)\n",
    )


def test_a_file_larger_than_the_limit_without_records_is_refused_in_mib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay_module, "FILE_LIMIT", MIB)
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b" " * MIB + b"\n")
    assert run_cli("replay", str(path)) == (
        1,
        "",
        f"chkobba replay: error: '{path}' is larger than 1 MiB, more than any record\n",
    )


class _EndlessPipe(io.BytesIO):
    """A pipe that never ends (``yes |``): reading it to its end would never return."""

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            raise AssertionError("read to the end of an endless pipe")
        return b" " * size

    def seekable(self) -> bool:
        return False


def test_an_endless_pipe_is_refused_once_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_module, "FILE_LIMIT", MIB)
    with pytest.raises(CommandError) as caught:
        replay_module._records_in(_EndlessPipe(), "'-'")
    assert str(caught.value) == "'-' is larger than 1 MiB, more than any record"


def test_replay_and_analyse_refuse_an_illegal_shuffle_in_the_same_words(tmp_path: Path) -> None:
    # Found by a review: replay cut the shuffle's 40 cards at 60 characters, analyse (through
    # Record.replay) quoted them whole, where docs/cli.md says they refuse alike.
    record = play_match(["greedy", "greedy"], seed=3).record
    data = json.loads(record.to_json())
    data["moves"].append(data["moves"][0])  # a shuffle once the match is over
    path = tmp_path / "after_the_end.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    said = [run_cli(command, str(path), "--no-colour") for command in ("replay", "analyse")]
    assert [code for code, _, _ in said] == [1, 1]
    errors = [err.partition(": error: ")[2] for _, _, err in said]
    assert errors[0] == errors[1] and "…" not in errors[0]
    assert errors[0].endswith("is not legal: Shuffle is not allowed in phase OVER\n")


class _InterruptedTerminal(_Terminal):
    """A terminal where the person presses Ctrl-C at the first prompt."""

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_ends_its_line_before_the_command_stops(short: Path) -> None:
    # Found by a review: "-- Enter: next move, ... q: quit -- ^Cchkobba replay: interrupted",
    # the message on the prompt's line.
    args = ["replay", str(short), "--no-boards", "--no-colour"]
    code, out, err = _run(args, _InterruptedTerminal(), _Terminal())
    assert (code, err) == (130, "chkobba replay: interrupted\n")
    assert out.endswith(PROMPT + "\n")
