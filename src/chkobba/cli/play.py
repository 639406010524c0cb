"""``chkobba play``: a person plays against bots in the terminal (or through a pipe).

Input is read line by line from standard input, so the command works the same at a
terminal and with piped input; the end of input (Ctrl-D, Ctrl-Z Enter on Windows, a closed
pipe) ends it cleanly.
Ctrl-C stops the match and offers to save it (a second Ctrl-C quits). The words the
command understands besides moves are in :mod:`chkobba.cli.commands`; saving is
:mod:`chkobba.cli.saving`.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import shutil
from typing import TextIO

from chkobba._describe import cut, one_line
from chkobba.arena import subseed
from chkobba.bots.analysis import points_text, rank_moves
from chkobba.bots.base import Bot
from chkobba.bots.registry import BotSpec
from chkobba.cards import Rank, card
from chkobba.cli.commands import HELP, capture_example, command_of, help_text
from chkobba.cli.demo import bot_seed
from chkobba.cli.narrate import counted, describe
from chkobba.cli.output import Output, encoding_name, is_terminal
from chkobba.cli.reading import (
    LINE_LIMIT,
    EndlessLine,
    UnreadableInput,
    can_edit,
    edited_line,
    read_line,
    without_mark,
)
from chkobba.cli.saving import default_name, offer_save
from chkobba.errors import ChkobbaError, NotationError, shown
from chkobba.game import Game
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.notation import parse_move
from chkobba.render import render
from chkobba.rules import TUNISIAN, Rules
from chkobba.state import Phase, State
from chkobba.views import observe

__all__ = ["HELP", "HUMAN", "menu", "points", "run_play"]

#: The person's seat.
HUMAN = 0
_PARTNERSHIP = 4
# The most digits of a move number worth reading (a menu lists a few dozen moves).
_NUMBER_DIGITS = 9
_RANKS = frozenset(rank.value for rank in Rank)
_HINTED = 3  # moves the hint shows
_ECHOED = 80  # the characters of a line too long that the transcript echoes
_POINTS_MEAN = "your side's expected deal points minus the opponents'"
# With three sides each for himself, the search's value is against the other two's mean.
_POINTS_MEAN_3 = "your side's expected deal points minus the mean of the other sides'"


#: A value in expected deal points with its unit (the analysis module's formatter).
points = points_text


class _EndOfInput(Exception):
    """Standard input is exhausted."""


class _Quit(Exception):
    """The player typed quit."""


def menu(legal: tuple[Move, ...]) -> list[tuple[Move, str]]:
    """The legal moves as the menu lists them: in the hand's order (by card, then by
    capture), with suit symbols, as the board shows cards.

    >>> from chkobba import Play, card, cards
    >>> from chkobba.cli.play import menu
    >>> [text for _, text in menu((Play(card("QH"), cards("2D 6S")), Play(card("AS"))))]
    ['A♠', 'Q♥ x 2♦+6♠']
    """

    def key(move: Move) -> tuple[object, ...]:
        if isinstance(move, Play):
            return (1, move.card, sorted(move.capture))
        return (0, 0 if isinstance(move, Cut) and move.keep else 1)

    return [(move, move_label(move)) for move in sorted(legal, key=key)]


# Shared with chkobba.cli.analyse (not in __all__).
def move_label(move: Move) -> str:
    """A move as the menu writes it, with suit symbols: ``Q♥ x 2♦+6♠``."""
    if isinstance(move, Play):
        taken = "+".join(c.symbol for c in sorted(move.capture))
        return f"{move.card.symbol} x {taken}" if taken else move.card.symbol
    return str(move)


class _Match:
    """One match of ``chkobba play``: the game, the bots, and the person's input."""

    def __init__(
        self,
        out: Output,
        stdin: TextIO,
        *,
        players: int,
        specs: dict[int, BotSpec],
        seed: int,
        auto: bool,
        rules: Rules = TUNISIAN,
        show_seed: bool = True,
    ) -> None:
        self.out = out
        self.stdin = stdin
        self.seed = seed
        self.show_seed = show_seed
        self.auto = auto
        self.specs = specs
        # A match is dated by its start, as a chess game's record is (PGN's Date).
        self.started = datetime.date.today()
        dealer = _first_dealer(seed, players)
        self.game = Game(players=players, dealer=dealer, seed=seed, rules=rules)
        self.bots: dict[int, Bot] = {
            seat: spec.build(seed=bot_seed(seed, seat)) for seat, spec in specs.items()
        }

    # --- input --------------------------------------------------------------------------

    def read(self, prompt: str) -> str:
        """One line of input, stripped; raises ``_EndOfInput`` at its end. A line that is
        not text in standard input's encoding (its bad bytes read as surrogates), or
        longer than any move, is refused, naming why, and asked again; from a pipe or a
        file, where nobody can type it again, a line that is not such text ends the
        command (:class:`UnreadableInput`). A byte-order mark before it (a file saved by
        Notepad, piped in) is no part of it."""
        while True:
            text, too_long = self._line(prompt)
            if not text:
                self.out.line()
                raise _EndOfInput
            text = without_mark(text)
            bad = next((c for c in text if "\udc80" <= c <= "\udcff"), None)
            # What the refusal says the line is not: "UTF-8 text (byte 0xff)".
            unread = (
                f"{encoding_name(self.stdin)} text (byte 0x{ord(bad) - 0xDC00:02x})" if bad else ""
            )
            typed = is_terminal(self.stdin)
            if bad and not typed:
                # A program's input, not a person's typing: nobody is there to type the
                # line again, so the stream is unreadable and the command ends (exit 1).
                self.out.line()
                raise UnreadableInput(f"standard input is not {unread}")
            if not typed:  # echo piped input, so the transcript reads well
                # Escaped, as every message quotes text: a terminal's escape code typed
                # into the pipe must not reach the terminal that shows the output.
                echo = text.rstrip("\r\n").encode("utf-8", "replace").decode("utf-8")
                self.out.line(one_line(echo if not too_long else echo[:_ECHOED] + "…"))
            if too_long:
                self.out.line(
                    f"that line is longer than {LINE_LIMIT:,} characters, more than any "
                    "move: type it again",
                    style="red",
                )
            elif not bad:
                return text.strip()
            else:
                self.out.line(f"that line is not {unread}: type it again", style="red")

    def _line(self, prompt: str) -> tuple[str, bool]:
        """The next line after ``prompt``, with its end, and whether it was too long; at
        the process's own terminal, read by ``input`` with its line editing."""
        if not can_edit(self.stdin, self.out.stream):
            self.out.prompt(prompt)
            try:
                return read_line(self.stdin)
            except EndlessLine:  # the command ends: its message on a line of its own
                self.out.line()
                raise
        return edited_line(self.out.writable(prompt)), False

    def ask(self, prompt: str) -> str:
        """Like :meth:`read`, for the save questions (``EOFError`` at the end of input)."""
        try:
            return self.read(prompt)
        except _EndOfInput:
            raise EOFError from None
        except KeyboardInterrupt:  # Ctrl-C ends the command: its message on a line of its own
            self.out.line()
            raise

    # --- the match ----------------------------------------------------------------------

    def introduce(self) -> None:
        players = self.game.state.players
        seats = [f"player {seat}: {spec}" for seat, spec in self.specs.items()]
        if players == _PARTNERSHIP:
            partner = HUMAN + 2
            seats[partner - 1] += " (your partner)"
        seed = f"; seed {self.seed}" if self.show_seed else ""
        self.out.line(f"You are player {HUMAN}; {', '.join(seats)}{seed}.", "bold")
        self.out.line("Type help for help.")

    def play(self) -> None:
        """Play until the match ends; ``_Quit``, ``_EndOfInput`` or Ctrl-C stop it."""
        game = self.game
        while not game.is_over:
            before = game.state
            if before.is_chance:
                game.deal()
            elif before.mover == HUMAN:
                if not self.turn():
                    continue  # undone: the board is shown again
            else:
                self.bot_move(before)
            deal = sum(isinstance(move, Shuffle) for move in game.moves)  # voids counted
            for text in describe(before, game.moves[-1], game.state, you=HUMAN, deal=deal):
                self.out.line(text, style=_style(text))

    def bot_move(self, before: State) -> None:
        player = before.mover
        thinking = is_terminal(self.out.stream)
        if thinking:  # a search bot takes a moment: say so, then wipe the line
            # Cut to the terminal's width: a line that wraps is wiped on its last row only.
            columns = shutil.get_terminal_size().columns
            said = _fitted(
                self.out, f"player {player} ({self.specs[player]}) is thinking…", columns - 1
            )
            self.out.prompt(said)
        try:
            move = self.bots[player].choose(observe(before, player), self.game.legal_moves)
        finally:
            if thinking:
                self.out.prompt(self._wipe(said))
        self.game.play(move)

    def _wipe(self, said: str) -> str:
        """What takes ``said`` off its line: the terminal's erase code in colour, spaces
        over it where colour is off or the terminal is dumb (no escape code then)."""
        if self.out.rich is not None and os.environ.get("TERM") != "dumb":
            return "\r\033[K"
        return "\r" + " " * len(self.out.writable(said)) + "\r"  # as written: "…" may be "..."

    def turn(self) -> bool:
        """The person's move; False when it was undone instead (nothing was played)."""
        state = self.game.state
        choices = menu(self.game.legal_moves)
        if self.auto and len(choices) == 1:
            self.out.line(f"your only move: {choices[0][1]} (auto is on)")
            self.game.play(choices[0][0])
            return True
        self.show(choices)
        while True:
            text = self.read("your move> ")
            if not text:
                continue
            try:
                outcome = self.command(text, state, choices)
            except ChkobbaError as error:
                self.out.line(f"{_yours(str(error))}; type help for help", style="red")
                continue
            if outcome is not None:
                return outcome

    def command(self, text: str, state: State, choices: list[tuple[Move, str]]) -> bool | None:
        """Carry out ``text``: True when it played a move, False when it undid one."""
        word = command_of(text)
        if word is None:
            self.game.play(_choice(text, choices, state))
            return True
        if word == "quit":
            raise _Quit
        if word == "help":
            self.out.line(help_text(state.rules))
        elif word == "board":
            self.show(choices)
        elif word == "hint":
            self.out.line(f"hint: {self.hint(state)}")
        elif word == "auto":
            self.auto = not self.auto
            done = "played for you" if self.auto else "asked for"
            self.out.line(f"auto is {'on' if self.auto else 'off'}: a forced move is {done}")
        elif word == "undo":
            self.undo()
            return False
        return None

    def hint(self, state: State) -> str:
        """The strongest bot's three best moves with their values (as
        :func:`~chkobba.bots.analysis.hint_text` rates them), written as the menu is."""
        # In the engine's order, not the menu's: tied moves then rank as a review ranks
        # them (rank_moves keeps ties in the order given).
        seed = subseed(self.seed, len(self.game.moves))  # apart from the deck's and bots'
        ranked = rank_moves(observe(state, HUMAN), self.game.legal_moves, seed=seed)[:_HINTED]
        texts = [f"{move_label(item.move)} ({points(item.value)})" for item in ranked]
        meaning = _POINTS_MEAN if state.sides == 2 else _POINTS_MEAN_3
        return ", then ".join(texts) + f" ({meaning})"

    def undo(self) -> None:
        """Take back the person's last move of this deal and every move after it."""
        game = self.game
        history = game.history
        target = None
        for index in range(len(game.moves) - 1, -1, -1):
            if isinstance(game.moves[index], Shuffle):
                break
            if history[index].current_player == HUMAN:
                target = index
                break
        if target is None:
            raise ChkobbaError("there is nothing to undo: you have not moved in this deal")
        # Going back before cards were dealt would let you play again knowing them.
        for index in range(target, len(game.moves)):
            if isinstance(game.moves[index], Cut):
                raise ChkobbaError(
                    "you cannot undo the cut: you have seen the cards it dealt "
                    "(undo goes back to your last move since cards were dealt)"
                )
            before, after = history[index], history[index + 1]
            if sum(map(len, after.hands)) > sum(map(len, before.hands)) - 1:
                raise ChkobbaError(
                    "you cannot undo a move made before the new hands were dealt: you have "
                    "seen your new cards (undo goes back to your last move since cards "
                    "were dealt)"
                )
        taken = [game.undo() for _ in range(len(game.moves) - target)]
        rest = f" and {counted(len(taken) - 1, 'move')} after it" if len(taken) > 1 else ""
        self.out.line(f"undone: your {move_label(taken[-1])}{rest}")
        # A take-back is a practice aid: say plainly what it let the player see.
        seen = [move.card.symbol for move in reversed(taken[:-1]) if isinstance(move, Play)]
        if seen:
            self.out.line(f"(back in the bots' hands, and seen: {' '.join(seen)})")

    def show(self, choices: list[tuple[Move, str]]) -> None:
        self.out.line()
        for text in render(observe(self.game.state, HUMAN)).splitlines():
            self.out.line(text)
        for number, (_, text) in enumerate(choices, start=1):
            self.out.line(f"  {number}. {text}")

    def reveal_seed(self) -> None:
        """Name the seed once its cards are no secret, if it was not named at the start."""
        if not self.show_seed:
            self.out.line(f"The match's seed was {self.seed}: --seed {self.seed} deals it again.")

    def record_tags(self) -> dict[str, str]:
        """What the saved record says about the match: who sat where, the seed, the date."""
        tags = {
            "event": "chkobba play",
            "date": self.started.isoformat(),
            "seed": str(self.seed),
            "profile": self.game.state.rules.name,
            f"player{HUMAN}": "human",
        }
        tags.update({f"player{seat}": str(spec) for seat, spec in self.specs.items()})
        return tags


