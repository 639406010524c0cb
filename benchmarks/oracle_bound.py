"""How strong can a search bot get? An upper bound: ISMCTS that sees every card.

Usage::

    python benchmarks/oracle_bound.py [--knows all|hands] [--games N] [--iterations K]
                                      [--seed S] [--opponent SPEC] [--log FILE]

The *oracle* runs ISMCTSBot's search on the true state instead of its determinizations,
which no fair bot can: with ``--knows all`` it knows the other hands and the order of
the stock; with ``--knows hands`` (the default) it knows the other hands, and every
iteration shuffles the stock, at the cut all of it but the cut card (what perfect
inference about the opponents' hands could give at best). Its match win rate against
``--opponent`` (default ``greedy``) bounds what a fair bot of the same search can reach
with better inference: a target above it needs a better search, not better guesses.
Seats alternate; the shuffles come from the seed, so the two seatings of a pair of
matches share their deals.

``--log FILE`` appends one JSON line per match, with the run's settings, and resumes
from the lines of a run with the same settings (``--seed``, ``--iterations``,
``--opponent``, ``--knows``); lines of other runs in the same file are left alone. A log
that cannot serve is refused before the first match, a last line cut short is cut off,
and Ctrl-C ends the run with one line (status 130), as ``strength.py`` does.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from _args import bot_spec, positive
from _runlog import append, interruptible, read

from chkobba import Phase, State, apply, legal_moves, new_match, observe, random_shuffle
from chkobba.arena import wilson_interval
from chkobba.bots import ISMCTSBot, make_bot
from chkobba.bots.ismcts import SearchNode
from chkobba.state import replaced
from chkobba.views import PlayerView


class Oracle(ISMCTSBot):
    """ISMCTS searching the true state instead of samples (not a fair bot); with
    ``stock_known=False`` the stock (at the cut, all of it but the cut card) is shuffled
    in every iteration."""

    name = "oracle"
    truth: State | None = None
    stock_known = True

    def search(self, view: PlayerView) -> SearchNode:
        if self.truth is None:
            raise RuntimeError("the oracle needs the true state")
        root = SearchNode(side=-1)
        deals = len(view.deal_scores)
        truth = self.truth
        # What the oracle may not know is shuffled in every iteration: the stock, and at
        # the cut every card but the cut card, which the cutter sees (knowing the order
        # there would let the oracle choose between two known deals).
        kept = 1 if truth.phase is Phase.CUT else 0
        for _ in range(self.iterations):
            if self.stock_known:
                self._iterate(root, truth, deals)
                continue
            stock = list(truth.stock[kept:])
            self.rng.shuffle(stock)
            self._iterate(root, replaced(truth, stock=(*truth.stock[:kept], *stock)), deals)
        return root


def play(game: int, seed: int, iterations: int, opponent: str, knows: str) -> dict[str, object]:
    """One match; the oracle sits at seat ``game % 2``."""
    rng = random.Random(seed * 100_003 + game // 2)  # a pair of games shares its shuffles
    oracle = Oracle(iterations=iterations, seed=seed * 7 + game)
    oracle.stock_known = knows == "all"
    other = make_bot(opponent, seed=seed * 11 + game)
    seat = game % 2
    state = new_match()
    while state.phase is not Phase.OVER:
        if state.phase is Phase.SHUFFLE:
            state = apply(state, random_shuffle(rng))
            continue
        player: int = state.current_player  # type: ignore[assignment]
        bot = oracle if player == seat else other
        oracle.truth = state
        state = apply(state, bot.choose(observe(state, player), legal_moves(state)))
    return {"game": game, "oracle_won": state.winner == seat, "scores": list(state.scores)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--knows", choices=("all", "hands"), default="hands")
    parser.add_argument("--games", type=positive, default=200)
    parser.add_argument("--iterations", type=positive, default=800)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--opponent", type=bot_spec, default="greedy")
    parser.add_argument("--log", type=Path)
    args = parser.parse_args()
    # A line resumes only a run of the same settings: a log may hold several runs.
    settings = {k: vars(args)[k] for k in ("seed", "iterations", "opponent", "knows")}
    with interruptible(args.log):
        done: dict[int, dict[str, object]] = {}
        # A log that cannot serve is refused here, before any match.
        for match in read(args.log, ("game",)):
            if match and all(match.get(k) == v for k, v in settings.items()):
                done[int(match["game"])] = match
        for game in range(args.games):
            if game not in done:
                done[game] = {**play(game, args.seed, args.iterations, args.opponent, args.knows)}
                done[game].update(settings)
                if args.log is not None:
                    append(args.log, done[game])
                print(_summary(args, [done[g] for g in sorted(done) if g <= game]), flush=True)
        print(_summary(args, [done[g] for g in range(args.games)]))


def _summary(args: argparse.Namespace, played: list[dict[str, object]]) -> str:
    wins = sum(bool(r["oracle_won"]) for r in played)
    low, high = wilson_interval(wins, len(played))
    return (
        f"oracle (knows {args.knows}, {args.iterations} iterations) vs {args.opponent}: "
        f"{wins}/{len(played)} = {wins / len(played):.1%} [95% CI {low:.1%}, {high:.1%}]"
    )


if __name__ == "__main__":
    main()
