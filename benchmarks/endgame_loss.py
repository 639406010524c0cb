"""How far from exact play bots are in the last round of 2-player deals.

Usage: python benchmarks/endgame_loss.py [--decisions N] [--seed S] [BOT ...]

Once the stock is empty in a 2-player deal nothing is hidden, so the endgame solver
gives every legal move's exact value. Deals are played by GreedyBot up to and through
their last round; at every last-round decision with a real choice, each bot (specs,
default ``ismcts:v1 greedy``) picks a move from its own view and the script adds up how
many deal points its choice gives up against the best move (0 for an exactly best
move). Far cheaper and less noisy than matches, it shows where a search bot's strength
can (and cannot) still come from.
"""

from __future__ import annotations

import argparse
import random
import statistics

from _args import bot_spec, positive

from chkobba import Cut, Phase, apply, legal_moves, new_match, observe, random_shuffle
from chkobba.bots import GreedyBot, make_bot
from chkobba.bots.endgame import move_values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", type=bot_spec, default=["ismcts:v1", "greedy"])
    parser.add_argument("--decisions", type=positive, default=150)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    losses: dict[str, list[float]] = {spec: [] for spec in args.bots}
    decisions = deals = 0
    while decisions < args.decisions:
        deals += 1
        state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
        driver = GreedyBot(seed=deals)
        while state.phase is Phase.PLAY:
            player = state.current_player
            assert player is not None
            legal = legal_moves(state)
            view = observe(state, player)
            if not state.stock and len(legal) > 1:
                values = move_values(state)
                best = max(values.values())
                for spec in args.bots:
                    move = make_bot(spec, deals * 1000 + decisions).choose(view, legal)
                    losses[spec].append(best - values[move])
                decisions += 1
            state = apply(state, driver.choose(view, legal))
    for spec, lost in losses.items():
        print(
            f"{spec}: {len(lost)} last-round decisions over {deals} deals, mean loss"
            f" {statistics.mean(lost):.3f} deal points, {sum(x > 0 for x in lost)} not exactly"
            f" best, {sum(lost):.0f} points lost in all"
        )


if __name__ == "__main__":
    main()