def run_play(
    out: Output,
    stdin: TextIO,
    *,
    players: int,
    opponent: BotSpec,
    seed: int,
    partner: BotSpec | None = None,
    auto: bool = False,
    rules: Rules = TUNISIAN,
    show_seed: bool = True,
) -> int:
    """Play one match as player 0 against ``opponent`` bots (and with a ``partner`` bot
    at 4 players); at the end, or when the person stops, offer to save it.

    The seed deals every card, so whoever knows it knows the hidden ones: with
    ``show_seed=False`` (a seed the person did not choose) it is shown only once the
    match is over or stopped."""
    specs = {seat: opponent for seat in range(1, players)}
    if players == _PARTNERSHIP:
        specs[HUMAN + 2] = partner or opponent
    match = _Match(
        out,
        stdin,
        players=players,
        specs=specs,
        seed=seed,
        auto=auto,
        rules=rules,
        show_seed=show_seed,
    )
    match.introduce()
    try:
        match.play()
    except _EndOfInput:
        out.line("End of input: goodbye.")
        match.reveal_seed()
        return 0
    except _Quit:
        out.line("You quit the match.")
    except KeyboardInterrupt:
        out.line()
        out.line("Interrupted: the match stops here (Ctrl-C again quits without saving).")
    match.reveal_seed()
    record = match.game.record(tags=match.record_tags())
    offer_save(out, match.ask, record, default_name())
    return 0


