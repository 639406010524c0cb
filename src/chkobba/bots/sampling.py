"""Determinization: a full :class:`~chkobba.State` consistent with one player's view.

A bot that searches needs whole states, but it may only know its :class:`PlayerView`.
:func:`determinize` deals the cards the viewer cannot see at random — to every other
hand by its size, and the rest to the stock — and copies every public field. The
viewer's own hand (a kept cut card included: it is in the cutter's hand, and only the
cutter sees it) is kept as it is, and in phase ``CUT`` the card the cutter looks at stays
on top of the stock. Every state it returns could be the real one as far as the viewer
knows, and the engine's own ``legal_moves``/``apply`` run on it unchanged.

>>> import random
>>> from chkobba.bots.sampling import determinize
>>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=True))
>>> view = observe(state, 0)
>>> guess = determinize(view, random.Random(1))
>>> guess.hands[0] == state.hands[0] and guess.table == state.table
True
>>> sorted(guess.hands[1] + guess.stock) == sorted(state.hands[1] + state.stock)
True
>>> observe(guess, 0) == view
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chkobba._describe import finite_at_least_zero, wrong_type
from chkobba._shuffle import shuffle
from chkobba.bots.base import require_view, view_fault
from chkobba.cards import Card
from chkobba.errors import ChkobbaError, shown
from chkobba.state import Phase, State, replaced
from chkobba.views import PlayerView, complete_state

__all__ = ["determinize", "determinizer", "weighted_determinizer"]


def determinize(view: PlayerView, rng: random.Random) -> State:
    """A random full state that ``view`` cannot tell apart from the real one.

    Raises :class:`~chkobba.ChkobbaError` for a view whose counts do not add up, and in
    phases ``SHUFFLE`` and ``OVER``, where nothing is hidden and there is nothing to
    decide.

    >>> import random
    >>> from chkobba.bots.sampling import determinize
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view = observe(state, 1)                 # player 0 really holds 6D 6C 7D
    >>> guess = determinize(view, random.Random(1))
    >>> format_cards(guess.hands[0]), guess == determinize(view, random.Random(1))
    ('AC 3C 6S', True)
    >>> determinize(observe(new_match(), 0), random.Random(1))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: determinize: nothing to sample in phase SHUFFLE
    """
    if not isinstance(rng, random.Random):
        raise ChkobbaError(wrong_type("determinize", "a random.Random", rng))
    return determinizer(view)(rng)


def determinizer(view: PlayerView) -> Callable[[random.Random], State]:
    """A function of ``rng`` that draws :func:`determinize` samples of ``view``, with the
    view's checks and public facts worked out once (searching bots draw hundreds).

    ``determinizer(view)(rng)`` is exactly ``determinize(view, rng)``, draws included.

    >>> import random
    >>> from chkobba.bots.sampling import determinize, determinizer
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view = observe(state, 1)
    >>> sample, rng = determinizer(view), random.Random(1)
    >>> [format_cards(sample(rng).hands[0]) for _ in range(3)]   # guesses at player 0's hand
    ['AC 3C 6S', '6C QD QC', '3C JH JC']
    >>> sample(random.Random(1)) == determinize(view, random.Random(1))
    True
    """
    _check_view("determinize", view)
    try:
        return _determinizer(view)
    except ChkobbaError:
        raise
    except Exception as error:  # a hand-built view: name its fault
        raise view_fault(view, error) from None


def _determinizer(view: PlayerView) -> Callable[[random.Random], State]:
    """:func:`determinizer` once its view's seat is checked. The rest of a hand-built
    view is not checked whole: a puzzle position need not be reachable in play."""
    if view.phase is not Phase.PLAY and view.phase is not Phase.CUT:
        raise ChkobbaError(f"determinize: nothing to sample in phase {view.phase.name}")
    unseen = view.unseen()  # deck order, so the sample depends on the seed alone
    top = view.cut_card if view.phase is Phase.CUT else None  # not among the unseen
    hidden = sum(size for p, size in enumerate(view.hand_sizes) if p != view.player)
    expected_stock = view.stock_size - (1 if top is not None else 0)
    if len(view.hand) != view.hand_sizes[view.player] or len(unseen) != hidden + expected_stock:
        raise ChkobbaError(
            f"determinize: the view of player {view.player} is inconsistent: "
            f"{len(unseen)} unseen cards for {hidden} in other hands and "
            f"{view.stock_size} in the stock"
        )
    # Where each other hand's cards come from in the shuffled pool; the rest is the stock.
    shares = []
    position = 0
    for size in view.hand_sizes:
        shares.append(slice(position, position + size))
        position += size if len(shares) - 1 != view.player else 0
    own, start = view.player, position
    public = complete_state(view, ((),) * view.players, ())

    def sample(rng: random.Random) -> State:
        pool = list(unseen)
        shuffle(pool, rng)  # exactly rng.shuffle(pool), faster
        hands = [view.hand if p == own else tuple(pool[share]) for p, share in enumerate(shares)]
        stock = tuple(pool[start:]) if top is None else (top, *pool[start:])
        return replaced(public, hands=tuple(hands), stock=stock)

    return sample


def weighted_determinizer(
    view: PlayerView, hands: list[tuple[Card, ...]], cum_weights: list[float]
) -> Callable[[random.Random], State]:
    """Like :func:`determinizer`, for a 2-player view in phase ``PLAY``, but the
    opponent's hand is one of ``hands`` (each of their possible hands, from the view's
    unseen cards), drawn with the given cumulative weights; the other unseen cards go to
    the stock in a random order. With equal weights the samples are :func:`determinize`'s
    in distribution (not draw for draw).

    >>> import random
    >>> from chkobba.bots.sampling import weighted_determinizer
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view = observe(state, 1)
    >>> hands = [cards("AS 2S 3S"), cards("6D 6C 7D")]     # weights 1 and 3
    >>> sample, rng = weighted_determinizer(view, hands, [1.0, 4.0]), random.Random(1)
    >>> [format_cards(sample(rng).hands[0]) for _ in range(4)]
    ['AS 2S 3S', 'AS 2S 3S', '6D 6C 7D', '6D 6C 7D']
    >>> weighted_determinizer(view, [cards("7C KC KD")], [1.0])   # the viewer's own cards
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: weighted_determinizer: the hands do not fit the view ...
    """
    _check_view("weighted_determinizer", view)
    try:
        return _weighted_determinizer(view, hands, cum_weights)
    except ChkobbaError:
        raise
    except Exception as error:  # a hand-built view: name its fault
        raise view_fault(view, error) from None


def _weighted_determinizer(
    view: PlayerView, hands: list[tuple[Card, ...]], cum_weights: list[float]
) -> Callable[[random.Random], State]:
    """:func:`weighted_determinizer` once its view's seat is checked."""
    if view.phase is not Phase.PLAY or view.players != 2:
        raise ChkobbaError("weighted_determinizer: a 2-player view in phase PLAY only")
    opponent = 1 - view.player
    size = view.hand_sizes[opponent]
    unseen = view.unseen()
    _check_weighted_hands(hands, cum_weights)
    if len(hands) != len(cum_weights):
        raise ChkobbaError(
            f"weighted_determinizer: {len(hands)} hands but {len(cum_weights)} cumulative weights"
        )
    if not hands or not cum_weights[-1] > 0:
        raise ChkobbaError("weighted_determinizer: no hand has a positive weight")
    hidden = frozenset(unseen)
    if len(unseen) != size + view.stock_size or any(
        len(hand) != size or len(set(hand)) != size or not hidden.issuperset(hand) for hand in hands
    ):
        raise ChkobbaError(
            f"weighted_determinizer: the hands do not fit the view of player {view.player}"
            f" ({size} different cards of its {len(unseen)} unseen cards each)"
        )
    public = complete_state(view, ((),) * view.players, ())
    own = view.hand

    def sample(rng: random.Random) -> State:
        (held,) = rng.choices(hands, cum_weights=cum_weights)
        stock = [c for c in unseen if c not in held]
        shuffle(stock, rng)
        both = (own, held) if opponent == 1 else (held, own)
        return replaced(public, hands=both, stock=tuple(stock))

    return sample


