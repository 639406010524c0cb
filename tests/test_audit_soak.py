"""A long-running process keeps its memory bounded (audit: the soak of a game server).

A server hosts match after match (several at once), with bots, house profiles made on
the fly, views and states sent as JSON and read back, records written and loaded,
``Game`` objects with undo, ``apply_with_outcome`` events, and environments reset again
and again. Every module-level cache of the library must stay within its bound under
such use, also adversarial use: many distinct profiles, many seatings (refused ones
too), cards and moves read from ever new texts, bots made and dropped, evaluators kept
for the whole run. The caches, and the bound each keeps:

- per profile, at most ``_kernel.PROFILES_KEPT`` (64) entries each: ``_kernel._KERNELS``,
  ``_plays._LOOKUPS``, ``_playout._SHUFFLES``, ``bots._policy_rollout._TABLES`` (the last
  two keyed by kernel), ``state._FRESH`` (fresh matches by profile identity and seating,
  ``_FRESH_LIMIT``) and ``actions._max_capture_options`` (an lru of 64). The four that
  hold kernels are emptied together: at most 64 + 2 kernels live;
- per kernel, ``Kernel.cache`` (table signatures, cleared past ``_kernel._KEPT``) and
  ``Kernel._groups`` (emptied with it);
- by value: ``captures.sum_groups`` (an lru of 65,536), the estimates'
  ``evaluation._majority`` and ``_bermila`` (lrus of ``_ESTIMATES_KEPT``),
  ``_SPLITS`` and ``_BERMILAS`` (cleared past ``evaluation._KEPT``), ``_dealt_ways`` (cards
  still out: 0 to 40);
- by seating: ``_kernel._EMPTY_HANDS``, ``_REFILLS``, ``_PLANS``, ``_playout._ROUNDS``
  (checked before they are stored), ``_shuffle._STEPS`` (by length, at most 40 cards);
- ``checks._SOUND``: deal scores found sound, each forgotten when its score is freed;
- ``cards._INTERNED`` and ``cards._BY_TEXT``: filled at import, never after.

Each test plays a workload for K units and then for 2K more, and asserts on the sizes of
the caches it reaches and, with :mod:`tracemalloc` (after ``gc.collect()``), on the memory
retained from K to 3K units, below a bound worked out from what a unit may keep (the
comment at each bound). Where a workload's caches fill with what it meets (tables,
piles), the 2K later units replay the first K, so that a bounded cache holds the same
after K and after 3K units and any growth is a leak; measured so, the growth is under a
kilobyte (Python 3.10 to 3.13). Nothing is timed. ``benchmarks/soak.py`` runs the same
workloads at length and prints the figures.

Two leaks were found and fixed (CHANGELOG.md, "Hardening (#10)"): ``Game.undo`` of a
shuffle left it in the game's count of shuffles played (at zero), so a game whose deals
are dealt and taken back again and again grew by one shuffle (about 450 bytes) each
time; and ``evaluation._ways``, a cache without a bound, kept what ``tallies_estimates``
(unchecked) works out for pile sizes no deal makes, megabytes each. And the caches kept
per kernel, each emptied alone, kept alive up to 4 x 64 + 2 kernels: they are emptied
with the kernels now.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import pkgutil
import random
import sys
import tracemalloc
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, FunctionType
from typing import Any

import attrs
import pytest

import chkobba
from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    Game,
    Move,
    MoveOutcome,
    Phase,
    PlayerView,
    Record,
    Rules,
    State,
    _kernel,
    _playout,
    _plays,
    _shuffle,
    actions,
    apply,
    apply_with_outcome,
    captures,
    card,
    cards,
    checks,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
    state,
)
from chkobba.actions import num_actions
from chkobba.arena import play_match
from chkobba.bots import (
    Bot,
    ExpertBot,
    GreedyBot,
    ISMCTSBot,
    RandomBot,
    _policy_rollout,
    evaluation,
    make_bot,
)
from chkobba.bots.evaluation import deal_estimate, side_estimates

# (``chkobba.cards`` is also the name of a function the package exports.)
cards_module = importlib.import_module("chkobba.cards")

#: A match of a deal or two (38 or 76 moves): the server's workload plays many of them.
SHORT = attrs.evolve(TUNISIAN, name="soak", target=3)


#: CPython's type attribute cache keeps the name of each attribute looked up (up to 4,096
#: entries, by the name's address): a name made anew at each lookup, as ``json.loads``
#: with hooks makes ``"object_pairs_hook"`` (60 bytes) each time, stays until its entry is
#: reused. Emptied before each measure, it leaves the library's own memory alone.
_clear_type_cache = getattr(sys, "_clear_internal_caches", sys._clear_type_cache)


@pytest.fixture
def traced() -> Iterator[Callable[[], int]]:
    """The memory traced now, after a full collection (tracing for the test's length)."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()

    def retained() -> int:
        _clear_type_cache()
        gc.collect()
        if sys.version_info >= (3, 11):
            return tracemalloc.get_traced_memory()[0]
        # Python 3.10 keeps a frame of each function for its next call (its "zombie"
        # frame, about 500 bytes), made and dropped as calls come: traced at the
        # function's first line, it is left out.
        firsts = _first_lines()
        traces = tracemalloc.take_snapshot().traces
        return sum(t.size for t in traces if _where(t.traceback) not in firsts)

    try:
        yield retained
    finally:
        if started:
            tracemalloc.stop()


def _where(traceback: tracemalloc.Traceback) -> tuple[str, int]:
    return traceback[0].filename, traceback[0].lineno


def _first_lines() -> set[tuple[str, int]]:
    """Where each function of the process starts, its nested functions' too."""
    codes = [each.__code__ for each in gc.get_objects() if isinstance(each, FunctionType)]
    found = set()
    while codes:
        code = codes.pop()
        found.add((code.co_filename, code.co_firstlineno))
        codes += [each for each in code.co_consts if isinstance(each, CodeType)]
    return found


def _run(unit: Callable[[int], None], numbers: range) -> None:
    for number in numbers:
        unit(number)


# --- house profiles made on the fly --------------------------------------------------------


def _house(number: int) -> Rules:
    """A profile of its own (name, target, switches), with the Tunisian capture values
    (whose action count is quick to work out)."""
    rng = random.Random(number)
    return attrs.evolve(
        TUNISIAN,
        name=f"house {number}",
        target=5 + number % 200,
        players=rng.choice([(2,), (2, 4)]),
        cut=rng.random() < 0.7,
        courts_capture_sums=rng.random() < 0.8,
        last_card_chkobba=rng.random() < 0.5,
        majority=rng.choice(["more_than_half", "most"]),
        primiera=rng.random() < 0.3,
    )


def _profile_unit(number: int) -> None:
    """What a server does with a house profile it meets: reads it from JSON (an equal,
    distinct object), deals and plays under it, rolls out, asks a bot, counts its actions."""
    made = _house(number)
    read = Rules.from_dict(json.loads(json.dumps(made.to_dict())))
    rng = random.Random(number)
    players = made.players[number % len(made.players)]
    match = new_match(players, dealer=number % players, rules=read)
    while match.phase is not Phase.PLAY:
        chance = match.is_chance
        match = apply(match, random_shuffle(rng) if chance else legal_moves(match)[0])
    seat = match.current_player
    assert seat is not None
    ISMCTSBot(iterations=2, seed=number).choose(observe(match, seat), legal_moves(match))
    for _ in range(6):
        match = apply(match, rng.choice(legal_moves(match)))
    rollout(new_match(players, rules=made), rng, until="deal")
    assert num_actions(read) == num_actions(TUNISIAN)


#: The most profiles each per-profile cache keeps (``_kernel.PROFILES_KEPT``, and
#: ``state._FRESH_LIMIT`` and the lru's size alike): written out, not read from them, so
#: that a bound made larger, or none, fails here instead of making the test run longer.
PROFILES_KEPT = 64

#: The caches that keep something per profile.
_PER_PROFILE: dict[str, Callable[[], int]] = {
    "_kernel._KERNELS": lambda: len(_kernel._KERNELS),
    "_plays._LOOKUPS": lambda: len(_plays._LOOKUPS),
    "_playout._SHUFFLES": lambda: len(_playout._SHUFFLES),
    "_policy_rollout._TABLES": lambda: len(_policy_rollout._TABLES),
    "state._FRESH": lambda: len(state._FRESH),
    "actions._max_capture_options": lambda: actions._max_capture_options.cache_info().currsize,
}


def _live_kernels() -> int:
    """The kernels of the test's house profiles alive (other tests may hold others)."""
    kernels = [each for each in gc.get_objects() if type(each) is _kernel.Kernel]
    return sum(1 for each in kernels if each.rules.name.startswith("house "))


def test_house_profiles_made_on_the_fly_keep_at_most_64_of_each_cache(
    traced: Callable[[], int],
) -> None:
    # Each per-profile cache starts afresh when it holds PROFILES_KEPT (64) profiles.
    # The kernels' caches are emptied first, so that each unit adds one profile to each
    # and they all clear at the same unit: after K = 32 and 3K = 96 units (96 = 64 + 32)
    # each holds 32 profiles again, and the memory they hold is the same but for the
    # tables each profile's deal met. (The profiles in use rebuild what they need.)
    for cache in (_kernel._KERNELS, _plays._LOOKUPS, _playout._SHUFFLES, _policy_rollout._TABLES):
        cache.clear()
    k = PROFILES_KEPT // 2
    _run(_profile_unit, range(k))
    after_k = traced()
    _run(_profile_unit, range(k, 3 * k))
    grown = traced() - after_k
    sizes = {name: size() for name, size in _PER_PROFILE.items()}
    assert max(sizes.values()) <= PROFILES_KEPT, sizes
    # The caches kept per kernel or per profile are emptied with the kernels: at most 64
    # kernels live, and the two "last one" shortcuts. (Each emptied alone, they kept up
    # to 4 x 64 + 2 alive, 126 in a soak of 1,152 profiles.)
    assert _live_kernels() <= PROFILES_KEPT + 2
    # One profile keeps about 145 kB (measured): its kernel (50 kB), lookups (2.5 kB),
    # rollout tables (36 kB) and shuffle plan (4.5 kB), its fresh matches, and the tables
    # its first deal met (50 kB). Kept without bound, the 64 more profiles would hold
    # some 9 MB more; 1 MB is under 7 profiles, and the difference between what two sets
    # of 32 profiles' deals met is far less (10 kB, measured).
    assert grown < 1_000_000, f"{grown:,} bytes more after {2 * k} more profiles"


def test_kernels_dropped_are_not_kept_alive_by_the_caches_of_other_modules() -> None:
    # Profiles rolled out fill the rollout's per-kernel cache; profiles only listed after
    # them clear the kernels. Each cache emptied alone, the rollout's kept its 40 old
    # kernels alive beside the 64 new ones (up to 4 x 64 + 2 so); emptied together, the
    # kernels alive are at most 64 and the two "last one" shortcuts.
    for number in range(1000, 1040):
        rollout(new_match(rules=_house(number)), random.Random(number))
    for number in range(2000, 2000 + PROFILES_KEPT + 10):
        match = apply(new_match(rules=_house(number)), random_shuffle(random.Random(number)))
        legal_moves(apply(match, legal_moves(match)[0]) if match.phase is Phase.CUT else match)
    gc.collect()
    assert _live_kernels() <= PROFILES_KEPT + 2


# --- the server's matches ------------------------------------------------------------------


def _seats(number: int, players: int) -> list[Bot]:
    """The bots of a match: random and greedy, and now and then a searching one."""
    seats: list[Bot] = []
    for seat in range(players):
        seed = number * 10 + seat
        seats.append(GreedyBot(seed=seed) if (seat + number) % 2 else RandomBot(seed=seed))
    if number % 4 == 1:
        inference = number % 3 if players == 2 else 0  # (it reads 2-player matches)
        seats[1] = ISMCTSBot(iterations=3, seed=number, inference=inference)
    elif number % 4 == 3:
        seats[1] = ExpertBot(iterations=3, budget=20, seed=number)
    return seats


def _server_match(number: int, folder: Path) -> None:
    """A short match as a server plays it (see benchmarks/soak.py's ``server``): seat 0
    a client sent its view as JSON, every move sent as text, every event sent as JSON,
    a state saved at each deal's end, a take-back in each deal, the record kept."""
    players = 4 if number % 3 == 2 else 2
    game = Game(players, dealer=number % players, seed=number, rules=SHORT)
    seats = _seats(number, players)
    game.deal()
    game.undo()  # dealt again: the host took the shuffle back
    game.deal()
    taken_back: set[int] = set()
    while not game.is_over:
        if game.is_chance:
            game.deal()
            continue
        before = game.state
        seat = before.current_player
        assert seat is not None
        if seat == 0:
            view = PlayerView.from_dict(json.loads(json.dumps(observe(before, 0).to_dict())))
            move: Move = seats[0].choose(view, legal_moves(view))
        else:
            move = seats[seat].choose(observe(before, seat), legal_moves(before))
        after, outcome = apply_with_outcome(before, move)
        assert MoveOutcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
        game.play(str(move), seat=seat)
        deals = len(before.deal_scores)
        if before.phase is Phase.PLAY and deals not in taken_back:
            taken_back.add(deals)
            game.undo()
            game.play(move)
        if len(after.deal_scores) > deals:
            assert State.from_dict(json.loads(json.dumps(after.to_dict()))) == after
    record = game.record(tags={"table": str(number)})
    text = record.to_json(compact=True)
    assert Record.from_json(text) == record
    lines = folder / "records.jsonl"
    with lines.open("a", encoding="utf-8") as file:
        file.write(text + "\n")
    if number % 4 == 0:
        assert Record.load_lines(lines)[-1] == record
        lines.unlink()
        record.save(folder / "match.json")
        again = Game.from_record(Record.load(folder / "match.json"), seed=number)
        again.undo()


def test_a_server_playing_match_after_match_keeps_nothing_of_the_matches_over(
    traced: Callable[[], int], tmp_path: Path
) -> None:
    # K matches, then the same K matches twice more: what the caches keep by content
    # (tables met, value tuples, estimates) they already hold after the first K, and
    # the matches themselves are over and dropped. Nothing more is legitimately kept.
    k = 8
    unit = functools.partial(_server_match, folder=tmp_path)
    _run(unit, range(k))
    after_k = traced()
    sound = len(checks._SOUND)
    _run(unit, range(k))
    _run(unit, range(k))
    grown = traced() - after_k
    # Deal scores are remembered while they live: none of a match over.
    assert len(checks._SOUND) <= sound
    # A match has 38 or 76 moves (one deal or two; a state is about 750 bytes): anything
    # kept per move would be 28 kB a match or more, 450 kB over the 16; anything kept per
    # match (a state, a record, a game, a bot) 750 bytes or more, 12 kB over the 16.
    # 4 kB is the slack of the allocator (under 100 bytes, measured).
    assert grown < 4_000, f"{grown:,} bytes more after {2 * k} more matches"


def test_deal_scores_checked_in_views_are_forgotten_with_their_matches() -> None:
    # A view checked at every move remembers its deal scores as sound, by identity, for
    # as long as each score lives: a match over and dropped leaves nothing.
    before = len(checks._SOUND)
    kept: list[State] = []
    for number in range(3):
        result = play_match(["random", "random"], seed=number)  # five deals or more
        match = result.record.start()
        for move in result.record.moves:
            match = apply(match, move)
            if match.current_player is not None:
                legal_moves(observe(match, match.current_player))
        kept.append(match)
    scores = {id(score) for match in kept for score in match.deal_scores}
    assert len(scores) >= 15
    assert len(checks._SOUND) <= before + len(scores)
    del kept, match, result
    gc.collect()
    assert len(checks._SOUND) <= before


# --- bots made and dropped, evaluators kept ------------------------------------------------

_SPECS = (
    "random",
    "greedy",
    "ismcts:iterations={n},inference={i}",
    "expert:iterations={n},budget={b},inference={i}",
)


def _bots_match(number: int, made: list[weakref.ref[Any]] | None = None) -> None:
    """A one-deal match between bots made for it, with options of their own."""
    players = 4 if number % 4 == 3 else 2
    bots = []
    for seat in range(players):
        spec = _SPECS[(number + seat) % len(_SPECS)]
        inference = number % 3 if players == 2 else 0  # (it reads 2-player matches)
        text = spec.format(n=2 + (number + seat) % 3, b=10 + number % 20, i=inference)
        bot = make_bot(text, seed=number * 10 + seat)
        if made is not None:
            made.append(weakref.ref(bot))
        bots.append(bot)
    play_match(bots, seed=number, players=players, rules=SHORT)


def test_bots_made_for_each_match_are_dropped_with_it(traced: Callable[[], int]) -> None:
    k = 8
    made: list[weakref.ref[Any]] = []
    _run(functools.partial(_bots_match, made=made), range(k))
    after_k = traced()
    assert [ref for ref in made if ref() is not None] == []  # every bot is gone
    _run(_bots_match, range(k))
    _run(_bots_match, range(k))
    grown = traced() - after_k
    # The same matches again: the caches hold what they met the first time. A bot keeps
    # its generator (2.5 kB) and, searching, a tree per decision (tens of kB): kept per
    # match, 16 more matches would hold 40 kB or more. 4 kB is the allocator's slack.
    assert grown < 4_000, f"{grown:,} bytes more after {2 * k} more matches"


def _turns_of_seat_0(number: int) -> list[State]:
    """Every position of a random 2-player match where seat 0 is to play, in order."""
    turns: list[State] = []

    def keep(before: State, move: Move, after: State) -> None:
        del before, move
        if after.phase is Phase.PLAY and after.current_player == 0:
            turns.append(after)

    play_match(["random", "random"], seed=number, rules=SHORT, on_move=keep)
    return turns


def test_evaluators_kept_for_the_whole_run_remember_one_round_at_most(
    traced: Callable[[], int],
) -> None:
    # A hint service keeps its bots and shows them seat 0's every turn, match after
    # match: with inference they remember the round they watch (at most the opponent's
    # three plays of it, two suspicions each), nothing of the rounds and matches before.
    expert = ExpertBot(iterations=4, budget=40, inference=2, seed=1)
    search = ISMCTSBot(iterations=4, inference=1, seed=2)
    turns = [turn for number in range(3) for turn in _turns_of_seat_0(number)]

    def hints(number: int) -> None:
        del number
        expert.rng.seed(1)  # the same searches again: the same tables and piles met
        search.rng.seed(2)
        for at, turn in enumerate(turns):
            view, legal = observe(turn, 0), legal_moves(turn)
            for bot in (expert, search):
                bot.choose(view, legal)
                if at % 4 == 0:
                    bot.evaluate(view, legal)
            assert len(expert._model.decisions) <= 3, len(expert._model.decisions)
            assert len(search._hands.suspicions) <= 6, len(search._hands.suspicions)

    hints(0)
    after_k = traced()
    hints(1)
    hints(2)
    grown = traced() - after_k
    # The same turns again: a searching bot's tree is dropped after each decision, its
    # memory of the round replaced at each view. Kept per decision (a tree is tens of
    # kB), the 2 x 2 x 54 decisions would hold megabytes; kept per view (a
    # view is about 1 kB), hundreds of kB. 4 kB is the allocator's slack.
    assert grown < 4_000, f"{grown:,} bytes more after asking again"


def test_the_estimates_remember_at_most_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # The estimates of piles at a deal's end, asked by every search, are remembered by
    # value: two lrus of _ESTIMATES_KEPT and two dicts cleared past _KEPT (made small
    # here, to reach it with a few thousand piles), and _dealt_ways by the cards still out.
    assert evaluation._majority.cache_parameters()["maxsize"] == evaluation._ESTIMATES_KEPT
    assert evaluation._bermila.cache_parameters()["maxsize"] == evaluation._ESTIMATES_KEPT
    kept = 100  # under the 1,225 ways 3 sides may hold the 4 sevens and the 4 sixes
    monkeypatch.setattr(evaluation, "_KEPT", kept)
    evaluation._dealt_ways.cache_clear()  # (what another caller left)
    three_sides = attrs.evolve(CARD_RULES_PLUS, sevens_bermila=True)
    rng = random.Random(5)
    for _ in range(1500):
        dealt = rng.sample(DECK, rng.randrange(41))
        cut_at = sorted(rng.randint(0, len(dealt)) for _ in range(2))
        three = [dealt[: cut_at[0]], dealt[cut_at[0] : cut_at[1]], dealt[cut_at[1] :]]
        side_estimates(three, [rng.randrange(4) for _ in range(3)], three_sides)
        deal_estimate(three[:2], [0, rng.randrange(3)])
    assert len(evaluation._SPLITS) <= kept
    assert len(evaluation._BERMILAS) <= kept
    assert evaluation._dealt_ways.cache_info().currsize <= len(DECK) + 1
    assert evaluation._majority.cache_info().currsize <= evaluation._ESTIMATES_KEPT


# --- the engine's caches by table, by seating, by text -------------------------------------


def test_a_kernel_forgets_its_tables_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hand-built states can hold any table (2**40 of them): a kernel keeps at most
    # _KEPT table signatures (made small here), and the groups of two or more cards it
    # worked out for them (at most 11 per table: the tables of its lower cards) go with them.
    kept = 200
    monkeypatch.setattr(_kernel, "_KEPT", kept)
    rules = attrs.evolve(TUNISIAN, name="tables")
    rng = random.Random(3)
    start = apply(apply(new_match(rules=rules), random_shuffle(rng)), Cut(keep=False))
    hand = start.hands[start.current_player]  # type: ignore[index]
    rest = [c for c in DECK if c not in hand]
    made = _kernel.kernel(rules)
    for _ in range(1500):
        table = tuple(rng.sample(rest, rng.randrange(1, 13)))
        legal_moves(attrs.evolve(start, table=table))
    assert len(made.cache) <= kept
    assert len(made._groups) <= (_kernel._EVERY_SUM_UP_TO - 1) * kept + 1


def _seatings_round(number: int) -> None:
    """Every seating of both named profiles, and refused ones: each refused count or
    dealer new, in matches and in states built by hand."""
    rng = random.Random(number)
    for rules in (TUNISIAN, CARD_RULES_PLUS):
        for players in rules.players:
            for dealer in range(players):
                match = apply(new_match(players, dealer=dealer, rules=rules), random_shuffle(rng))
                if match.phase is Phase.CUT:
                    match = apply(match, Cut(keep=number % 2 == 0))
                rollout(match, rng, until="deal")
                scores = [number % rules.target] * rules.sides(players)
                assert new_match(players, dealer=dealer, scores=scores, rules=rules).scores
    refused: list[tuple[Any, Any]] = [(5 + number, 0), (2.0, 0), (2, 2 + number), (4, -1 - number)]
    for players, dealer in refused:
        with pytest.raises(ChkobbaError):
            new_match(players, dealer=dealer)
    counts: tuple[Any, ...] = (5 + number, 1, 2.0, True, 10**30 + number)
    for players in counts:
        broken = attrs.evolve(new_match(), players=players)
        with pytest.raises(ChkobbaError):
            apply(broken, random_shuffle(rng))
        with pytest.raises(ChkobbaError):
            rollout(broken, rng)


_BY_SEATING: dict[str, tuple[Callable[[], int], int]] = {
    # Players 2, 3 or 4; a first player among them (9 seatings); a cut kept, exposed or none.
    "_kernel._EMPTY_HANDS": (lambda: len(_kernel._EMPTY_HANDS), 3),
    "_kernel._REFILLS": (lambda: len(_kernel._REFILLS), 9),
    "_kernel._PLANS": (lambda: len(_kernel._PLANS), 9 * 3),
    "_playout._ROUNDS": (lambda: len(_playout._ROUNDS), 9),
    # The library shuffles at most the 40 cards (the deck, the cards a bot cannot see);
    # a test of the private shuffle may have left longer ones.
    "_shuffle._STEPS": (lambda: sum(n <= len(DECK) for n in _shuffle._STEPS), len(DECK) + 1),
}


def test_seatings_refused_or_not_keep_one_plan_per_seating() -> None:
    k = 10
    _run(_seatings_round, range(k))
    after_k = {name: size() for name, (size, _) in _BY_SEATING.items()}
    steps = len(_shuffle._STEPS)
    _run(_seatings_round, range(k, 3 * k))
    after = {name: size() for name, (size, _) in _BY_SEATING.items()}
    assert after == after_k  # every seating was met in the first round
    assert len(_shuffle._STEPS) == steps  # no shuffle of another length
    assert all(after[name] <= bound for name, (_, bound) in _BY_SEATING.items()), after


def _spelled(text: str, rng: random.Random, spaces: int) -> str:
    """A card's text written another way (case, suit symbol, selector), with ``spaces``
    spaces around it: every text of the test is new."""
    symbols = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}
    suit: str = rng.choice([text[1], text[1].lower(), *symbols[text[1]]])
    if not suit.isascii() and rng.random() < 0.3:
        suit += "\ufe0f"
    rank: str = rng.choice([text[0], text[0].lower()])
    left = rng.randrange(spaces + 1)
    return " " * left + rank + suit + " " * (spaces - left)