def _first_dealer(seed: int, players: int) -> int:
    # The lot is drawn apart from the deck: Game(seed=seed) shuffles from Random(seed),
    # whose first number also drew the lot, so the dealer on the first screen told
    # where the deck's top numbers fell (the last card of the stock a six or better in
    # 80% of matches dealt by player 1, 20% by player 0).
    return random.Random(subseed(seed, _LOT)).randrange(players)


#: The part of the match's seed the lot for the first dealer is drawn from (the bots'
#: are -1 - seat, the hints' the number of moves made).
_LOT = -5


#: A line of the move list pasted whole: ``3. J♣ x 3♠+6♥``.
_MENU_LINE = re.compile(r"(\d{1,3})\.\s+(\S.*)")


def _choice(text: str, choices: list[tuple[Move, str]], state: State) -> Move:
    pasted = _MENU_LINE.fullmatch(text.strip())
    if pasted is not None:
        return _menu_line(text, int(pasted[1]), pasted[2], choices, state)
    # "1." as the menu writes it is move 1.
    digits = text[:-1] if text[-1:] == "." and text[:-1].isdecimal() else text
    if digits.isdigit():
        # isdigit() is also true for "²", which int() refuses, and int() refuses more than
        # 4300 digits: neither is a move number, nor is a number of more than a few digits.
        number = int(digits) if digits.isdecimal() and len(digits) <= _NUMBER_DIGITS else 0
        if 1 <= number <= len(choices):
            return choices[number - 1][0]
        raise _not_a_number(text, choices)
    if any(c.isdigit() for c in text) and all(c.isdigit() or c in "+-.," for c in text):
        raise _not_a_number(text, choices)  # -1, 1.5: a number, but no move's
    if len(text) == 1 and text.upper() in _RANKS:
        raise ChkobbaError(
            f"{shown(text)} is not a whole card: a card is a rank and a suit, "
            f"as in {text.upper()}H or {text.upper()}♥"
        )
    if len(text) == 2:  # "QX" is a card with a wrong suit, not Q captured by nothing
        meant = [word for word in ("keep", "expose") if word.startswith(text.lower())]
        if meant and state.phase is Phase.CUT:  # "ke" read as a king of no suit said so
            raise ChkobbaError(f"{shown(text)} is not a move (did you mean {meant[0]}?)")
        try:
            card(text)
        except NotationError as error:
            raise NotationError(f"{shown(text)} is not a move: {error}") from None
    if text.split()[0].lower() == "shuffle":
        raise ChkobbaError(f"the shuffle is drawn for you, never typed: {_forms(state, choices)}")
    try:
        written = parse_move(text)  # the text's own errors first, then the moment's
    except NotationError as error:
        raise NotationError(_typable(text, str(error), state, choices)) from None
    if isinstance(written, Cut) and not state.rules.cut:
        raise ChkobbaError(
            f"the {state.rules.name} profile deals without a cut: there is nothing to keep "
            "or expose; play a card"
        )
    if isinstance(written, Cut) and state.phase is not Phase.CUT:
        raise ChkobbaError("you can keep or expose only at the cut; now play a card")
    if isinstance(written, Play) and state.phase is Phase.CUT:
        raise ChkobbaError("now is the cut: keep or expose the top card; you play a card after it")
    move = parse_move(text, state)
    if move not in [move for move, _ in choices]:
        raise ChkobbaError(f"{shown(text)} is not legal here")
    return move


