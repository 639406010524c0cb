"""Tests for the gaps a mutmut audit of ``cli/analyse.py``, ``cli/commands.py`` and
``cli/demo.py`` found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to one of those modules that the rest of the suite let through
(tools/mutation/README.md). They pin

* ``chkobba analyse``: the whole review text (its header and decision count, every
  decision line, the flags and the closing list, a move that loses exactly 0.5 points
  flagged), the whole ``--json`` text (its keys, the bot's text, two-space indents),
  the review made by the ``--bot`` given with the ``--seed`` given, the full ``--seat``
  refusal, the file name quoted up to 200 characters, and the colours a terminal shows
  (a bold header and closing title, red for a move that lost 0.5 points or more, dim
  values);
* ``chkobba play``'s words: the help's list of commands with their aliases, and a
  misspelt command of three letters or more answered with the nearest word;
* ``chkobba demo``: the header naming every seat's bot, no pause unless one is asked,
  and the colours of the narration (a bold header, bold cyan deal lines, bold yellow
  chkobbas, the match's end in bold green, the rest plain).

Everything runs in this process. The colour tests write through a ``rich`` console that
is told it is a terminal (skipped where ``rich`` is not installed). The bots are cheap:
hand-made reviews, or a 30-iteration ISMCTS over four decisions of one deal, and
one-deal demo matches.
"""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path

import attrs
import pytest

from chkobba import TUNISIAN, Cut, Move, Record, apply, legal_moves, new_match, parse_move
from chkobba import random_shuffle as shuffle_of
from chkobba.bots.analysis import MoveReview, MoveValue, review_record
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.registry import BotSpec
from chkobba.cli import analyse, commands
from chkobba.cli.analyse import run_analyse
from chkobba.cli.commands import HELP, command_of
from chkobba.cli.demo import run_demo
from chkobba.cli.output import Output
from tests.helpers import refusal, run_cli, terminal_text

#: A house profile whose matches end after one deal: short demos.
QUICK = attrs.evolve(TUNISIAN, name="quick", target=1)
#: How the review explains its numbers.
VALUES = "values: the mover's side's expected deal points minus the opponents'"


def _terminal() -> tuple[Output, io.StringIO]:
    """An ``Output`` writing what a colour terminal receives (ANSI escapes)."""
    console = pytest.importorskip("rich.console")
    stream = io.StringIO()
    out = Output(stream, colour=False)
    out.rich = console.Console(
        file=stream,
        force_terminal=True,
        color_system="standard",
        no_color=False,
        highlight=False,
        soft_wrap=True,
    )
    return out, stream


#: The escape codes of the styles the commands use, on a standard-colour terminal.
SGR = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "bold yellow": "1;33",
    "bold cyan": "1;36",
    "bold green": "1;32",
}


def _received(stream: io.StringIO) -> str:
    """What the terminal received, with rich before 14.3's styled line ends made plain:
    it also wrapped each line's newline in the line's style (``...\\x1b[0m\\x1b[1m\\n\\x1b[0m``),
    which shows the same (pyproject.toml allows rich 13)."""
    return terminal_text(stream.getvalue())


def _shown(text: str, style: str | None = None) -> str:
    """One line as the terminal receives it: plain, or wrapped in its style's escapes."""
    if style is None:
        return text + "\n"
    return f"\x1b[{SGR[style]}m{text}\x1b[0m\n"


# --- analyse: the review's text, JSON and colours ----------------------------------------


def _review(index: int, played: str, values: dict[str, float]) -> MoveReview:
    ranked = tuple(MoveValue(parse_move(text), value) for text, value in values.items())
    return MoveReview(index=index, player=index % 2, played=parse_move(played), ranked=ranked)


EXACT = _review(2, "KH", {"QS x QD": 1.0, "KH": 0.5})  # loses exactly 0.5: flagged
SMALL = _review(4, "2D", {"QS x QD": 0.5, "2D": 0.46})  # loses 0.04: not flagged
LARGE = _review(7, "KH", {"7C x 3S+4S": 1.0, "KH": -0.5})  # loses 1.5: flagged first
REVIEWS = [EXACT, SMALL, LARGE]


@pytest.fixture
def reviewed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """A record file ``r.json`` in the working directory, whose review is ``REVIEWS``."""
    monkeypatch.chdir(tmp_path)
    Path("r.json").write_text(Record(players=2, moves=()).to_json(), encoding="utf-8")
    monkeypatch.setattr(analyse, "review_record", lambda *args, **options: REVIEWS)
    return "r.json"


