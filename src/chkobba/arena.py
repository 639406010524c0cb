"""Matches between bots, and tournaments over many seeded matches.

:func:`play_match` plays one whole match from the shuffle to the winner; the shuffles
come from ``random.Random(seed)`` and the bots' choices from their own seeds, so a seed
and a set of seeded bots always give the same match. A seat may also be given a
built-in bot's spec, as in a tournament (``"greedy"``, ``"ismcts:iterations=100"``): it
is built with a seed derived from the match's seed and the seat.

>>> from chkobba.bots import GreedyBot, RandomBot
>>> from chkobba.arena import play_match, tournament
>>> result = play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=7)
>>> result.winner in (0, 1), max(result.scores) >= 21, result.deals >= 1
(True, True, True)
>>> result == play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=7)
True

:func:`tournament` plays many matches (in worker processes when ``workers > 1``, with the
same results as with one) and reports each bot's win rate with a 95% Wilson confidence
interval and its average points per deal:

>>> table = tournament(["greedy", "random"], games=4, seed=1)
>>> [(bot.name, bot.games) for bot in table.bots]
[('greedy', 4), ('random', 4)]
>>> 0 <= table.bots[0].ci_low <= table.bots[0].win_rate <= table.bots[0].ci_high <= 1
True

Seating: with 2 players, ``bots[0]`` sits at seat 0 and ``bots[1]`` at seat 1. With 4
players the partners are seats 0/2 (side 0) and 1/3 (side 1): give four bots
``[a, b, c, d]`` (a and c partners), or two bots ``[a, b]``, which seats ``a`` at 0 and 2
and ``b`` at 1 and 3 (the same object plays both seats of its side; a spec is built
once per seat, each bot with its own seed).
"""

from __future__ import annotations

import copy
import hashlib
import io
import math
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import random
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from fractions import Fraction
from typing import Any, Literal, TypeAlias

import attrs

from chkobba._compat import fields_of, restore
from chkobba._describe import (
    add_note,
    bot_label,
    bot_name,
    cut,
    finite_at_least_zero,
    integer_count,
    integral,
    not_an_int,
    one_line,
)
from chkobba.bots.base import Bot, among, not_a_bot, refused_choice, spawned
from chkobba.bots.ismcts import inference_refusal
from chkobba.bots.registry import BotSpec, make_bot
from chkobba.engine import apply, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, items_of, shown, shown_path
from chkobba.moves import Move, random_shuffle
from chkobba.ratings import Ratings, bradley_terry
from chkobba.records import Record
from chkobba.rules import PLAYER_COUNTS, TUNISIAN, Rules, not_a_profile
from chkobba.state import Phase, State, new_match, sides_of
from chkobba.views import observe

__all__ = [
    "MATCH_LIMIT",
    "WORKER_LIMIT",
    "BotResult",
    "Entrant",
    "HeadToHead",
    "MatchResult",
    "MatchSummary",
    "TournamentResult",
    "play_match",
    "seat_bots",
    "subseed",
    "tournament",
    "wilson_interval",
]

#: The most matches one tournament plays (every pair's ``games`` added up): its schedule
#: and its result are held in memory. Play more as several tournaments (other seeds).
MATCH_LIMIT = 1_000_000
#: The most worker processes a tournament starts: far more than any machine has cores.
WORKER_LIMIT = 1024


#: What a seat of :func:`play_match` or an entry of :func:`tournament` may be: a bot, or a
#: spec of a built-in bot (text such as ``"greedy"``, or a :class:`BotSpec`) that is built
#: with a seed derived from the match's or tournament's seed. (A tournament re-seeds a
#: bot instance that can ``spawn(seed)`` for every match, else deep-copies it.) A list
#: of mixed entries built before the call is typed with it: ``list[Entrant]``.
Entrant: TypeAlias = str | BotSpec | Bot


@attrs.frozen
class MatchResult:
    """One finished match: the ``winner`` (a side), final ``scores`` per side, ``deals``
    scored (voided deals not counted), and the ``record`` of every move.

    >>> from chkobba.arena import play_match
    >>> result = play_match(["greedy", "random"], seed=3)
    >>> result.winner, result.scores, result.deals
    (0, (21, 4), 7)
    >>> result.record.final().scores == result.scores  # the record replays the match
    True
    """

    winner: int
    scores: tuple[int, ...]
    deals: int
    record: Record


def seat_bots(bots: Sequence[Bot], players: int) -> tuple[Bot, ...]:
    """The bot at each seat: ``players`` bots as given, or two bots as partners at 4.

    >>> from chkobba.arena import seat_bots
    >>> from chkobba.bots import GreedyBot, RandomBot
    >>> seat_bots([GreedyBot(seed=1), RandomBot(seed=2)], 4)
    (GreedyBot(seed=1), RandomBot(seed=2), GreedyBot(seed=1), RandomBot(seed=2))
    >>> seat_bots([GreedyBot(seed=1)], 2)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: a 2-player match needs 2 bots, got 1
    """
    seated = _seats(bots, players)
    for bot in seated:
        problem = not_a_bot(bot)
        if problem is not None:
            raise ChkobbaError(f"{shown(bot)} is not a bot: {problem}")
    return seated


def _seats(entries: object, players: int) -> tuple[Any, ...]:
    """The entry at each seat, once ``players`` and the number of entries are checked."""
    players = integral(players)  # numpy's integers too
    refusal = not_an_int("players", players)
    if refusal is not None:
        raise refusal
    if players not in PLAYER_COUNTS:
        raise ChkobbaError(f"a match has 2, 3 or 4 players, not {shown(players)}")
    seated = items_of(entries, "bots")
    if players == 4 and len(seated) == 2:
        seated = (seated[0], seated[1], seated[0], seated[1])
    if len(seated) != players:
        raise ChkobbaError(
            f"a {players}-player match needs {players} bots"
            + (" (or 2, seated as partners)" if players == 4 else "")
            + f", got {len(seated)}"
        )
    return seated


def _match_bots(
    entries: Sequence[Entrant], players: int, seed: int
) -> tuple[tuple[Bot, ...], dict[str, str]]:
    """The bot at each seat of a match: bots as given, specs built with a seed derived
    from the match ``seed`` and the seat (as :func:`tournament` builds them); and the
    match record's tags, which say so (``seed``, ``player0``, ``player0_seed``...)."""
    makers = [_maker(entry) for entry in _seats(entries, players)]
    if any(isinstance(maker, BotSpec) for maker in makers):
        _check_derivable("play_match", seed)
    try:
        tags = {"seed": str(seed)}
    except ValueError:  # more digits than Python writes: the record goes without it
        tags = {}
    for seat, maker in enumerate(makers):
        tags[f"player{seat}"] = _tag_text(
            str(maker) if isinstance(maker, BotSpec) else bot_name(maker)
        )
        if isinstance(maker, BotSpec):
            tags[f"player{seat}_seed"] = str(subseed(seed, seat))
    bots = tuple(
        maker.build(subseed(seed, seat)) if isinstance(maker, BotSpec) else maker
        for seat, maker in enumerate(makers)
    )
    return bots, tags


