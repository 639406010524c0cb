"""Tests for the gaps a mutmut audit of ``cli/play.py`` (``chkobba play``) found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/cli/play.py`` that the rest of the in-process suite let through
(tools/mutation/README.md). They pin whole transcripts of short scripted matches (fixed
seeds): the introduction (two players, and four with the partner named), the board and
the numbered menu (keep before expose, captures as ``6♣ x 6♥``), the words ``help``,
``board``, ``auto`` and ``undo`` (the take-back of one's own move and the bots' after it,
what it let the player see, and its three refusals: nothing to undo, the cut, new hands
dealt), every refusal of a slip with its ``; type help for help``, a void deal counted in
the deal numbers, ``--auto`` playing only a forced move, input echoed when piped and not
at a terminal, a bot's "thinking" line wiped at a terminal, a line that is not UTF-8
refused with its first bad byte, ``quit``, Ctrl-C, and the saved record with its dated
default name and its tags. With ``rich`` installed, the colours the lines are written in.

Everything runs in this process, where a mutant is seen: through ``chkobba.cli.main``
with a scripted standard input, or ``run_play`` and ``_Match`` called directly.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import TUNISIAN, Cut, Play, Record, card, cards
from chkobba.bots.registry import BotSpec
from chkobba.cli.commands import HELP
from chkobba.cli.output import Output
from chkobba.cli.play import _Match, menu, run_play
from chkobba.cli.reading import UnreadableInput
from tests.helpers import TypedText, colour_terminal, dates_today, run_cli

GREEDY = BotSpec.parse("greedy")
#: A house profile whose match ends after its first deal.
QUICK = attrs.evolve(TUNISIAN, name="quick", target=1)

#: The board of ``play --seed 5`` at its first move, the cut (after the match's opening).
CUT_AT_SEED_5 = """\

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to cut: keep or expose
Cut card   6♣ (you alone see it)
Table      (empty)
Stock      40 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. keep
  2. expose
"""

#: ``play --seed 5`` up to the cut.
OPENING_AT_SEED_5 = (
    "You are player 0; player 1: greedy; seed 5.\n"
    "Type help for help.\n"
    "deal 1: player 1 deals (scores 0-0)\n" + CUT_AT_SEED_5
)


#: The board of ``play --seed 5`` at the first play (``undo`` of that play brings it back).
FIRST_BOARD_AT_SEED_5 = """\
Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to play
Table      J♦ Q♣ 6♥ 3♥
Hands      player 0 (you): 5♣ 6♣ 7♠
           player 1: 3 cards
Stock      30 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. 5♣
  2. 6♣ x 6♥
  3. 7♠
"""

#: What ``play --seed 5`` shows once the cut card is kept: the board at the first play.
KEPT_AT_SEED_5 = "you cut and keep the top card\ntable: J♦ Q♣ 6♥ 3♥\n\n" + FIRST_BOARD_AT_SEED_5


#: What ``play --seed 5`` shows once 5♣ is played from there: greedy's reply and the board.
FIVE_PLAYED_AT_SEED_5 = """\
you play 5♣
player 1 plays 6♠ and takes 6♥

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to play
Table      J♦ Q♣ 3♥ 5♣
Hands      player 0 (you): 6♣ 7♠
           player 1: 2 cards
Stock      30 cards
Last take  player 1
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 2 cards, 0 diamonds, 0 sevens, 2 sixes, 0 chkobbas
  1. 6♣
  2. 7♠
"""


#: The 4-player board at seed 1 before the human plays 3♠: ``undo`` brings it back whole.
BOARD_BEFORE_3S = """\
Chkobba: 4 players, tunisian rules, match to 21 (seen by player 0)
Scores     side 0 (players 0+2): 0   side 1 (players 1+3): 0
Dealer     player 0 (you)
Turn       player 0 (you) to play
Table      K♥ J♥ Q♠
Hands      player 0 (you): 3♠ 6♥
           player 1: 1 card
           player 2: 1 card
           player 3: 1 card
Stock      24 cards
Last take  player 1
Piles      side 0 (players 0+2): 3 cards, 0 diamonds, 1 seven, 0 sixes, 0 chkobbas
           side 1 (players 1+3): 5 cards, 0 diamonds, 0 sevens, 0 sixes, 0 chkobbas
  1. 3♠
  2. 6♥