def test_analyse_prints_every_decision_and_the_moves_that_lost_the_most(reviewed: str) -> None:
    assert run_cli("analyse", reviewed) == (
        0,
        "analysing 'r.json': 3 decisions\n"
        f"{VALUES}\n"
        "3. player 0 played K♥ (loses 0.50 points)  <- lost the most\n"
        "      +1.00 points  Q♠ x Q♦\n"
        "      +0.50 points  K♥\n"
        "5. player 0 played 2♦ (loses 0.04 points)\n"
        "      +0.50 points  Q♠ x Q♦\n"
        "      +0.46 points  2♦\n"
        "8. player 1 played K♥ (loses 1.50 points)  <- lost the most\n"
        "      +1.00 points  7♣ x 3♠+4♠\n"
        "      -0.50 points  K♥\n"
        "moves that lost the most:\n"
        "  move 8, player 1: K♥ instead of 7♣ x 3♠+4♠ (loses 1.50 points)\n"
        "  move 3, player 0: K♥ instead of Q♠ x Q♦ (loses 0.50 points)\n",
        "",
    )


def test_analyse_json_is_the_review_as_indented_data(reviewed: str) -> None:
    code, text, err = run_cli(
        "analyse", reviewed, "--json", "--seat", "1", "--bot", "ismcts:iterations=5"
    )
    assert (code, err) == (0, "")
    assert text.startswith(
        '{\n  "record": "r.json",\n  "game": null,\n  "bot": "ismcts:iterations=5",\n'
        '  "seed": 0,\n  "seat": 1,\n'
        '  "moves": [\n    {\n      "index": 2,\n      "player": 0,\n'
    )
    assert text.endswith('  "worst": [\n    7,\n    2\n  ],\n  "tags": {}\n}\n')
    assert json.loads(text) == {
        "record": "r.json",
        "game": None,
        "bot": "ismcts:iterations=5",
        "seed": 0,
        "seat": 1,
        "moves": [review.to_dict() for review in REVIEWS],
        "worst": [7, 2],
        "tags": {},
    }


def test_analyse_colours_the_header_the_losing_moves_and_the_values(reviewed: str) -> None:
    out, stream = _terminal()
    bot = BotSpec.parse("ismcts:iterations=5")
    assert run_analyse(out, "r.json", seat=None, bot=bot, seed=0, flagged=3, as_json=False) == 0
    assert _received(stream) == "".join(
        [
            _shown("analysing 'r.json': 3 decisions", "bold"),
            _shown(VALUES),
            _shown("3. player 0 played K♥ (loses 0.50 points)  <- lost the most", "red"),
            _shown("      +1.00 points  Q♠ x Q♦", "dim"),
            _shown("      +0.50 points  K♥", "dim"),
            _shown("5. player 0 played 2♦ (loses 0.04 points)"),
            _shown("      +0.50 points  Q♠ x Q♦", "dim"),
            _shown("      +0.46 points  2♦", "dim"),
            _shown("8. player 1 played K♥ (loses 1.50 points)  <- lost the most", "red"),
            _shown("      +1.00 points  7♣ x 3♠+4♠", "dim"),
            _shown("      -0.50 points  K♥", "dim"),
            _shown("moves that lost the most:", "bold"),
            _shown("  move 8, player 1: K♥ instead of 7♣ x 3♠+4♠ (loses 1.50 points)"),
            _shown("  move 3, player 0: K♥ instead of Q♠ x Q♦ (loses 0.50 points)"),
        ]
    )


def test_analyse_flags_a_loss_that_it_prints_as_half_a_point(
    monkeypatch: pytest.MonkeyPatch, reviewed: str
) -> None:
    # A loss of 0.496 was printed "loses 0.50 points" and neither flagged nor red, though
    # the review flags what "lost 0.5 points or more"; 0.494 prints 0.49 and is not.
    close = _review(2, "KH", {"QS x QD": 1.0, "KH": 0.504})
    under = _review(4, "2D", {"QS x QD": 1.0, "2D": 0.506})
    monkeypatch.setattr(analyse, "review_record", lambda *args, **options: [close, under])
    code, text, _ = run_cli("analyse", reviewed)
    assert code == 0
    assert "3. player 0 played K♥ (loses 0.50 points)  <- lost the most\n" in text
    assert "5. player 0 played 2♦ (loses 0.49 points)\n" in text
    assert text.endswith(
        "moves that lost the most:\n  move 3, player 0: K♥ instead of Q♠ x Q♦ (loses 0.50 points)\n"
    )
    assert json.loads(run_cli("analyse", reviewed, "--json")[1])["worst"] == [2]


def _short_record() -> Record:
    """The shuffle, the cut and six plays of a deal: five decisions with a choice (the
    cut and four plays)."""
    shuffle = shuffle_of(random.Random(4))
    moves: list[Move] = [shuffle, Cut(keep=False)]
    state = apply(apply(new_match(), shuffle), Cut(keep=False))
    for _ in range(6):
        move = legal_moves(state)[-1]
        moves.append(move)
        state = apply(state, move)
    return Record(players=2, moves=tuple(moves))


