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

>>> from chkobba import cards
>>> from chkobba.bots.inference import HandInference
>>> inference = HandInference(sweep=0.1, capture=0.5)
>>> inference.weight(cards("7D 2S 3C"))   # no play seen yet: no suspicion
1.0
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

import attrs

from chkobba._copying import CopiesApart
from chkobba.bots.base import real_option, require_view, view_fault
from chkobba.bots.greedy import play_score
from chkobba.captures import options_for_card
from chkobba.cards import DECK, Card, cards_set_repr
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import Rules
from chkobba.state import HAND_SIZE, Phase
from chkobba.views import PlayerView

__all__ = ["HandInference", "OpponentModel", "Suspicion"]


@attrs.frozen
class Suspicion:
    """Cards the opponent would probably have played had they held them, and the chance
    they would not have (so the weight of a hand holding one of them).

    Its repr lists the cards in deck order, the same in every process:

    >>> import pickle
    >>> from chkobba.bots.inference import Suspicion
    >>> suspicion = Suspicion(frozenset(cards("5D 5S")), 0.1)
    >>> suspicion
    Suspicion(cards=frozenset(cards('5S 5D')), chance=0.1)
    >>> pickle.loads(pickle.dumps(suspicion)) == suspicion
    True
    """

    cards: frozenset[Card] = attrs.field(repr=cards_set_repr)
    chance: float

    def __reduce__(self) -> tuple[Any, ...]:
        # In deck order: a frozenset of cards pickles in the order of their addresses.
        return (_suspicion, (tuple(sorted(self.cards)), self.chance))


def _suspicion(cards: tuple[Card, ...], chance: float) -> Suspicion:
    """A :class:`Suspicion` from its pickled form."""
    return Suspicion(frozenset(cards), chance)


class HandInference(CopiesApart):
    """Suspicions about the opponent's hand from their plays this round (see the module).

    ``sweep`` is the chance a player leaves a sweep they could make, ``capture`` the
    chance they lay a card down when another card of theirs would capture.

    Player 1 watches player 0 lay 4S on 2H 3C, which any 5 would have swept:

    >>> import random
    >>> from chkobba.bots.inference import HandInference
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(7))), Cut(keep=False))
    >>> inference = HandInference(sweep=0.1, capture=0.5)
    >>> inference.observe(observe(state, 1))
    >>> state = apply(state, parse_move("JC x 3S+6H", state))   # leaves 2H 3C
    >>> state = apply(state, parse_move("4S", state))
    >>> inference.observe(observe(state, 1))
    >>> [round(inference.weight(cards(hand)), 2) for hand in ("5D 7S", "2S 7S", "7S KS")]
    [0.05, 0.5, 1.0]
    """

    def __init__(self, *, sweep: float, capture: float) -> None:
        self.sweep: float = _chance("HandInference: sweep", sweep)
        self.capture: float = _chance("HandInference: capture", capture)
        self.view: PlayerView | None = None
        self.suspicions: list[Suspicion] = []

    def __repr__(self) -> str:
        return (
            f"<HandInference sweep={self.sweep!r} capture={self.capture!r} "
            f"suspicions={len(self.suspicions)}>"
        )

    def observe(self, view: PlayerView) -> None:
        """Take in the bot's new view: the opponent's play since the last one, if any."""
        require_view("HandInference.observe", view)
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
        try:  # (not a check: the search weighs every sample)
            held = frozenset(hand)
        except TypeError:
            raise ChkobbaError(f"HandInference.weight: {shown(hand)} is not a hand") from None
        weight = 1.0
        for suspicion in self.suspicions:
            if not suspicion.cards.isdisjoint(held):
                weight *= suspicion.chance
        return weight


_Play = tuple[tuple[Card, ...], Card, bool, bool]


def _opponent_play(last: PlayerView, view: PlayerView) -> _Play | None:
    """(the table the opponent faced, the card they played, whether they swept, whether
    they laid it down) between two views of the same seat, or None if not exactly one
    own play and one opponent play of the same round lie between them."""
    move = _opponent_move(last, view, across_refill=False)
    if move is None:
        return None
    faced, played, capture = move
    return faced, played, bool(capture) and len(capture) == len(faced), not capture


