"""ISMCTS's default-policy rollout on the compact kernel, returning rewards, not a State.

:func:`chkobba.bots.ismcts.rollout` steps the default policy through
:func:`~chkobba.apply`, building a :class:`~chkobba.State` per move, and the search then
only reads the piles' tallies and the chkobbas (or the deal points, when the deal ended).
:func:`policy_rewards` plays the same policy, with the same probabilities, on card codes
(see :mod:`chkobba._kernel`): the table sorted by value, each side's pile as one tally
int, the capture options read from the kernel's entry for the table's signature.

Internal: ISMCTS calls it for deals in play, of two or three sides; it returns ``None``
for a state not in the play phase, and the caller steps through ``apply`` instead.
``tests/test_policy_rollout.py`` checks that its plays replay through ``apply`` to a
state with the same rewards, and that its candidates and choices are the policy's. (The
two paths draw their random numbers in another order, so the same seed plays other,
equally likely, moves on each.)
"""

from __future__ import annotations

import math
import random
from bisect import insort
from collections.abc import Iterable, Sequence

from chkobba._kernel import (
    PROFILES_KEPT,
    Capture,
    Kernel,
    deal_points,
    kept_with_kernels,
    kernel,
    tally,
)
from chkobba.bots.evaluation import tallies_estimates
from chkobba.bots.greedy import WORTH
from chkobba.moves import Play
from chkobba.state import HAND_SIZE, Phase, State

__all__ = ["capture_score", "lay_score", "policy_rewards", "side_rewards"]

_PLAY = Phase.PLAY


class _Tables:
    """Per kernel, by card code: each card's worth, capture value and tally."""

    __slots__ = ("tally", "value", "worth")

    def __init__(self, k: Kernel) -> None:
        numbers = k.number_of
        self.worth = tuple(WORTH[n] for n in numbers)
        self.value = tuple(k.values[n] for n in numbers)
        self.tally = tuple(tally((card,)) for card in k.card_of)


_TABLES: dict[Kernel, _Tables] = kept_with_kernels({})


def policy_rewards(
    state: State,
    rng: random.Random,
    epsilon: float,
    horizon: int,
    scale: float,
    moves: list[Play] | None = None,
) -> tuple[float, ...] | None:
    """Play the default policy from ``state`` for ``horizon`` moves (0: to the deal's
    end); return each side's reward, divided by ``scale``: :func:`side_rewards` of the
    deal points when the deal ended, else its
    :func:`~chkobba.bots.evaluation.side_estimates` (with two sides: side 0's points
    difference, or :func:`~chkobba.bots.evaluation.deal_estimate`, and its negation).

    ``None`` when ``state`` is not a deal in its play phase. ``moves``, when given a
    list, receives the plays made (a test replays them through ``apply``).
    """
    if state.phase is not _PLAY:
        return None
    k = kernel(state.rules)
    tables = _TABLES.get(k)
    if tables is None:
        if len(_TABLES) >= PROFILES_KEPT:  # bounded like the kernels they are keyed by
            _TABLES.clear()
        tables = _TABLES[k] = _Tables(k)
    code_of_card = k.code_of_card
    hands = [list(map(code_of_card, hand)) for hand in state.hands]
    table = sorted(map(code_of_card, state.table))
    stock = state.stock  # cards: only the refills reached are turned into codes
    piles = state.captured
    sides = len(piles)
    tallies = list(map(tally, piles))
    sizes = list(map(len, piles))
    chkobbas = list(state.chkobbas)
    last: int | None = state.last_capturer
    player: int = state.current_player  # type: ignore[assignment]
    players, cutter = state.players, state.cutter
    steps = horizon if horizon > 0 else -1
    signature = k.signature(table)
    code_bit, tally_of = k.code_bit, tables.tally
    while steps:
        hand = hands[player]
        if not hand:
            if not stock:
                return _final(state, k, tables, table, tallies, sizes, chkobbas, last, scale)
            # Everyone is out of cards: three more each, in playing order; the cutter leads.
            dealt = list(map(code_of_card, stock[: HAND_SIZE * players]))
            stock = stock[HAND_SIZE * players :]
            hands = [dealt[(p - cutter) % players :: players] for p in range(players)]
            player = cutter
            continue
        steps -= 1
        played, capture = _choose(k, tables, hand, table, signature, rng, epsilon)
        if moves is not None:
            taken_cards = frozenset([k.card_of[table[at]] for at in capture or ()])
            moves.append(Play(k.card_of[played], taken_cards))
        hand.remove(played)
        side = player % sides
        if capture is None:
            insort(table, played)
            signature += code_bit[played]
        else:
            taken = [table[at] for at in capture]
            for at in sorted(capture, reverse=True):
                del table[at]
            signature -= sum([code_bit[c] for c in taken])
            tallies[side] += tally_of[played] + sum([tally_of[c] for c in taken])
            sizes[side] += 1 + len(taken)
            last = player
            # A sweep, unless made with the deal's last card (where the profile says so).
            if not table and (stock or any(hands) or state.rules.last_card_chkobba):
                chkobbas[side] += 1
        player = (player + 1) % players
    if not stock and not any(hands):
        return _final(state, k, tables, table, tallies, sizes, chkobbas, last, scale)
    return tuple([e / scale for e in tallies_estimates(tallies, sizes, chkobbas, state.rules)])


