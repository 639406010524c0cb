"""Consistency of states the engine did not make: :func:`check_state`.

The engine trusts the states it makes (:func:`~chkobba.new_match`, :func:`~chkobba.apply`)
and checks nothing about them on its hot path. A state built by hand (``State(...)``,
``attrs.evolve``, a test, a loader) can hold anything, so :func:`check_state` says
whether its checks find it one that no match under its rules can reach, and if so,
names the first inconsistency:

>>> import attrs
>>> check_state(new_match()) == new_match()
True
>>> check_state(attrs.evolve(new_match(), dealer=9))
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: inconsistent state: dealer 9 is not a player from 0 to 1

The engine's entry points (:func:`~chkobba.legal_moves`, :func:`~chkobba.apply`,
:func:`~chkobba.illegal_reason`, :func:`~chkobba.observe`, :func:`~chkobba.render`)
raise only :class:`~chkobba.ChkobbaError` on a broken state: when one fails inside,
:func:`broken_state` names the inconsistency that :func:`check_state` finds. A broken
state that happens not to fail is played on as it is: call :func:`check_state` on any
state you build.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable, Iterator
from itertools import repeat
from typing import Any

import attrs

from chkobba import _kernel
from chkobba._describe import twice, wrong_type
from chkobba.cards import DECK, Card, Suit, format_cards
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import PLAYER_COUNTS, Rules, not_a_profile
from chkobba.scoring import (
    PRIMIERA_VALUES,
    DealScore,
    bermila,
    majority,
    unique_best,
)
from chkobba.state import (
    HAND_SIZE,
    HELD_SCORE_LIMIT,
    TABLE_SIZE,
    Phase,
    State,
    match_winner,
    sides_of,
)

__all__ = ["broken_state", "check_state"]

Check = Callable[[State], Iterator[str]]


def check_state(state: State) -> State:
    """Return ``state``, or raise if the checks below find that no match under its rules
    can reach it.

    Checked, in this order: the type of every field; players, sides and seats under
    ``state.rules``, and every field of each deal score (a side or ``None`` for each
    winner, one whole number >= 0 per side for each tally, no more cards counted than
    there are, winners that its tallies give under the profile, points that are the
    chkobbas plus the categories won); the 40 cards split exactly among stock, hands,
    table and piles; what the phase requires (who moves, the hand sizes of a round, no
    pile before the deal's first play and no more chkobbas than plays, no table dealt
    that voids the deal while nothing is captured, empty hands between deals, after a
    deal piles and chkobbas that score as its deal score, no ``CUT`` phase without a
    cut); the scores, the winner, chkobbas and the last capturer against the piles (no
    pile of one card); a table whose capture values repeat no more than the four cards
    dealt can (a card that can capture must, so none is laid beside its value: which
    also bounds the capture options a played card can have). The first problem raises
    :class:`~chkobba.ChkobbaError` naming it. What the checks cannot see is not searched
    for: which plays made the piles, say.

    >>> import attrs, random
    >>> end = rollout(new_match(), random.Random(2))
    >>> check_state(end) is end
    True
    >>> check_state(attrs.evolve(new_match(), table=(card("7D"),)))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: inconsistent state: 7D is in two places (stock and table)
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("check_state", "a State", state))
    for check in _CHECKS:
        for problem in check(state):
            raise ChkobbaError(f"inconsistent state: {problem}")
    return state


def broken_state(state: object, error: Exception) -> Exception:
    """The error an entry point raises when ``error`` escaped it on ``state``.

    A :class:`~chkobba.ChkobbaError` naming what :func:`check_state` finds wrong with
    the state; if it finds nothing, ``error`` itself (a bug, not bad input). A
    ``MemoryError`` is always itself: running out of memory says nothing about the state.

    >>> import attrs
    >>> from chkobba.checks import broken_state
    >>> broken = attrs.evolve(new_match(), dealer=9)
    >>> broken_state(broken, IndexError("tuple index out of range"))
    ChkobbaError('inconsistent state: dealer 9 is not a player from 0 to 1 (see check_state)')
    >>> broken_state(new_match(), KeyError("k"))  # nothing wrong with the state: a bug
    KeyError('k')
    """
    if not isinstance(state, State) and not isinstance(error, MemoryError):
        return ChkobbaError(f"{shown(state)} is not a State")
    return explained(state, error, check_state, "state")