def _opponent_move(
    last: PlayerView, view: PlayerView, *, across_refill: bool
) -> tuple[tuple[Card, ...], Card, tuple[Card, ...]] | None:
    """(the table the opponent faced, the card they played, the cards it took) between
    two views of the same seat, or None if not exactly one own play and one opponent
    play lie between them. ``across_refill``: also when the bot played the last card of
    a round and the opponent led the next one (their play then came from a fresh hand)."""
    me = view.player
    if (
        view.players != 2
        or last.player != me
        or last.phase is not Phase.PLAY
        or view.phase is not Phase.PLAY
        or last.current_player != me
        or view.current_player != me
        or len(last.deal_scores) != len(view.deal_scores)
    ):
        return None
    if last.stock_size == view.stock_size:  # the same round
        if len(view.hand) != len(last.hand) - 1:
            return None
        gone = [c for c in last.hand if c not in view.hand]
    elif (  # the bot's last card of a round, the refill, the opponent's lead
        across_refill
        and len(last.hand) == 1
        and last.stock_size - view.stock_size == 2 * HAND_SIZE
        and len(view.hand) == HAND_SIZE
        and view.hand_sizes[1 - me] == HAND_SIZE - 1
    ):
        gone = list(last.hand)
    else:  # a refill after the opponent's play: the hand they played from is gone
        return None
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
        return faced, theirs[0], theirs[1:]
    if view.table[:-1] != faced:
        return None
    return faced, view.table[-1], ()


def _unseen_by_opponent(last: PlayerView, view: PlayerView) -> tuple[Card, ...]:
    """What the opponent could not see at their play between two views of the bot (their
    own hand aside, which the bot does not know): what the bot could not see, and the
    bot's hand after its play (the hand it holds now; after a refill those cards were
    unseen already). Deck order, so scores summed over it round alike in every process."""
    hidden = {*last.unseen(), *view.hand}
    return tuple(c for c in DECK if c in hidden)


# exp() of more than this overflows a float: a play that much better than the one made
# counts as infinitely better (a low temperature can get there).
_EXPONENT_LIMIT = 700.0


@attrs.frozen
class _Decision:
    """One observed choice of the opponent: the card they played and, for every card
    they might have held, the model's weight of its plays (relative to the play made:
    that one weighs 1) and their number."""

    played: Card
    mass: dict[Card, float]
    count: dict[Card, int]