def _menu_line(
    text: str, number: int, written: str, choices: list[tuple[Move, str]], state: State
) -> Move:
    """A move list's line typed or pasted whole: its move, when the number and the move
    agree; else what to type instead."""
    if not 1 <= number <= len(choices):
        raise _not_a_number(f"{number}.", choices)
    move, label = choices[number - 1]
    if written.strip() == label:
        return move
    try:
        meant = parse_move(written, state)
    except ChkobbaError:
        meant = None
    if meant == move:
        return move
    raise ChkobbaError(
        f"{shown(text.strip())}: move {number} is {label}; type its number ({number}) or "
        "a move, not both"
    )


# The notation's list of every move's form: it names a shuffle too, which a player never
# types (the program draws it), and keep or expose outside the cut.
_NOTATION_FORMS = re.compile(r"expected a card \(QH\),.*?or shuffle followed by the 40 cards")


def _typable(text: str, message: str, state: State, choices: list[tuple[Move, str]]) -> str:
    """The notation's message about ``text``, its list of every move's form replaced by
    what the player can type now, and its capture example by one the player can make; at
    the cut, where no card is played, its whole reason."""
    for phrase in _SYNTAX_EXAMPLES:
        if phrase in message:
            message = message.replace(
                phrase, phrase.replace(_TUNISIAN_EXAMPLE, _example(state, choices))
            )
    if not _NOTATION_FORMS.search(message):
        return message  # a reason of its own ('ZZ' is not a rank): it says what to fix
    if state.phase is Phase.CUT:
        return f"{shown(text)} is not a move: {_forms(state, choices)}"
    return _NOTATION_FORMS.sub(_forms(state, choices), message)


