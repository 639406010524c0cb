"""A typed bot of one's own, played in the arena, rated, and used to review moves."""

from __future__ import annotations

import random
from collections.abc import Sequence

from typing_extensions import assert_type

from chkobba import Move, Phase, Play, PlayerView
from chkobba.arena import Entrant, MatchResult, TournamentResult, play_match, tournament
from chkobba.bots import Bot, BotSpec, GreedyBot, ISMCTSBot, SeededBot, determinize, make_bot
from chkobba.bots.analysis import MoveValue, rank_moves
from chkobba.bots.endgame import move_values
from chkobba.ratings import Ratings, bradley_terry


class Hoarder:
    """docs/bots.md's bot, typed: the most cards with the lowest card."""

    name = "hoarder"

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if view.phase is Phase.CUT:
            return legal[0]
        value = view.rules.value
        plays = [move for move in legal if isinstance(move, Play)]  # in PLAY, every move
        return max(plays, key=lambda play: (len(play.capture), -value(play.card)))


class FirstMove:
    """A bot may take any sequence and return a narrower type: still a Bot."""

    def choose(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        return legal[0]


class Careful(SeededBot):
    """A seeded bot: SeededBot gives it a seed, an rng, spawn and a repr."""

    name = "careful"

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return self.rng.choice(legal)


class Exact:
    """An evaluator for rank_moves: the solver's exact values, in whole points."""

    def evaluate(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, int]:
        return move_values(determinize(view, random.Random(0)))


def arena() -> Ratings:
    bots: list[Bot] = [Hoarder(), FirstMove(), Careful(seed=1), GreedyBot(seed=2)]
    result = play_match([Hoarder(), "greedy"], seed=1)
    assert_type(result, MatchResult)
    assert_type(result.winner, int)
    entries: list[Entrant] = [*bots, "greedy", BotSpec.parse("ismcts:iterations=20")]
    table = tournament(entries, games=2, seed=1)
    assert_type(table, TournamentResult)
    ratings = table.ratings()
    gap, error = ratings.difference("hoarder", "greedy")
    print(gap, error, ratings.win_probability("hoarder", "greedy"))
    return bradley_terry(["a", "b"], [[0, 3], [1, 0]], prior=0)


def copies() -> None:
    assert_type(GreedyBot(seed=1).spawn(2), GreedyBot)
    assert_type(ISMCTSBot(iterations=50).spawn(3).iterations, int)
    assert_type(Careful(seed=1).spawn(4), Careful)
    assert_type(make_bot("greedy", seed=1), SeededBot)


def specs() -> Bot:
    spec = BotSpec("ismcts", options=[("iterations", 50), ["horizon", 4]])
    BotSpec("ismcts", options=42)  # type: ignore[arg-type]
    return spec.build(1)


def review(view: PlayerView, legal: tuple[Move, ...]) -> MoveValue:
    return rank_moves(view, legal, Exact())[0]