def side_rewards(points: Sequence[int], scale: float) -> tuple[float, ...]:
    """Each side's points minus the mean of the others', divided by ``scale`` (two
    sides: side 0's points minus side 1's, and its negation)."""
    total, others = sum(points), len(points) - 1
    return tuple([(p - (total - p) / others) / scale for p in points])


def _choose(
    k: Kernel,
    tables: _Tables,
    hand: list[int],
    table: list[int],
    signature: int,
    rng: random.Random,
    epsilon: float,
) -> tuple[int, tuple[int, ...] | None]:
    """The default policy's play: (card, the table positions it takes, or None to lay it).

    The same choice, with the same probabilities, as ``ismcts._default_move`` over
    ``legal_moves``: a single legal play is played; else with ``epsilon`` chance a uniform
    one; else the best by the policy's score, ties broken by a random hundredth.
    """
    entry = k.cache.get(signature)
    if entry is None:
        entry = k.entry(signature)
    plays = _plays(k, hand, entry[1])
    if len(plays) == 1:
        return plays[0]
    random_ = rng.random
    if random_() < epsilon:
        return plays[rng.randrange(len(plays))]
    worth = tables.worth
    laid_sum = sum([tables.value[c] for c in table])
    best, best_score = plays[0], -math.inf
    for play in plays:
        card, capture = play
        if capture is not None:
            taken = [worth[table[at]] for at in capture]
            score = capture_score(worth[card], taken, len(capture) == len(table))
        else:
            score = lay_score(worth[card], laid_sum + tables.value[card])
        score += random_() * 0.01  # random tie-breaks
        if score > best_score:
            best, best_score = play, score
    return best


def _plays(
    k: Kernel, hand: list[int], captures: tuple[tuple[Capture, ...], ...]
) -> list[tuple[int, tuple[int, ...] | None]]:
    """Every legal play of a hand: (card, the table positions it takes, or None)."""
    plays: list[tuple[int, tuple[int, ...] | None]] = []
    for card in hand:
        options = captures[k.play_key[card]]
        if options:
            plays += [(card, (at,) if at >= 0 else group) for _, at, group in options]
        else:
            plays.append((card, None))
    return plays


def capture_score(card_worth: float, taken: Iterable[float], sweep: bool) -> float:
    """The default policy's score of a capture: above every lay, more for more worth
    taken, and a little more for a sweep."""
    score = 10.0 + card_worth + math.fsum(taken)  # fsum: independent of the order
    return score + 1.0 if sweep else score


def lay_score(card_worth: float, table_sum: int) -> float:
    """The default policy's score of laying a card (``table_sum``: the table's values
    with it): give away little, and avoid a table the next player can sweep."""
    return -card_worth - (0.5 if table_sum <= 10 else 0.0)


def _final(
    state: State,
    k: Kernel,
    tables: _Tables,
    table: list[int],
    tallies: list[int],
    sizes: list[int],
    chkobbas: list[int],
    last: int | None,
    scale: float,
) -> tuple[float, ...]:
    """The rewards of a finished deal: from its real points."""
    side = None if last is None else last % len(tallies)
    if side is not None and table:
        tallies[side] += sum([tables.tally[c] for c in table])
        sizes[side] += len(table)
    return side_rewards(deal_points(tallies, sizes, chkobbas, state.rules, side), scale)