# Shared with chkobba.views (not in __all__), whose views are checked the same way.
def explained(
    value: object, error: Exception, check: Callable[[Any], object], noun: str
) -> Exception:
    """The error to raise when ``error`` escaped a function on ``value``: the
    :class:`~chkobba.ChkobbaError` that ``check(value)`` raises, naming the problem; if it
    finds none, ``error`` itself (a bug, not bad input). A ``MemoryError`` is always
    itself: running out of memory says nothing about the value."""
    if isinstance(error, MemoryError):
        return error
    try:
        check(value)
    except ChkobbaError as problem:
        return ChkobbaError(f"{problem} (see {check.__name__})")
    except Exception:  # a value too broken even to check: say so, never fail here
        return ChkobbaError(f"inconsistent {noun} ({type(error).__name__}; see {check.__name__})")
    return error


# --- field types ------------------------------------------------------------------------


def _seat(value: object) -> bool:
    return type(value) is int


def _types(state: State) -> Iterator[str]:
    if not isinstance(state.rules, Rules):
        yield not_a_profile(state.rules)
    elif not isinstance(state.phase, Phase):
        yield f"phase must be a Phase, not {shown(state.phase)}"
    else:
        yield from _card_groups(state)
        yield from _numbers(state)


def _card_groups(state: State) -> Iterator[str]:
    for name in ("table", "stock"):
        yield from cards_of(name, getattr(state, name))
    for name in ("hands", "captured"):
        groups = getattr(state, name)
        if type(groups) is not tuple:
            yield f"{name} must be a tuple of card tuples, not {shown(groups)}"
            return
        for index, group in enumerate(groups):
            yield from cards_of(f"{name}[{index}]", group)


# Shared with chkobba.views, which checks a view's card groups the same way (not in
# __all__): the problems of ``group``, which must be a tuple of cards.
def cards_of(name: str, group: object) -> Iterator[str]:
    if type(group) is not tuple:
        yield f"{name} must be a tuple of cards, not {shown(group)}"
        return
    for item in group:
        if type(item) is not Card:
            yield f"{name} holds {shown(item)}, which is not a card"
            return


def _numbers(state: State) -> Iterator[str]:
    for name in ("chkobbas", "scores"):
        values = getattr(state, name)
        if type(values) is not tuple or not all(type(v) is int and v >= 0 for v in values):
            yield f"{name} must be a tuple of whole numbers >= 0, not {shown(values)}"
        elif name == "scores" and values and max(values) > HELD_SCORE_LIMIT:
            yield f"scores must be at most {HELD_SCORE_LIMIT:,}, not {shown(values)}"
    for name in ("players", "dealer"):
        if not _seat(getattr(state, name)):
            yield f"{name} must be a whole number, not {shown(getattr(state, name))}"
    for name in ("current_player", "last_capturer", "winner"):
        value = getattr(state, name)
        if value is not None and not _seat(value):
            yield f"{name} must be a whole number or None, not {shown(value)}"
    scores = state.deal_scores
    if type(scores) is not tuple or not all(map(isinstance, scores, repeat(DealScore))):
        yield f"deal_scores must be a tuple of DealScore, not {shown(scores)}"


# --- players, sides and seats -------------------------------------------------------------


