"""``chkobba play`` typed at by a person Hypothesis makes up, one line at a time.

The standard input of ``chkobba play`` (run through ``chkobba.cli.main``, as the command
runs) is a typist that writes each line when the program asks for it, as a person at a
keyboard does: it reads the prompt and the numbered menu on the screen, looks at the match
(the ``Game`` the command plays, watched, never touched), and types a move number, the
text of a legal move in one of its forgiving forms, ``keep``/``expose``, ``help``,
``board``, ``hint``, ``auto``, ``undo``, a blank line, or a slip: a number no move has,
a card not in the hand, a capture that is not legal, a card with several moves, a cut
word outside the cut, garbage, control characters and escape codes, a very long line, a
lone ``x``, a rank alone, ``shuffle``, a misspelt command, bytes that are not UTF-8.
The session ends with the end of input, ``quit``, Ctrl-C or the end of the match, and
the save questions are answered (a file under a temporary folder, a folder that cannot
be written, no, the end of input, a second Ctrl-C).

After every line the typist checks what the line did:

- a slip leaves the match exactly as it was and is answered with one printable line
  (no escape code or newline of the input reaches it), then the same prompt;
- a move number plays the move the menu on the screen lists under it, and move text
  plays the move it writes; anything played without a line is a bot's, or with ``auto``
  on the person's only legal move;
- the menu on the screen is exactly the legal moves;
- ``undo`` takes back exactly the person's last move and the bots' moves after it
  (and says how many, and which cards it let the person see), or, when that would go
  back before cards the person has seen were dealt, is refused and changes nothing;
- ``help``, ``board``, ``hint``, ``auto`` and ``quit`` do what docs/cli.md says.

After the session: the exit status is 0 (130 after a second Ctrl-C, with its one line on
standard error), no traceback or raw exception name was written, and a saved record
loads with ``Record.load``, replays, is the match that was played, and its moves by the
person are exactly the moves typed (less those undone) and the forced ones ``auto``
played. The same lines fed again through a plain pipe give the same transcript.
"""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import chkobba.cli.play as play_module
from chkobba import (
    DECK,
    Card,
    ChkobbaError,
    Cut,
    Game,
    Move,
    Phase,
    Play,
    Record,
    Shuffle,
    State,
    legal_moves,
    parse_move,
)
from chkobba.cli import main
from chkobba.cli.commands import help_text
from chkobba.cli.reading import LINE_LIMIT

T = TypeVar("T")


class Draw(Protocol):
    """``data.draw`` and a composite's ``draw``."""

    def __call__(self, strategy: st.SearchStrategy[T], label: Any = None) -> T: ...


HUMAN = 0
PROMPT = "your move> "
SAVE = "Save the match as a record? [y/N] "
FILE = "File name ("
#: The rest of every refusal of a slip at the move prompt (docs/cli.md's examples).
REFUSED = "; type help for help"
TOO_LONG = f"that line is longer than {LINE_LIMIT:,} characters, more than any move: type it again"
MENU_LINE = re.compile(r"  (\d+)\. (.+)")
#: What only an uncaught exception would write: the program never names one.
RAW_EXCEPTION = re.compile(r"Traceback|\b[A-Z][A-Za-z]*(Error|Exception)\b")
#: The default file name the save question offers holds the minute it was asked.
DATED_NAME = re.compile(r"chkobba-\d{4}-\d\d-\d\d-\d{4}\.json")

#: Every word the command reads as a command or a cut (lower case), and the words for
#: help that are no words: junk is never one of them.
WORDS = frozenset({"help", "h", "?", "board", "hint", "undo", "auto", "quit", "exit"})
WORDS |= {"keep", "expose"}

#: (players, --rules, --target): short matches, so that a session can reach the end.
TABLES = [
    (2, "tunisian", "1"),
    (2, "tunisian", "3"),
    (2, "tunisian", None),
    (4, "tunisian", "1"),
    (3, "cardrulesplus", "2"),
    (2, "cardrulesplus", "1"),
    (4, "cardrulesplus", "1"),
]
#: Bots cheap enough for a hundred sessions.
BOTS = ["greedy", "random", "ismcts:iterations=5"]

