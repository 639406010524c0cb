"""Deterministic builders for tests: stacked decks, hand-made positions, random playing.

Every rule test needs an exact situation. There are two honest ways to get one:

* :func:`stacked_shuffle` / :func:`dealt` build the 40-card :class:`~chkobba.Shuffle` order
  that deals the hands, table and stock you ask for (RULES.md §3: the top card is the cut
  card; then one card at a time to each player in playing order from the cutter, passing
  over full hands; then the table; the rest is the stock, next card first), and play the
  shuffle and the cut through the real engine.
* :func:`arranged` builds a mid-deal :class:`~chkobba.State` directly, for positions that
  would take a long scripted deal to reach (e.g. "the table holds only 2D and 6S").

Both check that the 40 cards are used exactly once, so a test cannot silently set up an
impossible position.

>>> state = dealt(hands=["QH 2C 3C", "4C 5C 6C"], table="2D 6S AS AC")
>>> state.phase is Phase.PLAY, format_cards(state.hands[1]), state.current_player
(True, '4C 5C 6C', 1)
>>> format_cards(state.table)
'AS AC 2D 6S'
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import importlib
import importlib.util
import io
import json
import os
import pkgutil
import random
import re
import stat
import sys
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    ChkobbaError,
    Cut,
    Move,
    Phase,
    Rank,
    Rules,
    Shuffle,
    State,
    Suit,
    apply,
    cards,
    legal_moves,
    new_match,
    random_shuffle,
    rollout,
    score_deal,
)
from chkobba.cli import main
from chkobba.rules import MAJORITIES, VOID_DEALS
from chkobba.scoring import DealScore

__all__ = [
    "MOVE_LIMIT",
    "SUIT_MAJOR",
    "CardsLike",
    "arranged",
    "as_cards",
    "dealt",
    "first_plays",
    "play_positions",
    "play_randomly",
    "random_history",
    "replayed",
    "round_order",
    "run_cli",
    "stacked_shuffle",
    "whole_match",
]

#: The deck suit by suit (AS 2S … KS AH …): neighbouring cards never share a rank, so four
#: consecutive cards never void a deal.
SUIT_MAJOR = tuple(Card(rank, suit) for suit in Suit for rank in Rank)

#: The most moves a random walk plays (:func:`play_randomly`, :func:`random_history`): far
#: beyond any real match (a deal is 36 plays plus its shuffle and cut, and random 21-point
#: matches take a few hundred moves), so a walk that reaches it is a match that does not end.
#: The walk then stops and hands back the unfinished match, so a test that needs a finished
#: match fails instead of hanging.
MOVE_LIMIT = 5_000

#: Cards given as notation text (``"2D 6S"``) or as a sequence of :class:`Card`.
CardsLike = str | Sequence[Card]


def refusal(call: Callable[[], object]) -> str:
    """The message of the :class:`~chkobba.ChkobbaError` that ``call()`` raises."""
    with pytest.raises(ChkobbaError) as caught:
        call()
    return str(caught.value)


def long_shuffle(cards: int) -> tuple[Shuffle, str]:
    """A :class:`~chkobba.Shuffle` of ``cards`` cards (the deck over again past 40) and how
    a message quotes it: whole, or cut at 200 characters, its quotes included.

    Its text is "shuffle " and two characters a card, 3n + 7 characters: 63 cards fit in
    a 200-character quote (196 + 2 quotes), 64 do not.
    """
    move = Shuffle((DECK * 2)[:cards])
    text = str(move)
    assert len(text) == 3 * cards + 7
    quoted = f"'{text}'" if len(text) + 2 <= 200 else f"'{text[:198]}…"
    assert len(quoted) <= 200
    return move, quoted


def as_cards(group: CardsLike) -> tuple[Card, ...]:
    """Cards from text or from a sequence of cards, in the order given."""
    return cards(group) if isinstance(group, str) else tuple(group)


def _all_distinct(*groups: Sequence[Card]) -> list[Card]:
    everything = [c for group in groups for c in group]
    repeated = sorted({c for c in everything if everything.count(c) > 1})
    if repeated:
        raise ValueError(f"test setup uses {', '.join(map(str, repeated))} more than once")
    return everything


def stacked_shuffle(
    players: int = 2,
    *,
    dealer: int = 0,
    hands: Sequence[CardsLike],
    table: CardsLike,
    keep: bool = False,
    stock: CardsLike = (),
    cut: bool = True,
) -> Shuffle:
    """The :class:`Shuffle` that deals exactly these hands, table and stock.

    ``hands`` is indexed by player; each holds 3 cards. ``table`` holds the 4 table cards
    in the order they will lie. With ``keep=True`` the cut card is the first card of the
    cutter's hand (the cutter is ``(dealer + 1) % players``); with ``keep=False`` it is the
    first table card (it is exposed first). With ``cut=False`` (a profile without the cut)
    there is no cut card and ``keep`` is ignored. ``stock`` is the top of the stock, next
    card first; every card not mentioned follows in deck order.
    """
    hand_cards = [list(as_cards(h)) for h in hands]
    laid = list(as_cards(table))
    top = list(as_cards(stock))
    if len(hand_cards) != players or any(len(h) != 3 for h in hand_cards) or len(laid) != 4:
        raise ValueError("a stacked deal needs 3 cards per player and 4 table cards")
    used = _all_distinct(*hand_cards, laid, top)
    cutter = (dealer + 1) % players
    order: list[Card] = []
    # What is left to deal of each hand and of the table, once the cut card is placed.
    pending = [list(h) for h in hand_cards]
    pending_table = list(laid)
    if cut:
        order.append(pending[cutter].pop(0) if keep else pending_table.pop(0))
    # One card at a time from the cutter on; a hand already full (here: with nothing
    # pending) is passed over.
    while any(pending):
        for offset in range(players):
            p = (cutter + offset) % players
            if pending[p]:
                order.append(pending[p].pop(0))
    order.extend(pending_table)
    order.extend(top)
    order.extend(c for c in DECK if c not in used)
    return Shuffle(order)


def dealt(
    players: int = 2,
    *,
    dealer: int = 0,
    hands: Sequence[CardsLike],
    table: CardsLike,
    keep: bool = False,
    stock: CardsLike = (),
    scores: Sequence[int] | None = None,
    rules: Rules = TUNISIAN,
) -> State:
    """A new match after the stacked shuffle and the cut (see :func:`stacked_shuffle`).

    The result is in phase ``PLAY`` unless the table voids the deal (then ``SHUFFLE``).
    Under a profile without the cut the shuffle deals at once and ``keep`` is ignored.
    """
    start = new_match(players, dealer=dealer, scores=scores, rules=rules)
    order = stacked_shuffle(
        players, dealer=dealer, hands=hands, table=table, keep=keep, stock=stock, cut=rules.cut
    )
    shuffled = apply(start, order)
    return apply(shuffled, Cut(keep=keep)) if rules.cut else shuffled


def round_order(players: int, dealer: int, hands: Sequence[CardsLike]) -> tuple[Card, ...]:
    """The stock segment that refills the hands with exactly ``hands`` (3 cards each).

    A refill deals one card at a time in playing order from the cutter, so card ``i`` of
    the segment goes to player ``(cutter + i) % players``.
    """
    cutter = (dealer + 1) % players
    hand_cards = [as_cards(h) for h in hands]
    return tuple(hand_cards[(cutter + i) % players][i // players] for i in range(3 * players))


def arranged(
    players: int = 2,
    *,
    dealer: int = 0,
    current: int | None = None,
    hands: Sequence[CardsLike],
    table: CardsLike,
    stock: CardsLike | None = None,
    captured: Sequence[CardsLike] = ((), ()),
    chkobbas: Sequence[int] = (0, 0),
    scores: Sequence[int] = (0, 0),
    last_capturer: int | None = None,
    rest_side: int = 1,
    deal_scores: Sequence[DealScore] = (),
    rules: Rules = TUNISIAN,
) -> State:
    """A mid-deal ``PLAY`` state built by hand.

    ``current`` defaults to the cutter. When ``stock`` is ``None`` every card not
    mentioned goes to the stock (in deck order); otherwise such cards are appended to the
    pile of side ``rest_side``. Keep the position reachable: every hand-to-hand difference
    and the stock size should be what real play can produce.
    """
    hand_cards = [as_cards(h) for h in hands]
    laid = as_cards(table)
    piles = [list(as_cards(p)) for p in captured]
    given_stock = as_cards(stock) if stock is not None else ()
    used = set(_all_distinct(*hand_cards, laid, given_stock, *piles))
    rest = tuple(c for c in DECK if c not in used)
    if stock is None:
        given_stock = rest
    else:
        piles[rest_side].extend(rest)
    return State(
        rules=rules,
        phase=Phase.PLAY,
        players=players,
        dealer=dealer,
        current_player=(dealer + 1) % players if current is None else current,
        hands=tuple(hand_cards),
        table=laid,
        stock=given_stock,
        captured=tuple(tuple(p) for p in piles),
        chkobbas=tuple(chkobbas),
        scores=tuple(scores),
        last_capturer=last_capturer,
        winner=None,
        deal_scores=tuple(deal_scores),
    )


#: The winner fields of a deal score, in order.
WINNER_FIELDS = (
    "cards_winner",
    "diamonds_winner",
    "bermila_winner",
    "seven_of_diamonds_winner",
    "primiera_winner",
)


def two_sided_score(**fields: Any) -> DealScore:
    """A deal score of two sides, ``fields`` changed: by default no chkobba, 20-20 cards,
    5-5 diamonds, 2-2 sevens and sixes (nobody's), the 7♦ side 0's (all 40 cards are in
    the piles: someone holds it), and points the categories won unless given."""
    base: dict[str, Any] = {
        "cards_winner": None,
        "diamonds_winner": None,
        "bermila_winner": None,
        "seven_of_diamonds_winner": 0,
        "chkobbas": (0, 0),
        "card_counts": (20, 20),
        "diamond_counts": (5, 5),
        "seven_counts": (2, 2),
        "six_counts": (2, 2),
        "primiera_winner": None,
        "primiera_sums": (),
    } | fields
    if "points" not in base:
        winners = [base[name] for name in WINNER_FIELDS]
        base["points"] = tuple(n + winners.count(side) for side, n in enumerate(base["chkobbas"]))
    return DealScore(**base)


def spades_and_diamonds_score() -> DealScore:
    """The score of side 0 taking the spades and diamonds and side 1 the rest with one
    chkobba: 20-20 cards (nobody's), 10-0 diamonds, 2-2 sevens and sixes (nobody's), the
    7♦ side 0's; points (2, 1)."""
    taken = [c for c in DECK if c.suit in (Suit.SPADES, Suit.DIAMONDS)]
    return score_deal((taken, [c for c in DECK if c not in taken]), (0, 1))


def where_cards_are(state: State) -> list[Card]:
    """Every card the state holds, once per place it is in: the stock (the cut card, in
    phase ``CUT``, is its top card), the hands, the table and the piles. The 40 cards are
    partitioned exactly when its sorted list is ``DECK``."""
    return [
        *state.stock,
        *(c for hand in state.hands for c in hand),
        *state.table,
        *(c for pile in state.captured for c in pile),
    ]


def replayed(start: State, moves: Sequence[Move]) -> State:
    """``start`` after ``moves`` through the checked ``apply``; each play must be listed."""
    state = start
    for move in moves:
        if not isinstance(move, Shuffle):
            assert move in legal_moves(state)
        state = apply(state, move)
    return state


def first_plays(start: State, rng: random.Random, times: int) -> Counter[Move]:
    """How often each move comes first in ``times`` rollouts from ``start``."""
    counts: Counter[Move] = Counter()
    for _ in range(times):
        played: list[Move] = []
        rollout(start, rng, moves=played)
        counts[played[0]] += 1
    return counts


def play_randomly(
    state: State, rng: random.Random, *, limit: int = MOVE_LIMIT
) -> Iterator[tuple[State, Move, State]]:
    """Play ``state`` to the end of the match with moves drawn from ``rng``, for at most
    ``limit`` moves (:data:`MOVE_LIMIT`: a match still going then never ends; the caller
    sees the last ``after`` is not over).

    Yields ``(before, move, after)`` for every move, the shuffles included.
    """
    for _ in range(limit):
        if state.is_over:
            return
        if state.is_chance:
            move: Move = random_shuffle(rng)
        else:
            move = rng.choice(legal_moves(state))
        after = apply(state, move)
        yield state, move, after
        state = after


def random_history(
    seed: int,
    players: int = 2,
    *,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    max_moves: int | None = None,
    rules: Rules = TUNISIAN,
) -> tuple[tuple[State, ...], tuple[Move, ...]]:
    """The states and moves of a random match from ``seed`` (``states[i+1]`` follows
    ``moves[i]``), stopping at the end of the match or after ``max_moves`` moves
    (:data:`MOVE_LIMIT` when ``None``: the last state is then not over, and a test that
    needs a whole match must check ``states[-1].is_over`` or use :func:`whole_match`)."""
    state = new_match(players, dealer=dealer, scores=scores, rules=rules)
    states: list[State] = [state]
    moves: list[Move] = []
    limit = MOVE_LIMIT if max_moves is None else max_moves
    for _before, move, after in play_randomly(state, random.Random(seed), limit=limit):
        moves.append(move)
        states.append(after)
    return tuple(states), tuple(moves)


def whole_match(
    seed: int,
    players: int = 2,
    *,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    rules: Rules = TUNISIAN,
) -> tuple[tuple[State, ...], tuple[Move, ...]]:
    """:func:`random_history` of a whole match: fails (AssertionError) when the match is
    still going after :data:`MOVE_LIMIT` moves."""
    states, moves = random_history(seed, players, dealer=dealer, scores=scores, rules=rules)
    assert states[-1].is_over, (
        f"the random match of seed {seed} ({players} players) did not end in {len(moves)} moves"
    )
    return states, moves


#: The modules that import only with an optional extra installed (their toolkit).
EXTRA_MODULES = ("chkobba.gymnasium", "chkobba.pettingzoo", "chkobba.openspiel")


def public_modules() -> list[types.ModuleType]:
    """``chkobba`` and every public module under it (no part of its name private), the
    adapters only where their extra is installed; any other module failing to import
    fails the test that asks."""
    import chkobba

    modules: list[types.ModuleType] = [chkobba]
    for info in pkgutil.walk_packages(chkobba.__path__, "chkobba."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ModuleNotFoundError:
            assert info.name in EXTRA_MODULES, f"{info.name} does not import"
    return modules


#: The profile's fields that are flags (True or False), every one a house rule may set.
RULE_FLAGS = tuple(field.name for field in attrs.fields(Rules) if field.type in ("bool", bool))


def random_rules(rng: random.Random) -> Rules:
    """A random profile: every field drawn, capture values named or any from 1 to 12."""
    players = tuple(sorted(rng.sample([2, 3, 4], rng.randint(1, 3))))
    if rng.random() < 0.4:
        values = rng.choice([TUNISIAN.capture_values, CARD_RULES_PLUS.capture_values])
    else:
        values = tuple(rng.randint(1, 12) for _ in range(10))
    flags = {name: rng.random() < 0.5 for name in RULE_FLAGS}
    return Rules(
        name="random",
        capture_values=values,
        target=rng.randint(1, 21),
        players=players,
        void_deal=rng.choice(VOID_DEALS),
        majority=rng.choice(MAJORITIES),
        **flags,
    )


def play_positions(deals: int, seed: int) -> Iterator[tuple[State, Move]]:
    """Every play position of ``deals`` random deals of random profiles and player counts,
    with the move played there (the deals come from rollout, replayed through apply)."""
    rng = random.Random(seed)
    for _ in range(deals):
        rules = random_rules(rng)
        state = new_match(rng.choice(rules.players), rules=rules)
        played: list[Move] = []
        end = rollout(state, rng, moves=played)
        for move in played:
            if state.phase is Phase.PLAY:
                yield state, move
            state = apply(state, move)
        assert state == end


def written_to_a_fifo(fifo: Path, save: Callable[[Path], object]) -> bytes:
    """What ``save(fifo)`` wrote into a new FIFO at ``fifo`` (read by a thread, since a
    FIFO's writer waits for a reader), once checked that ``fifo`` is a FIFO still: a
    save that renamed a file over it would have replaced it."""
    os.mkfifo(fifo)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()))
    reader.start()
    save(fifo)
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    return b"".join(read)