def _seats(state: State) -> Iterator[str]:
    try:
        sides = state.rules.sides(state.players)
    except ChkobbaError as error:
        yield str(error)
        return
    players = state.players
    if len(state.hands) != players:
        yield f"hands must hold {players} hands, one per player, not {len(state.hands)}"
    for name in ("captured", "chkobbas", "scores"):
        if len(getattr(state, name)) != sides:
            yield f"{name} must have {sides} entries, one per side, not {len(getattr(state, name))}"
    for name in ("dealer", "current_player", "last_capturer"):
        seat = getattr(state, name)
        if seat is not None and not 0 <= seat < players:
            yield f"{name} {shown(seat)} is not a player from 0 to {players - 1}"
    if state.winner is not None and not 0 <= state.winner < sides:
        yield f"winner {shown(state.winner)} is not a side from 0 to {sides - 1}"
    rules = state.rules
    scores = state.deal_scores
    if _sound_run(scores, sides, rules) is not None:
        return  # these very scores were found sound together: a deal's states share them
    # A deal's end adds one score to the run of the deals before: only it is new.
    previous = _sound_run(scores[:-1], sides, rules)
    start = len(scores) - 1 if previous is not None else 0
    for index in range(start, len(scores)):
        score = scores[index]
        known, checked_sides, checked_rules = _SOUND.get(id(score), _NONE)
        if checked_sides == sides and checked_rules is rules and known() is score:
            continue  # this very score was found sound before: states share their scores
        name = f"deal_scores[{index}]"
        first = next(_deal_score(name, score, sides), None) or next(
            _deal_winners(name, score, rules), None
        )
        if first is not None:
            yield first
            return
        _remember(score, sides, rules)
    _remember_run(scores, sides, rules, previous)


# Deal scores found sound, by identity, with the sides and the profile they were checked
# for: every state of a match shares the scores of the deals before, so a view checked
# at every move (a server's) would otherwise check the whole match's scores again each
# time. Each entry goes when its score is freed.
_SOUND: dict[int, tuple[Callable[[], object], int, Rules | None]] = {}
_NONE: tuple[Callable[[], object], int, Rules | None] = (lambda: None, 0, None)


def _remember(score: DealScore, sides: int, rules: Rules) -> None:
    key = id(score)
    forget = _SOUND.pop  # bound now: the callback may run while the interpreter exits
    _SOUND[key] = (weakref.ref(score, lambda _: forget(key, None)), sides, rules)


# Whole runs of deal scores found sound, by the identity of their last score, with the
# scores before it, the sides, the profile and each side's points in the run. Every
# state of a deal shares one tuple of scores, so a view checked at every move (a
# server's) costs one comparison of identities, in C, not a check in Python of every
# score (quadratic in a long match's deals). Identities, not equality: an equal score
# need not be sound (1.0 == 1, True == 1). A tuple cannot be weakly referenced, its last
# score can, and lives as long as it: an entry goes when that score is freed, and the
# run it extends when it is remembered; the table is emptied when full (a caller may
# keep the last score of many matches, each holding its run's scores).
_Run = tuple[Callable[[], object], tuple[DealScore, ...], int, Rules, tuple[int, ...]]
_SOUND_RUNS: dict[int, _Run] = {}
_RUNS_KEPT = 256


def _sound_run(scores: tuple[DealScore, ...], sides: int, rules: Rules) -> _Run | None:
    """The entry of ``scores`` if these very scores were found sound together for
    ``sides`` and ``rules``."""
    run = _SOUND_RUNS.get(id(scores[-1])) if scores else None
    if run is None or run[0]() is not scores[-1] or run[2] != sides or run[3] is not rules:
        return None
    before = run[1]
    if len(before) != len(scores) - 1 or not all(map(operator.is_, before, scores)):
        return None
    return run


def _remember_run(
    scores: tuple[DealScore, ...], sides: int, rules: Rules, previous: _Run | None
) -> None:
    """Remember ``scores`` as sound; ``previous``: the entry of all but the last."""
    if not scores:
        return
    *before, last = scores
    if any(score is last for score in before):
        return  # (a hand-built run holding it twice: its entry would keep it alive)
    if len(_SOUND_RUNS) >= _RUNS_KEPT:
        _SOUND_RUNS.clear()  # (one call: safe while other threads look entries up)
    if previous is not None:  # one entry per match under way: the run this one extends
        _SOUND_RUNS.pop(id(before[-1]), None)
        earned = tuple(map(operator.add, previous[4], last.points))
    else:
        earned = tuple(sum(score.points[side] for score in scores) for side in range(sides))
    key = id(last)
    forget = _SOUND_RUNS.pop  # bound now: the callback may run while the interpreter exits
    ref = weakref.ref(last, lambda _: forget(key, None))
    _SOUND_RUNS[key] = (ref, tuple(before), sides, rules, earned)