#: What a line at the move prompt is meant to be; the typist's weights are the repeats.
VALID_KINDS = ["number"] * 6 + ["text"] * 4 + ["undo"] * 2
COMMAND_KINDS = ["blank", "help", "board", "hint", "auto"]
SLIP_KINDS = [
    "bad number",
    "not held",
    "bad capture",
    "ambiguous",
    "wrong phase",
    "junk",
    "control",
    "long",
    "lone x",
    "shuffle",
    "rank alone",
    "misspelt",
]
KINDS = VALID_KINDS + COMMAND_KINDS + SLIP_KINDS
#: How the lines typed end; "not utf8" ends the command too: through a pipe nobody can
#: type such a line again.
ENDINGS = ["eof", "quit", "ctrl-c", "not utf8"]

#: Control characters that are not whitespace to Python (``strip`` keeps them), alone
#: and in the escape codes that move a terminal or retitle it.
CONTROLS = ["\x1b[2J", "\x1b]0;pwned\x07", "\x1b", "\x00", "\x07", "\x08", "\x7f", "\x9b"]
MISSPELT = ["kep", "hlep", "undoo", "quitt", "bord", "hnt", "expse", "exitt", "autoo"]
#: A command with something after it is refused, never run: "quit now" does not quit.
TRAILED = ["hint x", "undo 2", "help me", "board now", "quit now", "exit 0", "auto on"]
LONG = ["Q" * 5000, "1" * 5000, "QH x " + "2D+" * 700 + "6S", "help " * 1000, "é♥" * 3000]


@st.composite
def pads(draw: st.DrawFn) -> str:
    """Spaces around a line or between its parts: forgiven."""
    return draw(st.sampled_from(["", " ", "  ", "\t", " \t "]))


def _is_junk(text: str) -> bool:
    """Whether ``text`` is surely not a move, a number or a command at any moment."""
    word = text.strip()
    if not word or word.lower() in WORDS or word.isdigit() or RAW_EXCEPTION.search(text):
        return False
    try:
        parse_move(word)
    except ChkobbaError:
        return True
    return False


#: Junk: any text but line breaks and surrogates (those are the "not utf8" kind); text
#: that happens to be a word, a number or a move is wrapped in tildes, which it is not.
JUNK = st.text(
    st.characters(codec="utf-8", exclude_characters="\n\r"), min_size=1, max_size=30
).map(lambda text: text if _is_junk(text) else f"~{RAW_EXCEPTION.sub('', text)}~")


def _card_text(draw: Draw, card: Card) -> str:
    """A card as a person writes it: ``QH``, ``qh``, ``Q♥`` or ``q♥``."""
    suit = draw(st.sampled_from([str(card)[-1], card.symbol[-1]]))
    text = str(card)[:-1] + suit
    return text.lower() if draw(st.booleans()) else text


def _play_text(draw: Draw, card: Card, capture: tuple[Card, ...]) -> str:
    """A card and what it takes, in one of the forms docs/cli.md says are forgiven."""
    if not capture:
        return _card_text(draw, card)
    order = draw(st.permutations(capture))
    mark = draw(st.sampled_from([" x ", "x", " X ", ":", ": "]))
    between = draw(st.sampled_from(["+", " ", ", ", " + "]))
    return _card_text(draw, card) + mark + between.join(_card_text(draw, c) for c in order)


def _cased(draw: Draw, word: str) -> str:
    return draw(st.sampled_from([word, word.upper(), word.title()]))


def _moves_of(legal: tuple[Move, ...], card: Card) -> list[Play]:
    return [move for move in legal if isinstance(move, Play) and move.card == card]


def _same_play(move: Move, card: Card, capture: tuple[Card, ...]) -> bool:
    return isinstance(move, Play) and move.card == card and set(move.capture) == set(capture)


def _human_moves(game: Game) -> list[Move]:
    history = game.history
    return [move for i, move in enumerate(game.moves) if history[i].current_player == HUMAN]


def undo_target(game: Game) -> int | None:
    """Where ``undo`` goes back to, as docs/cli.md says: the person's last move, unless a
    card the person had not seen was dealt since (the cut, a new deal, new hands)."""
    moves, history = game.moves, game.history
    movers = [i for i in range(len(moves)) if history[i].current_player == HUMAN]
    if not movers:
        return None
    target = movers[-1]
    for i in range(target, len(moves)):
        hand, next_hand = history[i].hands[HUMAN], history[i + 1].hands[HUMAN]
        if isinstance(moves[i], (Shuffle, Cut)) or not set(next_hand) <= set(hand):
            return None
    return target


