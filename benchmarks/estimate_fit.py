"""How much better could the search's horizon estimate be? A least-squares fit, measured.

Usage::

    python benchmarks/estimate_fit.py [--deals N] [--seed S]

ISMCTS rollouts stop after a few moves and score the position reached with
:func:`chkobba.bots.evaluation.deal_estimate`, which reads the piles alone. This script
plays ``N`` deals (default 3,000) with the bots' default rollout policy for fitting and
as many others for testing, takes every position in play, and fits the deal's final
points difference (side 0 minus side 1) on 15 features of the position by least
squares (no intercept: every feature changes sign with the sides). It prints the
outcome's variance, the mean squared error of ``deal_estimate`` alone and of the fit on
the test deals, and the fitted weights. Needs numpy (``pip install numpy``).

``docs/strength.md`` ("Variants of the search") has the figures and what a search scoring its
horizon with the fit won against ISMCTS v1.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from _args import positive

try:
    import numpy as np
except ImportError:  # a one-line hint, not a traceback, for --help too
    raise SystemExit(
        "estimate_fit.py needs numpy: pip install numpy (or -e '.[gymnasium]')"
    ) from None

from chkobba import Card, Phase, Rank, State, Suit, apply, legal_moves, new_match, random_shuffle
from chkobba.bots._policy_rollout import policy_rewards
from chkobba.bots.evaluation import deal_estimate
from chkobba.cards import cards

SEVEN_OF_DIAMONDS = cards("7D")[0]
FEATURES = (
    "pile estimate",
    "7D in a hand",
    "7D on the table, by the mover",
    "sevens in hands",
    "sixes in hands",
    "diamonds in hands",
    "cards in hands",
    "table size, by the mover",
    "sevens on the table, by the mover",
    "diamonds on the table, by the mover",
    "the mover can sweep",
    "leftovers to the last capturer, stock out",
    "table size, by the last capturer",
    "the side to move",
    "the mover can sweep, not the last card",
)


def _count(held: list[Card] | tuple[Card, ...], test: Callable[[Card], bool]) -> int:
    return sum(1 for card in held if test(card))


def features(state: State) -> list[float]:
    """The 15 features of a position in play, each signed for side 0."""
    mover: int = state.current_player  # type: ignore[assignment]
    by_mover = 1 if mover % 2 == 0 else -1
    ours = [c for p, hand in enumerate(state.hands) if p % 2 == 0 for c in hand]
    theirs = [c for p, hand in enumerate(state.hands) if p % 2 == 1 for c in hand]
    values = state.rules.card_values
    table_sum = sum(values[c.index] for c in state.table)
    sweep = int(bool(state.table) and any(values[c.index] == table_sum for c in state.hands[mover]))
    last = state.last_capturer
    by_last = 0 if last is None else (1 if last % 2 == 0 else -1)
    remaining = len(state.stock) + len(ours) + len(theirs)

    def seven(card: Card) -> bool:
        return card.rank is Rank.SEVEN

    def six(card: Card) -> bool:
        return card.rank is Rank.SIX

    def diamond(card: Card) -> bool:
        return card.suit is Suit.DIAMONDS

    return [
        deal_estimate(state.captured, state.chkobbas),
        (SEVEN_OF_DIAMONDS in ours) - (SEVEN_OF_DIAMONDS in theirs),
        by_mover * (SEVEN_OF_DIAMONDS in state.table),
        _count(ours, seven) - _count(theirs, seven),
        _count(ours, six) - _count(theirs, six),
        _count(ours, diamond) - _count(theirs, diamond),
        len(ours) - len(theirs),
        by_mover * len(state.table),
        by_mover * _count(state.table, seven),
        by_mover * _count(state.table, diamond),
        by_mover * sweep,
        by_last * len(state.table) * (not state.stock),
        by_last * len(state.table),
        by_mover,
        by_mover * sweep * (remaining > 1),
    ]


def positions(deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every position in play of ``deals`` default-policy deals, with the deal's result."""
    rng = random.Random(seed)
    rows: list[list[float]] = []
    results: list[float] = []
    for _ in range(deals):
        state = new_match()
        while state.phase is not Phase.PLAY:  # shuffle, cut, and redeal a void deal
            move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
            state = apply(state, move)
        played: list[object] = []
        ended = policy_rewards(state, rng, 0.1, 0, 1.0, played)  # type: ignore[arg-type]
        if ended is None:
            raise RuntimeError("a 2-player deal in play has rewards")
        for move in played:
            rows.append(features(state))
            results.append(ended[0])
            state = apply(state, move)  # type: ignore[arg-type]
    return np.array(rows), np.array(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive, default=3000, help="deals to fit, and to test")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    fit_x, fit_y = positions(args.deals, args.seed)
    test_x, test_y = positions(args.deals, args.seed + 1)
    weights = np.linalg.lstsq(fit_x, fit_y, rcond=None)[0]
    alone = float(np.mean((test_x[:, 0] - test_y) ** 2))
    fitted = float(np.mean((test_x @ weights - test_y) ** 2))
    print(f"{len(fit_y)} positions fitted, {len(test_y)} tested")
    print(f"variance of the result {float(np.var(test_y)):.2f}")
    print(f"squared error: deal_estimate {alone:.2f}, the fit {fitted:.2f}")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"  {weight:+.3f}  {name}")


if __name__ == "__main__":
    main()