# --- the deal scores ----------------------------------------------------------------------

# The fields naming the side that won a category, or None.
_WINNER_FIELDS = (
    "cards_winner",
    "diamonds_winner",
    "bermila_winner",
    "seven_of_diamonds_winner",
    "primiera_winner",
)
# How many diamonds there are: the diamonds category's whole.
_DIAMONDS = sum(1 for c in DECK if c.suit is Suit.DIAMONDS)
# The per-side tallies, with how many cards of that kind there are (None: no such bound).
_TALLY_FIELDS: dict[str, int | None] = {
    "chkobbas": None,
    "points": None,
    "card_counts": len(DECK),
    "diamond_counts": _DIAMONDS,
    "seven_counts": 4,
    "six_counts": 4,
    "primiera_sums": None,
}


# Bounds of the tallies that are no count of cards (the points follow from these).
_MOST_CHKOBBAS = len(DECK) // 2
_BEST_PRIMIERA = 4 * max(PRIMIERA_VALUES.values())


def deal_score_problem(score: DealScore, sides: int, name: str = "deal_score") -> str | None:
    """The first problem of a deal score of ``sides`` sides, said of ``name``, or
    ``None``: what :func:`check_state` checks of each of a state's ``deal_scores`` (for
    a deal score that comes alone, a move's outcome)."""
    return next(_deal_score(name, score, sides), None)


#: How many sides a deal is scored for: 2 (two players, or four in partnerships) or 3.
SIDE_COUNTS = tuple(sorted({sides_of(players) for players in PLAYER_COUNTS}))


def lone_deal_score_problem(score: DealScore, name: str = "deal_score") -> str | None:
    """:func:`deal_score_problem` for a deal score that comes without its state (a
    move's outcome, :meth:`DealScore.from_dict <chkobba.DealScore.from_dict>`): its
    sides are as many as its ``points``, which must be 2 or 3."""
    points = score.points
    sides = len(points) if type(points) is tuple else 0
    if sides not in SIDE_COUNTS:
        return (
            f"{name}.points must be {' or '.join(map(str, SIDE_COUNTS))} whole numbers, "
            f"one per side, not {shown(points)}"
        )
    return deal_score_problem(score, sides, name)


def _deal_score(name: str, score: DealScore, sides: int) -> Iterator[str]:
    """The first problem of one deal score: the fields score_deal fills, per side."""
    for field in _WINNER_FIELDS:
        won = getattr(score, field)
        if won is not None and not (_seat(won) and 0 <= won < sides):
            yield f"{name}.{field} must be a side from 0 to {sides - 1} or None, not {shown(won)}"
            return
    for field, most in _TALLY_FIELDS.items():
        values = getattr(score, field)
        if field == "primiera_sums" and type(values) is tuple and not values:
            continue  # its default: a DealScore built by hand may leave it out
        if type(values) is not tuple or len(values) != sides or not _counts(values):
            yield (
                f"{name}.{field} must be {sides} whole numbers >= 0, one per side, "
                f"not {shown(values)}"
            )
            return
        if most is not None and sum(values) > most:
            yield f"{name}.{field} {shown(values)} count more than the {most} cards there are"
            return
    if sum(score.chkobbas) > _MOST_CHKOBBAS:
        yield (
            f"{name}.chkobbas {shown(score.chkobbas)} are more than the {_MOST_CHKOBBAS} a "
            "deal can make (each takes two cards or more)"
        )
        return
    if score.primiera_sums and max(score.primiera_sums) > _BEST_PRIMIERA:
        yield (
            f"{name}.primiera_sums {shown(score.primiera_sums)} pass the best sum there is, "
            f"{_BEST_PRIMIERA} (the four sevens)"
        )
        return
    winners = [getattr(score, field) for field in _WINNER_FIELDS]
    earned = tuple(n + winners.count(side) for side, n in enumerate(score.chkobbas))
    if score.points != earned:
        yield (
            f"{name}.points {shown(score.points)} are not the chkobbas plus the categories "
            f"won, {shown(earned)}"
        )