def test_cards_and_moves_read_from_ever_new_texts_leave_nothing(traced: Callable[[], int]) -> None:
    rng = random.Random(7)
    match = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=True))
    legal = legal_moves(match)

    def texts(number: int) -> None:
        for at, each in enumerate(DECK):
            assert card(_spelled(str(each), rng, number % 97 + at % 3)) is each
            with pytest.raises(ChkobbaError):
                card(f"{each}{number}")
        assert cards(" ".join(_spelled(str(c), rng, number % 5) for c in DECK[:6])) == DECK[:6]
        for at, move in enumerate(legal):
            spaced = " " * (number % 11) + str(move).lower() + " " * (at % 3)
            assert parse_move(spaced, match) == move
            with pytest.raises(ChkobbaError):
                parse_move(f"{move} x {number}", match)

    _run(texts, range(10))
    after_k = traced()
    _run(texts, range(10, 30))
    grown = traced() - after_k
    assert len(cards_module._INTERNED) == len(DECK)
    assert len(cards_module._BY_TEXT) == 280  # each card in 7 spellings, 4 with selectors
    # 20 rounds of 40 new card texts, 40 that are no card, and new move texts: kept,
    # each would hold 50 bytes or more (over 40 kB in all). 4 kB is the allocator's slack.
    assert grown < 4_000, f"{grown:,} bytes more after reading 20 more rounds of texts"