"""


class _Typed(io.StringIO):
    """Standard input typed at a terminal (``isatty`` is true)."""

    def isatty(self) -> bool:
        return True


class _Interrupted(io.StringIO):
    """Piped input where the person presses Ctrl-C instead of typing the first line."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.interrupted = False

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        if not self.interrupted:
            self.interrupted = True
            raise KeyboardInterrupt
        return super().readline(size)


class _Styled(Output):
    """Plain output that also keeps each styled line with its style as rich reads it."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), colour=False)
        self.styled: list[tuple[str, str]] = []

    def line(self, text: str = "", style: str | None = None) -> None:
        from rich.style import Style

        super().line(text, style)
        if style:
            self.styled.append((text, str(Style.parse(style))))


def _match(
    typed: str, *, seed: int = 5, out: Output | None = None, terminal: bool = False
) -> tuple[_Match, Output]:
    out = out or Output(io.StringIO(), colour=False)
    specs = {1: GREEDY}
    stdin = TypedText(typed) if terminal else io.StringIO(typed)
    return _Match(out, stdin, players=2, specs=specs, seed=seed, auto=False), out


def _written(out: Output) -> str:
    stream = out.stream
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


def _play(typed: str | io.StringIO, **options: Any) -> str:
    """``run_play`` against greedy at seed 5 (unless told otherwise): what it wrote."""
    out = options.pop("out", None) or Output(io.StringIO(), colour=False)
    stdin = io.StringIO(typed) if isinstance(typed, str) else typed
    arguments: dict[str, Any] = {"players": 2, "opponent": GREEDY, "seed": 5} | options
    assert run_play(out, stdin, **arguments) == 0
    return _written(out)


def _session(*args: str, typed: str) -> str:
    code, out, err = run_cli("play", *args, stdin=typed)
    assert (code, err) == (0, "")
    return out


# --- reading a line ---------------------------------------------------------------------


def test_a_line_that_is_not_utf8_is_refused_with_its_first_bad_byte() -> None:
    # Bytes that are not UTF-8 reach the program as surrogates (surrogateescape). Typed
    # at a terminal, each such line is a slip, refused naming its first bad byte.
    typed = "caf\udce9\udcff\n\udc80\n\udcff\nQH  \n"
    match, out = _match(typed, terminal=True)
    assert match.read("your move> ") == "QH"
    refusal = "that line is not UTF-8 text (byte 0x{}): type it again\n"
    assert _written(out) == (
        "your move> "
        + refusal.format("e9")
        + "your move> "
        + refusal.format("80")
        + "your move> "
        + refusal.format("ff")
        + "your move> "
    )
    # Through a pipe nobody can type it again: the command ends, naming the byte (issue
    # 10), after the prompt's line, with no echo of the line.
    match, out = _match(typed)
    with pytest.raises(UnreadableInput, match=r"^standard input is not UTF-8 text \(byte 0xe9\)$"):
        match.read("your move> ")
    assert _written(out) == "your move> \n"


def test_the_end_of_input_ends_the_line_and_the_questions() -> None:
    match, out = _match("yes\n")
    assert match.ask("Save? ") == "yes"
    with pytest.raises(EOFError):
        match.ask("Save? ")
    assert _written(out) == "Save? yes\nSave? \n"


def test_a_turn_reads_until_a_move_is_played() -> None:
    match, out = _match("\nboard\n2\n")
    match.game.deal()
    assert match.turn() is True
    assert match.game.moves[-1] == Cut(keep=False)
    assert _written(out) == (
        CUT_AT_SEED_5 + "your move> \nyour move> board\n" + CUT_AT_SEED_5 + "your move> 2\n"
    )


# --- the menu ---------------------------------------------------------------------------


def test_the_menu_lists_keep_before_expose_and_cards_with_their_captures() -> None:
    assert menu((Cut(keep=False), Cut(keep=True))) == [
        (Cut(keep=True), "keep"),
        (Cut(keep=False), "expose"),
    ]
    plays = (Play(card("QH"), cards("2D 6S")), Play(card("AS")), Play(card("QH"), cards("AC 7S")))
    assert [text for _, text in menu(plays)] == ["A♠", "Q♥ x A♣+7♠", "Q♥ x 2♦+6♠"]


# --- whole sessions ---------------------------------------------------------------------


def test_slips_at_the_cut_and_at_the_first_play_are_refused_and_asked_again() -> None:
    typed = (
        "undo\n\n5\nQH\nauto\nauto\nboard  \n1\nundo\nkeep\nQX\nq\nZ\n1X\n²\n"
        "999999999\n0000000001\nAS\nquit\nn\n"
    )
    assert (
        _session("--seed", "5", typed=typed)
        == OPENING_AT_SEED_5
        + """\
