"""A one-move-deep heuristic bot: take what scores, leave the opponent little.

:class:`GreedyBot` scores every legal play and picks the best (seeded tie-breaks):

``score = gain - threat``

* **gain** — for a capture, the *worth* of every card it puts into the side's pile (the
  played card included), plus ``CHKOBBA`` for a sweep (not with the deal's last card,
  unless the profile counts that one: ``last_card_chkobba``).
  For a card laid without capture, minus ``LAY_FACTOR`` times its worth: a valuable card
  left on the table is out of our control.
* **threat** — what the next player (always an opponent) is expected to take from the
  table we leave: for each capture value ``v`` the best capture a ``v`` would make there
  (worth of the cards, plus ``CHKOBBA`` if it sweeps), weighted by the chance that a hand
  of their size drawn from the cards we cannot see holds a ``v`` (hypergeometric), and
  combined as the expected best of the values they might hold.

A card's *worth* is a rough marginal value in deal points of owning it at the end of the
deal: ``CARD`` for every card (karta, more than 20 cards), plus ``DIAMOND`` for a diamond
(dinari), ``SIX`` / ``SEVEN`` for the bermila, and ``SEVEN_OF_DIAMONDS`` more for the 7♦
(7ayya). At the cut it keeps a card worth at least a diamond's (every diamond, six and
seven) and exposes the rest.

>>> from chkobba.bots import GreedyBot
>>> bot = GreedyBot(seed=0)
>>> bot.worth(card("7D")) > bot.worth(card("7S")) > bot.worth(card("6S")) > bot.worth(card("KS"))
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from chkobba._describe import wrong_type
from chkobba.bots.base import SeededBot, checked_move, view_fault
from chkobba.captures import options_for_value
from chkobba.cards import DECK, Card, Rank, Suit, format_cards
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.rules import Rules
from chkobba.state import HAND_SIZE
from chkobba.views import PlayerView

__all__ = ["WORTH", "GreedyBot", "play_score"]

CARD = 0.06
DIAMOND = 0.12
SIX = 0.12
SEVEN = 0.3
SEVEN_OF_DIAMONDS = 0.8
CHKOBBA = 1.0
LAY_FACTOR = 0.5


def _card_worth(c: Card) -> float:
    value = CARD
    if c.suit is Suit.DIAMONDS:
        value += DIAMOND
    if c.rank is Rank.SIX:
        value += SIX
    if c.rank is Rank.SEVEN:
        value += SEVEN
        if c.suit is Suit.DIAMONDS:
            value += SEVEN_OF_DIAMONDS
    return value


#: Each card's worth, indexed by :attr:`Card.index` (see the module docstring).
WORTH = tuple(_card_worth(c) for c in DECK)


class GreedyBot(SeededBot):
    """The documented one-ply heuristic of this module (see the module docstring).

    It plays the legal move :meth:`evaluate` scores highest:

    >>> import random
    >>> from chkobba.bots import GreedyBot
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view, legal = observe(state, 1), legal_moves(state)
    >>> bot = GreedyBot(seed=0)
    >>> [(str(move), round(bot.evaluate(view, move), 2)) for move in legal]
    [('7C', -0.74), ('KC x AD+4D+5D', 0.3), ('KD x AD+4D+5D', 0.42)]
    >>> print(bot.choose(view, legal))
    KD x AD+4D+5D
    """

    name = "greedy"

    @staticmethod
    def worth(c: Card) -> float:
        """A card's worth in a pile, in rough deal points."""
        if not isinstance(c, Card):
            raise ChkobbaError(wrong_type("GreedyBot.worth", "a Card", c))
        return WORTH[c.index]

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if isinstance(legal[0], Cut):
            keep = view.cut_card is not None and WORTH[view.cut_card.index] >= CARD + DIAMOND
            return Cut(keep=keep)
        scored = [(self._evaluate(view, move), i) for i, move in enumerate(legal)]
        best = max(score for score, _ in scored)
        ties = [i for score, i in scored if score >= best - 1e-9]
        return legal[self.rng.choice(ties)]

    def evaluate(self, view: PlayerView, move: Move) -> float:
        """The heuristic score of one play (higher is better)."""
        if not isinstance(view, PlayerView):
            raise ChkobbaError(wrong_type("GreedyBot.evaluate", "a PlayerView", view))
        if not isinstance(move, (Shuffle, Cut, Play)):
            raise ChkobbaError(wrong_type("GreedyBot.evaluate", "a move", move))
        # As choose does (docs/bots.md): the viewer must be to move, and the move theirs.
        checked_move(self, view, move)
        try:
            return self._evaluate(view, move)
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None

    def _evaluate(self, view: PlayerView, move: Move) -> float:
        if not isinstance(move, Play):
            return 0.0
        last_card = view.stock_size == 0 and sum(view.hand_sizes) == 1
        hand = view.hand_sizes[(view.player + 1) % view.players]  # the next player's
        if hand == 0 and view.stock_size:
            hand = HAND_SIZE  # everyone is out: a fresh hand comes from the stock
        return _play_score(
            view.table, move.card, move.capture, view.unseen(), hand, view.rules, last_card
        )


