"""How much do the bots' hand inferences know? Information gain on the opponent's hand.

Usage::

    python benchmarks/inference_gain.py [--opponent SPEC] [--deals N] [--seed S]
                                        [--model T,NOISE ...]

GreedyBot plays seat 0 of 2-player deals against ``--opponent`` (default ``greedy``).
At every decision of seat 0 that follows a play of the opponent in the same round, each
inference (``inference=1``'s suspicions, and the opponent model of ``inference=2`` at
every ``--model`` temperature and noise) weighs every hand the opponent may hold; the
script prints the mean of ``log(P(true hand) / P_uniform(true hand))`` in nats: 0 means
the inference knows nothing, negative that it misleads. For the model it also prints how
often the play the opponent made is the one its score ranks first on the hand they
really held (how well the model predicts this opponent).
"""

from __future__ import annotations

import argparse
import math
import random

from _args import bot_spec, positive

from chkobba import Phase, apply, legal_moves, new_match, observe, random_shuffle
from chkobba.bots import GreedyBot, make_bot
from chkobba.bots.greedy import play_score
from chkobba.bots.inference import (
    HandInference,
    OpponentModel,
    _opponent_move,
    _unseen_by_opponent,
)
from chkobba.bots.ismcts import CAPTURE_DOUBT, MODEL_NOISE, MODEL_TEMPERATURE, SWEEP_DOUBT
from chkobba.captures import options_for_card
from chkobba.state import State
from chkobba.views import PlayerView


def _agrees(last: PlayerView, view: PlayerView, held: tuple[object, ...]) -> bool | None:
    """Whether the opponent's play between two views ranks first by the model's score
    on the hand they held (None: no play to read)."""
    move = _opponent_move(last, view, across_refill=True)
    if move is None:
        return None
    faced, played, capture = move
    unseen = _unseen_by_opponent(last, view)
    scores = [
        play_score(faced, c, option, unseen, len(view.hand), view.rules)
        for c in held
        for option in options_for_card(faced, c, view.rules) or (frozenset(),)  # type: ignore[arg-type]
    ]
    chosen = play_score(faced, played, frozenset(capture), unseen, len(view.hand), view.rules)
    return chosen >= max(scores) - 1e-9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--opponent", type=bot_spec, default="greedy")
    parser.add_argument("--deals", type=positive, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--model",
        nargs="*",
        default=[f"{MODEL_TEMPERATURE},{MODEL_NOISE}", "0.05,0.02", "0.4,0.1"],
        help="temperature,noise pairs",
    )
    args = parser.parse_args()
    if not args.model:
        parser.error("argument --model: expected at least one TEMPERATURE,NOISE pair")
    rng = random.Random(args.seed)
    bots = [GreedyBot(seed=args.seed), make_bot(args.opponent, seed=args.seed + 1)]
    try:
        settings = [tuple(float(x) for x in text.split(",")) for text in args.model]
        models = {
            setting: OpponentModel(temperature=setting[0], noise=setting[1]) for setting in settings
        }
    except (ValueError, IndexError) as error:  # ChkobbaError is a ValueError too
        parser.error(f"argument --model: TEMPERATURE,NOISE pairs of numbers ({error})")
    suspicions = HandInference(sweep=SWEEP_DOUBT, capture=CAPTURE_DOUBT)
    gains: dict[object, list[float]] = {setting: [] for setting in settings}
    gains["inference=1"] = []
    agreed = plays = 0
    for _ in range(args.deals):
        state: State = apply(new_match(), random_shuffle(rng))
        last: PlayerView | None = None
        held_before: tuple[object, ...] = ()
        while state.phase is Phase.CUT or state.phase is Phase.PLAY:
            player = state.mover
            view, legal = observe(state, player), legal_moves(state)
            if player == 0 and state.phase is Phase.PLAY:
                for model in models.values():
                    model.observe(view)
                suspicions.observe(view)
                if last is not None:
                    agrees = _agrees(last, view, held_before)
                    if agrees is not None:
                        agreed += agrees
                        plays += 1
                last = view
                decided = next(iter(models.values())).decisions
                if decided and state.hands[1]:
                    true = tuple(sorted(state.hands[1]))
                    for setting, model in models.items():
                        hands, cumulative = model.posterior(view)
                        share = model.weight(true) / cumulative[-1]
                        gains[setting].append(math.log(share * len(hands)))
                    total = sum(suspicions.weight(hand) for hand in hands)
                    gains["inference=1"].append(
                        math.log(suspicions.weight(true) / total * len(hands))
                    )
            elif player == 1:
                held_before = state.hands[1]
            state = apply(state, bots[player].choose(view, legal))
    print(f"opponent {args.opponent}, {args.deals} deals, seed {args.seed}")
    for name, values in gains.items():
        label = name if isinstance(name, str) else f"inference=2 (T {name[0]}, noise {name[1]})"
        mean = sum(values) / len(values) if values else float("nan")
        print(f"  {label}: {mean:.3f} nats over {len(values)} decisions (min {min(values):.2f})")
    print(f"  the opponent's play ranks first by the model's score: {agreed} of {plays}")


if __name__ == "__main__":
    main()