def _tag_text(name: str) -> str:
    """``name`` as a record's tag holds it: a lone surrogate, which UTF-8 cannot write
    and so no record holds, as its escape (``\\udc80``)."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _illegal_choice(bot: object, player: int, state: State, move: object) -> IllegalMoveError:
    """The error for a bot's move that is not among the legal ones: the bot, its seat, the
    move in notation and why it is not legal (from the bot's own hand and the public
    table, nothing its seat cannot see)."""
    return IllegalMoveError(refused_choice(f"bot {bot_label(bot)} at seat {player}", state, move))


def _bot_move(bot: Bot, player: int, state: State, number: int) -> Move:
    """The move ``bot`` at seat ``player`` chooses for the match's move ``number``
    (counted from 1), once it is among the legal ones. An error the bot raises goes on,
    its type unchanged, with a note naming the bot, its seat and the move (a tournament
    adds the match)."""
    legal, view = legal_moves(state), observe(state, player)
    try:
        move = bot.choose(view, legal)
    except Exception as error:
        add_note(
            error,
            f"raised by bot {bot_label(bot)} at seat {player}, choosing the match's move "
            f"{number} (phase {state.phase.name})",
        )
        raise
    if not among(move, legal):
        raise _illegal_choice(bot, player, state, move)
    return move


def play_match(
    bots: Sequence[Entrant],
    *,
    seed: int,
    players: int = 2,
    dealer: int | None = None,
    on_move: Callable[[State, Move, State], None] | None = None,
    rules: Rules = TUNISIAN,
) -> MatchResult:
    """Play a whole match between ``bots`` under ``rules``; the shuffles are drawn from
    ``seed``.

    Each of ``bots`` is what :func:`tournament` takes: a bot (anything with
    ``choose(view, legal)``, used as it is) or a built-in bot's spec (``"greedy"``,
    ``"ismcts:iterations=100"``, a :class:`~chkobba.bots.BotSpec`), built for its seat
    with a seed derived from ``seed`` and the seat, so the same ``seed`` gives the same
    match. ``players`` is the match's player count (2, 3 or 4, as ``rules`` allow), one
    bot a seat; at 4 players two bots may sit as partners (``["greedy", "random"]``:
    greedy in seats 0 and 2 against random in seats 1 and 3).
    ``dealer`` is the first dealer (default: drawn by lot from the seed).
    ``on_move`` is called with ``(before, move, after)`` for every move, shuffles
    included (the demo narrates through it). A bot that returns a move not among the
    legal ones raises :class:`~chkobba.IllegalMoveError` (a
    :class:`~chkobba.ChkobbaError`) naming the bot (its ``name``, else its class), its
    seat, the move in notation and why it is not legal; an error the bot raises goes on,
    its type unchanged, with a note naming the bot, its seat and the match's move it was
    choosing. ``seed`` must be an integer, numpy's included (a match is always
    reproducible, unless a bot plays on a time limit, ``seconds``: it plays by the
    machine's speed). The result's record says how to play the match again: its tags are
    the ``seed``, each seat's bot (``player0``: a spec as text, a bot by its ``name``,
    else its class) and, for a bot built from a spec, the seed it was built with
    (``player0_seed``).

    >>> from chkobba.arena import play_match
    >>> result = play_match(["greedy", "random"], seed=7)
    >>> result == play_match(["greedy", "random"], seed=7)
    True
    >>> dict(result.record.tags)  # doctest: +NORMALIZE_WHITESPACE
    {'player0': 'greedy', 'player0_seed': '...', 'player1': 'random',
     'player1_seed': '...', 'seed': '7'}
    """
    seed = _checked_seed("play_match", seed)
    players, dealer = integral(players), integral(dealer)  # numpy's integers too
    _check_callback("play_match: on_move", on_move)
    # The profile's player counts first: with a profile that deals to 3 only, the bots are
    # not what is wrong when ``players`` was left at its default of 2.
    _check_rules(rules, players)
    seated, tags = _match_bots(bots, players, seed)
    for seat, bot in enumerate(seated):
        _check_inference(bot, f"bot {bot_name(bot)} at seat {seat}", players)
    rng = random.Random(seed)
    if dealer is None:
        dealer = rng.randrange(players)
    state = new_match(players, dealer=dealer, rules=rules)
    moves: list[Move] = []
    while not state.is_over:
        move: Move
        if state.phase is Phase.SHUFFLE:
            move = random_shuffle(rng)
        else:
            player: int = state.current_player  # type: ignore[assignment]
            move = _bot_move(seated[player], player, state, len(moves) + 1)
        after = apply(state, move)
        moves.append(move)
        if on_move is not None:
            on_move(state, move, after)
        state = after
    record = Record(players=players, dealer=dealer, rules=rules, moves=tuple(moves), tags=tags)
    return MatchResult(
        winner=state.winner,  # type: ignore[arg-type]
        scores=state.scores,
        deals=len(state.deal_scores),
        record=record,
    )


# --- tournaments -----------------------------------------------------------------------


@attrs.frozen
class MatchSummary:
    """One tournament match: ``entrants`` at each seat (indices into the bot list), the
    winning entrant, the final scores per side and the number of deals; its ``record``
    when the tournament keeps them (``records=True``), tagged with the game number and
    the bot at each seat.

    ``winner`` is an entrant, not a side: in the second match below the bots have swapped
    seats, and side 1 (greedy, entrant 0) won.

    >>> from chkobba.arena import tournament
    >>> table = tournament(["greedy", "random"], games=2, seed=1, records=True)
    >>> [(m.game, m.entrants, m.winner, m.scores, m.deals) for m in table.matches]
    [(0, (0, 1), 0, (21, 7), 7), (1, (1, 0), 0, (7, 24), 7)]
    >>> tags = table.matches[1].record.tags
    >>> tags["game"], tags["player0"], tags["player1"]
    ('1', 'random', 'greedy')
    """

    game: int
    entrants: tuple[int, ...]
    winner: int
    scores: tuple[int, ...]
    deals: int
    record: Record | None = None

    def __getstate__(self) -> dict[str, Any]:
        return fields_of(self)

    def __setstate__(self, fields: dict[str, Any]) -> None:
        restore(self, fields)  # a 0.1.0 pickle has no record: None, as then


@attrs.frozen
class BotResult:
    """One bot's tournament line.

    >>> from chkobba.arena import tournament
    >>> line = tournament(["greedy", "random"], games=2, seed=1).bots[1]
    >>> line.name, line.games, line.wins, line.win_rate
    ('random', 2, 0, 0.0)
    >>> line.ci_low, round(line.ci_high, 3)  # the 95% Wilson interval of its win rate
    (0.0, 0.658)
    >>> line.points, line.deals, line.points_per_deal
    (14, 14, 1.0)
    """

    name: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    points: int
    deals: int
    points_per_deal: float


@attrs.frozen
class HeadToHead:
    """``bot`` against ``opponent``: the matches they played against each other, the
    ``wins`` of ``bot`` and its win rate with a 95% Wilson interval, and the points (the
    final totals of every side each held) and points per deal of each in those matches.

    >>> from chkobba.arena import tournament
    >>> first, second = tournament(["greedy", "random"], games=2, seed=1).head_to_head()
    >>> first.bot, first.opponent, first.games, first.wins
    ('greedy', 'random', 2, 2)
    >>> first.points, first.opponent_points, first.deals, first.opponent_points_per_deal
    (45, 14, 14, 1.0)
    >>> second.bot, second.wins, second.points == first.opponent_points
    ('random', 0, True)
    """

    bot: str
    opponent: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    points: int
    opponent_points: int
    deals: int
    points_per_deal: float
    opponent_points_per_deal: float


@attrs.frozen
class TournamentResult:
    """Per-bot results (in the order the bots were given) and every match, from which
    :meth:`head_to_head` and :meth:`ratings` tell who beats whom.

    >>> from chkobba.arena import tournament
    >>> table = tournament(["greedy", "random", "greedy"], games=2, seed=1)
    >>> [(bot.name, bot.wins) for bot in table.bots]  # a repeated name is numbered
    [('greedy', 3), ('random', 0), ('greedy#2', 3)]
    >>> len(table.matches), len(table.head_to_head())  # 3 pairs; 6 ordered pairs
    (6, 6)
    >>> [(line.name, round(line.rating)) for line in table.ratings().bots]
    [('greedy', 106), ('random', -211), ('greedy#2', 106)]
    """

    players: int
    seed: int
    bots: tuple[BotResult, ...]
    matches: tuple[MatchSummary, ...]
    rules: Rules = TUNISIAN

    def __getstate__(self) -> dict[str, Any]:
        return fields_of(self)

    def __setstate__(self, fields: dict[str, Any]) -> None:
        restore(self, fields)  # a 0.1.0 pickle has no rules: the Tunisian profile, as then

    def head_to_head(self) -> tuple[HeadToHead, ...]:
        """A line for every ordered pair of bots (``bot`` in the order given, then each
        ``opponent`` in that order): the matches between the two only, so a bot's win
        rate against each opponent is not mixed with its others. Summed over its
        opponents, a bot's lines give its games, wins, points and deals in :attr:`bots`."""
        between: dict[frozenset[int], list[MatchSummary]] = {}
        for match in self.matches:  # one pass: a pass per pair is slow with many bots
            between.setdefault(frozenset(match.entrants), []).append(match)
        count = len(self.bots)
        return tuple(
            _head_to_head(self, bot, opponent, between.get(frozenset((bot, opponent)), []))
            for bot in range(count)
            for opponent in range(count)
            if opponent != bot
        )

    def ratings(self, *, prior: float = 1.0) -> Ratings:
        """The bots' Bradley-Terry ratings on the Elo scale (mean 0), fitted by maximum
        likelihood to who won every match, with their standard errors: see
        :mod:`chkobba.ratings` for the model, the ``prior`` (one virtual win and one
        virtual loss per bot against a bot rated 0, so that a bot that won or lost every
        match still has a finite rating; ``prior=0`` for none) and the fit. Every match
        counts once, whatever the seats (with 3 players the first bot of a match holds
        two of them; the pair's next match swaps them)."""
        wins = [[0] * len(self.bots) for _ in self.bots]
        for match in self.matches:
            winner, loser = _winner_and_loser(match)
            wins[winner][loser] += 1
        return bradley_terry([bot.name for bot in self.bots], wins, prior=prior)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (what ``chkobba simulate --json`` prints): the profile by its
        name and its target (what ``chkobba simulate --rules/--target`` choose), the seed,
        every bot's line, every ordered pair's :meth:`head_to_head` line, the
        :meth:`ratings` (with the default prior) and the whole profile as
        :meth:`Rules.to_dict <chkobba.Rules.to_dict>` writes it (a house profile's name
        alone does not say its rules; ``Rules.from_dict`` reads it back)."""
        return {
            "players": self.players,
            "rules": self.rules.name,
            "target": self.rules.target,
            "seed": self.seed,
            "games": len(self.matches),
            "bots": [attrs.asdict(bot) for bot in self.bots],
            "head_to_head": [attrs.asdict(line) for line in self.head_to_head()],
            "ratings": self.ratings().to_dict(),
            "profile": self.rules.to_dict(),
        }


def _head_to_head(
    result: TournamentResult, bot: int, opponent: int, played: list[MatchSummary]
) -> HeadToHead:
    """The line of ``bot`` against ``opponent`` from the matches they ``played``."""
    sides = sides_of(result.players)
    standing = _standing(played, bot, sides)
    opponent_points = sum(_points(match, opponent, sides) for match in played)
    return HeadToHead(
        bot=result.bots[bot].name,
        opponent=result.bots[opponent].name,
        **standing,
        opponent_points=opponent_points,
        opponent_points_per_deal=_per_deal(opponent_points, standing["deals"]),
    )


def _standing(played: list[MatchSummary], entrant: int, sides: int) -> dict[str, Any]:
    """What a bot's line and a head-to-head line share, from the matches ``played``:
    games, wins, win rate with its Wilson interval, points, deals and points per deal."""
    wins = sum(match.winner == entrant for match in played)
    points = sum(_points(match, entrant, sides) for match in played)
    deals = sum(match.deals for match in played)
    low, high = wilson_interval(wins, len(played))
    return {
        "games": len(played),
        "wins": wins,
        "win_rate": wins / len(played) if played else 0.0,
        "ci_low": low,
        "ci_high": high,
        "points": points,
        "deals": deals,
        "points_per_deal": _per_deal(points, deals),
    }


def _per_deal(points: int, deals: int) -> float:
    return points / deals if deals else 0.0


def _points(match: MatchSummary, entrant: int, sides: int) -> int:
    """The final totals of every side ``entrant`` held in ``match``: one side, except
    with 3 players, where the first bot of a match holds two seats, each a side."""
    held = {seat % sides for seat, seated in enumerate(match.entrants) if seated == entrant}
    return sum(match.scores[side] for side in held)


def _winner_and_loser(match: MatchSummary) -> tuple[int, int]:
    """The two entrants of a tournament match, its winner first."""
    others = set(match.entrants) - {match.winner}
    if len(others) != 1 or match.winner not in match.entrants:
        raise ChkobbaError(
            f"match {match.game} is not between two entrants, one of them the winner: "
            f"entrants {shown(match.entrants)}, winner {shown(match.winner)}"
        )
    return match.winner, others.pop()


def _checked_seed(function: str, seed: object, name: str = "seed") -> int:
    """``seed`` as a Python int (numpy's integers too, as the adapters' seeds)."""
    # None would draw fresh randomness: a match or tournament that cannot be replayed.
    number = integer_count(seed)
    if number is None:
        raise ChkobbaError(f"{function}: {name} must be an integer, not {shown(seed)}")
    return number


def _check_derivable(function: str, seed: int) -> None:
    try:
        subseed(seed)
    except ChkobbaError:  # Python will not write an integer of more than ~4300 digits
        raise ChkobbaError(f"{function}: seed {shown(seed)} is too large") from None


def _check_callback(name: str, function: object) -> None:
    # Checked before the first match, not when the first move or match calls it.
    if function is not None and not callable(function):
        raise ChkobbaError(f"{name} must be a function or None, not {shown(function)}")


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default); (0, 1) for no games.

    ``wins`` and ``games`` are integers with ``0 <= wins <= games`` (any integral type,
    numpy's included: what :func:`operator.index` takes, but not ``True``/``False``),
    ``z`` a finite number >= 0 (1.96 for 95%); anything else raises
    :class:`~chkobba.ChkobbaError`. The bounds are Python floats and always hold the
    rate ``wins / games`` (a clean sweep's top is exactly 1, no wins' bottom exactly 0).

    >>> from chkobba.arena import wilson_interval
    >>> low, high = wilson_interval(85, 100)
    >>> round(low, 3), round(high, 3)
    (0.767, 0.907)
    """
    counts = []
    for name, value in (("wins", wins), ("games", games)):
        count = integer_count(value)
        if count is None:
            raise ChkobbaError(f"wilson_interval: {name} must be an integer, not {shown(value)}")
        counts.append(count)
    wins, games = counts
    if games < 0:
        raise ChkobbaError(f"wilson_interval: games must be >= 0, not {shown(games)}")
    if not 0 <= wins <= games:
        raise ChkobbaError(
            f"wilson_interval: wins must be between 0 and games ({shown(games)}), not {shown(wins)}"
        )
    if not finite_at_least_zero(z):
        raise ChkobbaError(f"wilson_interval: z must be a finite number >= 0, not {shown(z)}")
    z = float(z)  # a numpy float would make numpy floats of the bounds
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    try:
        centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
        spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
        spread /= 1 + z * z / games
    except OverflowError:  # more games than a float holds: the same interval in fractions
        centre, spread = _wilson_exact(wins, games, z)
    if not math.isfinite(centre + spread):  # z * z overflowed (z above about 1e154)
        centre, spread = _wilson_exact(wins, games, z)
    # The interval always holds the rate (a clean sweep's top is exactly 1): rounding
    # must not leave it outside.
    return (max(0.0, min(rate, centre - spread)), min(1.0, max(rate, centre + spread)))