your move> undo
there is nothing to undo: you have not moved in this deal; type help for help
your move>\x20
your move> 5
5 is not a move number: choose 1 to 2; type help for help
your move> QH
now is the cut: keep or expose the top card; you play a card after it; type help for help
your move> auto
auto is on: a forced move is played for you
your move> auto
auto is off: a forced move is asked for
your move> board\x20\x20
"""
        + CUT_AT_SEED_5
        + """\
your move> 1
"""
        + KEPT_AT_SEED_5
        + """\
your move> undo
you cannot undo the cut: you have seen the cards it dealt (undo goes back to your last \
move since cards were dealt); type help for help
your move> keep
you can keep or expose only at the cut; now play a card; type help for help
your move> QX
'QX' is not a move: 'QX' is not a card: X is not a suit (S H D C or ♠ ♥ ♦ ♣); type help for help
your move> q
'q' is not a whole card: a card is a rank and a suit, as in QH or Q♥; type help for help
your move> Z
'Z' is not a move: 'Z' is not a card: a card is a rank and a suit, e.g. 7D; type help for help
your move> 1X
'1X' is not a move: '1X' is not a card: a card is a rank (A 2 3 4 5 6 7 Q J K) then a \
suit (S H D C or ♠ ♥ ♦ ♣); type help for help
your move> ²
'²' is not a move number: choose 1 to 3; type help for help
your move> 999999999
999999999 is not a move number: choose 1 to 3; type help for help
your move> 0000000001
'0000000001' is not a move number: choose 1 to 3; type help for help
your move> AS
AS is not in your hand; type help for help
your move> quit
You quit the match.
Save the match as a record? [y/N] n
not saved
"""
    )


def test_undo_takes_back_your_move_and_the_bots_but_not_past_new_hands() -> None:
    typed = "1\n000000001\nundo\n6C\n1\n2\n2D 6S 7H\n1\nundo\nquit\nn\n"
    assert (
        _session("--seed", "5", typed=typed)
        == OPENING_AT_SEED_5
        + """\
your move> 1
"""
        + KEPT_AT_SEED_5
        + """\
your move> 000000001
"""
        + FIVE_PLAYED_AT_SEED_5
        + """\
