"""How a points edge per deal turns into matches won: the edge a win-rate goal needs.

Usage: python benchmarks/match_odds.py [--deals N] [--matches M] [--seed S] [--bots A B]

A bot's strength shows in two figures of ``benchmarks/strength.py``: its share of
matches won, and the deal points each side scores on average. This script links them,
so that a goal stated in matches (issue #13: 65% against ISMCTS v1, 90% against
GreedyBot) can be read as an edge in points per deal, which every experiment reports.

It plays ``--deals`` Tunisian 2-player deals between two bot specs (default ``greedy
greedy``, about 5 ms a deal), takes each deal's points for both sides (in both
orientations, so the sample favours neither), and for an edge ``e`` reweights that
sample exponentially (weights ``exp(t * (a - b))``, ``t`` chosen so the mean of
``a - b`` is ``e``: the least distortion of the sample that has that mean). It then plays
``--matches`` matches to 21, drawing deals from the reweighted sample and ending each
with the engine's own :func:`~chkobba.state.match_winner`, and prints the share the
favoured side wins, for a range of edges; then the edge each goal needs, and the
model's prediction for the measured rows of ``docs/strength.md`` (their win rate beside
the one their points per deal predict), which shows how far the model can be trusted.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import math
import random
from collections.abc import Sequence

from _args import bot_spec, positive

from chkobba import Phase, apply, legal_moves, new_match, observe, random_shuffle
from chkobba.bots import make_bot
from chkobba.state import match_winner

#: Measured rows of docs/strength.md (2 players, matches to 21): the match-up, the
#: points per deal of each side, the share of matches the first side won, and how many
#: matches that share comes from.
MEASURED = (
    ("GreedyBot vs RandomBot", 3.05, 1.34, 0.970, 200),
    ("ISMCTS v1 vs GreedyBot", 2.72, 1.92, 0.780, 100),
    ("ExpertBot vs GreedyBot (f4ccce4)", 2.65, 1.93, 0.765, 200),
    ("ExpertBot vs GreedyBot (d2bd018)", 2.66, 1.90, 0.825, 200),
    ("ExpertBot vs ISMCTS v1 (f4ccce4)", 2.36, 2.29, 0.540, 200),
    ("ExpertBot vs ISMCTS v1 (d2bd018)", 2.34, 2.34, 0.490, 200),
    ("ISMCTS 1,400 iterations vs ISMCTS v1", 2.38, 2.30, 0.532, 203),
    ("ExpertBot, whole-deal rollouts, vs ISMCTS v1", 2.21, 2.43, 0.450, 100),
)
GOALS = (0.65, 0.90)
TARGET = 21


def deal_points(specs: Sequence[str], deals: int, seed: int) -> list[tuple[int, int]]:
    """Each deal's points ``(side 0, side 1)``, from ``deals`` deals between two bots."""
    rng = random.Random(seed)
    points: list[tuple[int, int]] = []
    for number in range(deals):
        bots = [
            make_bot(spec, seed=seed * 100_003 + number * 2 + i) for i, spec in enumerate(specs)
        ]
        state = new_match(dealer=number % 2)
        while not state.deal_scores:  # a void deal is dealt again, unscored
            if state.phase is Phase.SHUFFLE:
                state = apply(state, random_shuffle(rng))
                continue
            player = state.current_player
            if player is None:  # never: a deal in play always has a mover
                raise RuntimeError(f"no player to move in phase {state.phase.name}")
            state = apply(state, bots[player].choose(observe(state, player), legal_moves(state)))
        first, second = state.deal_scores[0].points
        points.append((first, second))
    return points


class Model:
    """Matches drawn from a sample of deal points, reweighted to a given mean edge."""

    def __init__(self, points: Sequence[tuple[int, int]]) -> None:
        # Both orientations: the sample is symmetric, its mean edge exactly 0.
        self.points = [*points, *((b, a) for a, b in points)]
        self.edges = [a - b for a, b in self.points]

    def tilt(self, edge: float) -> list[float]:
        """Cumulative weights ``exp(t * (a - b))`` whose mean ``a - b`` is ``edge``."""
        low, high = -5.0, 5.0
        for _ in range(60):  # bisection: the tilted mean grows with t
            t = (low + high) / 2
            if self._mean(t) < edge:
                low = t
            else:
                high = t
        return list(itertools.accumulate(math.exp(t * d) for d in self.edges))

    def _mean(self, t: float) -> float:
        weights = [math.exp(t * d) for d in self.edges]
        return sum(w * d for w, d in zip(weights, self.edges, strict=True)) / sum(weights)

    def win_rate(self, edge: float, matches: int, rng: random.Random) -> float:
        """The share of ``matches`` to 21 won by the side with ``edge`` points per deal."""
        cumulative = self.tilt(edge)
        total, points = cumulative[-1], self.points
        wins = 0
        for _ in range(matches):
            scores = (0, 0)
            winner = None
            while winner is None:
                a, b = points[bisect.bisect(cumulative, rng.random() * total)]
                scores = (scores[0] + a, scores[1] + b)
                winner = match_winner(scores, TARGET)
            wins += winner == 0
        return wins / matches

    def edge_for(self, goal: float, matches: int, rng: random.Random) -> float:
        """The smallest edge (to 0.01 point, at most 3) whose win rate reaches ``goal``."""
        low, high = 0.0, 3.0
        while high - low > 0.01:
            middle = (low + high) / 2
            if self.win_rate(middle, matches, rng) < goal:
                low = middle
            else:
                high = middle
        return high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive, default=4000)
    parser.add_argument("--matches", type=positive, default=40_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--bots", nargs=2, type=bot_spec, default=["greedy", "greedy"], metavar=("A", "B")
    )
    args = parser.parse_args()
    points = deal_points(args.bots, args.deals, args.seed)
    if all(a == b for a, b in points):  # every match drawn from them would stay level
        parser.error(f"--deals {args.deals}: every deal of the sample is level, so no match ends")
    model = Model(points)
    rng = random.Random(args.seed)
    mean_total = sum(a + b for a, b in points) / len(points)
    spread = math.sqrt(sum(d * d for d in model.edges) / len(model.edges))
    print(
        f"{len(points)} deals of {args.bots[0]} vs {args.bots[1]}: {mean_total:.2f} points "
        f"a deal in all, the difference's standard deviation {spread:.2f}"
    )
    print("edge per deal  matches won")
    for edge in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.2, 1.5):
        print(f"{edge:>13.1f}  {model.win_rate(edge, args.matches, rng):.1%}")
    for goal in GOALS:
        print(
            f"{goal:.0%} of matches needs an edge of {model.edge_for(goal, args.matches, rng):.2f}"
        )
    print("measured (docs/strength.md): win rate, and what its points per deal predict")
    for label, first, second, won, games in MEASURED:
        predicted = model.win_rate(first - second, args.matches, rng)
        margin = 1.96 * math.sqrt(won * (1 - won) / games)
        print(
            f"  {label}: {won:.1%} (+-{margin:.1%}, {games} matches) at "
            f"{first - second:+.2f} a deal; predicted {predicted:.1%}"
        )


if __name__ == "__main__":
    main()