def _wilson_exact(wins: int, games: int, z: float) -> tuple[float, float]:
    """The interval's centre and half-width, in exact arithmetic until the last step
    (both are at most 1, so they fit a float whatever the size of ``games``)."""
    zz = Fraction(z) ** 2
    centre = (wins + zz / 2) / (games + zz)
    square = zz * (Fraction(wins * (games - wins), games) + zz / 4) / (games + zz) ** 2
    return float(centre), _sqrt(square)


def _sqrt(value: Fraction) -> float:
    """The square root of a fraction as small as 10**-10000, correctly rounded to a float."""
    top, bottom = value.numerator, value.denominator
    shift = max(0, (bottom.bit_length() - top.bit_length()) // 2) + 64
    scaled = top << 2 * shift
    root = math.isqrt(scaled // bottom)  # at least 63 bits, rounded down
    if root * root * bottom != scaled:
        # An inexact root: a set last bit keeps the division below from rounding a value
        # just above a halfway point down to it (it then rounds as the true root does).
        root |= 1
    return root / (1 << shift)  # int / int: correctly rounded


def subseed(seed: int, *parts: int) -> int:
    """A 63-bit seed derived from ``seed`` and ``parts``, the same in every process.

    The arena derives each match's seeds so (and the example server,
    ``examples/tcp_server.py``, its k-th match's: ``subseed(seed, k)``): a match's seed,
    written in its record, tells nothing of another's, and the same ``seed`` gives the
    same seeds on any machine.

    >>> from chkobba.arena import subseed
    >>> subseed(2026, 1) == subseed(2026, 1) != subseed(2026, 2)
    True
    >>> 0 <= subseed(2026, 1) < 2**63
    True

    Each number may be an integer of any integral type (numpy's give the seeds of the
    same plain ints); anything else is refused, as a seed is by the arena:

    >>> subseed(2026, "1")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: subseed: parts[0] must be an integer, not '1'
    """
    numbers = (
        _checked_seed("subseed", seed),
        *(_checked_seed("subseed", part, f"parts[{i}]") for i, part in enumerate(parts)),
    )
    try:
        text = repr(numbers)  # numpy 2 writes np.int64(1): plain ints read alike everywhere
    except ValueError:  # Python will not write an integer of more than ~4300 digits
        huge = max(numbers, key=abs)
        raise ChkobbaError(f"subseed: {shown(huge)} is too large to derive from") from None
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _schedule(entrants: int, games: int) -> list[tuple[int, int, int, int]]:
    """(game, first, second, shuffles) for every match: each pair plays ``games`` matches.

    Matches come in pairs that share the shuffles' number with the seats swapped, so both
    bots see the same cards from both seats and each deals first equally often: a
    pair's matches ``2k`` and ``2k + 1`` (counted within the pair) are numbered by the
    game of the first of them, halved (with an odd ``games``, a pair may start at an odd
    game, where halving each game would split them).
    """
    plan: list[tuple[int, int, int, int]] = []
    for a in range(entrants):
        for b in range(a + 1, entrants):
            for g in range(games):
                first, second = (a, b) if g % 2 == 0 else (b, a)
                game = len(plan)
                plan.append((game, first, second, (game - g % 2) // 2))
    return plan


@attrs.frozen
class _Job:
    game: int
    pair_seed: int
    players: int
    entrants: tuple[int, int]
    makers: tuple[Any, Any]
    bot_seed: int
    names: tuple[str, str] = ("", "")
    keep_record: bool = False
    rules: Rules = TUNISIAN


def _build(maker: Any, seed: int) -> Bot:
    if isinstance(maker, BotSpec):
        return maker.build(seed)
    if not _spawns(maker):
        return copy.deepcopy(maker)  # type: ignore[no-any-return]
    return spawned(maker, seed)


def _spawns(maker: Any) -> bool:
    """Whether a tournament builds ``maker``'s bot for each match with ``spawn(seed)``
    (else a bot instance is deep-copied)."""
    return callable(getattr(maker, "spawn", None)) and not isinstance(maker, BotSpec)


def _run(job: _Job) -> MatchSummary:
    first, second = job.entrants
    # Seats alternate between the two entrants (with 3 players the first has two seats;
    # the next match of the pair swaps them).
    seats = [first, second, first, second][: job.players]
    bots = [
        _build(job.makers[0] if entrant == first else job.makers[1], subseed(job.bot_seed, seat))
        for seat, entrant in enumerate(seats)
    ]
    result = play_match(bots, seed=job.pair_seed, players=job.players, dealer=0, rules=job.rules)
    record = None
    if job.keep_record:
        record = attrs.evolve(result.record, tags=_match_tags(job, seats))
    return MatchSummary(
        game=job.game,
        entrants=tuple(seats),
        winner=seats[result.winner],
        scores=result.scores,
        deals=result.deals,
        record=record,
    )


def _match_tags(job: _Job, seats: list[int]) -> dict[str, str]:
    """A tournament match's tags: its number, who sat where, and the seeds that play it
    again with :func:`play_match` (the match's ``seed``, and each seat's bot's when it
    was built from one: ``player0_seed``...)."""
    tags = {"game": str(job.game), "seed": str(job.pair_seed)}
    for seat, entrant in enumerate(seats):
        mine = 0 if entrant == job.entrants[0] else 1
        tags[f"player{seat}"] = _tag_text(job.names[mine])
        if _seeded(job.makers[mine]):
            tags[f"player{seat}_seed"] = str(subseed(job.bot_seed, seat))
    return tags


def _seeded(maker: Any) -> bool:
    """Whether a tournament builds ``maker``'s bot from a seed (else it plays a copy)."""
    return isinstance(maker, BotSpec) or _spawns(maker)


def _maker(entrant: Entrant) -> Any:
    if isinstance(entrant, str):
        return BotSpec.parse(entrant)
    if isinstance(entrant, BotSpec):
        return entrant
    problem = not_a_bot(entrant)
    if problem is not None:
        text = "" if isinstance(entrant, type) else ", and it is not text such as 'greedy'"
        raise ChkobbaError(f"{shown(entrant)} is not a bot or a bot spec: {problem}{text}")
    return entrant


def _names(makers: Sequence[Any]) -> list[str]:
    names: list[str] = []
    for maker in makers:
        # As messages name it (a blank name or one that is no text: its class), uncut.
        base = str(maker) if isinstance(maker, BotSpec) else bot_name(maker)
        name, n = base, 2
        while name in names:
            name, n = f"{base}#{n}", n + 1
        names.append(name)
    return names


def tournament(
    bots: Sequence[Entrant],
    *,
    games: int,
    seed: int,
    players: int = 2,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    records: bool | Literal["stream"] = False,
    on_match: Callable[[MatchSummary], None] | None = None,
    rules: Rules = TUNISIAN,
) -> TournamentResult:
    """Every pair of ``bots`` plays ``games`` matches under ``rules``; results per bot.

    Entries are bot specs (``"greedy"``, ``"ismcts:iterations=100"``, a
    :class:`~chkobba.bots.BotSpec`) or bot instances (built-in bots are re-seeded for
    every match with :meth:`~chkobba.bots.SeededBot.spawn`; other bots are
    deep-copied). Seats alternate between matches and each pair of matches shares its
    shuffles. With ``workers > 1`` the matches run in that many processes (spawned, so
    bots must pickle) and the result is the same as with one (bots on a time limit
    aside, as below). ``executor`` runs them on
    any :class:`concurrent.futures.Executor` instead (a Dask cluster's
    ``distributed.Client(address).get_executor()``, a thread or process pool), again
    with the same result; ``workers`` is then ignored.
    ``progress(done, total)`` is called after every match; ``on_match(summary)`` for
    every match in game order, as soon as it and the ones before it are done.
    ``records=True`` keeps every match's record in its summary; ``records="stream"``
    gives it only to ``on_match`` (which it requires), and the result's summaries hold
    none: the memory a tournament keeps does not grow with its records, for writing
    many matches to a file as they finish (``chkobba simulate --records``). With 3 players (a
    profile that allows them) the first bot of a match sits at seats 0 and 2, each seat
    a side of its own; the pair's next match swaps the bots. ``seed``, ``games`` and
    ``workers`` are integers, numpy's included (every match is derived from ``seed``,
    so the tournament can be replayed, unless a bot plays on a time limit,
    ``seconds=``: how far it searches depends on the machine's speed at that moment).

    If a match raises (a bot's error, an illegal move) or the tournament is interrupted
    (``KeyboardInterrupt``), the matches not yet started are cancelled (with ``workers``,
    the worker processes are stopped, their running matches with them; on an
    ``executor``, which is the caller's, those running finish) and the error goes on,
    its type unchanged; a match's error with a note (Python 3.11's ``add_note``, printed
    under it in a traceback) naming the match, its bots and the seeds that play it again
    with :func:`play_match` (an interrupt, no match's fault, has none). A worker process
    that dies (killed, out of memory) stops the tournament the same way, its ``BrokenProcessPool``
    noted as such, not as a match's. The finished matches are not returned: keep them
    with ``on_match``, which has seen every match before the failed one (with workers,
    those finished before it whose earlier games had finished too: it is called in game
    order, so a match that finished while an earlier one still ran is not seen).

    With 4 players, two entries sit as partners (seats 0 and 2 against 1 and 3):

    >>> from chkobba.arena import tournament
    >>> table = tournament(["greedy", "random"], games=1, seed=5, players=4)
    >>> table.matches[0].entrants, table.matches[0].scores
    ((0, 1, 0, 1), (21, 8))
    >>> tournament(["greedy"], games=1, seed=5)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: a tournament needs at least 2 bots, got 1
    """
    # Every argument is checked before any match runs, not when a match first uses it.
    seed = _checked_seed("tournament", seed)
    _check_derivable("tournament", seed)
    _check_reporting(progress, on_match, records)
    streamed = records == "stream"
    games, workers = _checked_scale(games, workers, executor)
    players = integral(players)  # numpy's integers too
    _check_rules(rules, players)
    makers = _entrants(bots)
    _check_matches(games, len(makers))
    names = _names(makers)
    for maker, name in zip(makers, names, strict=True):  # before any worker starts
        bot = make_bot(maker) if isinstance(maker, BotSpec) else maker
        _check_inference(bot, f"bot {name}", players)
    jobs = _jobs(
        makers, names, games=games, seed=seed, players=players, records=bool(records), rules=rules
    )
    reporter = _Reporter(len(jobs), progress, on_match, streamed=streamed)
    summaries = _run_all(jobs, workers, executor, reporter)
    return _tally(names, players, seed, summaries, rules)


def _check_inference(bot: object, who: str, players: int) -> None:
    """Refuse, before the first move, a bot whose hand inference needs 2 players."""
    refusal = inference_refusal(bot, players)
    if refusal is not None:
        raise ChkobbaError(f"{who}: {refusal}")


def _check_reporting(progress: object, on_match: object, records: object) -> None:
    """What the tournament reports as it goes: two callbacks, and whether to keep records."""
    _check_callback("tournament: progress", progress)
    _check_callback("tournament: on_match", on_match)
    if type(records) is not bool and not (isinstance(records, str) and records == "stream"):
        raise ChkobbaError(
            f"tournament: records must be True, False or 'stream', not {shown(records)}"
        )
    if records == "stream" and on_match is None:
        raise ChkobbaError(
            "tournament: records='stream' gives every record to on_match, and there is none"
        )


def _checked_scale(games: object, workers: object, executor: object) -> tuple[int, int]:
    """How many matches each pair plays, and where they run (the counts as Python ints)."""
    counts = (
        _checked_positive("games", games, MATCH_LIMIT),
        _checked_positive("workers", workers, WORKER_LIMIT),
    )
    if executor is not None and not isinstance(executor, Executor):
        raise ChkobbaError(f"executor must be a concurrent.futures.Executor, not {shown(executor)}")
    return counts


def _checked_positive(name: str, value: object, most: int) -> int:
    count = integer_count(value)  # numpy's integers too, as the seed
    if count is None or not 1 <= count <= most:
        raise ChkobbaError(f"{name} must be an integer from 1 to {most:,}, not {shown(value)}")
    return count


def _check_matches(games: int, entrants: int) -> None:
    """The whole schedule within :data:`MATCH_LIMIT` (checked before it is built)."""
    pairs = entrants * (entrants - 1) // 2
    if games * pairs > MATCH_LIMIT:
        raise ChkobbaError(
            f"a tournament plays at most {MATCH_LIMIT:,} matches; {games:,} games for each "
            f"of {pairs:,} pairs of bots make {games * pairs:,} (play several tournaments)"
        )


def _check_rules(rules: object, players: int) -> None:
    if not isinstance(rules, Rules):
        raise ChkobbaError(not_a_profile(rules))
    rules.sides(players)  # refuses a player count the profile does not allow


def _entrants(bots: Sequence[Entrant]) -> list[Any]:
    """What builds each entrant's bot for every match: a spec, or the bot to spawn or copy."""
    makers = [_maker(entrant) for entrant in items_of(bots, "tournament: bots")]
    if len(makers) < 2:
        raise ChkobbaError(f"a tournament needs at least 2 bots, got {len(makers)}")
    return makers


def _jobs(
    makers: list[Any],
    names: list[str],
    *,
    games: int,
    seed: int,
    players: int,
    records: bool,
    rules: Rules,
) -> list[_Job]:
    """A job for every scheduled match, with the seeds that play it the same in any
    process: a pair's matches ``2k`` and ``2k + 1`` (seats swapped) share the shuffles'
    seed; the bots' seed is each match's own."""
    return [
        _Job(
            game=game,
            pair_seed=subseed(seed, min(first, second), max(first, second), shuffles),
            players=players,
            entrants=(first, second),
            makers=(makers[first], makers[second]),
            bot_seed=subseed(seed, first, second, game),
            names=(names[first], names[second]),
            keep_record=records,
            rules=rules,
        )
        for game, first, second, shuffles in _schedule(len(makers), games)
    ]


@attrs.define
class _Reporter:
    """Calls ``progress`` per match and ``on_match`` in game order (matches finish in any)."""

    total: int
    progress: Callable[[int, int], None] | None
    on_match: Callable[[MatchSummary], None] | None
    #: ``records="stream"``: a summary is kept without its record (on_match had it).
    streamed: bool = False
    done: list[MatchSummary] = attrs.field(factory=list)
    waiting: dict[int, MatchSummary] = attrs.field(factory=dict)
    next_game: int = 0

    def __call__(self, summary: MatchSummary) -> None:
        self.done.append(attrs.evolve(summary, record=None) if self.streamed else summary)
        if self.progress is not None:
            self.progress(len(self.done), self.total)
        if self.on_match is None:
            return
        self.waiting[summary.game] = summary
        while self.next_game in self.waiting:
            self.on_match(self.waiting.pop(self.next_game))
            self.next_game += 1


def _run_all(
    jobs: list[_Job], workers: int, executor: Executor | None, report: _Reporter
) -> list[MatchSummary]:
    if executor is None and (workers == 1 or len(jobs) == 1):
        for job in jobs:
            try:
                summary = _run(job)
            except Exception as error:
                _add_match_note(error, job)
                raise
            report(summary)
        return report.done
    if executor is not None:
        # The executor serializes the jobs its own way (Dask uses cloudpickle; threads
        # share them). It is the caller's: on an error or an interrupt only this
        # tournament's futures are cancelled.
        if isinstance(executor, ProcessPoolExecutor):  # it pickles them, as workers do
            _check_picklable(jobs)
        _collect(executor, jobs, report, cannot_start=_EXECUTOR_REFUSED)
    else:
        _check_workers_can_start()
        _check_picklable(jobs, spawned=True)
        context = multiprocessing.get_context("spawn")
        try:
            pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=_stop_matches_on_signals
            )
        except OSError as error:  # no semaphores here (AWS Lambda, a read-only /dev/shm)
            add_note(error, _CANNOT_START)
            raise
        try:
            _collect(pool, jobs, report, _run_in_worker, cannot_start=_CANNOT_START)
        except BaseException:
            # A failed match, a failing callback or an interrupt (Ctrl-C, or SIGTERM in
            # ``chkobba simulate``): the queued matches are dropped and the running ones
            # stopped (their results would be dropped too: a search bot's match can take
            # minutes), and the workers are gone before the error goes on.
            _stop_workers(pool)
            raise
        pool.shutdown(wait=True)
    return sorted(report.done, key=lambda summary: summary.game)


#: The note on the error of worker processes that cannot start (the machine refuses a
#: semaphore, a process, a thread or a file): the matches can still be played in one.
_CANNOT_START = "the tournament's worker processes cannot start (workers=1 plays without them)"
#: The note on a pool's error when a worker process died: no match of its own to replay.
#: One that dies as it starts is most often a script's: ``spawn`` runs the script again
#: in each worker, and one not under the ``__main__`` guard starts a tournament there.
_WORKER_DIED = (
    "a worker process of the tournament stopped unexpectedly (killed, out of memory, or"
    " failing to start: a script that plays with workers runs its tournament under"
    ' `if __name__ == "__main__":`, see docs/cluster.md)'
)
#: The note on the error of a caller's executor that takes no matches (one shut down):
#: the standard library's message alone does not say which executor it means.
_EXECUTOR_REFUSED = "tournament(executor=...): the executor given refused the matches"

#: How long a stopped tournament waits for its worker processes to end their matches and
#: exit, before it kills those still running (a bot that ignores the interrupt).
_STOP_SECONDS = 10.0
#: In a worker process: whether it plays a match now, and whether it was interrupted.
_worker_in_match = False
_worker_stopping = False
_worker_orphaned = False


def _stop_matches_on_signals() -> None:
    """A worker process's SIGINT and SIGTERM handler. Ctrl-C reaches every process of
    the terminal's job: an idle worker took it in the pool's queue, printed a traceback
    and died, which could hang the parent. The worker now stops only the match it plays
    (its ``KeyboardInterrupt`` goes back to the parent as that match's error) and plays
    no other, and exits as a worker does, its exit handlers run (a bot's engine process
    stopped); the parent stops its workers so with SIGTERM. A handler, not ``SIG_IGN``:
    ignoring would pass to the programs a bot starts, and Ctrl-C would not reach them.
    A worker whose parent died (killed: it can no longer stop them) stops itself, its
    match first if it plays one: the pool's workers ended only when told to by their
    parent, and outlived a killed one for good, deaf to SIGTERM."""
    signal.signal(signal.SIGINT, _worker_interrupted)
    signal.signal(signal.SIGTERM, _worker_interrupted)
    parent = multiprocessing.parent_process()
    if parent is not None:
        watch = threading.Thread(
            target=_end_with, args=(parent.sentinel,), name="chkobba-parent-watch", daemon=True
        )
        watch.start()


def _worker_interrupted(signum: int, frame: object) -> None:
    global _worker_stopping
    _worker_stopping = True
    if _worker_in_match:
        raise KeyboardInterrupt
    if _worker_orphaned:  # idle, and no parent to send the pool's end: end now
        raise SystemExit(0)


def _end_with(parent: int) -> None:
    """Wait for the parent process to end (its sentinel ready), then stop this worker:
    SIGTERM, again each second, since a worker that was playing stops its match first
    and then waits for the next one. (An idle worker of a living parent takes SIGTERM
    as before: the parent ends its workers through the pool, and a worker gone early
    would break the pool, and the tournament, for the matches still running.)"""
    global _worker_orphaned
    multiprocessing.connection.wait([parent])
    _worker_orphaned = True
    while True:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1.0)


def _run_in_worker(job: _Job) -> MatchSummary:
    """:func:`_run` in a worker process of the tournament's own pool: not once the
    worker was interrupted (a match queued behind the one it stopped)."""
    global _worker_in_match
    if _worker_stopping:
        raise KeyboardInterrupt
    _worker_in_match = True
    try:
        return _run(job)
    finally:
        _worker_in_match = False


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting for its matches: the queued ones cancelled, the
    running ones interrupted (SIGTERM: a worker still starting, before its handlers,
    ends at once and quietly, where SIGINT printed a traceback), and the workers waited
    for as they exit, at most ``_STOP_SECONDS`` (not at all when the thread that feeds
    them is gone); one still running then, or when a second interrupt comes, is killed.
    Then the thread that fed them is waited for, at most ``_STOP_SECONDS`` more."""
    # CPython's own attributes, read as the manager thread below is: shutdown() lets go
    # of the processes, and another Python may name them otherwise.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # The thread that feeds the workers holds the pool's queues, and their semaphores.
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    # Without it (it died, or never started) nothing can tell an idle worker to exit,
    # and one ignores SIGTERM while its parent lives: no use waiting for them.
    fed = manager is not None and manager.is_alive()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + (_STOP_SECONDS if fed else 0.0)
    try:
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join()
    # Its end lets the queues go: ``chkobba simulate`` then ends by SIGTERM, running no
    # exit handler, and semaphores still held were reported by multiprocessing's
    # resource tracker as leaked, a warning on standard error.
    if manager is not None and manager.ident is not None:  # it may have failed to start
        manager.join(_STOP_SECONDS)


def _check_picklable(jobs: list[_Job], spawned: bool = False) -> None:
    """Refuse, naming it, an entrant that cannot be sent to a worker process. Every
    entrant's, not only the first match's, before any match starts: a bot left unchecked
    would fail in a worker, as that match's error (with a note to play it again).
    ``spawned``: the workers are started by ``spawn``, so they cannot find a class of an
    interactive session's ``__main__`` (it pickles, by a name no worker can import)."""
    entrants = {
        entrant: (maker, name)
        for job in jobs
        for entrant, maker, name in zip(job.entrants, job.makers, job.names, strict=True)
    }
    for entrant, (maker, name) in sorted(entrants.items()):
        finder = _MainFinder(io.BytesIO())
        try:
            finder.dump(maker)
        except Exception as error:
            problem = cut(one_line(str(error)), 200)
        else:
            found = finder.found
            if not spawned or found is None:
                continue
            if not _main_importable():
                problem = f"{found.__qualname__} is defined in {_main_source()}"
            elif (typed := _typed_in(found)) is not None:
                problem = f"{found.__qualname__} is defined in an interactive session ({typed})"
            else:
                continue
        raise ChkobbaError(
            f"bot {shown(name)} (entrant {entrant}) cannot be sent to worker processes "
            f"({problem}): use a bot spec, or a bot that pickles (its class defined at "
            "the top level of a module, not in a function or an interactive session)"
        ) from None


def _typed_in(found: Any) -> str | None:
    """Where a class or function of ``__main__`` was typed, if not in a file: after
    IPython's ``%run -i script.py`` the main module keeps the script's ``__file__``, so
    the workers run the script again, and a class defined in a notebook cell since is
    not in it (its code comes from a cell, a file that is not on disk)."""
    functions = [found] if isinstance(found, types.FunctionType) else list(vars(found).values())
    started_in = getattr(multiprocessing.process, "ORIGINAL_DIR", None) or ""
    for function in functions:
        code = getattr(function, "__code__", None)
        if not isinstance(code, types.CodeType):
            continue
        # (Relative to the directory the program started in, as the main file's path is.)
        if not os.path.isfile(os.path.join(started_in, code.co_filename)):
            return f"its code comes from {shown(code.co_filename)}, which is no file"
    return None


class _MainFinder(pickle.Pickler):
    """A pickler that notes the first class or function of ``__main__`` it writes."""

    found: Any = None

    def reducer_override(self, obj: Any) -> Any:
        kind = isinstance(obj, (type, types.FunctionType))
        if kind and self.found is None and getattr(obj, "__module__", None) == "__main__":
            self.found = obj
        return NotImplemented  # pickled as usual


def _main_module() -> tuple[str | None, object]:
    """``__main__``'s module name (``python -m``; None otherwise) and its ``__file__``
    (None in an interactive session), the two things multiprocessing's ``spawn`` reads."""
    main = sys.modules.get("__main__")
    return getattr(getattr(main, "__spec__", None), "name", None), getattr(main, "__file__", None)


def _main_importable() -> bool:
    """Whether a worker started by ``spawn`` runs ``__main__`` again, and so holds its
    classes, as multiprocessing decides: by its module name (``python -m mod``, but not a
    package's or a zip's ``__main__``, which it leaves alone), else from its file."""
    name, _ = _main_module()
    if name is not None:
        return name != "__main__" and not name.endswith(".__main__")
    path = _main_file()
    return path is not None and os.path.isfile(path)


def _main_file() -> str | None:
    """The path a spawned worker runs ``__main__`` from (None: it leaves it alone)."""
    name, path = _main_module()
    if name is not None or not isinstance(path, str):
        return None
    # (Relative to the directory the program started in, as multiprocessing reads it.)
    started_in = getattr(multiprocessing.process, "ORIGINAL_DIR", None) or ""
    return os.path.join(started_in, path)


def _main_source() -> str:
    name, path = _main_module()
    if name is not None:
        return f"{name}, which the workers do not run again"
    return "an interactive session" if path is None else f"{_file_named(path)}, which is no file"


def _file_named(path: object) -> str:
    """The main module's file, as a message names it (a str, whatever a program set)."""
    return shown_path(path) if isinstance(path, str) else shown(path)


def _check_workers_can_start() -> None:
    """Refuse worker processes that would die starting: ``spawn`` runs the main module's
    file again in each, and a script read from standard input has none (``<stdin>``)."""
    path = _main_file()
    if path is not None and not os.path.isfile(path):
        raise ChkobbaError(
            "worker processes cannot start: each would run the main module again from "
            f"{_file_named(_main_module()[1])}, which is no file "
            "(a script read from standard input): run the script from a file, or play "
            "with workers=1"
        )


def _collect(
    executor: Executor,
    jobs: list[_Job],
    report: _Reporter,
    run: Callable[[_Job], MatchSummary] = _run,
    cannot_start: str | None = None,
) -> None:
    """Run ``jobs`` on ``executor`` and report each as it finishes; on the first error
    (a match's, a callback's) or an interrupt, cancel every match not yet started and
    re-raise at once, the failed match's error with a note saying which match it was.
    ``cannot_start``: the note on an error that submitting raises (a worker process or
    thread the machine refuses to start, a caller's executor shut down).

    At most ``_SUBMITTED_AT_ONCE`` (4,096) matches wait on the executor at a time, the next
    submitted as one finishes: a future is about 2 kB, so a million submitted at once
    took 2.5 GB and over a minute before the first match started."""
    waiting = iter(jobs)
    futures: dict[Future[MatchSummary], _Job] = {}
    finished: queue.SimpleQueue[Future[MatchSummary]] = queue.SimpleQueue()

    def submit_next(started: bool) -> None:
        job = next(waiting, None)
        if job is None:
            return
        try:
            future = executor.submit(run, job)
        except (OSError, RuntimeError) as error:  # "can't start new thread": RuntimeError
            # Once matches ran, a broken pool is a worker that died since (killed, out of
            # memory), not one that could not start.
            if started and isinstance(error, BrokenExecutor):
                add_note(error, _WORKER_DIED)
            elif cannot_start is not None:
                add_note(error, cannot_start)
            raise
        futures[future] = job
        future.add_done_callback(finished.put)  # (at once if it is done already)

    try:
        for _ in range(_SUBMITTED_AT_ONCE):
            submit_next(started=False)
        while futures:
            future = _next_finished(finished, executor, futures, cannot_start)
            try:
                summary = future.result()
            except BrokenExecutor as error:
                # A worker died (killed, out of memory): no match of its own to replay.
                add_note(error, _WORKER_DIED)
                raise
            except Exception as error:
                _add_match_note(error, futures[future])
                raise
            report(summary)
            del futures[future]  # a future holds its result: let a streamed record go
            submit_next(started=True)
    except BaseException:
        for future in futures:
            future.cancel()
        raise


#: How many matches of a tournament wait on its executor at a time, at most: enough to
#: keep any pool of workers busy, few enough that their futures take little memory.
_SUBMITTED_AT_ONCE = 4096

#: How long a tournament waits for a match to end before it looks whether its process
#: pool still runs (a look only while no match ends: then the pool is plainly alive).
_WATCH_SECONDS = 1.0


def _next_finished(
    finished: queue.SimpleQueue[Future[MatchSummary]],
    executor: Executor,
    futures: dict[Future[MatchSummary], _Job],
    cannot_start: str | None,
) -> Future[MatchSummary]:
    """The next future of ``futures`` to finish (each put in ``finished`` by its done
    callback: ``as_completed``'s cost). A process pool whose feeding thread has died with
    matches still waiting raises: it fails no future, and they would wait for ever
    (CPython's pool starts that thread's own helper thread later, which the machine may
    refuse)."""
    while True:
        try:
            return finished.get(timeout=_WATCH_SECONDS)
        except queue.Empty:
            _check_feeding(executor, futures, cannot_start)


def _check_feeding(
    executor: Executor, futures: dict[Future[MatchSummary], _Job], cannot_start: str | None
) -> None:
    """Raise if ``executor`` is a process pool whose feeding thread has died while
    ``futures`` wait (another executor has no such thread: nothing to look at)."""
    feeder = getattr(executor, "_executor_manager_thread", None)
    stopped = isinstance(feeder, threading.Thread) and feeder.ident and not feeder.is_alive()
    # (Failed futures mean a pool that stopped as it should: the next wait has them.)
    if stopped and not any(future.done() for future in futures):
        error = RuntimeError(
            "the process pool stopped before its workers took the matches "
            "(a thread it needed could not start)"
        )
        if cannot_start is not None:
            add_note(error, cannot_start)
        raise error


def _add_match_note(error: BaseException, job: _Job) -> None:
    """Say in ``error`` (a note, its type unchanged) which tournament match raised it and
    how to play that match again with :func:`play_match`."""
    first, second = job.entrants
    seats = [first, second, first, second][: job.players]
    bots = ", ".join(_seat_note(job, seat, entrant) for seat, entrant in enumerate(seats))
    rules = "" if job.rules == TUNISIAN else f", rules=<the {job.rules.name} profile>"
    note = (
        f"in tournament match {job.game} ({bots}); to play it again: "
        f"play_match(bots, seed={job.pair_seed}, players={job.players}, dealer=0{rules}) "
        "with each seat's bot from spawn(seed) or BotSpec.build(seed) (other bots: a copy)"
    )
    add_note(error, note)


def _seat_note(job: _Job, seat: int, entrant: int) -> str:
    """The bot at ``seat`` of ``job``'s match, and how the match built it."""
    mine = 0 if entrant == job.entrants[0] else 1
    maker = job.makers[mine]
    built = (
        f"built with seed {subseed(job.bot_seed, seat)}"
        if _seeded(maker)
        else "a copy of the bot given"  # deep-copied: no seed reaches it
    )
    return f"seat {seat}: {job.names[mine]!r} (entrant {entrant}) {built}"


def _tally(
    names: list[str], players: int, seed: int, summaries: list[MatchSummary], rules: Rules
) -> TournamentResult:
    sides = sides_of(players)
    lines = []
    for index, name in enumerate(names):
        mine = [m for m in summaries if index in m.entrants]
        lines.append(BotResult(name=name, **_standing(mine, index, sides)))
    return TournamentResult(
        players=players, seed=seed, bots=tuple(lines), matches=tuple(summaries), rules=rules
    )