def _deal_winners(name: str, score: DealScore, rules: Rules) -> Iterator[str]:
    """Each category's winner as the profile decides it from the deal score's tallies
    (score_deal's own rules: majority, bermila, unique_best). Where the tallies cannot
    tell (who holds the 7D; a tie the last capturer breaks under
    ``ties_to_last_capturer``), every winner they allow is taken."""
    if _plainly_won(score, rules):  # the common case, without building the sets below
        return
    allowed: dict[str, set[int | None]] = {
        "cards_winner": _majorities(score.card_counts, len(DECK) // 2, rules),
        "diamonds_winner": _majorities(score.diamond_counts, _DIAMONDS // 2, rules),
        "bermila_winner": {
            bermila(score.seven_counts, score.six_counts) if rules.sevens_bermila else None
        },
        "seven_of_diamonds_winner": _seven_holders(score, rules),
    }
    if not rules.primiera or score.primiera_sums:  # (no sums: a score built by hand)
        allowed["primiera_winner"] = {unique_best(score.primiera_sums) if rules.primiera else None}
    for field, winners in allowed.items():
        won = getattr(score, field)
        if won not in winners:
            said = " or ".join(
                "nobody" if side is None else f"side {side}"
                for side in sorted(winners, key=lambda side: -1 if side is None else side)
            )
            yield (
                f"{name}.{field} is {shown(won)}, but its tallies give {said} under the "
                f"{rules.name} profile"
            )
            return


def _plainly_won(score: DealScore, rules: Rules) -> bool:
    """Whether each winner is the one its tallies give with no tie to break (every deal
    score the engine makes, but for a tie broken by the last capturer)."""
    cards, diamonds, sevens = score.card_counts, score.diamond_counts, score.seven_counts
    holder = score.seven_of_diamonds_winner
    return (
        score.cards_winner == majority(cards, len(DECK) // 2, rules, None)
        and score.diamonds_winner == majority(diamonds, _DIAMONDS // 2, rules, None)
        and score.bermila_winner
        == (bermila(sevens, score.six_counts) if rules.sevens_bermila else None)
        and (
            (holder is None and (not rules.seven_of_diamonds or sum(cards) < len(DECK)))
            or (
                holder is not None
                and rules.seven_of_diamonds
                and sevens[holder] > 0
                and diamonds[holder] > 0
            )
        )
        and (
            (rules.primiera and not score.primiera_sums)  # first: no sums to compare
            or score.primiera_winner
            == (unique_best(score.primiera_sums) if rules.primiera else None)
        )
    )


def _majorities(counts: tuple[int, ...], half: int, rules: Rules) -> set[int | None]:
    """Who may win the cards or the diamonds with ``counts``: the last capturer's side
    breaks a tie under ``ties_to_last_capturer``, and the deal score does not say it."""
    found = {majority(counts, half, rules, None)}
    if rules.ties_to_last_capturer:
        found |= {majority(counts, half, rules, side) for side in range(len(counts))}
    return found


def _seven_holders(score: DealScore, rules: Rules) -> set[int | None]:
    """Who may hold the 7D: a side with a seven and a diamond, or nobody while some cards
    were left to nobody (no capture in the whole deal)."""
    if not rules.seven_of_diamonds:
        return {None}
    sides = range(len(score.card_counts))
    found: set[int | None] = {
        side for side in sides if score.seven_counts[side] and score.diamond_counts[side]
    }
    if sum(score.card_counts) < len(DECK):
        found.add(None)
    return found


def _counts(values: tuple[object, ...]) -> bool:
    return all(type(v) is int and v >= 0 for v in values)


# --- the cards ----------------------------------------------------------------------------


def _places(state: State) -> Iterator[tuple[str, tuple[Card, ...]]]:
    yield "stock", state.stock
    yield "table", state.table
    for player, hand in enumerate(state.hands):
        yield f"hands[{player}]", hand
    for side, pile in enumerate(state.captured):
        yield f"captured[{side}]", pile


def _partition(state: State) -> Iterator[str]:
    found: dict[Card, str] = {}
    for place, group in _places(state):
        for one in group:
            if one in found:
                yield twice(one, found[one], place)
                return
            found[one] = place
    missing = [c for c in DECK if c not in found]
    if missing:
        yield f"{missing[0]} is nowhere ({len(missing)} of the 40 cards missing)"


# --- the phase ----------------------------------------------------------------------------


def _phase(state: State) -> Iterator[str]:
    phase, moving = state.phase, state.current_player
    if (moving is not None) != (phase in (Phase.CUT, Phase.PLAY)):
        expected = "a player" if moving is None else "None"
        yield f"current_player must be {expected} in phase {phase.name}"
    elif (state.winner is not None) != (phase is Phase.OVER):
        yield f"winner must be set exactly in phase OVER, not {shown(state.winner)} in {phase.name}"
    elif phase is Phase.PLAY:
        yield from _play_phase(state)
    elif phase is Phase.CUT:
        yield from _cut_phase(state)
    else:
        yield from _between_deals(state)


def _cut_phase(state: State) -> Iterator[str]:
    if not state.rules.cut:
        yield f"the {state.rules.name} profile has no cut (rules.cut is False): no phase CUT"
    elif state.current_player != state.cutter:
        yield f"the cutter is player {state.cutter}, not player {state.current_player}"
    elif len(state.stock) != len(DECK):
        yield f"in phase CUT the stock holds the 40 shuffled cards, not {len(state.stock)}"
    elif any(state.chkobbas) or state.last_capturer is not None:
        yield "in phase CUT nobody has captured yet (chkobbas, last_capturer)"


def _play_phase(state: State) -> Iterator[str]:
    players, cutter = state.players, state.cutter
    order = [(cutter + k) % players for k in range(players)]
    sizes = [len(state.hands[p]) for p in order]
    at = order.index(state.current_player)  # type: ignore[arg-type]
    held = sizes[at]
    expected = [held - 1] * at + [held] * (players - at)
    if not 1 <= held <= HAND_SIZE or sizes != expected:
        shown_sizes = ", ".join(f"player {p}: {n}" for p, n in zip(order, sizes, strict=True))
        yield (
            f"hand sizes ({shown_sizes}) do not fit a round led by player {cutter} with "
            f"player {state.current_player} to move"
        )
    elif len(state.stock) % (HAND_SIZE * players):
        yield (
            f"the stock holds {len(state.stock)} cards, not a whole number of rounds "
            f"({HAND_SIZE * players} cards each)"
        )
    elif any(state.captured) and _played(state) == 0:
        yield "cards lie in a pile, but no card has been played this deal"
    elif sum(state.chkobbas) > _played(state):
        yield (
            f"{shown(sum(state.chkobbas))} chkobba(s) but only {_played(state)} card(s) "
            "played this deal"
        )
    elif not any(state.captured) and _voids(state.table[:TABLE_SIZE], state.rules):
        # Nothing captured yet: the table's first four cards are the ones dealt (a card
        # that takes nothing is laid after them), and the engine deals such a table again.
        rules = state.rules
        yield (
            f"the table dealt, {format_cards(state.table[:TABLE_SIZE])}, voids the deal under the "
            f"{rules.name} profile (void_deal {rules.void_deal!r}): it is dealt again, "
            "never played"
        )


def _played(state: State) -> int:
    """How many cards have been played this deal: dealt to the hands (all but the four
    on the table, less the stock), less those still held."""
    dealt = len(DECK) - TABLE_SIZE - len(state.stock)
    return dealt - sum(len(hand) for hand in state.hands)


def _voids(dealt: tuple[Card, ...], rules: Rules) -> bool:
    return _kernel.is_void([card.index for card in dealt], rules)


def _between_deals(state: State) -> Iterator[str]:
    if any(state.hands):
        yield f"hands must be empty in phase {state.phase.name}"
    elif len(state.stock) not in (0, len(DECK)):
        yield (
            f"between deals the stock holds all 40 cards (a new match, a void deal) or none "
            f"(after a deal), not {len(state.stock)}"
        )
    elif not state.stock and not state.deal_scores:
        yield "the stock is empty after a deal, but no deal has been scored"
    elif state.table and state.last_capturer is not None:
        yield "after a deal the table holds leftovers only when nobody captured"
    elif not state.stock:
        yield from _last_deal(state)


def _last_deal(state: State) -> Iterator[str]:
    """After a deal its piles and chkobbas stay in place: scored again, they must give the
    last deal score, field by field."""
    last = state.deal_scores[-1]
    side = None if state.last_capturer is None else state.side_of(state.last_capturer)
    # The engine's own scorer (score_deal's result, without its input checks: the cards
    # and counts are checked above): a server checks a state at every move.
    again = _kernel.score(state.captured, state.chkobbas, state.rules, side)
    for field in attrs.fields(DealScore):
        found, scored = getattr(last, field.name), getattr(again, field.name)
        if found != scored and not (field.name == "primiera_sums" and found == ()):
            # (no primiera sums: a deal score built by hand, or read from an older version)
            yield (
                f"deal_scores[-1].{field.name} is {shown(found)}, but the piles and "
                f"chkobbas the deal left give {shown(scored)}"
            )
            return


# --- scores, chkobbas, the last capture ---------------------------------------------------


def _scores(state: State) -> Iterator[str]:
    decided = match_winner(state.scores, state.rules.target)
    if state.phase is Phase.OVER and decided != state.winner:
        yield f"scores {shown(state.scores)} do not make side {state.winner} the winner"
    elif state.phase is not Phase.OVER and decided is not None:
        yield (
            f"scores {shown(state.scores)} decide the match, but the phase is {state.phase.name}"
        )
    run = _sound_run(state.deal_scores, len(state.scores), state.rules)
    sums = run[4] if run is not None else None
    for side, total in enumerate(state.scores):
        earned = sums[side] if sums else sum(score.points[side] for score in state.deal_scores)
        if earned > total:
            yield (
                f"side {side} scored {shown(earned)} in its deals but has a total of {shown(total)}"
            )
            return


def _captures(state: State) -> Iterator[str]:
    for side, (pile, sweeps) in enumerate(zip(state.captured, state.chkobbas, strict=True)):
        if len(pile) == 1:  # a capture takes the card played and one from the table at least
            yield f"side {side}'s pile holds 1 card: a capture adds 2 at least"
            return
        if 2 * sweeps > len(pile):
            yield f"side {side} has {shown(sweeps)} chkobba(s) but only {len(pile)} captured cards"
            return
    last = state.last_capturer
    if last is None and any(state.captured):
        yield "captured cards lie in a pile, but last_capturer is None"
    elif last is not None and not state.captured[state.side_of(last)]:
        yield f"last_capturer is player {last}, whose side's pile is empty"


# Shared with chkobba.actions (not in __all__), whose bound on capture options rests on it.
def table_repeats_limit(rules: Rules) -> int:
    """How many table cards can share a capture value with another under ``rules``.

    A card that can capture must, and one whose value is on the table always can, so a
    card laid on the table never shares a value with one there: only the four dealt can
    pair up. Two repeats at most when three of a rank void the deal and no two ranks
    share a value (two pairs), three otherwise.

    >>> from chkobba.checks import table_repeats_limit
    >>> table_repeats_limit(TUNISIAN), table_repeats_limit(CARD_RULES_PLUS)
    (2, 3)
    """
    distinct = len(set(rules.capture_values)) == len(rules.capture_values)
    if rules.void_deal == "three_of_a_rank" and distinct:
        return TABLE_SIZE - 2
    return TABLE_SIZE - 1


def _table(state: State) -> Iterator[str]:
    # Without it a hand-built table of 36 cards worth 1 would let a king worth 6 choose
    # among two million groups: listing the plays would exhaust time and memory.
    rules, table = state.rules, state.table
    repeats = len(table) - len({rules.value(card.rank) for card in table})
    limit = table_repeats_limit(rules)
    if repeats > limit:
        yield (
            f"the table {format_cards(table)} repeats capture values {repeats} times: a card "
            f"whose value is on the table captures, so only the four dealt can share one "
            f"({limit} repeats at most under the {rules.name} profile)"
        )


# In order: each check may rely on what the checks before it passed.
_CHECKS: tuple[Check, ...] = (_types, _seats, _partition, _phase, _scores, _captures, _table)