def shown_menu(screen: str, state: State) -> list[Move]:
    """The moves of the last numbered menu on the screen, read as a person reads them."""
    lines = screen.split("\n")
    end = max(i for i, line in enumerate(lines) if MENU_LINE.fullmatch(line))
    start = end
    while start > 0 and MENU_LINE.fullmatch(lines[start - 1]):
        start -= 1
    menu = [MENU_LINE.fullmatch(line) for line in lines[start : end + 1]]
    assert [int(m.group(1)) for m in menu if m] == list(range(1, len(menu) + 1))
    return [parse_move(m.group(2), state) for m in menu if m]


@dataclass
class Typed:
    """A line typed at the move prompt and what it should do."""

    kind: str  # move, slip, blank, help, board, hint, auto, undo, quit, ctrl-c, unreadable
    line: str
    moves: tuple[Move, ...]  # the match's moves when it was typed
    at: int  # how much had been written when it was typed (the prompt included)
    move: Move | None = None  # the move it plays
    target: int | None = None  # where undo goes back to (None: refused)
    says: tuple[str, ...] = ()  # what its refusal says, as docs/cli.md shows it


#: How a session ends at a save question: the end of input (an empty read) or Ctrl-C (a
#: read that raises), each with the ``ended`` it leaves.
SAVE_ENDINGS: dict[str, tuple[str, str | None]] = {"eof": ("eof", ""), "^C": ("ctrl-c", None)}