def _check_weighted_hands(hands: object, cum_weights: object) -> None:
    """A :class:`~chkobba.ChkobbaError` unless ``hands`` is a list of card tuples and
    ``cum_weights`` a list of finite cumulative (never decreasing) weights."""
    function = "weighted_determinizer"
    if not isinstance(hands, (list, tuple)) or not all(
        isinstance(hand, tuple) and all(isinstance(c, Card) for c in hand) for hand in hands
    ):
        raise ChkobbaError(wrong_type(function, "a list of hands (tuples of cards)", hands))
    if not isinstance(cum_weights, (list, tuple)):
        raise ChkobbaError(wrong_type(function, "a list of cumulative weights", cum_weights))
    previous = 0.0
    for weight in cum_weights:
        if not finite_at_least_zero(weight) or weight < previous:
            raise ChkobbaError(
                f"{function}: cumulative weights are finite and never decrease, "
                f"but {shown(weight)} follows {previous!r}"
            )
        previous = weight


def _check_view(function: str, view: object) -> None:
    """A :class:`~chkobba.ChkobbaError` unless ``view`` is a view whose player has a seat
    (a view built by hand, or changed with ``attrs.evolve``, may name any player)."""
    view = require_view(function, view)
    try:
        seated = len(view.hand_sizes) == view.players and (
            type(view.player) is int and 0 <= view.player < view.players
        )
    except Exception as error:  # a field of the wrong kind
        raise view_fault(view, error) from None
    if not seated:
        raise ChkobbaError(
            f"{function}: the view's player {shown(view.player)} has no seat among "
            f"{shown(view.players)} players with hands {shown(view.hand_sizes)}"
        )