class OpponentModel(CopiesApart):
    """The likelihood of the opponent's hand from every choice they made this round.

    The model: a player picks each legal play with a probability proportional to
    ``exp(score / temperature)``, ``score`` being :class:`~chkobba.bots.GreedyBot`'s
    (what the play takes, less what it leaves to the next player), and with chance
    ``noise`` any play uniformly. Given the plays seen this round (the hand each came from
    is the current hand plus the cards played since), :meth:`weight` is the likelihood of
    a current hand and :meth:`posterior` the distribution over every hand the view allows.
    A 2-player view only; a view it cannot follow starts the round's record afresh.

    >>> from chkobba.bots.inference import OpponentModel
    >>> model = OpponentModel(temperature=0.3, noise=0.1)
    >>> model.weight(cards("7D 2S"))   # no play seen yet: every hand alike
    1.0
    """

    def __init__(self, *, temperature: float, noise: float) -> None:
        t = real_option(temperature, 0.0, math.inf)
        if t is None or t == 0:
            raise ChkobbaError(
                f"OpponentModel: temperature must be a number > 0, not {shown(temperature)}"
            )
        self.temperature = t
        self.noise: float = _chance("OpponentModel: noise", noise)
        self.view: PlayerView | None = None
        self.decisions: list[_Decision] = []

    def __repr__(self) -> str:
        return (
            f"<OpponentModel temperature={self.temperature!r} noise={self.noise!r} "
            f"decisions={len(self.decisions)}>"
        )

    def observe(self, view: PlayerView) -> None:
        """Take in the bot's new view: the opponent's play since the last one, if any."""
        require_view("OpponentModel.observe", view)
        last, self.view = self.view, view
        move = None if last is None else _opponent_move(last, view, across_refill=True)
        if last is None or move is None:
            self.decisions = []
            return
        if last.stock_size != view.stock_size:
            self.decisions = []  # a new round: the earlier plays came from another hand
        faced, played, capture = move
        self.decisions.append(self._decision(last, view, faced, played, capture))

    def _decision(
        self,
        last: PlayerView,
        view: PlayerView,
        faced: tuple[Card, ...],
        played: Card,
        capture: tuple[Card, ...],
    ) -> _Decision:
        rules = view.rules
        unseen = _unseen_by_opponent(last, view)
        mine = len(view.hand)  # the bot plays next, with the hand it holds now
        # The public, checked play_score: its check is a try (free when nothing raises),
        # and this runs once per opponent play observed, not per search iteration.
        chosen = play_score(faced, played, frozenset(capture), unseen, mine, rules, False)
        mass: dict[Card, float] = {}
        count: dict[Card, int] = {}
        for candidate in last.unseen():
            options = options_for_card(faced, candidate, rules) or (frozenset(),)
            mass[candidate] = math.fsum(
                math.exp(
                    min(
                        (play_score(faced, candidate, option, unseen, mine, rules, False) - chosen)
                        / self.temperature,
                        _EXPONENT_LIMIT,
                    )
                )
                for option in options
            )
            count[candidate] = len(options)
        return _Decision(played, mass, count)

    def weight(self, hand: Iterable[Card]) -> float:
        """The likelihood of the opponent holding ``hand`` now, up to a constant factor
        (1.0 when no play of theirs was seen this round)."""
        try:  # (not a check: the posterior weighs every possible hand)
            held = set(hand)
        except TypeError:
            raise ChkobbaError(f"OpponentModel.weight: {shown(hand)} is not a hand") from None
        weight = 1.0
        for decision in reversed(self.decisions):  # the latest first: its hand is smallest
            held.add(decision.played)
            mass = math.fsum(decision.mass.get(c, 0.0) for c in held)
            count = sum(decision.count.get(c, 1) for c in held)
            weight *= self.noise / count + (1.0 - self.noise) / mass
        return weight

    def posterior(self, view: PlayerView) -> tuple[list[tuple[Card, ...]], list[float]]:
        """Every hand the opponent may hold in ``view`` (from its unseen cards, in deck
        order) and the cumulative sums of their weights, for ``random.choices``.

        >>> import random
        >>> from chkobba.bots.inference import OpponentModel
        >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
        >>> hands, sums = OpponentModel(temperature=0.3, noise=0.1).posterior(
        ...     observe(state, state.current_player)
        ... )
        >>> len(hands), sums[-1]   # any 3 of the 33 unseen cards, alike before any play
        (5456, 5456.0)
        >>> random.Random(1).choices(hands, cum_weights=sums)[0]
        (card('AH'), card('4S'), card('5H'))
        """
        require_view("OpponentModel.posterior", view)
        if view.players != 2:  # "the opponent" is one seat only with 2 players
            raise ChkobbaError(
                f"OpponentModel.posterior: a 2-player view only, not one of {view.players}"
            )
        try:
            size = view.hand_sizes[1 - view.player]
            hands = list(itertools.combinations(view.unseen(), size))
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None
        return hands, list(itertools.accumulate(map(self.weight, hands)))


def _sweeps(table: tuple[Card, ...], played: Card, rules: Rules) -> bool:
    """Whether playing ``played`` may take the whole (non-empty) table."""
    everything = frozenset(table)
    return bool(table) and any(
        option == everything for option in options_for_card(table, played, rules)
    )


def _chance(name: str, value: object) -> float:
    """``value`` as a float if it is a probability (a bool is not), else a
    :class:`~chkobba.ChkobbaError` naming ``name``."""
    chance = real_option(value, 0.0, 1.0)
    if chance is None:
        raise ChkobbaError(f"{name} must be between 0 and 1, not {shown(value)}")
    return chance