class Typist(io.StringIO):
    """Standard input that types each line when the program asks for one, and checks
    what the previous line did. ``None`` in ``lines`` stands for a Ctrl-C."""

    def __init__(self, data: st.DataObject, out: io.StringIO, folder: str) -> None:
        super().__init__()
        self.data = data
        self.out = out
        self.folder = folder
        self.game: Game | None = None
        self.seed = ""  # --seed, as the record's tags write it
        self.budget = data.draw(st.integers(0, 150), label="lines before the end")
        self.auto = False
        # A hint asks the strongest bot (tens of milliseconds): in one session in four.
        self.may_hint = data.draw(st.sampled_from([True, False, False, False]), label="hint")
        self.pending: Typed | None = None
        self.known = 0  # moves already accounted for
        self.human: list[Move] = []  # the person's moves the match should hold
        self.lines: list[str | None] = []
        self.saved: str | None = None
        self.refused = False  # a file name was the folder, which cannot be written
        self.ended = ""  # how the session ended: eof, ctrl-c twice, or answered

    def watch(self, **options: Any) -> Game:
        """Stands for ``Game`` in chkobba.cli.play: the match's game, kept to look at."""
        self.game = Game(**options)
        return self.game

    def draw(self, strategy: st.SearchStrategy[T], label: str) -> T:
        return self.data.draw(strategy, label=label)

    # --- the keyboard -------------------------------------------------------------------

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        screen = self.out.getvalue()
        prompt = screen.rsplit("\n", 1)[-1]
        self.settle(screen)
        if prompt == PROMPT:
            line = self.move_line(screen)
        elif prompt == SAVE:
            line = self.save_answer()
        elif prompt.startswith(FILE):
            line = self.file_answer()
        else:
            raise AssertionError(f"an unexpected prompt: {prompt!r}")
        self.lines.append(line)
        if line is None:
            raise KeyboardInterrupt
        return line

    def move_line(self, screen: str) -> str | None:
        game = self.game
        assert game is not None and not game.is_over
        state = game.state
        assert state.current_player == HUMAN
        menu = shown_menu(screen, state)
        assert sorted(map(str, menu)) == sorted(map(str, game.legal_moves))
        assert len(set(menu)) == len(menu)
        self.check_human_moves()
        if len(self.lines) >= self.budget:
            kind = self.draw(st.sampled_from(ENDINGS), "ending")
        else:
            kind = self.draw(st.sampled_from(KINDS), "kind")
        if kind == "eof":
            self.ended = "eof"
            return ""
        typed = self.typed(kind, state, menu, len(screen))
        self.pending = typed
        if typed.kind == "ctrl-c":
            return None
        return typed.line + "\n"

    def typed(self, kind: str, state: State, menu: list[Move], at: int) -> Typed:
        """A line of ``kind``, with what it should do."""
        draw = self.data.draw
        game = self.game
        assert game is not None
        legal = game.legal_moves
        moves = game.moves
        hand = state.hands[HUMAN]
        cut = state.phase is Phase.CUT

        def slip(line: str, *says: str) -> Typed:
            return Typed("slip", line, moves, at, says=says)

        def plays(line: str, move: Move) -> Typed:
            return Typed("move", line, moves, at, move=move)

        if kind == "number":
            number = draw(st.integers(1, len(menu)), label="number")
            zeros = "0" * draw(st.integers(0, 9 - len(str(number))), label="zeros")
            return plays(draw(pads()) + zeros + str(number) + draw(pads()), menu[number - 1])
        if kind == "text":
            move = draw(st.sampled_from(legal), label="move")
            if isinstance(move, Cut):
                word = "keep" if move.keep else "expose"
                return plays(draw(pads()) + _cased(draw, word) + draw(pads()), move)
            assert isinstance(move, Play)
            alone = len(_moves_of(legal, move.card)) == 1 and draw(st.booleans())
            capture = () if alone else tuple(sorted(move.capture))
            if not capture and len(_moves_of(legal, move.card)) > 1:
                return self.typed("number", state, menu, at)  # no text writes it alone
            return plays(draw(pads()) + _play_text(draw, move.card, capture), move)
        if kind == "undo":
            return Typed("undo", _cased(draw, "undo"), moves, at, target=undo_target(game))
        if kind == "quit":
            return Typed("quit", _cased(draw, draw(st.sampled_from(["quit", "exit"]))), moves, at)
        if kind == "ctrl-c":
            return Typed("ctrl-c", "", moves, at)
        if kind == "blank":
            return Typed("blank", draw(pads()), moves, at)
        if kind == "hint" and self.may_hint:  # the strongest bot: slow, so seldom
            self.may_hint = False
            return Typed("hint", _cased(draw, "hint"), moves, at)
        if kind in ("help", "hint"):
            word = draw(st.sampled_from(["help", "h", "?"]))
            return Typed("help", draw(pads()) + _cased(draw, word) + draw(pads()), moves, at)
        if kind == "board":
            return Typed("board", _cased(draw, "board"), moves, at)
        if kind == "auto":
            return Typed("auto", _cased(draw, "auto"), moves, at)
        # --- slips: none changes the match -------------------------------------------
        if kind == "bad number":
            wrong = draw(
                st.sampled_from(
                    [
                        "0",
                        str(len(menu) + 1),
                        str(len(menu) + draw(st.integers(2, 99))),
                        "-1",
                        f"-{len(menu)}",
                        "1.5",
                        "+1",
                        "1,0",
                        "9" * 50,
                    ]
                ),
                label="wrong number",
            )
            numbers = "1" if len(menu) == 1 else f"1 to {len(menu)}"
            return slip(
                draw(pads()) + wrong + draw(pads()), f"is not a move number: choose {numbers};"
            )
        if kind == "not held" and not cut:
            held = draw(st.sampled_from([c for c in DECK if c not in hand]), label="card")
            near = draw(st.lists(st.sampled_from(state.table or DECK), max_size=2, unique=True))
            line = _play_text(draw, held, tuple(c for c in near if c != held))
            return slip(line, f"{held} is not in your hand;")
        if kind == "bad capture" and not cut and hand:
            held = draw(st.sampled_from(hand), label="card")
            others = [c for c in DECK if c != held]
            taken = tuple(
                draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
            )
            line = _play_text(draw, held, taken)
            guessed = next((m for m in legal if _same_play(m, held, taken)), None)
            return slip(line) if guessed is None else plays(line, guessed)  # a lucky guess
        if kind == "ambiguous" and not cut:
            several = [c for c in hand if len(_moves_of(legal, c)) > 1]
            if several:
                held = draw(st.sampled_from(several), label="card")
                # "if it has several, you are told which to choose from"
                return slip(_card_text(draw, held), *map(str, _moves_of(legal, held)))
        if kind == "wrong phase":
            if cut:
                held = draw(st.sampled_from(DECK), label="card")
                return slip(_play_text(draw, held, ()))
            word = _cased(draw, draw(st.sampled_from(["keep", "expose"])))
            if not state.rules.cut:  # a profile that never cuts says so
                never = f"the {state.rules.name} profile deals without a cut: there is nothing"
                return slip(word, never + " to keep or expose; play a card;")
            return slip(word, "you can keep or expose only at the cut; now play a card;")
        if kind == "control":
            base = draw(st.sampled_from(["1", "keep", "expose", "QH", "help", "undo", "quit", ""]))
            where = draw(st.integers(0, len(base)), label="where")
            control = draw(st.sampled_from(CONTROLS), label="control")
            return slip(base[:where] + control + base[where:])
        if kind == "long":
            return slip(draw(st.sampled_from(LONG), label="long line"))
        if kind == "lone x":
            return slip(draw(st.sampled_from(["x", " x ", "X", "x x", "\u00d7"])))
        if kind == "shuffle":
            every = " ".join(map(str, DECK))
            line = draw(st.sampled_from(["shuffle", "SHUFFLE", f"shuffle {every}"]))
            return slip(line, "the shuffle is drawn for you")
        if kind == "rank alone":
            rank = draw(st.sampled_from("AQJKaqjk"))
            return slip(draw(pads()) + rank + draw(pads()), f"{rank!r} is not a whole card")
        if kind == "not utf8":
            # Bytes that are not UTF-8, as the command reads them (surrogateescape). This
            # input is a pipe, where nobody can type the line again: the command ends
            # (issue 10: "undecodable streams get a one-line error and exit 1"; at a
            # terminal it is a slip, tests/test_cli_encodings.py).
            bad = draw(st.sampled_from(["\udcff", "\udce9", "\udc80"]))
            self.ended = f"unreadable (byte 0x{ord(bad) - 0xDC00:02x})"
            line = draw(st.sampled_from(["", "QH", "caf", "1"])) + bad
            return Typed("unreadable", line, moves, at)
        if kind == "misspelt":
            line = draw(st.sampled_from(MISSPELT + TRAILED), label="misspelt")
            if line in MISSPELT:
                return slip(line, f"unknown command {line!r}")
            return slip(line, f"{line!r}: ", " takes nothing after it;")
        junk = draw(JUNK, label="junk")
        assert _is_junk(junk), junk
        return slip(junk)

    def save_answer(self) -> str | None:
        game = self.game
        assert game is not None
        answer = self.draw(
            st.sampled_from(["y", "Y", "yes", "n", "", "maybe", "eof", "^C"]), "save"
        )
        if answer in SAVE_ENDINGS:
            self.ended, line = SAVE_ENDINGS[answer]
            return line
        self.ended = "answered"
        return answer + "\n"

    def file_answer(self) -> str | None:
        answer = self.draw(st.sampled_from(["file"] * 4 + ["folder", "no", "eof", "^C"]), "file")
        if answer in SAVE_ENDINGS:
            self.ended, line = SAVE_ENDINGS[answer]
            return line
        if answer == "folder":  # cannot be written: reported, and the name asked again
            self.refused = True
            return self.folder + "\n"
        if answer == "no":
            return "no\n"
        name = self.draw(st.sampled_from(["match.json", "my match é.json", "m"]), "name")
        self.saved = os.path.join(self.folder, name)
        return self.saved + "\n"

    # --- what the last line did ---------------------------------------------------------

    def settle(self, screen: str) -> None:
        """Check what the pending line did, now that the program asks for the next."""
        game = self.game
        assert game is not None
        typed, self.pending = self.pending, None
        if typed is None:
            self.account(self.known)
            return
        said = screen[typed.at :].split("\n")[1:]  # what came after the line's echo
        # Whatever the program wrote is printable: a line of input that comes back in a
        # message comes back escaped.
        assert all(line.isprintable() for line in said), said
        moves, before = game.moves, typed.moves
        if typed.kind == "move":
            assert typed.move is not None
            assert moves[: len(before) + 1] == (*before, typed.move), typed.line
            assert not any(line.endswith(REFUSED) for line in said)
            assert said[0].startswith("you "), said[:1]  # the narration speaks to you
            self.human.append(typed.move)
            self.account(len(before) + 1)
            return
        if typed.kind == "undo" and typed.target is not None:
            self.settle_undo(typed, said)
            return
        # Nothing else plays or takes back a move, and the same turn goes on.
        assert moves == before, typed.line
        self.account(len(moves))
        if typed.kind == "ctrl-c":
            assert said[0].startswith("Interrupted: the match stops here"), said
            assert said[-1] == SAVE
            return
        if typed.kind == "quit":
            assert said == ["You quit the match.", SAVE]
            return
        assert said[-1] == PROMPT, said
        if typed.kind in ("slip", "undo"):
            # One line says why, and the turn goes on.
            assert len(said) == 2, (typed.line, said)
            error = said[0]
            if len(typed.line.rstrip("\r\n")) > LINE_LIMIT:  # refused for its length alone
                assert error == TOO_LONG, error
            else:
                assert error.endswith(REFUSED), error
            assert all(part in error for part in typed.says), (typed.says, error)
            if typed.kind == "undo":
                assert "undo" in error, error
        elif typed.kind == "blank":
            assert said == [PROMPT]
        elif typed.kind == "help":
            assert said == [*help_text(game.state.rules).split("\n"), PROMPT]
        elif typed.kind == "board":
            assert sorted(map(str, shown_menu(screen, game.state))) == sorted(
                map(str, game.legal_moves)
            )
            assert not any(line.endswith(REFUSED) for line in said)
        elif typed.kind == "hint":
            assert len(said) == 2 and said[0].startswith("hint: "), said
            best = said[0].removeprefix("hint: ").split(" (")[0]
            assert parse_move(best, game.state) in game.legal_moves
        elif typed.kind == "auto":
            self.auto = not self.auto
            assert said[0].startswith(f"auto is {'on' if self.auto else 'off'}: "), said
        else:
            raise AssertionError(typed.kind)

    def settle_undo(self, typed: Typed, said: list[str]) -> None:
        game = self.game
        assert game is not None and typed.target is not None
        target, before = typed.target, typed.moves
        taken = before[target:]
        assert game.moves[:target] == before[:target]
        assert self.human and self.human[-1] == taken[0]
        self.human.pop()
        undone = re.fullmatch(r"undone: your (.+?)(?: and (\d+) moves? after it)?", said[0])
        assert undone, said[0]
        assert parse_move(undone.group(1)) == taken[0]
        assert int(undone.group(2) or 0) == len(taken) - 1
        seen = [move.card.symbol for move in taken[1:] if isinstance(move, Play)]
        if seen:
            assert said[1] == f"(back in the bots' hands, and seen: {' '.join(seen)})"
        self.account(target)
        event("undo taken back")

    def account(self, start: int) -> None:
        """The moves from ``start`` on were made without a line: a shuffle, a bot's, or
        (with auto on) the person's only legal move."""
        game = self.game
        assert game is not None
        history = game.history
        for i in range(start, len(game.moves)):
            if history[i].current_player == HUMAN:
                assert self.auto and len(legal_moves(history[i])) == 1, i
                self.human.append(game.moves[i])
        self.known = len(game.moves)

    def check_human_moves(self) -> None:
        game = self.game
        assert game is not None
        assert _human_moves(game) == self.human


