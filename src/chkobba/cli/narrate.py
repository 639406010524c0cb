"""Words for what happens in a match: plays, captures, chkobbas, deal scores, the winner.

Narration only tells what every player at the table sees: a shuffle's order and a kept
cut card stay hidden.

>>> from chkobba.cli.narrate import describe
>>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
>>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
>>> after = apply(state, Cut(keep=False))
>>> print("\\n".join(describe(state, Cut(keep=False), after)))
player 1 cuts and exposes 2♦
table: 2♦ 6♠ A♠ A♣
>>> play = Play(card("QH"), cards("2D 6S"))
>>> print("\\n".join(describe(after, play, apply(after, play))))
player 1 plays Q♥ and takes 2♦ 6♠
"""

from __future__ import annotations

from collections.abc import Iterable

from chkobba.cards import Card
from chkobba.moves import Cut, Move, Play
from chkobba.scoring import DealScore
from chkobba.state import SIDES, Phase, State

__all__ = ["deal_summary", "describe", "side_name", "symbols"]


def symbols(group: Iterable[Card]) -> str:
    """Cards with suit symbols, in deck order: ``2♦ 6♠``."""
    return " ".join(c.symbol for c in sorted(group)) or "(empty)"


def side_name(side: int, players: int) -> str:
    """``player 1``, or ``side 1 (players 1 and 3)`` in a 4-player match."""
    if players == SIDES:
        return f"player {side}"
    return f"side {side} (players {side} and {side + 2})"


def describe(before: State, move: Move, after: State) -> list[str]:
    """The lines that narrate ``move`` from ``before`` to ``after``."""
    if before.phase is Phase.SHUFFLE:
        deal = len(before.deal_scores) + 1
        return [f"deal {deal}: player {before.dealer} deals (scores {_pair(before.scores)})"]
    if isinstance(move, Cut):
        return _cut(before, move, after)
    if isinstance(move, Play):
        return _play(before, move, after)
    return []


def _cut(before: State, move: Cut, after: State) -> list[str]:
    cutter = before.current_player
    if move.keep:
        lines = [f"player {cutter} cuts and keeps the top card"]
    else:
        lines = [f"player {cutter} cuts and exposes {before.stock[0].symbol}"]
    if after.phase is Phase.SHUFFLE:
        lines.append(
            "three cards of one rank on the table: the deal is void, "
            f"player {after.dealer} shuffles again"
        )
    else:
        lines.append("table: " + " ".join(c.symbol for c in after.table))
    return lines


def _play(before: State, move: Play, after: State) -> list[str]:
    player: int = before.current_player  # type: ignore[assignment]
    side = player % SIDES
    if move.capture:
        text = f"player {player} plays {move.card.symbol} and takes {symbols(move.capture)}"
        if after.chkobbas[side] > before.chkobbas[side]:
            text += " - chkobba!"
    else:
        text = f"player {player} plays {move.card.symbol}"
    lines = [text]
    if len(after.deal_scores) > len(before.deal_scores):
        lines.extend(_deal_end(before, move, after))
    elif sum(map(len, after.hands)) > sum(map(len, before.hands)) - 1:
        lines.append(f"new hands are dealt; {len(after.stock)} cards left in the stock")
    return lines


def _deal_end(before: State, move: Play, after: State) -> list[str]:
    left = [c for c in before.table if c not in move.capture]
    if not move.capture:
        left.append(move.card)
    lines = []
    if left and after.last_capturer is not None:
        taker = side_name(after.last_capturer % SIDES, after.players)
        lines.append(f"{taker} takes the last cards: {symbols(left)}")
    elif left:
        lines.append(f"nobody captured: {symbols(left)} go to no side")
    lines.extend(deal_summary(after.deal_scores[-1], len(after.deal_scores), after))
    return lines


def deal_summary(score: DealScore, number: int, after: State) -> list[str]:
    """The score breakdown of a deal and the match totals after it."""
    players = after.players

    def won(side: int | None) -> str:
        return "nobody" if side is None else side_name(side, players)

    lines = [
        f"deal {number} score:",
        f"  cards      {_pair(score.card_counts)}  -> {won(score.cards)}",
        f"  diamonds   {_pair(score.diamond_counts)}  -> {won(score.diamonds)}",
        f"  bermila    sevens {_pair(score.seven_counts)}, sixes {_pair(score.six_counts)}"
        f"  -> {won(score.bermila)}",
        f"  7♦         -> {won(score.seven_of_diamonds)}",
        f"  chkobbas   {_pair(score.chkobbas)}",
        f"  points     {_pair(score.points)}; match {_pair(after.scores)}",
    ]
    if after.phase is Phase.OVER and after.winner is not None:
        lines.append(f"{side_name(after.winner, players)} wins the match {_pair(after.scores)}")
    return lines


def _pair(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)