def test_analyse_reviews_with_the_bot_and_seed_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    record = _short_record()
    Path("r.json").write_text(record.to_json(), encoding="utf-8")
    bot = "ismcts:iterations=30"
    code, text, _ = run_cli("analyse", "r.json", "--bot", bot, "--seed", "5", "--json")
    assert code == 0
    evaluator = BotSpec.parse(bot).build(seed=5)
    assert isinstance(evaluator, ISMCTSBot)
    expected = review_record(record, evaluator=evaluator)
    assert len(expected) == 5 and isinstance(expected[0].played, Cut)
    top = {"top": str(record.replay()[expected[0].index].stock[0])}  # the cut's card on top
    wanted = [review.to_dict() for review in expected]
    wanted[0] |= top
    assert json.loads(text)["moves"] == wanted


def test_analyse_refuses_a_seat_past_the_last_player(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("r.json").write_text(Record(players=2, moves=()).to_json(), encoding="utf-8")
    assert run_cli("analyse", "r.json", "--seat", "2") == (
        2,
        "",
        "chkobba analyse: error: argument --seat: 2-player record 'r.json' has no player 2 "
        "(players 0 to 1) (see chkobba analyse --help)\n",
    )


def test_analyse_quotes_a_long_file_name_up_to_200_characters(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "x" * 250
    Path(name).write_text(Record(players=2, moves=()).to_json(), encoding="utf-8")
    code, text, _ = run_cli("analyse", name, "--bot", "ismcts:iterations=5")
    assert code == 0
    quoted = "'" + "x" * 198 + "…"
    assert len(quoted) == 200
    assert text.splitlines()[0] == f"analysing {quoted}: 0 decisions"


# --- play's words: the help's commands, misspelt commands --------------------------------


def test_the_help_lists_every_command_with_its_aliases() -> None:
    assert HELP.split("Commands:\n")[1] == (
        "  help          this text (also ?, h)\n"
        "  board         show the board and your moves again\n"
        "  hint          what the strongest bot would play here\n"
        "  undo          take back your last move and the bots' after it (not past new cards "
        "dealt)\n"
        "  auto          turn on or off playing your move for you when it is your only legal "
        "one\n"
        "  quit          stop the match; you are offered to save it first (also exit)\n"
        "Ctrl-C stops the match and offers to save it; a second Ctrl-C quits."
    )
    # HELP is built once, at import: how each line's aliases are written, asked again.
    assert commands._also("help") == " (also ?, h)"
    assert commands._also("quit") == " (also exit)"
    assert commands._also("board") == ""


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("hlp", "unknown command 'hlp' (did you mean help?)"),
        ("qit", "unknown command 'qit' (did you mean quit?)"),
        ("xyz", "unknown command 'xyz'"),
        ("boardd", "unknown command 'boardd' (did you mean board?)"),
        (" Hnt ", "unknown command 'Hnt' (did you mean hint?)"),
    ],
)
def test_a_misspelt_command_is_answered_with_the_nearest_word(typed: str, message: str) -> None:
    assert refusal(lambda: command_of(typed)) == message


# --- demo: its header, its pauses, its colours -------------------------------------------


GREEDY, RANDOM = BotSpec.parse("greedy"), BotSpec.parse("random")


def test_demo_header_names_every_seats_bot() -> None:
    code, text, err = run_cli(
        "demo", "--players", "4", "--seed", "2", "--bots", "random", "greedy", "--target", "1"
    )
    assert (code, err) == (0, "")
    assert text.splitlines()[:2] == [
        "chkobba demo: 4 players (player 0: random, player 1: greedy, player 2: random, "
        "player 3: greedy), seed 2",
        "rules: tunisian, match to 1",
    ]


def test_demo_pauses_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    monkeypatch.setattr(time, "sleep", pauses.append)
    out = Output(io.StringIO(), colour=False)
    assert run_demo(out, seed=0, players=2, specs=[GREEDY, RANDOM], rules=QUICK) == 0
    assert pauses == []


def test_demo_colours_the_header_deals_chkobbas_and_the_end() -> None:
    plain = io.StringIO()
    run_demo(Output(plain, colour=False), seed=4, players=2, specs=[GREEDY, RANDOM], rules=QUICK)
    lines = plain.getvalue().splitlines()
    assert lines[0] == "chkobba demo: 2 players (player 0: greedy, player 1: random), seed 4"
    assert lines[-1] == "player 1 wins the match 1-4 after 1 deal"
    chkobbas = [line for line in lines if "chkobba!" in line]
    deals = [line for line in lines if line.startswith("deal ")]
    assert chkobbas == ["player 0 plays 7♥ and takes 2♠ 5♥ - chkobba!"]
    assert deals == ["deal 1: player 0 deals (scores 0-0)", "deal 1 score:"]

    def style(number: int, line: str) -> str | None:
        if number == 0:
            return "bold"
        if line in chkobbas:
            return "bold yellow"
        if line in deals:
            return "bold cyan"
        return "bold green" if number == len(lines) - 1 else None

    out, stream = _terminal()
    run_demo(out, seed=4, players=2, specs=[GREEDY, RANDOM], rules=QUICK)
    assert _received(stream) == "".join(
        _shown(line, style(number, line)) for number, line in enumerate(lines)
    )
