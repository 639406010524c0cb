"""Every hypothesis strategy of the project's test suites.

Import from here (``from tests.strategies import play_states``) rather than writing a new
strategy in a test file, so all suites explore the same kinds of matches.

Cards and groups of cards:

* :func:`a_card` — one of the 40 cards.
* :func:`distinct_cards` — a tuple of distinct cards (any size from 0 to 40).
* :func:`tables` — a plausible table: distinct cards, by default 0 to 10 of them.
* :func:`table_and_card` — a table and a played card that is not on it.
* :func:`captures` — a table, a played card and one capture it may make (``frozenset()``
  when it captures nothing).
* :func:`deal_piles` — the end of a deal for :func:`~chkobba.score_deal`: the 40 cards split
  between the two sides' piles and the leftovers of nobody, plus chkobba counts.

Rule profiles:

* :func:`rule_profiles` — a random :class:`~chkobba.Rules`: every field drawn, capture
  values often the two named profiles' and sometimes a house's own.

Chance moves and match set-ups:

* :func:`shuffles` — a :class:`~chkobba.Shuffle` of a random permutation (shrinks well).
* :func:`player_counts` — 2 or 4.
* :func:`start_scores` — match totals from which a match may resume (no winner yet).
* :func:`seeds` — a seed for :class:`random.Random`.

Random matches (random play from seeded matches, for 2 and 4 players; the walk is a pure
function of the drawn seed, so failures replay exactly):

* :func:`histories` — a :class:`History`: every state and move of a random match, from
  the new match to the end (or to a move limit). Walks never run past
  :data:`tests.helpers.MOVE_LIMIT` moves: a match that does not end comes back unfinished
  (``history.finished`` is false), so a test that needs the end checks it and fails
  instead of hanging.
* :func:`states` — one state somewhere along a random match (any phase).
* :func:`play_states` — a state in phase ``PLAY`` (someone is to play a card).
* :func:`cut_states` — a state in phase ``CUT``.
* :func:`moves_in` — a legal move of a given state (a random shuffle at the chance node).
* :func:`views` — a :class:`~chkobba.PlayerView` of a random state from a random seat.
* :func:`profile_states` — a state of a random match under a random profile
  (:func:`rule_profiles`), with any player count the profile allows (3 included) or the
  one asked, of the given phases when asked.
* :func:`later_deals` — the states of a random match under a random profile for a given
  player count, from the end of its first deal on (later deals, dealers other than the
  first, last rounds of later deals).

Bot specs:

* :func:`bot_specs` — a :class:`~chkobba.bots.registry.BotSpec`: a built-in bot with
  random options, in random order.

The adapters (PettingZoo, Gymnasium, OpenSpiel):

* :func:`seatings` — a named profile with a player count it allows: every seating.
* :func:`wrong_actions` — an action the adapter must refuse, given the action mask.

Example counts:

* :func:`examples` — a test's own example count, scaled by the hypothesis profile in
  force (``HYPOTHESIS_PROFILE``), so that ``dev`` and ``deep`` runs scale every property
  test, not only those that leave the count to the profile.

Tournament outcomes:

* :func:`win_tables` — who beat whom: ``table[i][j]`` matches bot ``i`` won against bot
  ``j`` (zero on the diagonal), as :func:`chkobba.ratings.bradley_terry` takes it.

Voided deals (random play almost never voids one: three of a rank on the table is about
one deal in fifty, three kings one in five hundred):

* :func:`table_positions` — not a strategy: the positions of a shuffle's order that a
  deal lays on the table, for a player count and a cut (kept, exposed or none).
* :func:`void_profiles` — a profile that seats a given player count, with a given
  ``void_deal`` (and cut, when asked): a named profile, one evolved by a house, or a
  random one (:func:`rule_profiles`).
* :func:`voiding_shuffles` — a :class:`~chkobba.Shuffle` whose deal lays three or four
  cards of a given rank on the table, for every cut asked (a random order otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from hypothesis import settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    Move,
    Phase,
    PlayerView,
    Rank,
    Rules,
    Shuffle,
    State,
    capture_options,
    legal_moves,
    observe,
)
from chkobba.bots.registry import BotSpec
from chkobba.rules import MAJORITIES, PROFILES, VOID_DEALS, VoidDeal
from tests.helpers import random_history

__all__ = [
    "History",
    "a_card",
    "bot_specs",
    "captures",
    "cut_states",
    "deal_piles",
    "distinct_cards",
    "histories",
    "later_deals",
    "moves_in",
    "play_states",
    "player_counts",
    "profile_states",
    "rule_profiles",
    "seatings",
    "seeds",
    "shuffles",
    "side_piles",
    "start_scores",
    "states",
    "table_and_card",
    "table_positions",
    "tables",
    "views",
    "void_profiles",
    "voiding_shuffles",
    "win_tables",
    "wrong_actions",
]


def a_card() -> st.SearchStrategy[Card]:
    """One of the 40 cards."""
    return st.sampled_from(DECK)


def distinct_cards(min_size: int = 0, max_size: int = 40) -> st.SearchStrategy[tuple[Card, ...]]:
    """A tuple of distinct cards, in random order."""
    return st.lists(a_card(), min_size=min_size, max_size=max_size, unique=True).map(tuple)


def tables(min_size: int = 0, max_size: int = 10) -> st.SearchStrategy[tuple[Card, ...]]:
    """A table: distinct cards in the order they were laid (random play rarely exceeds 10)."""
    return distinct_cards(min_size, max_size)


@st.composite
def table_and_card(
    draw: st.DrawFn, min_size: int = 0, max_size: int = 10
) -> tuple[tuple[Card, ...], Card]:
    """A table and a played card that is not on it."""
    table = draw(tables(min_size, max_size))
    played = draw(a_card().filter(lambda c: c not in table))
    return table, played


@st.composite
def captures(
    draw: st.DrawFn, min_size: int = 0, max_size: int = 10
) -> tuple[tuple[Card, ...], Card, frozenset[Card]]:
    """``(table, played, capture)``: one of the captures ``played`` may make on ``table``,
    or ``frozenset()`` when it captures nothing. Tables that allow a capture are favoured."""
    table, played = draw(table_and_card(min_size, max_size))
    options = capture_options(table, played)
    if not options and table and draw(st.booleans()):
        # Retarget the played card on a table card's rank, so captures are common.
        played = draw(st.sampled_from([c for c in DECK if c.rank is table[0].rank]))
        table = tuple(c for c in table if c is not played)
        options = capture_options(table, played)
    capture = draw(st.sampled_from(options)) if options else frozenset()
    return table, played, capture


@st.composite
def deal_piles(
    draw: st.DrawFn, max_chkobbas: int = 6
) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], tuple[int, int], tuple[Card, ...]]:
    """``((pile0, pile1), (chkobbas0, chkobbas1), nobody)``: the 40 cards split three ways.

    ``nobody`` holds the leftovers of a deal without any capture; it is usually empty.
    """
    owners = draw(
        st.lists(
            st.sampled_from((0, 0, 0, 1, 1, 1, None)) if draw(st.booleans()) else st.integers(0, 1),
            min_size=40,
            max_size=40,
        )
    )
    order = draw(st.permutations(DECK))
    owned = list(zip(order, owners, strict=True))
    piles = tuple(tuple(c for c, o in owned if o == side) for side in (0, 1))
    nobody = tuple(c for c, o in owned if o is None)
    sweeps = (draw(st.integers(0, max_chkobbas)), draw(st.integers(0, max_chkobbas)))
    return (piles[0], piles[1]), sweeps, nobody


@st.composite
def side_piles(
    draw: st.DrawFn, sides: int, out: bool = True
) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]]:
    """``(piles, chkobbas)`` of ``sides`` sides part-way through a deal: the 40 cards
    split among the piles and, with ``out``, cards still out (hands, table, stock)."""
    owners = st.integers(0, sides if out else sides - 1)
    order = draw(st.permutations(DECK))
    owned = list(zip(order, draw(st.lists(owners, min_size=40, max_size=40)), strict=True))
    piles = tuple(tuple(c for c, o in owned if o == side) for side in range(sides))
    return piles, tuple(draw(st.lists(st.integers(0, 6), min_size=sides, max_size=sides)))


_NAMED_VALUES = (TUNISIAN.capture_values, CARD_RULES_PLUS.capture_values)


@st.composite
def rule_profiles(draw: st.DrawFn, players: Sequence[int] | None = None) -> Rules:
    """A random profile: every field drawn (``players`` fixes the allowed player counts).

    Capture values are usually one of the named profiles' and otherwise any values from 1
    to 10 (houses that value a court like a five, or every card alike); targets are small,
    so random matches end soon.
    """
    values = draw(
        st.one_of(
            st.sampled_from(_NAMED_VALUES),
            st.sampled_from(_NAMED_VALUES),
            st.tuples(*[st.integers(1, 10)] * 10),
        )
    )
    allowed = players or draw(st.lists(st.sampled_from((2, 3, 4)), min_size=1, unique=True))
    return Rules(
        name="random house",
        capture_values=values,
        target=draw(st.integers(1, 16)),
        players=tuple(sorted(allowed)),
        cut=draw(st.booleans()),
        void_deal=draw(st.sampled_from(VOID_DEALS)),
        equal_single_first=draw(st.booleans()),
        courts_capture_sums=draw(st.booleans()),
        last_card_chkobba=draw(st.booleans()),
        majority=draw(st.sampled_from(MAJORITIES)),
        sevens_bermila=draw(st.booleans()),
        seven_of_diamonds=draw(st.booleans()),
        primiera=draw(st.booleans()),
        ties_to_last_capturer=draw(st.booleans()),
    )


def shuffles() -> st.SearchStrategy[Shuffle]:
    """A chance move: a random permutation of the 40 cards."""
    return st.permutations(DECK).map(Shuffle)


def player_counts() -> st.SearchStrategy[int]:
    """A legal number of players: 2, or 4 in partnerships."""
    return st.sampled_from((2, 4))


def seeds() -> st.SearchStrategy[int]:
    """A seed for :class:`random.Random`."""
    return st.integers(0, 2**32 - 1)


def seatings() -> st.SearchStrategy[tuple[str, int]]:
    """A named profile and a player count it allows (every seating the adapters offer)."""
    return st.sampled_from(
        [(name, players) for name, rules in sorted(PROFILES.items()) for players in rules.players]
    )


def wrong_actions(mask: Sequence[object], *, ids_only: bool = False) -> st.SearchStrategy[object]:
    """An action an adapter must refuse, given the action mask of the player to act: an
    id the mask rules out, an id past the action space or below it, or (unless
    ``ids_only``) something that is not an integer id at all.

    ``ids_only`` is for OpenSpiel, whose own C++ layer refuses a non-integer and the id
    -1 (``kInvalidAction``) before the game sees them: those draws would test pyspiel.
    """
    size = len(mask)
    ruled_out = [action for action in range(size) if not mask[action]]
    kinds = [st.integers(size, 2**31 - 1), st.integers(-(2**31), -2 if ids_only else -1)]
    if not ids_only:
        kinds.append(st.sampled_from((None, 1.5, 2.0, "3", True, False, [1], (), b"1")))
    if ruled_out:
        kinds.append(st.sampled_from(ruled_out))
    return st.one_of(kinds)


def start_scores(target: int = TUNISIAN.target) -> st.SearchStrategy[tuple[int, int]]:
    """Totals a match may resume from: nobody has reached the target, or both have with
    equal totals (the match plays on)."""
    below = st.tuples(st.integers(0, target - 1), st.integers(0, target - 1))
    level = st.integers(target, target + 5).map(lambda n: (n, n))
    return st.one_of(below, below, below, level)


@attrs.frozen(repr=False)
class History:
    """A random match: ``states[i + 1] == apply(states[i], moves[i])``.

    ``seed`` and the set-up fields say how to replay it with
    :func:`tests.helpers.random_history`.
    """

    seed: int
    players: int
    dealer: int
    scores: tuple[int, int]
    states: tuple[State, ...]
    moves: tuple[Move, ...]

    def __repr__(self) -> str:
        # Short on purpose: hypothesis prints failing examples, and the states are huge.
        return (
            f"<History of {len(self.moves)} moves: random_history({self.seed}, "
            f"{self.players}, dealer={self.dealer}, scores={self.scores}, "
            f"max_moves={len(self.moves)})>"
        )

    @property
    def last(self) -> State:
        """The final state (the end of the match unless a move limit stopped it)."""
        return self.states[-1]

    @property
    def finished(self) -> bool:
        """Whether the walk reached the end of the match (not a move limit)."""
        return self.last.is_over


def _walk(
    seed: int, players: int, dealer: int, scores: tuple[int, int], max_moves: int | None
) -> History:
    states, moves = random_history(seed, players, dealer=dealer, scores=scores, max_moves=max_moves)
    return History(seed, players, dealer, scores, states, moves)


@st.composite
def histories(
    draw: st.DrawFn,
    players: int | None = None,
    *,
    max_moves: int | None = None,
    fresh: bool = False,
) -> History:
    """A random match for ``players`` (2 or 4; drawn when ``None``).

    The match starts from :func:`start_scores` (or from 0-0 with ``fresh=True``) with a
    random first dealer, and runs to its end, or for at most ``max_moves`` moves
    (:data:`tests.helpers.MOVE_LIMIT` when ``None``: a match that never ends comes back
    unfinished, see :attr:`History.finished`).
    """
    count = draw(player_counts()) if players is None else players
    dealer = draw(st.integers(0, count - 1))
    scores = (0, 0) if fresh else draw(start_scores())
    return _walk(draw(seeds()), count, dealer, scores, max_moves)


@st.composite
def states(
    draw: st.DrawFn, players: int | None = None, phases: Sequence[Phase] | None = None
) -> State:
    """One state reached by random play (of the given ``phases`` when set).

    The walk stops at a random move number, so states of every deal and every phase
    turn up, match ends included.
    """
    count = draw(player_counts()) if players is None else players
    dealer = draw(st.integers(0, count - 1))
    scores = draw(start_scores())
    steps = draw(st.integers(0, 250))
    history = _walk(draw(seeds()), count, dealer, scores, steps)
    wanted = history.states if phases is None else [s for s in history.states if s.phase in phases]
    if not wanted:
        # A walk too short to reach the phase: keep going from where it stopped.
        more = _walk(draw(seeds()), count, dealer, scores, None)
        wanted = [s for s in more.states if phases is None or s.phase in phases]
        assert wanted, f"{more!r} never reached the phases {phases}"
    # Favour the end of the walk, so the drawn move number matters.
    return wanted[-1 - draw(st.integers(0, min(3, len(wanted) - 1)))]


def play_states(players: int | None = None) -> st.SearchStrategy[State]:
    """A state in phase ``PLAY``, reached by random play."""
    return states(players, phases=(Phase.PLAY,))


def cut_states(players: int | None = None) -> st.SearchStrategy[State]:
    """A state in phase ``CUT``, reached by random play."""
    return states(players, phases=(Phase.CUT,))


def moves_in(state: State) -> st.SearchStrategy[Move]:
    """A legal move of ``state``: a listed move, or a random shuffle at the chance node.

    A state that is over has no move: the strategy is then empty (use it with states that
    are not over).
    """
    if state.is_chance:
        return shuffles()
    return st.sampled_from(legal_moves(state)) if legal_moves(state) else st.nothing()


@st.composite
def views(draw: st.DrawFn, players: int | None = None) -> PlayerView:
    """The view of a random state (see :func:`states`) from a random seat."""
    state = draw(states(players))
    return observe(state, draw(st.integers(0, state.players - 1)))


@st.composite
def profile_states(
    draw: st.DrawFn, phases: Sequence[Phase] | None = None, players: int | None = None
) -> State:
    """A state of a random match under a random profile, for any player count it allows
    (or for ``players`` alone, the profile drawn to allow it: every seating, 3 included).

    The walk stops at a random move number (or at the match's end), so every phase and
    match ends turn up. With ``phases``, the state is the walk's last one in one of them
    (the walk goes on to the match's end when it stopped too early); the profile then has
    the cut whenever only ``CUT`` is asked for, since a profile without it never cuts.
    """
    rules = draw(rule_profiles(players=None if players is None else (players,)))
    if phases is not None and set(phases) == {Phase.CUT} and not rules.cut:
        rules = attrs.evolve(rules, cut=True)
    if players is None:
        players = draw(st.sampled_from(rules.players))
    steps = draw(st.integers(0, 250))
    seed = draw(seeds())
    dealer = draw(st.integers(0, players - 1))
    states, _ = random_history(seed, players, dealer=dealer, max_moves=steps, rules=rules)
    if phases is None:
        return states[-1]
    wanted = [s for s in states if s.phase in phases]
    if not wanted:
        states, _ = random_history(seed, players, dealer=dealer, rules=rules)
        wanted = [s for s in states if s.phase in phases]
    assert wanted, f"a random match of {rules!r} never reached the phases {phases}"
    return wanted[-1]


_SPEC_OPTIONS = {
    "random": {},
    "greedy": {},
    "ismcts": {
        "iterations": st.integers(1, 10**7),
        "exploration": st.floats(0, 1e300) | st.integers(0, 100),
        "epsilon": st.floats(0, 1),
        "horizon": st.integers(0, 10**7),
        "inference": st.sampled_from((0, 1, 2)),
        "seconds": st.floats(0, 1e6) | st.integers(0, 1000),
    },
}
_SPEC_OPTIONS["expert"] = {
    **_SPEC_OPTIONS["ismcts"],
    "endgame": st.integers(0, 10**7),
    "budget": st.integers(1, 10**7),
}


@st.composite
def bot_specs(draw: st.DrawFn) -> BotSpec:
    """A built-in bot's spec with random options (each at most once, in random order)."""
    name = draw(st.sampled_from(sorted(_SPEC_OPTIONS)))
    options = _SPEC_OPTIONS[name]
    keys = draw(st.lists(st.sampled_from(sorted(options)), unique=True)) if options else []
    return BotSpec(name, tuple((key, draw(options[key])) for key in keys))


@st.composite
def win_tables(
    draw: st.DrawFn, min_bots: int = 2, max_bots: int = 5, min_wins: int = 0, max_wins: int = 30
) -> list[list[int]]:
    """Who beat whom among 2 to 5 bots: ``table[i][j]`` wins of ``i`` against ``j``
    (``min_wins=1`` gives tables where every bot beat every other, whose ratings exist
    without a prior)."""
    size = draw(st.integers(min_bots, max_bots))
    wins = st.integers(min_wins, max_wins)
    return [[0 if i == j else draw(wins) for j in range(size)] for i in range(size)]


def examples(count: int) -> int:
    """A test's example count ``count``, as the hypothesis profile in force scales it.

    A test's own ``max_examples`` overrides the profile's, so without this a profile
    would reach only the tests that leave the count to it. Counts are written for the
    ``ci`` profile (conftest.py, 100 examples): ``HYPOTHESIS_PROFILE=dev`` (40) runs 0.4
    of each, ``deep`` (1,500) fifteen times as many, and never fewer than one.
    """
    ci = settings.get_profile("ci").max_examples
    current = settings.default.max_examples if settings.default is not None else ci
    return max(1, round(count * current / ci))


# --- voided deals (tests/test_coverage_voids.py) --------------------------------------------


def table_positions(players: int, keep: bool | None) -> tuple[int, ...]:
    """The positions of a shuffle's order that the deal lays on the table (RULES.md §3).

    With the cut, the top card (position 0) goes to the cutter's hand (``keep=True``) or
    is exposed on the table (``keep=False``); without it (``keep=None``) it is dealt like
    the others. One card at a time then goes to each player until every hand holds 3
    (``3 * players`` cards in all, whoever the cutter is), then 4 to the table.

    >>> table_positions(2, None), table_positions(2, True), table_positions(3, False)
    ((6, 7, 8, 9), (6, 7, 8, 9), (0, 10, 11, 12))
    """
    dealt = 3 * players
    if keep is False:
        return (0, *range(dealt + 1, dealt + 4))
    return tuple(range(dealt, dealt + 4))


@st.composite
def void_profiles(
    draw: st.DrawFn, players: int, void_deal: VoidDeal, cut: bool | None = None
) -> Rules:
    """A profile that seats ``players`` and voids deals by ``void_deal``: a named profile
    that seats them (none seats 3 but CardRulesPlus), a named profile as a house evolves
    it (every player count, its own target and cut), or a random house profile
    (:func:`rule_profiles`). ``cut``, when given, fixes whether the profile has the cut."""
    named = [rules for rules in (TUNISIAN, CARD_RULES_PLUS) if players in rules.players]
    kind = draw(st.sampled_from(("named", "evolved", "random")))
    if kind == "named" and named:
        rules = draw(st.sampled_from(named))
    elif kind == "random":
        rules = draw(rule_profiles(players=(players,)))
    else:
        rules = attrs.evolve(
            draw(st.sampled_from((TUNISIAN, CARD_RULES_PLUS))),
            name="house",
            players=(2, 3, 4),
            target=draw(st.integers(1, 21)),
            cut=draw(st.booleans()),
        )
    wanted_cut = rules.cut if cut is None else cut
    if (rules.void_deal, rules.cut) != (void_deal, wanted_cut):
        rules = attrs.evolve(rules, name="house", void_deal=void_deal, cut=wanted_cut)
    return rules


@st.composite
def voiding_shuffles(
    draw: st.DrawFn, players: int, rank: Rank, keeps: Sequence[bool | None] = (None,)
) -> Shuffle:
    """A shuffle whose deal to ``players`` lays three or four cards of ``rank`` on the
    table, for each cut in ``keeps`` (``None``: a profile without the cut; ``(True,
    False)``: whatever the cutter decides, then three cards, on the positions both tables
    share, see :func:`table_positions`). The rest of the order is a random permutation
    (it shrinks toward the deck's order), so every other card lies anywhere."""
    order = list(draw(st.permutations(DECK)))
    spots = set(table_positions(players, keeps[0]))
    for keep in keeps[1:]:
        spots &= set(table_positions(players, keep))
    count = draw(st.integers(3, min(4, len(spots))))
    places = draw(st.permutations(sorted(spots)))[:count]
    laid = draw(st.permutations([c for c in DECK if c.rank is rank]))[:count]
    for place, card in zip(places, laid, strict=True):
        at = order.index(card)
        order[at], order[place] = order[place], card
    return Shuffle(order)


# --- fast paths (tests/test_coverage_fast_paths.py) -------------------------------------


@st.composite
def later_deals(draw: st.DrawFn, players: int) -> tuple[State, ...]:
    """The states of a random match of ``players`` players under a random profile
    (:func:`rule_profiles` allowing that count), from a random first dealer, from the
    end of its first deal on: a walk of 250 moves, so a few deals, every one of them
    dealt after the first (``deal_scores`` not empty, the dealer passed on).

    The profile's target is 100, so that no first deal ends the match (a deal of
    sweeps, where every card is worth 1, went past 11).
    """
    rules = attrs.evolve(draw(rule_profiles(players=(players,))), target=100)
    seed = draw(seeds())
    dealer = draw(st.integers(0, players - 1))
    walked, _ = random_history(seed, players, dealer=dealer, max_moves=250, rules=rules)
    later = tuple(s for s in walked if s.deal_scores)
    assert any(s.phase is Phase.PLAY for s in later), f"{rules!r}: no second deal in 250 moves"
    return later