class Pipe(io.StringIO):
    """The same lines through a plain pipe (``None``: Ctrl-C)."""

    def __init__(self, lines: list[str | None]) -> None:
        super().__init__()
        self.left = list(lines)

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        line = self.left.pop(0) if self.left else ""
        if line is None:
            raise KeyboardInterrupt
        return line


def run(argv: list[str], stdin: io.StringIO) -> tuple[int, str, str]:
    """``chkobba ARGV`` with ``stdin``: its exit status, output and errors."""
    out, err = io.StringIO(), io.StringIO()
    if isinstance(stdin, Typist):
        stdin.out = out
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, out, err
    try:
        code = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


@st.composite
def arguments(draw: st.DrawFn) -> list[str]:
    """The options of ``chkobba play``: any table, cheap bots, a seed, maybe --auto."""
    players, rules, target = draw(st.sampled_from(TABLES))
    argv = ["play", "--players", str(players), "--rules", rules]
    argv += ["--target", target] if target else []
    argv += ["--opponent", draw(st.sampled_from(BOTS))]
    if players == 4 and draw(st.booleans()):
        argv += ["--partner", draw(st.sampled_from(BOTS))]
    argv += ["--seed", str(draw(st.integers(0, 10**6)))]
    argv += ["--auto"] if draw(st.booleans()) else []
    argv += ["--no-colour"] if draw(st.booleans()) else []
    return argv