your move> undo
undone: your 5♣ and 1 move after it
(back in the bots' hands, and seen: 6♠)

"""
        + FIRST_BOARD_AT_SEED_5
        + """\
your move> 6C
you play 6♣ and take 6♥
player 1 plays 2♠

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to play
Table      J♦ Q♣ 3♥ 2♠
Hands      player 0 (you): 5♣ 7♠
           player 1: 2 cards
Stock      30 cards
Last take  player 0 (you)
Piles      player 0: 2 cards, 0 diamonds, 0 sevens, 2 sixes, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. 5♣ x 2♠+3♥
  2. 7♠
your move> 1
you play 5♣ and take 2♠ 3♥
player 1 plays 6♠

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to play
Table      J♦ Q♣ 6♠
Hands      player 0 (you): 7♠
           player 1: 1 card
Stock      30 cards
Last take  player 0 (you)
Piles      player 0: 5 cards, 0 diamonds, 0 sevens, 2 sixes, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. 7♠
your move> 2
2 is not a move number: choose 1; type help for help
your move> 2D 6S 7H
'2D 6S 7H' is not a move: type a card (QH), a capture (QH x 2D+6S) or a move number (1); \
write a capture as QH x 2D+6S; type help for help
your move> 1
you play 7♠
player 1 plays K♦
new hands are dealt; 24 cards left in the stock

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to play
Table      J♦ Q♣ 6♠ 7♠ K♦
Hands      player 0 (you): A♦ 4♦ K♥
           player 1: 3 cards
Stock      24 cards
Last take  player 0 (you)
Piles      player 0: 5 cards, 0 diamonds, 0 sevens, 2 sixes, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. A♦
  2. 4♦
  3. K♥ x K♦
your move> undo
you cannot undo a move made before the new hands were dealt: you have seen your new cards \
(undo goes back to your last move since cards were dealt); type help for help
your move> quit
You quit the match.
Save the match as a record? [y/N] n
not saved
"""
    )


def test_auto_plays_only_a_forced_move() -> None:
    assert (
        _session("--seed", "5", "--auto", typed="1\n1\n1\nquit\nn\n")
        == OPENING_AT_SEED_5
        + """\
your move> 1
"""
        + KEPT_AT_SEED_5
        + """\
your move> 1
"""
        + FIVE_PLAYED_AT_SEED_5
        + """\
your move> 1
you play 6♣
player 1 plays K♦
your only move: 7♠ (auto is on)
you play 7♠
player 1 plays 2♠
new hands are dealt; 24 cards left in the stock

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to play
Table      J♦ Q♣ 3♥ 5♣ 6♣ K♦ 7♠ 2♠
Hands      player 0 (you): A♦ 4♦ K♥
           player 1: 3 cards
Stock      24 cards
Last take  player 1
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 2 cards, 0 diamonds, 0 sevens, 2 sixes, 0 chkobbas
  1. A♦
  2. 4♦
  3. K♥ x K♦
your move> quit
You quit the match.
Save the match as a record? [y/N] n
not saved
"""
    )


def test_without_auto_run_play_asks_for_a_forced_move_too() -> None:
    out = _play("1\n1\n1\n1\nquit\nn\n")
    assert "  1. 7♠\nyour move> 1\nyou play 7♠\nplayer 1 plays 2♠\n" in out
    assert "auto is on" not in out


def test_a_void_deal_counts_in_the_deal_numbers_and_help_lists_the_words() -> None:
    assert (
        _session("--seed", "92", typed="1\nhelp\nundo\nquit\nn\n")
        == f"""\
You are player 0; player 1: greedy; seed 92.
Type help for help.
deal 1: player 1 deals (scores 0-0)

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to cut: keep or expose
Cut card   5♠ (you alone see it)
Table      (empty)
Stock      40 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. keep
  2. expose
your move> 1
you cut and keep the top card
table: A♣ 4♠ 4♦ 4♣
three fours on the table: the deal is void (three or more of a rank void it); player 1 \
shuffles again
deal 2: player 1 deals (scores 0-0)

Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 1
Turn       player 0 (you) to cut: keep or expose
Cut card   7♣ (you alone see it)
Table      (empty)
Stock      40 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
  1. keep
  2. expose
your move> help
{HELP}
your move> undo
there is nothing to undo: you have not moved in this deal; type help for help
your move> quit
You quit the match.
Save the match as a record? [y/N] n
not saved
"""
    )


def test_four_players_name_the_partner_and_undo_takes_back_three_bot_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ("--players", "4", "--seed", "1", "--opponent", "random", "--partner", "greedy")
    out = _session(*args, typed="1\n1\nundo\nquit\ny\nfour.json\n")
    assert _undated(out) == (
        """\
You are player 0; player 1: random, player 2: greedy (your partner), player 3: random; seed 1.
Type help for help.
deal 1: you deal (scores 0-0)
player 1 cuts and exposes 6♣
table: 6♣ 6♥ 7♣ 6♦
three sixes on the table: the deal is void (three or more of a rank void it); you shuffle again
deal 2: you deal (scores 0-0)
player 1 cuts and keeps the top card
table: 2♣ 4♣ 2♠ K♥
player 1 plays 7♠
player 2 plays J♠ and takes 2♣ 7♠
player 3 plays 4♠ and takes 4♣

Chkobba: 4 players, tunisian rules, match to 21 (seen by player 0)
Scores     side 0 (players 0+2): 0   side 1 (players 1+3): 0
Dealer     player 0 (you)
Turn       player 0 (you) to play
Table      2♠ K♥
Hands      player 0 (you): A♠ 3♠ 6♥
           player 1: 2 cards
           player 2: 2 cards
           player 3: 2 cards
Stock      24 cards
Last take  player 3
Piles      side 0 (players 0+2): 3 cards, 0 diamonds, 1 seven, 0 sixes, 0 chkobbas
           side 1 (players 1+3): 2 cards, 0 diamonds, 0 sevens, 0 sixes, 0 chkobbas
  1. A♠
  2. 3♠
  3. 6♥
your move> 1
you play A♠
player 1 plays 3♣ and takes A♠ 2♠
player 2 plays J♥
player 3 plays Q♠

"""
        + BOARD_BEFORE_3S
        + """\
your move> 1
you play 3♠
player 1 plays 7♥
player 2 plays A♦
player 3 plays K♣ and takes K♥

Chkobba: 4 players, tunisian rules, match to 21 (seen by player 0)
Scores     side 0 (players 0+2): 0   side 1 (players 1+3): 0
Dealer     player 0 (you)
Turn       player 0 (you) to play
Table      J♥ Q♠ 3♠ 7♥ A♦
Hands      player 0 (you): 6♥
           player 1: 0 cards
           player 2: 0 cards
           player 3: 0 cards
Stock      24 cards
Last take  player 3
Piles      side 0 (players 0+2): 3 cards, 0 diamonds, 1 seven, 0 sixes, 0 chkobbas
           side 1 (players 1+3): 7 cards, 0 diamonds, 0 sevens, 0 sixes, 0 chkobbas
  1. 6♥
your move> undo
undone: your 3♠ and 3 moves after it
(back in the bots' hands, and seen: 7♥ A♦ K♣)

"""
        + BOARD_BEFORE_3S
        + """\
your move> quit
You quit the match.
Save the match as a record? [y/N] y
File name (Enter: chkobba-DATE.json; no: do not save): four.json
saved the record to 'four.json'
"""
    )
    tags = dict(Record.load(tmp_path / "four.json").tags)
    assert tags.pop("date") in dates_today()
    assert tags == {
        "event": "chkobba play",
        "seed": "1",
        "profile": "tunisian",
        "player0": "human",
        "player1": "random",
        "player2": "greedy",
        "player3": "random",
    }


def _undated(out: str) -> str:
    """``out`` with the default file name's date and time written ``DATE``."""
    return re.sub(r"chkobba-\d{4}-\d\d-\d\d-\d{4}\.json", "chkobba-DATE.json", out)


@pytest.mark.parametrize(("term", "erased"), [("xterm-256color", True), ("dumb", False)])
def test_a_colour_terminal_erases_the_thinking_line_a_dumb_one_writes_spaces(
    monkeypatch: pytest.MonkeyPatch, term: str, erased: bool
) -> None:
    # Found by a review: the erase code was written whatever the terminal, also a dumb one.
    colour_terminal(monkeypatch, term)
    out = _play(_Typed("1\n1\nquit\nn\n"), out=Output(_Typed(), colour=True))
    thinking = "player 1 (greedy) is thinking…\r"
    assert thinking in out
    assert ("\x1b[K" in out) is erased
    assert (thinking + " " * 30 + "\r" in out) is not erased


def test_the_spaces_cover_the_thinking_line_as_written_on_an_ascii_terminal() -> None:
    # Found by a review: "…" is written "..." there, two columns more than the spaces
    # counted from the text, so ".." stayed after each bot's move.
    class AsciiTerminal(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    stream = AsciiTerminal(io.BytesIO(), encoding="ascii", write_through=True)
    out = Output(stream, colour=False)
    assert run_play(out, _Typed("1\n1\nquit\nn\n"), players=2, opponent=GREEDY, seed=5) == 0
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    said = "player 1 (greedy) is thinking..."
    assert f"{said}\r{' ' * len(said)}\rplayer 1 plays " in buffer.getvalue().decode("ascii")


def test_at_a_terminal_input_is_not_echoed_and_a_bot_thinking_is_wiped() -> None:
    out = _play(_Typed("1\n1\nquit\nn\n"), out=Output(_Typed(), colour=False))
    assert (
        out
        == OPENING_AT_SEED_5
        + (
            "your move> you cut and keep the top card\n"
            "table: J♦ Q♣ 6♥ 3♥\n"
            "\n"
            "Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)\n"
            "Scores     player 0: 0   player 1: 0\n"
            "Dealer     player 1\n"
            "Turn       player 0 (you) to play\n"
            "Table      J♦ Q♣ 6♥ 3♥\n"
            "Hands      player 0 (you): 5♣ 6♣ 7♠\n"
            "           player 1: 3 cards\n"
            "Stock      30 cards\n"
            "Piles      player 0: 0 cards, 0 chkobbas\n"
            "           player 1: 0 cards, 0 chkobbas\n"
            "  1. 5♣\n"
            "  2. 6♣ x 6♥\n"
            "  3. 7♠\n"
            "your move> you play 5♣\n"
            "player 1 (greedy) is thinking…\r"  # without colour: spaces over it, no escape code
            + " "
            * 30
            + "\rplayer 1 plays 6♠ and takes 6♥\n"
            "\n"
            "Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)\n"
            "Scores     player 0: 0   player 1: 0\n"
            "Dealer     player 1\n"
            "Turn       player 0 (you) to play\n"
            "Table      J♦ Q♣ 3♥ 5♣\n"
            "Hands      player 0 (you): 6♣ 7♠\n"
            "           player 1: 2 cards\n"
            "Stock      30 cards\n"
            "Last take  player 1\n"
            "Piles      player 0: 0 cards, 0 chkobbas\n"
            "           player 1: 2 cards, 0 diamonds, 0 sevens, 2 sixes, 0 chkobbas\n"
            "  1. 6♣\n"
            "  2. 7♠\n"
            "your move> You quit the match.\n"
            "Save the match as a record? [y/N] not saved\n"
        )
    )


def test_ctrl_c_stops_the_match_and_offers_the_dated_default_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = _play(_Interrupted("y\n\n"))
    (saved,) = tmp_path.iterdir()
    assert re.fullmatch(r"chkobba-\d{4}-\d\d-\d\d-\d{4}\.json", saved.name)
    assert out == (
        OPENING_AT_SEED_5 + "your move> \n"
        "Interrupted: the match stops here (Ctrl-C again quits without saving).\n"
        "Save the match as a record? [y/N] y\n"
        f"File name (Enter: {saved.name}; no: do not save): \n"
        f"saved the record to '{saved.name}'\n"
    )
    tags = dict(Record.load(saved).tags)
    assert tags.pop("date") in dates_today()
    assert tags == {
        "event": "chkobba play",
        "seed": "5",
        "profile": "tunisian",
        "player0": "human",
        "player1": "greedy",
    }


# --- colours ----------------------------------------------------------------------------


def test_the_colours_of_the_introduction_refusals_chkobbas_and_the_winner() -> None:
    pytest.importorskip("rich")
    out = _Styled()
    typed = TypedText("\udcff\nZ\n" + "1\n" * 20)  # at a terminal: the bad line is a slip
    _play(typed, out=out, seed=1, rules=QUICK, auto=True)
    assert out.styled == [
        ("You are player 0; player 1: greedy; seed 1.", "bold"),
        ("that line is not UTF-8 text (byte 0xff): type it again", "red"),
        (
            "'Z' is not a move: 'Z' is not a card: a card is a rank and a suit, e.g. 7D"
            "; type help for help",
            "red",
        ),
        ("you play 4♣ and take A♠ 3♦ - chkobba!", "yellow"),
        ("player 1 wins the match 2-3 after 1 deal", "bold green"),
    ]


def test_the_thinking_line_is_cut_to_the_terminals_width(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: at 40 columns a longer line wrapped, and the erase code took only
    # its last row off, so "player 1 (ismcts:...) is thin" stayed on the screen.
    colour_terminal(monkeypatch, columns=20)
    out = _play(_Typed("1\n1\nquit\nn\n"), out=Output(_Typed(), colour=True))
    assert "player 1 (greedy) …\r" in out and "is thinking" not in out  # 19 columns
    colour_terminal(monkeypatch, columns=80)
    assert "player 1 (greedy) is thinking…\r" in _play(
        _Typed("1\n1\nquit\nn\n"), out=Output(_Typed(), colour=True)
    )


class _InterruptedAtTheEnd(io.StringIO):
    """Input typed at a terminal where the person presses Ctrl-C once it is all read."""

    def isatty(self) -> bool:
        return True

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_save_question_ends_the_line_before_the_command_stops() -> None:
    # Found by a review: "Save the match as a record? [y/N] ^Cchkobba play: interrupted",
    # the message on the question's line.
    out = Output(_Typed(), colour=False)
    with pytest.raises(KeyboardInterrupt):
        run_play(out, _InterruptedAtTheEnd("quit\n"), players=2, opponent=GREEDY, seed=5)
    assert _written(out).endswith("Save the match as a record? [y/N] \n")


def test_two_letters_that_start_keep_or_expose_at_the_cut_are_offered_the_word() -> None:
    # Found by a review: "ke" at the cut was read as a king of suit E ("E is not a
    # suit"), where three letters ("kee") were offered keep. Seed 5: you cut first.
    out = _play("ke\nEx\nKH\n1\nquit\nn\n")
    assert "'ke' is not a move (did you mean keep?); type help for help\n" in out
    assert "'Ex' is not a move (did you mean expose?); type help for help\n" in out
    assert "'KH' is not a move" not in out  # a card at the cut is told as before
    assert "now is the cut: keep or expose the top card; you play a card after it" in out