def play_score(
    table: tuple[Card, ...],
    played: Card,
    capture: frozenset[Card],
    unseen: Iterable[Card],
    next_hand: int,
    rules: Rules,
    last_card: bool = False,
) -> float:
    """GreedyBot's score of playing ``played`` on ``table`` taking ``capture``: the gain
    less the threat (see the module docstring).

    ``unseen`` holds the cards the player cannot see (the played card may be among them:
    it is left out), ``next_hand`` the size of the next player's hand once it is their
    turn; ``last_card``: this is the deal's last play.
    :class:`~chkobba.bots.inference.OpponentModel` scores an opponent's choices with it.
    Arguments of the wrong kind raise :class:`~chkobba.ChkobbaError`.

    Holding 7C and AS before a table of 3S 4H, the opponent about to hold 3 cards:

    >>> from chkobba.bots.greedy import play_score
    >>> table, hand = cards("3S 4H"), cards("7C AS")
    >>> unseen = [c for c in DECK if c not in table + hand]
    >>> round(play_score(table, card("7C"), frozenset(table), unseen, 3, TUNISIAN), 2)  # sweep
    1.48
    >>> round(play_score(table, card("7C"), frozenset(table), unseen, 3, TUNISIAN, True), 2)
    0.48
    >>> round(play_score(table, card("AS"), frozenset(), unseen, 3, TUNISIAN), 2)  # a lay
    -0.61
    """
    try:  # (not checks: the opponent model scores every play the opponent could make)
        if type(table) is not tuple:  # an endless iterable would fill the memory
            raise TypeError("the table must be a tuple")
        if type(next_hand) is not int or type(last_card) is not bool:  # "no" is true
            raise TypeError("a hand size is an int, last_card a bool")
        return _play_score(table, played, capture, unseen, next_hand, rules, last_card)
    except (TypeError, AttributeError, IndexError, KeyError, ValueError, ArithmeticError):
        # ArithmeticError: a next hand larger than the unseen cards has no draws to count.
        raise ChkobbaError(
            f"play_score: cannot score {shown(played)} on {shown(table)} taking "
            f"{_capture_text(capture)} (expected cards, a hand size of at most the unseen "
            "cards, and Rules; last_card is True or False)"
        ) from None


def _capture_text(capture: object) -> str:
    """A capture in deck order where it holds cards (a frozenset's own order follows the
    cards' addresses, so the message would differ from process to process)."""
    try:
        return format_cards(capture, "+")  # type: ignore[arg-type]
    except ChkobbaError:
        return shown(capture)


def _play_score(
    table: tuple[Card, ...],
    played: Card,
    capture: frozenset[Card],
    unseen: Iterable[Card],
    next_hand: int,
    rules: Rules,
    last_card: bool,
) -> float:
    if capture:
        remaining = tuple(c for c in table if c not in capture)
        # fsum is exactly rounded, so the set's (process-dependent) order cannot matter.
        gain = WORTH[played.index] + math.fsum(WORTH[c.index] for c in capture)
        if not remaining and (not last_card or rules.last_card_chkobba):
            gain += CHKOBBA
    else:
        remaining = (*table, played)
        gain = -LAY_FACTOR * WORTH[played.index]
    if last_card or not remaining or next_hand == 0:
        return gain
    # At most the deck, plus one to tell: an endless iterable must not fill the memory.
    pool = [c for c in itertools.islice(unseen, len(DECK) + 1) if c is not played]
    if len(pool) >= len(DECK):
        raise ValueError("more unseen cards than the deck holds")
    return gain - _threat(remaining, pool, next_hand, rules)


def _threat(table: tuple[Card, ...], pool: list[Card], hand: int, rules: Rules) -> float:
    """Expected worth the next player, holding ``hand`` cards drawn from ``pool``, takes
    from ``table`` (see the module docstring)."""
    if not pool:
        return 0.0
    values = rules.card_values
    by_value: dict[int, list[Card]] = {}
    for c in pool:
        by_value.setdefault(values[c.index], []).append(c)
    total = len(pool)
    no_hand = math.comb(total, hand)
    threats: list[tuple[float, float]] = []
    for value, held in sorted(by_value.items()):
        options = options_for_value(table, value, rules)
        if not options:
            continue
        mean_card = sum(WORTH[c.index] for c in held) / len(held)
        sweep = len(table)
        best = max(
            math.fsum(WORTH[c.index] for c in option) + (CHKOBBA if len(option) == sweep else 0.0)
            for option in options
        )
        chance = 1.0 - math.comb(total - len(held), hand) / no_hand
        threats.append((best + mean_card, chance))
    threats.sort(reverse=True)
    expected, missed = 0.0, 1.0
    for best, chance in threats:
        expected += missed * chance * best
        missed *= 1.0 - chance
    return expected
