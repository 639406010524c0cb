"""Evaluate OpenSpiel's (Python) ISMCTS against a random player on single deals of Chkobba.

    pip install 'chkobba[openspiel]'
    python examples/openspiel_ismcts.py --deals 10 --simulations 50

ISMCTS plays side 0 in even-numbered deals and side 1 in odd ones (partners share a bot
with 4 players); the others play uniformly at random. The game is ``python_chkobba`` with
``single_deal=True``, so a deal's return is the point difference. OpenSpiel's C++ MCTS
and ISMCTS bots cannot run Python-defined games; this is open_spiel.python's ISMCTSBot.

Deals are played by OpenSpiel's own ``evaluate_bots``, which first calls every bot's
``restart_at(state)``. open_spiel.python's ISMCTSBot does not implement it (``SpielError:
RestartAt(state) not implemented``, with OpenSpiel's own games too), so this script uses
the small subclass below: the bot searches afresh at every step anyway, so restarting
only has to forget the last search.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import chkobba.openspiel  # registers python_chkobba


class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """ISMCTS that ``evaluate_bots`` can restart (the workaround for RestartAt)."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


def play_deal(
    game: pyspiel.Game, bot: ismcts.ISMCTSBot, bot_side: int, rng: np.random.RandomState
) -> float:
    """One deal; returns the bot side's point difference."""
    players = game.num_players()
    bots = [
        bot if seat % 2 == bot_side else pyspiel.make_uniform_random_bot(seat, rng.randint(2**31))
        for seat in range(players)
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    return float(returns[bot_side])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.deals < 1 or args.simulations < 1:
        parser.error("--deals and --simulations must be at least 1")

    game = pyspiel.load_game(
        chkobba.openspiel.GAME_NAME, {"players": args.players, "single_deal": True}
    )
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = RestartableISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng
    )
    start = time.perf_counter()
    margins = [play_deal(game, bot, deal % 2, rng) for deal in range(args.deals)]
    elapsed = time.perf_counter() - start
    wins, losses = sum(m > 0 for m in margins), sum(m < 0 for m in margins)
    print(f"ISMCTS ({args.simulations} simulations/move) vs random, {args.players} players")
    print(f"{args.deals} deals in {elapsed:.1f} s: mean margin {np.mean(margins):+.2f} points")
    print(f"ISMCTS won {wins}, drew {len(margins) - wins - losses}, lost {losses}")


if __name__ == "__main__":
    main()
