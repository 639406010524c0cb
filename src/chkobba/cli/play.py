"""``chkobba play``: a person plays against bots in the terminal (or through a pipe).

Input is read line by line from standard input, so the command works the same at a
terminal and with piped input; the end of input (Ctrl-D, a closed pipe) ends it cleanly.
"""

from __future__ import annotations

import random
from typing import TextIO

from chkobba.bots.base import Bot
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.registry import BotSpec
from chkobba.cli.narrate import describe, side_name
from chkobba.cli.output import Output
from chkobba.errors import ChkobbaError, shown
from chkobba.game import Game
from chkobba.moves import Move
from chkobba.notation import parse_move
from chkobba.render import render
from chkobba.state import Phase, State
from chkobba.views import observe

__all__ = ["HELP", "run_play"]

HUMAN = 0

HELP = """\
Type the number of a move from the list, or the move itself:
  QH            play the queen of hearts (its one legal move)
  QH x 2D+6S    play it and take 2D and 6S
  keep, expose  at the cut: keep the top card or show it on the table
Cards are rank then suit: ranks A 2 3 4 5 6 7 Q J K, suits S H D C (or the symbols).
Commands: help (this text), hint (what the strongest bot would play), quit."""


class _EndOfInput(Exception):
    """Standard input is exhausted."""


class _Quit(Exception):
    """The player typed quit."""


def _read(out: Output, stdin: TextIO, prompt: str) -> str:
    out.prompt(prompt)
    text = stdin.readline()
    if not text:
        out.line()
        raise _EndOfInput
    if not _is_terminal(stdin):
        out.line(text.rstrip("\n"))  # echo piped input, so the transcript reads well
    return text.strip()


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def run_play(out: Output, stdin: TextIO, *, players: int, opponent: BotSpec, seed: int) -> int:
    """Play one match as player 0; the other seats are ``opponent`` bots."""
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    game = Game(players=players, dealer=dealer, seed=seed)
    bots: dict[int, Bot] = {
        seat: opponent.build(seed=seed * 10 + seat) for seat in range(1, players)
    }
    partner = " (player 2 is your partner)" if players == 4 else ""
    out.line(f"You are player 0{partner}; opponents: {opponent}; seed {seed}.", "bold")
    out.line("Type help for help.")
    try:
        while not game.is_over:
            before = game.state
            if before.phase is Phase.SHUFFLE:
                move: Move = _shuffle(game)
            elif before.current_player == HUMAN:
                move = _ask(out, stdin, game, seed)
            else:
                player: int = before.current_player  # type: ignore[assignment]
                move = bots[player].choose(observe(before, player), game.legal_moves)
                game.play(move)
            for text in describe(before, move, game.state):
                out.line(text, style="yellow" if "chkobba!" in text else None)
    except _EndOfInput:
        out.line("End of input: goodbye.")
        return 0
    except _Quit:
        out.line("You quit the match.")
    if game.is_over and game.winner is not None:
        verdict = "You win" if game.winner == HUMAN % 2 else "You lose"
        out.line(f"{verdict}: {side_name(game.winner, players)} wins.", "bold")
    _offer_save(out, stdin, game, seed)
    return 0


def _shuffle(game: Game) -> Move:
    game.deal()
    return game.moves[-1]


def _ask(out: Output, stdin: TextIO, game: Game, seed: int) -> Move:
    state = game.state
    legal = game.legal_moves
    out.line()
    for text in render(observe(state, HUMAN)).splitlines():
        out.line(text)
    for number, move in enumerate(legal, start=1):
        out.line(f"  {number}. {move}")
    while True:
        text = _read(out, stdin, "your move> ")
        command = text.lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            raise _Quit
        if command in ("help", "?", "h"):
            out.line(HELP)
            continue
        if command == "hint":
            bot = ISMCTSBot(seed=seed + len(game.moves))
            out.line(f"hint: {bot.choose(observe(state, HUMAN), legal)}")
            continue
        try:
            move = _choice(text, legal, state)
        except ChkobbaError as error:
            out.line(f"{error} (type help for help)", style="red")
            continue
        game.play(move)
        return move


def _choice(text: str, legal: tuple[Move, ...], state: State) -> Move:
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise ChkobbaError(f"{text} is not a move number: choose 1 to {len(legal)}")
    move = parse_move(text, state)
    if move not in legal:
        raise ChkobbaError(f"{text!r} is not legal here")
    return move


def _offer_save(out: Output, stdin: TextIO, game: Game, seed: int) -> None:
    default = f"chkobba-{seed}.json"
    try:
        answer = _read(out, stdin, "Save the match as a record? [y/N] ").lower()
        if answer not in ("y", "yes"):
            return
        path = _read(out, stdin, f"File name [{default}]: ") or default
    except _EndOfInput:
        return
    try:
        game.record(tags={"player0": "human"}).save(path)
    except OSError as error:
        out.line(f"could not save {shown(path, 200)}: {error.strerror or error}", style="red")
        return
    out.line(f"saved the record to {shown(path, 200)}")
