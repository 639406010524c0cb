"""``chkobba demo``: bots play one whole match and every move is narrated."""

from __future__ import annotations

from chkobba.arena import play_match
from chkobba.bots.registry import BotSpec
from chkobba.cli.narrate import describe, side_name
from chkobba.cli.output import Output
from chkobba.moves import Move
from chkobba.state import State

__all__ = ["run_demo"]


def run_demo(out: Output, *, seed: int, players: int, specs: list[BotSpec]) -> int:
    """Play and narrate one match; the same seed gives the same narration."""
    bots = [spec.build(seed=seed * 10 + seat) for seat, spec in enumerate(specs)]
    seating = ", ".join(f"player {seat}: {spec}" for seat, spec in enumerate(specs))
    out.line(f"chkobba demo: {players} players ({seating}), seed {seed}", style="bold")

    def narrate(before: State, move: Move, after: State) -> None:
        for text in describe(before, move, after):
            out.line(text, style=_style(text))

    result = play_match(bots, seed=seed, players=players, on_move=narrate)
    out.line(
        f"{side_name(result.winner, players)} wins after {result.deals} deals", style="bold green"
    )
    return 0


def _style(text: str) -> str | None:
    if "chkobba!" in text:
        return "bold yellow"
    if text.startswith("deal "):
        return "bold cyan"
    if "wins the match" in text:
        return "bold green"
    return None