# --- every lru cache of the library has a bound --------------------------------------------

#: functools caches without a size limit, each with what bounds its keys.
_KEYED_BY_A_SMALL_RANGE = {
    "chkobba.bots.evaluation._dealt_ways": "the cards still out, 0 to 40 (only those are asked)",
}


def _library_modules() -> Iterator[Any]:
    """Every module of the library (an adapter whose extra is missing left out)."""
    for found in pkgutil.walk_packages(chkobba.__path__, "chkobba."):
        try:
            yield importlib.import_module(found.name)
        except ImportError:
            continue


def test_every_functools_cache_of_the_library_has_a_bound() -> None:
    unbounded = []
    for module in _library_modules():
        for name, value in vars(module).items():
            wrapped = isinstance(value, functools._lru_cache_wrapper)
            if wrapped and value.__module__ == module.__name__:
                maxsize = value.cache_parameters()["maxsize"]
                unbounded += [f"{module.__name__}.{name}"] if maxsize is None else []
    assert unbounded == sorted(_KEYED_BY_A_SMALL_RANGE)
    assert captures.sum_groups.cache_parameters()["maxsize"] == 1 << 16


# --- the adapters reset again and again ----------------------------------------------------


def _gymnasium_episodes() -> Callable[[int], None]:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    environment = ChkobbaEnv("greedy", single_deal=True)

    def episode(number: int) -> None:
        rng = random.Random(number)  # the learner's choices, as the episode's seed
        _, info = environment.reset(seed=number)
        done = False
        while not done:
            mask = info["action_mask"]
            action = rng.choice([at for at in range(len(mask)) if mask[at]])
            _, _, terminated, truncated, info = environment.step(action)
            done = terminated or truncated

    return episode


