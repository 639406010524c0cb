"""``chkobba demo``: bots play one whole match and every move is narrated."""

from __future__ import annotations

import time

from chkobba.arena import play_match, subseed
from chkobba.bots.registry import BotSpec
from chkobba.cli.narrate import describe
from chkobba.cli.output import Output
from chkobba.moves import Move, Shuffle
from chkobba.rules import TUNISIAN, Rules
from chkobba.state import State

__all__ = ["run_demo"]


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of the match dealt from ``seed``: apart from the
    deck's stream (``seed * 10 + seat`` was ``seed`` itself at seat 0 of seed 0, and a
    bot drawing the deck's numbers samples hidden cards that resemble the true ones)."""
    return subseed(seed, -1 - seat)


def run_demo(
    out: Output,
    *,
    seed: int,
    players: int,
    specs: list[BotSpec],
    delay: float = 0.0,
    rules: Rules = TUNISIAN,
) -> int:
    """Play and narrate one match; the same seed gives the same narration.

    ``delay`` pauses that many seconds after each move (not after the shuffles), so a
    person can follow the match as it is played. The match's last line says who won.
    """
    bots = [spec.build(seed=bot_seed(seed, seat)) for seat, spec in enumerate(specs)]
    seating = ", ".join(f"player {seat}: {spec}" for seat, spec in enumerate(specs))
    out.line(f"chkobba demo: {players} players ({seating}), seed {seed}", style="bold")
    if rules != TUNISIAN:
        out.line(f"rules: {out.literal(rules.name)}, match to {rules.target}")

    shuffles = 0  # the deal's number, void deals counted (as replay --deal counts)

    def narrate(before: State, move: Move, after: State) -> None:
        nonlocal shuffles
        shuffles += isinstance(move, Shuffle)
        for text in describe(before, move, after, deal=shuffles):
            out.line(text, style=_style(text))
        if delay and not isinstance(move, Shuffle):
            time.sleep(delay)

    play_match(bots, seed=seed, players=players, on_move=narrate, rules=rules)
    return 0


def _style(text: str) -> str | None:
    if "chkobba!" in text:
        return "bold yellow"
    if text.startswith("deal "):
        return "bold cyan"
    if "the match" in text:
        return "bold green"
    return None