# The notation writes its capture example whatever the profile (Q=8, the Tunisian value),
# after what the player typed: only these phrases of its reasons are replaced.
_TUNISIAN_EXAMPLE = "QH x 2D+6S"
_SYNTAX_EXAMPLES = (
    f"write a capture as {_TUNISIAN_EXAMPLE}",
    f"write one, as in {_TUNISIAN_EXAMPLE}",
)


def _fitted(out: Output, text: str, width: int) -> str:
    """``text``, cut short so that it takes at most ``width`` columns as ``out`` writes it:
    on an ASCII or Latin-1 terminal "…" is written as three dots, and a line that wraps is
    wiped on its last row only.

    >>> import io
    >>> from chkobba.cli.output import Output
    >>> from chkobba.cli.play import _fitted
    >>> ascii_out = Output(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    >>> ascii_out.writable(_fitted(ascii_out, "player 1 (ismcts) is thinking…", 20))
    'player 1 (ismcts...'
    """
    limit = width
    said = cut(text, limit)
    while limit > 1 and len(out.writable(said)) > width:
        limit -= 1
        said = cut(text, limit)
    return said


def _example(state: State, choices: list[tuple[Move, str]]) -> str:
    """A capture to show as the example: one the player can make now, else one the profile
    allows (never a capture the game would then refuse)."""
    for move, _ in choices:
        if isinstance(move, Play) and len(move.capture) > 1:
            return str(move)
    return capture_example(state.rules)


def _forms(state: State, choices: list[tuple[Move, str]]) -> str:
    """What the player can type now, for a message about text that is no move."""
    numbers = "1" if len(choices) == 1 else f"1 to {len(choices)}"
    if state.phase is Phase.CUT:
        return f"now is the cut: type keep, expose or a move number ({numbers})"
    return f"type a card (QH), a capture ({_example(state, choices)}) or a move number ({numbers})"


def _not_a_number(text: str, choices: list[tuple[Move, str]]) -> ChkobbaError:
    said = text if text.isascii() and len(text) <= _NUMBER_DIGITS else shown(text)
    numbers = "1" if len(choices) == 1 else f"1 to {len(choices)}"
    return ChkobbaError(f"{said} is not a move number: choose {numbers}")


def _yours(message: str) -> str:
    """Errors speak to the person: ``your hand``, not ``player 0's hand``."""
    return message.replace(f"player {HUMAN}'s hand", "your hand")


def _style(text: str) -> str | None:
    if "chkobba!" in text:
        return "yellow"
    if "the match" in text:
        return "bold green"
    return None