def _pettingzoo_episodes() -> Callable[[int], None]:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env

    environment = env(players=4, single_deal=True)

    def episode(number: int) -> None:
        rng = random.Random(number)
        environment.reset(seed=number)
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                mask = observation["action_mask"]
                environment.step(rng.choice([at for at in range(len(mask)) if mask[at]]))

    return episode


def _openspiel_episodes() -> Callable[[int], None]:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401 - registers python_chkobba

    def episode(number: int) -> None:
        rng = random.Random(number)
        game = pyspiel.load_game("python_chkobba", {"players": 3, "rules": "cardrulesplus"})
        play = game.new_initial_state()
        while not play.is_terminal() and play.move_number() < 120:  # a deal is enough
            if play.is_chance_node():
                outcomes = play.chance_outcomes()
                play.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                play.apply_action(rng.choice(play.legal_actions()))

    return episode


@pytest.mark.parametrize(
    "episodes", [_gymnasium_episodes, _pettingzoo_episodes, _openspiel_episodes]
)
def test_an_environment_reset_again_and_again_keeps_nothing_per_episode(
    episodes: Callable[[], Callable[[int], None]], traced: Callable[[], int]
) -> None:
    # One environment for the whole test (under OpenSpiel, a game loaded anew for each
    # episode): K episodes twice, then the same K twice more, each episode replayed from
    # its seed, so that the caches hold its tables after the first K.
    k = 10
    episode = episodes()
    _run(episode, range(k))
    _run(episode, range(k))
    after_k = traced()
    _run(episode, range(k))
    _run(episode, range(k))
    grown = traced() - after_k
    # An episode's bots (a generator each, 2.5 kB), states and observations are replaced
    # at each reset; kept per episode, the 20 more would hold 7 kB (the episode's last
    # position alone) to 50 kB (its bots) or more. 4 kB is the allocator's slack.
    assert grown < 4_000, f"{grown:,} bytes more after {2 * k} more episodes"


# --- the leaks found ------------------------------------------------------------------------


def test_a_game_dealing_and_taking_back_again_and_again_keeps_no_shuffle(
    traced: Callable[[], int],
) -> None:
    game = Game(seed=1)
    for _ in range(20):
        game.deal()
        game.undo()
    after_k = traced()
    for _ in range(200):
        game.deal()
        game.undo()
    grown = traced() - after_k
    assert len(game._shuffles) <= 1, f"{len(game._shuffles)} shuffles kept, none played"
    # A game at its start keeps its first state and nothing else.
    assert grown < 4_000, f"{grown:,} bytes more after 200 more deals taken back"


def test_estimates_of_sizes_no_deal_makes_keep_nothing(traced: Callable[[], int]) -> None:
    evaluation._dealt_ways.cache_clear()
    try:
        before = traced()
        evaluation.tallies_estimates([0, 0, 0], [-160, 0, 0], [0, 0, 0], CARD_RULES_PLUS)
        grown = traced() - before
        # All 41 entries of 0 to 40 cards out (12,341 ways) hold 1.4 MB: 200 cards "out"
        # hold twice as much alone.
        assert grown < 1_400_000, f"{grown:,} bytes kept by one estimate"
    finally:
        evaluation._dealt_ways.cache_clear()