def _session(data: st.DataObject, argv: list[str], folder: str) -> tuple[Typist, int, str, str]:
    typist = Typist(data, io.StringIO(), folder)
    typist.auto = "--auto" in argv
    typist.seed = argv[argv.index("--seed") + 1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(play_module, "Game", typist.watch)
        code, out, err = run(argv, typist)
    return typist, code, out, err


def _check_ending(typist: Typist, code: int, out: str, err: str) -> None:
    """The exit status, standard error and the last words, for the way the session ended."""
    assert not RAW_EXCEPTION.search(out + err), out[-2000:] + err
    if typist.ended.startswith("unreadable"):  # a line of the pipe that is not UTF-8
        why = typist.ended.removeprefix("unreadable ")
        assert (code, err) == (1, f"chkobba play: error: standard input is not UTF-8 text {why}\n")
        assert out.endswith(PROMPT + "\n"), out[-200:]  # the echo is not written
        return
    if typist.ended == "ctrl-c":  # a second Ctrl-C quits at once
        assert (code, err) == (130, "chkobba play: interrupted\n")
        return
    assert (code, err) == (0, "")
    if typist.ended == "eof" and SAVE not in out:
        assert out.endswith(PROMPT + "\nEnd of input: goodbye.\n"), out[-200:]
    elif typist.saved is None:
        assert out.endswith("not saved\n"), out[-200:]


def _check_saved(typist: Typist, out: str) -> None:
    """The record saved is the match played, and its person's moves are those typed."""
    game = typist.game
    assert game is not None
    saved = typist.saved
    if typist.refused:  # a folder: reported, and the name asked again
        assert f"could not save {typist.folder!r}: " in out
    if saved is None or typist.ended != "answered":
        assert not os.listdir(typist.folder)
        return
    assert f"saved the record to {saved!r}\n" in out
    record = Record.load(saved)
    assert record.final() == game.state
    assert record.moves == game.moves
    seats = record.players_of_moves()
    assert [move for move, seat in zip(record.moves, seats, strict=True) if seat == HUMAN] == (
        typist.human
    )
    assert record.tags["player0"] == "human"
    assert record.tags["seed"] == typist.seed


#: A session takes a few milliseconds to a few tens (a hint, the longest): the profile's
#: whole count fits the file's budget (``ci``: 100 sessions in about 6 seconds).
EXAMPLES = max(1, settings().max_examples)


@settings(max_examples=EXAMPLES)
@given(data=st.data(), argv=arguments())
def test_a_person_typing_anything_plays_only_the_moves_typed(
    data: st.DataObject, argv: list[str]
) -> None:
    with tempfile.TemporaryDirectory(prefix="stateful-play-") as folder:
        typist, code, out, err = _session(data, argv, folder)
        _check_ending(typist, code, out, err)
        game = typist.game
        assert game is not None
        event(f"ended: {'match over' if game.is_over else typist.ended.split()[0]}")
        event(f"saved: {typist.saved is not None and typist.ended == 'answered'}")
        _check_saved(typist, out)
        # The same lines through a plain pipe: the same transcript, the same record.
        if typist.saved is not None and os.path.exists(typist.saved):
            os.remove(typist.saved)
        again = run(argv, Pipe(typist.lines))
        same = DATED_NAME.sub("DATED", out), DATED_NAME.sub("DATED", again[1])
        assert (again[0], again[2]) == (code, err)
        assert same[0] == same[1]


@pytest.mark.parametrize("typed", ["\x1b]0;pwned\x07\x1b[2J", "a\x0bb\x1b[1A"])
def test_the_echo_of_a_piped_line_moves_no_terminal(typed: str) -> None:
    # With input from a pipe the command echoes each line so that the transcript reads
    # well; the refusal that follows quoted the line escaped, but the echo wrote it as
    # it was (until stop 55): `printf '\033]0;pwned\a\n' | chkobba play` retitled the
    # terminal, and "\x1b[2J" cleared it. Everything else the command writes escapes
    # such text (the stateful test above checks every other line).
    code, out, _ = run(["play", "--seed", "5"], Pipe([typed + "\n"]))
    assert code == 0
    echo = next(line for line in out.split("\n") if line.startswith(PROMPT))
    assert echo.isprintable(), echo
