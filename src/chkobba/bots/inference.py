"""What an opponent's plays say about the cards in their hand (2-player matches).

A player who leaves a sweep on the table most likely could not make it, and one who lays
a card down most likely could not capture: with the cards they hold now, the cards they
held earlier in the round are their current hand plus the cards they played since. A
:class:`HandInference` watches a bot's successive views, works out the opponent's play
between them, and keeps, for the current round, the sets of cards the opponent would
probably have used (*suspects*) with the chance they would not have. A sample of the
hidden cards is then weighted by the chances of the suspects in the opponent's sampled
hand, and a searching bot keeps it with that probability (rejection sampling).

Only what both views show is used: the cards that left the bot's own hand and the
piles' growth (a pile lists the played card first). Anything it cannot follow (another
deal, a refill in between, more than one opponent play, a view from elsewhere) starts
afresh with no suspicion.

>>> from chkobba import card, cards
>>> inference = HandInference(sweep=0.1, capture=0.5)
>>> inference.weight(cards("7D 2S 3C"))   # no play seen yet: no suspicion
1.0
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from chkobba.captures import options_for_card
from chkobba.cards import DECK, Card
from chkobba.rules import Rules
from chkobba.state import Phase
from chkobba.views import PlayerView

__all__ = ["HandInference", "Suspicion"]


@attrs.frozen
class Suspicion:
    """Cards the opponent would probably have played had they held them, and the chance
    they would not have (so the weight of a hand holding one of them)."""

    cards: frozenset[Card]
    chance: float


class HandInference:
    """Suspicions about the opponent's hand from their plays this round (see the module).

    ``sweep`` is the chance a player leaves a sweep they could make, ``capture`` the
    chance they lay a card down when another card of theirs would capture.
    """

    def __init__(self, *, sweep: float, capture: float) -> None:
        self.sweep = sweep
        self.capture = capture
        self.view: PlayerView | None = None
        self.suspicions: list[Suspicion] = []

    def observe(self, view: PlayerView) -> None:
        """Take in the bot's new view: the opponent's play since the last one, if any."""
        last, self.view = self.view, view
        play = _opponent_play(last, view) if last is not None else None
        if play is None:
            self.suspicions = []
            return
        faced, played, swept, laid = play
        # A card they played now, and held at every earlier play of the round: where it
        # was suspected, they did not use it, so that suspicion says nothing.
        kept = [s for s in self.suspicions if played not in s.cards]
        rules = view.rules
        if not swept:
            sweepers = frozenset(c for c in DECK if _sweeps(faced, c, rules))
            if sweepers and played not in sweepers:
                kept.append(Suspicion(sweepers, self.sweep))
        if laid:
            capturers = frozenset(
                c for c in DECK if c not in faced and options_for_card(faced, c, rules)
            )
            if capturers:
                kept.append(Suspicion(capturers, self.capture))
        self.suspicions = kept

    def weight(self, hand: Iterable[Card]) -> float:
        """The relative likelihood of the opponent holding ``hand`` now (1: no suspicion)."""
        held = frozenset(hand)
        weight = 1.0
        for suspicion in self.suspicions:
            if not suspicion.cards.isdisjoint(held):
                weight *= suspicion.chance
        return weight


def _sweeps(table: tuple[Card, ...], played: Card, rules: Rules) -> bool:
    """Whether playing ``played`` may take the whole (non-empty) table."""
    everything = frozenset(table)
    return bool(table) and any(
        option == everything for option in options_for_card(table, played, rules)
    )


_Play = tuple[tuple[Card, ...], Card, bool, bool]


def _opponent_play(last: PlayerView, view: PlayerView) -> _Play | None:
    """(the table the opponent faced, the card they played, whether they swept, whether
    they laid it down) between two views of the same seat, or None if not exactly one
    own play and one opponent play of the same round lie between them."""
    me = view.player
    if (
        view.players != 2
        or last.player != me
        or last.phase is not Phase.PLAY
        or view.phase is not Phase.PLAY
        or last.current_player != me
        or view.current_player != me
        or len(last.deal_scores) != len(view.deal_scores)
        or last.stock_size != view.stock_size  # a refill: the old hands are gone
        or len(view.hand) != len(last.hand) - 1
    ):
        return None
    gone = [c for c in last.hand if c not in view.hand]
    other = 1 - me
    mine = view.captured[me][len(last.captured[me]) :]
    theirs = view.captured[other][len(last.captured[other]) :]
    if (
        len(gone) != 1
        or view.captured[me][: len(last.captured[me])] != last.captured[me]
        or view.captured[other][: len(last.captured[other])] != last.captured[other]
    ):
        return None
    # What the opponent faced: the table after the bot's own play.
    faced = tuple(c for c in last.table if c not in mine) if mine else (*last.table, gone[0])
    if theirs:
        return faced, theirs[0], not view.table, False
    if view.table[:-1] != faced:
        return None
    return faced, view.table[-1], False, True