def run_cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``chkobba ARGS`` with ``stdin`` typed: its exit status, output and errors."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO(stdin)
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return code, out.getvalue(), err.getvalue()


#: The variables that force rich's colour on or off, or say what kind of terminal it is.
_COLOUR_VARIABLES = ("NO_COLOR", "FORCE_COLOR", "COLORTERM", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def colour_terminal(
    monkeypatch: pytest.MonkeyPatch,
    term: str = "xterm",
    *,
    columns: int | None = None,
    lines: int | None = None,
) -> None:
    """The environment of a plain colour terminal, nothing forcing colour on or off, so
    that rich colours a stream that says it is a terminal (skips without rich)."""
    pytest.importorskip("rich")
    for name in _COLOUR_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", term)
    for name, size in (("COLUMNS", columns), ("LINES", lines)):
        if size is not None:
            monkeypatch.setenv(name, str(size))


#: What a call under :func:`bounded_memory` may map beyond what the process holds.
MEMORY_HEADROOM = 2 * 1024**3


@contextlib.contextmanager
def bounded_memory(headroom: int = MEMORY_HEADROOM) -> Iterator[None]:
    """Inside, the process may map at most ``headroom`` more bytes (Linux; elsewhere no
    bound): a runaway allocation raises ``MemoryError``, a failing test that names its
    input, instead of growing until the out-of-memory killer ends the whole run (which
    happened in CI: a hand-built state with 10**5000 players had a deal plan built over
    ``range(players)``). The engine lets a ``MemoryError`` through (see broken_state),
    so a test that accepts only ``ChkobbaError`` fails on it.
    """
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):  # no resource module or no /proc: no bound
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    bound = mapped + headroom
    if hard != resource.RLIM_INFINITY:
        bound = min(bound, hard)
    if soft != resource.RLIM_INFINITY and soft <= bound:
        yield  # already bounded at least as tightly
        return
    resource.setrlimit(resource.RLIMIT_AS, (bound, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def local_cluster(distributed: Any) -> Any:
    """A Dask ``LocalCluster`` of two single-threaded worker processes for a test, given
    the imported ``distributed`` module. Its HTTP routes take a free port: with
    ``dashboard_address=None`` the scheduler still takes 8787, and two suites running at
    once (as in ``.ci/run``) warned that the port was in use."""
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )


def load_script(path: Path, name: str) -> types.ModuleType:
    """The script ``path`` (under benchmarks/, examples/ or tools/) loaded as the module
    ``name``, its ``main`` not run. Run as scripts, they import their neighbours: the
    script's folder is on ``sys.path`` while it loads. A script that fails to load (one
    that exits when a package is missing) is not left registered."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and attrs look their module up
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        sys.path.remove(str(path.parent))
    return module


def ab_match(game: int, seed: int, players: int, iterations: int) -> dict[str, Any]:
    """A stand-in for a match of ``benchmarks/estimate_ab.py`` (its log line's fields):
    the new search seated by the game's number, winning game 0 only."""
    return {
        "game": game, "seed": seed, "players": players, "iterations": iterations,
        "new_seat": game % players, "new_won": game == 0, "scores": [3] * players,
        "deals": 2, "new_times": [], "old_times": [],
    }  # fmt: skip


def shipped_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``NAME.schema.json`` shipped in the package, read as the docs say
    (with :mod:`importlib.resources`), not through the library."""
    text = resources.files("chkobba").joinpath(f"{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def schema_validator(name: str) -> Any:
    """A ``jsonschema`` validator of that schema (the test skips without the package)."""
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(shipped_schema(name))


class _Repl:
    """A bot as a person types it at the interpreter's prompt."""

    name = "replbot"

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


class TypedText(io.StringIO):
    """Text typed at a terminal: a stream that says it is one, as the command's standard
    input is when a person types (a line that is not text is then a slip, typed again;
    from a pipe it ends the command)."""

    def isatty(self) -> bool:
        return True


class TypedBytes(io.BytesIO):
    """Bytes typed at a terminal, for a ``TextIOWrapper`` that decodes them as standard
    input does (see :class:`TypedText`)."""

    def isatty(self) -> bool:
        return True


def as_in_a_session(monkeypatch: pytest.MonkeyPatch) -> type:
    """Make ``__main__`` what an interactive session's is (no file, no module name) and
    put a bot class ``Repl`` of its own in it; the class, for a test to seat."""
    main = sys.modules["__main__"]
    monkeypatch.setattr(main, "__spec__", None, raising=False)
    monkeypatch.delattr(main, "__file__", raising=False)
    kind = type("Repl", (_Repl,), {"__module__": "__main__"})
    monkeypatch.setattr(main, "Repl", kind, raising=False)
    return kind


def terminal_text(received: str) -> str:
    """What a terminal shows of ``received``, with rich before 14.3's styled line ends made
    plain: it also wrapped each line's newline in the line's style
    (``...\x1b[0m\x1b[1m\n\x1b[0m``), which shows the same (pyproject.toml allows rich 13)."""
    return re.sub(r"\x1b\[[\d;]+m\n\x1b\[0m", "\n", received)


def dates_today() -> set[str]:
    """Today's date, or yesterday's when a test runs over midnight (a child process
    stamps a date, and the test asks for today's a moment later)."""
    today = datetime.date.today()
    return {today.isoformat(), (today - datetime.timedelta(days=1)).isoformat()}
