"""Metamorphic tests: the game's symmetries, checked on whole random matches.

Each property plays a random match (random moves from a seeded :class:`random.Random`
through :func:`~chkobba.apply`, or :func:`~chkobba.rollout` with ``moves=list``), then
plays the *transformed* match (transformed start, transformed moves) and checks, at every
step, that each state, each list of legal moves, each view and each deal score of the
second match is the transform of the first's, and that the match ends the same way.

The symmetries, and why the rules make them hold:

* **Suits other than diamonds** (``RULES.md`` §2, §5). Captures go by capture value
  (§4), which depends on the rank alone; scoring looks at suits only to count diamonds
  and the 7♦ (§5), and the primiera variant (part II) takes the best card *of each
  suit* and adds the four, so renaming spades, hearts and clubs permutes its per-suit
  bests but not their sum. Any permutation of ♠ ♥ ♣ applied to every card of every
  shuffle and every move is therefore a symmetry of every profile, named or house.
  Diamonds and the 7♦ are special and never move; a negative control
  (:func:`test_diamonds_are_not_interchangeable_with_spades`) shows that swapping ♦ and
  ♠ does change outcomes, so the harness is able to see a broken symmetry.
* **Ranks, with the profile's capture values permuted alike** (§2, part II). A rank
  matters to the rules through its capture value, plus a few fixed roles, each of which
  keeps a rank in place when the profile uses it: the sevens and sixes of the bermila
  (``sevens_bermila``), the 7♦ (``seven_of_diamonds``), the three kings of
  ``void_deal="three_kings"``, the courts of ``courts_capture_sums=False`` (Q, J, K may
  only move among themselves), and the primiera points of ``primiera`` (only Q, J and K
  share a value, 10, so only they may move). The Tunisian match with every Q and J
  swapped, played under ``attrs.evolve(TUNISIAN, capture_values=...)`` with Q=9, J=8
  (CardRulesPlus's values), is the named instance of this. A deal score always shows the
  sevens, sixes and primiera tallies, even for categories the profile does not play:
  those tallies are compared only when the permutation keeps the ranks they count.
  The negative control :func:`test_fives_and_sixes_are_not_interchangeable` shows the
  bermila breaks a 5/6 swap.
* **Seats** (§1, §3, §6). Play, the deal and the cut all move by "the next index", so
  every seat's role is relative to the dealer: moving the first dealer on by ``k``
  seats, with the same shuffles and moves, moves every player on by ``k``; sides
  (``player % sides``, 2 or 3 of them) move on by ``k`` too (2 players: the sides swap;
  4: the partnerships swap), and with them the piles, chkobbas, starting and final
  totals, every deal's winners and points, and the match's winner. Every scoring rule
  and the match rule (§6: "the unique highest total") treat the sides alike; the
  "last capturer" tie-break follows the capturer's seat. Checked for 2, 3 and 4 players.
* **Views** (:func:`~chkobba.observe`): a view is the state's fields seen from a seat,
  so the view of the transformed state from the transformed seat is the transformed view.
* **Records** (:class:`~chkobba.Record`): a record of the transformed moves replays to
  the transformed states, its deals are the transformed deals, and
  :meth:`~chkobba.Record.from_states` of the transformed states replays to them.
* **Order of listing** (§4: a capture is a set of table cards chosen by value): the
  order in which a capture's cards are written, and the order of the cards on the table
  or in a hand, never change which plays are legal nor what they lead to (up to that
  order).
* **Starting totals** (§6: "scores are added after each complete deal"): the same moves
  from other starting totals give the same deals and deal scores, with the totals
  shifted, until the first deal after which the shifted totals decide the match.

What the library does *not* promise, so the tests do not check it: the order of the
cards inside a pile (a sum's cards are added in deck order, which a relabelling changes;
piles are compared as sets of cards, everything else in its exact order), and that
:func:`~chkobba.rollout` with the same seed picks the relabelled moves in the relabelled
match (the kernel lists equal-valued table cards by card number, so the same random
draw may take the other of two equal cards; rollouts are checked by replaying their
moves, transformed, through :func:`~chkobba.apply` in both directions). Legal moves are
compared as sets (the rules) and then as lists (their documented order: hand order, then
:func:`~chkobba.capture_options`' order, which follows table positions and so is kept by
every transform here).

What was found: every symmetry above holds on the library as it stands (no failure with
the ``ci`` or the ``deep`` hypothesis profile, so nothing here is marked xfail). Two
things the library does that a naive symmetry test would have reported, and which are
not rule violations: a fresh (or voided) deal's stock is the gathered deck in deck
order, so it is compared as a set before a shuffle; and a sum's cards go into the pile
in deck order. Planted faults (suit-ordered equal captures, the 7♦ read from another
suit, the bermila's sixes read from the fives, the cutter or the cut card's viewer
worked out for two seats, a "most" tie given to side 0, primiera blind to one suit,
rollout-only tally and sweep slips, a queen valued 8 under every profile, a court list
missing the jack, first-laid-only equal captures) each turn at least one property red.
By construction these properties cannot see a fault that is itself symmetric (one that
moves the next dealer by two seats instead of one is equally wrong in every rotation):
the rules-model tests (``tests/test_cleanroom_rules.py``) are there for those.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    Cut,
    DealScore,
    Move,
    Phase,
    Play,
    PlayerView,
    Rank,
    Record,
    Rules,
    Shuffle,
    State,
    Suit,
    apply,
    illegal_reason,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
)
from chkobba.deals import RecordedDeal
from chkobba.scoring import PRIMIERA_VALUES
from tests.helpers import MOVE_LIMIT
from tests.strategies import examples, play_states, rule_profiles, seeds

T = TypeVar("T")

_OTHER_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS)
_RANKS = tuple(Rank)
_COURTS = (Rank.QUEEN, Rank.JACK, Rank.KING)

# ---------------------------------------------------------------------------------------
# Transforms


@attrs.frozen
class Transform:
    """A candidate symmetry: cards renamed (``images[c.index]`` is the new name of ``c``),
    seats moved on by ``shift``, and the profile ``source`` played as ``target``.

    ``sevens_and_sixes`` and ``primiera_sums`` say whether a deal score's tallies of
    sevens and sixes, and its primiera sums, are kept by the renaming (a rank
    relabelling that moves a six keeps the bermila only when the profile does not play
    it, and then the tallies a deal score shows anyway differ): when not, they are
    left out of the comparison.
    """

    images: tuple[Card, ...]
    shift: int
    players: int
    source: Rules
    target: Rules
    sevens_and_sixes: bool = True
    primiera_sums: bool = True

    @property
    def sides(self) -> int:
        return 2 if self.players == 4 else self.players

    def card(self, c: Card) -> Card:
        return self.images[c.index]

    def cards(self, cs: Iterable[Card]) -> tuple[Card, ...]:
        return tuple(self.images[c.index] for c in cs)

    def pile(self, cs: Iterable[Card]) -> tuple[Card, ...]:
        """A pile as a set of cards (see the module doc: pile order is not promised)."""
        return tuple(sorted(self.cards(cs)))

    def move(self, move: Move) -> Move:
        if isinstance(move, Shuffle):
            return Shuffle(self.cards(move.order))
        if isinstance(move, Play):
            return Play(self.card(move.card), frozenset(self.cards(move.capture)))
        return move

    def seat(self, player: int | None) -> int | None:
        return None if player is None else (player + self.shift) % self.players

    def side(self, side: int | None) -> int | None:
        return None if side is None else (side + self.shift) % self.sides

    def per_seat(self, values: Sequence[T]) -> tuple[T, ...]:
        moved = list(values)
        for player, value in enumerate(values):
            moved[(player + self.shift) % len(values)] = value
        return tuple(moved)

    def per_side(self, values: Sequence[T]) -> tuple[T, ...]:
        return self.per_seat(values)  # len(values) is the number of sides

    def inverse(self) -> Transform:
        back = [DECK[0]] * len(DECK)
        for c in DECK:
            back[self.card(c).index] = c
        return attrs.evolve(
            self,
            images=tuple(back),
            shift=-self.shift % self.players,
            source=self.target,
            target=self.source,
        )

    def plain(self) -> Transform:
        """The identity on the target's side, with the same fields compared."""
        return attrs.evolve(self, images=DECK, shift=0, source=self.target)

    def start(self, state: State) -> State:
        """The transformed start of a match (``state`` is a fresh one)."""
        assert state.rules == self.source and not state.deal_scores
        return new_match(
            state.players,
            dealer=(state.dealer + self.shift) % self.players,
            scores=self.per_side(state.scores),
            rules=self.target,
        )

    def score(self, score: DealScore) -> tuple[Any, ...]:
        """A deal score as a comparable tuple, transformed."""
        winners = tuple(self.side(w) for w in score.winners.values())
        return (
            winners,
            self.per_side(score.chkobbas),
            self.per_side(score.points),
            self.per_side(score.card_counts),
            self.per_side(score.diamond_counts),
            self.per_side(score.seven_counts) if self.sevens_and_sixes else None,
            self.per_side(score.six_counts) if self.sevens_and_sixes else None,
            self.per_side(score.primiera_sums) if self.primiera_sums else None,
        )

    def state(self, state: State) -> dict[str, Any]:
        """A state as comparable fields, transformed."""
        assert state.rules == self.source, (state.rules, self.source)
        return {
            "rules": self.target,
            "phase": state.phase,
            "players": state.players,
            "dealer": self.seat(state.dealer),
            "current_player": self.seat(state.current_player),
            "hands": self.per_seat([self.cards(hand) for hand in state.hands]),
            "table": self.cards(state.table),
            # Before a shuffle the stock is the gathered deck, in no order that matters.
            "stock": self.pile(state.stock) if state.is_chance else self.cards(state.stock),
            "captured": self.per_side([self.pile(pile) for pile in state.captured]),
            "chkobbas": self.per_side(state.chkobbas),
            "scores": self.per_side(state.scores),
            "last_capturer": self.seat(state.last_capturer),
            "winner": self.side(state.winner),
            "deal_scores": tuple(self.score(s) for s in state.deal_scores),
        }

    def view(self, view: PlayerView) -> dict[str, Any]:
        """A player's view as comparable fields, transformed."""
        return {
            "rules": self.target,
            "player": self.seat(view.player),
            "players": view.players,
            "phase": view.phase,
            "dealer": self.seat(view.dealer),
            "current_player": self.seat(view.current_player),
            "hand": self.cards(view.hand),
            "hand_sizes": self.per_seat(view.hand_sizes),
            "table": self.cards(view.table),
            "stock_size": view.stock_size,
            "captured": self.per_side([self.pile(pile) for pile in view.captured]),
            "chkobbas": self.per_side(view.chkobbas),
            "scores": self.per_side(view.scores),
            "last_capturer": self.seat(view.last_capturer),
            "winner": self.side(view.winner),
            "deal_scores": tuple(self.score(s) for s in view.deal_scores),
            "cut_card": None if view.cut_card is None else self.card(view.cut_card),
        }

    def deal(self, deal: RecordedDeal) -> tuple[Any, ...]:
        """A recorded deal as a comparable tuple, transformed."""
        return (
            deal.number,
            self.seat(deal.dealer),
            deal.first_index,
            tuple((m.index, self.seat(m.player), self.move(m.move)) for m in deal.moves),
            None if deal.score is None else self.score(deal.score),
            deal.voided,
            self.per_side(deal.scores),
        )


def relabelling(
    rules: Rules,
    players: int,
    suits: dict[Suit, Suit] | None = None,
    ranks: dict[Rank, Rank] | None = None,
    shift: int = 0,
) -> Transform:
    """The transform renaming suits and ranks (missing ones stay) and moving seats on by
    ``shift``; the target profile has the capture values moved with the ranks."""
    suits = suits or {}
    ranks = ranks or {}
    images = tuple(Card(ranks.get(c.rank, c.rank), suits.get(c.suit, c.suit)) for c in DECK)
    assert len(set(images)) == len(DECK)
    values = list(rules.capture_values)
    for rank, image in ranks.items():
        values[_RANKS.index(image)] = rules.capture_values[_RANKS.index(rank)]
    target = attrs.evolve(rules, capture_values=tuple(values))
    moved = {rank for rank, image in ranks.items() if rank is not image}
    return Transform(
        images=images,
        shift=shift % players,
        players=players,
        source=rules,
        target=target,
        sevens_and_sixes=not moved & {Rank.SEVEN, Rank.SIX},
        primiera_sums=all(PRIMIERA_VALUES[r] == PRIMIERA_VALUES[ranks[r]] for r in moved),
    )


def free_rank_classes(rules: Rules) -> list[tuple[Rank, ...]]:
    """The classes of ranks a relabelling may permute under ``rules`` (see the module
    doc): each rank with a fixed role under the profile stays alone."""
    fixed: set[Rank] = set()
    if rules.sevens_bermila:
        fixed |= {Rank.SEVEN, Rank.SIX}
    if rules.seven_of_diamonds:
        fixed.add(Rank.SEVEN)
    if rules.void_deal == "three_kings":
        fixed.add(Rank.KING)
    if rules.primiera:  # only the courts share a primiera value (10)
        fixed |= {r for r in _RANKS if r not in _COURTS}
    if rules.courts_capture_sums:
        classes = [tuple(r for r in _RANKS if r not in fixed)]
    else:  # a court stays a court
        classes = [
            tuple(r for r in _COURTS if r not in fixed),
            tuple(r for r in _RANKS if r not in fixed and r not in _COURTS),
        ]
    return [c for c in classes if len(c) > 1]


# ---------------------------------------------------------------------------------------
# Matches and their transforms


def random_match(start: State, rng: random.Random) -> tuple[list[State], list[Move]]:
    """A whole match of random moves from ``start``."""
    states: list[State] = [start]
    moves: list[Move] = []
    state = start
    while not state.is_over:
        assert len(moves) < MOVE_LIMIT, "the random match did not end"
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state = apply(state, move)
        moves.append(move)
        states.append(state)
    return states, moves


def check_pair(t: Transform, before: State, after: State, at: int, views: bool) -> None:
    """``after`` (of the transformed match) is the transform of ``before``."""
    assert t.plain().state(after) == t.state(before), f"state {at}"
    expected = [t.move(m) for m in legal_moves(before)]
    found = list(legal_moves(after))
    assert set(found) == set(expected), f"legal moves of state {at}"
    assert found == expected, f"the order of the legal moves of state {at}"
    if views:
        for player in range(before.players):
            seen = observe(after, (player + t.shift) % t.players)
            assert t.plain().view(seen) == t.view(observe(before, player)), (
                f"player {player}'s view of state {at}"
            )


def follow(
    t: Transform, states: Sequence[State], moves: Sequence[Move], *, views: bool = False
) -> list[State]:
    """Play the transformed moves from the transformed start, checking every state (and
    with ``views`` every seat's view) against the original's; return its states."""
    state = t.start(states[0])
    check_pair(t, states[0], state, 0, views)
    followed = [state]
    for at, move in enumerate(moves, 1):
        state = apply(state, t.move(move))
        check_pair(t, states[at], state, at, views)
        followed.append(state)
    return followed


def replay(start: State, moves: Iterable[Move]) -> State:
    """``start`` after ``moves`` through the step API (each one checked by apply)."""
    state = start
    for move in moves:
        state = apply(state, move)
    return state


# ---------------------------------------------------------------------------------------
# Strategies


@st.composite
def profiles(draw: st.DrawFn) -> Rules:
    """A named profile or a house one (every field drawn)."""
    return draw(st.one_of(st.sampled_from([TUNISIAN, CARD_RULES_PLUS]), rule_profiles()))


@st.composite
def seatings(draw: st.DrawFn, rules: Rules) -> tuple[int, int, tuple[int, ...]]:
    """Players, first dealer and starting totals (below the target) for ``rules``."""
    players = draw(st.sampled_from(rules.players))
    sides = 2 if players == 4 else players
    dealer = draw(st.integers(0, players - 1))
    below = st.integers(0, rules.target - 1)
    scores = tuple(draw(st.lists(below, min_size=sides, max_size=sides)))
    return players, dealer, scores


def suit_permutations() -> st.SearchStrategy[dict[Suit, Suit]]:
    """A permutation of spades, hearts and clubs (diamonds stays)."""
    return st.permutations(_OTHER_SUITS).map(lambda p: dict(zip(_OTHER_SUITS, p, strict=True)))


@st.composite
def rank_permutations(draw: st.DrawFn, rules: Rules) -> dict[Rank, Rank]:
    """A permutation of ranks that ``rules`` leaves symmetric (see free_rank_classes)."""
    moved: dict[Rank, Rank] = {}
    for ranks in free_rank_classes(rules):
        moved.update(zip(ranks, draw(st.permutations(ranks)), strict=True))
    return moved


@st.composite
def matches(draw: st.DrawFn) -> tuple[Rules, int, State]:
    """A profile, a seed and the start of a match under it."""
    rules = draw(profiles())
    players, dealer, scores = draw(seatings(rules))
    return rules, draw(seeds()), new_match(players, dealer=dealer, scores=scores, rules=rules)


# ---------------------------------------------------------------------------------------
# 1. Suits other than diamonds


@settings(max_examples=examples(60), deadline=None)
@given(matches(), suit_permutations())
def test_suits_other_than_diamonds_are_interchangeable(
    match: tuple[Rules, int, State], suits: dict[Suit, Suit]
) -> None:
    rules, seed, start = match
    states, moves = random_match(start, random.Random(seed))
    t = relabelling(rules, start.players, suits=suits)
    followed = follow(t, states, moves)
    end, image = states[-1], followed[-1]
    assert image.is_over and image.winner == end.winner and image.scores == end.scores
    assert image.deal_scores == end.deal_scores  # exactly equal, tallies included
    assert image.dealer == end.dealer


@settings(max_examples=examples(40), deadline=None)
@given(matches(), suit_permutations(), seeds())
def test_rollouts_commute_with_the_suits(
    match: tuple[Rules, int, State], suits: dict[Suit, Suit], other: int
) -> None:
    rules, seed, start = match
    t = relabelling(rules, start.players, suits=suits)
    # The kernel plays the original cards; its moves, relabelled, replayed by apply.
    moves: list[Move] = []
    end = rollout(start, random.Random(seed), until="match", moves=moves)
    image = replay(t.start(start), map(t.move, moves))
    assert t.plain().state(image) == t.state(end)
    # The kernel plays the relabelled cards; its moves, named back, replayed by apply.
    moves = []
    end = rollout(t.start(start), random.Random(seed), until="match", moves=moves)
    back = t.inverse()
    image = replay(start, map(back.move, moves))
    assert back.plain().state(image) == back.state(end)
    # From the middle of a deal (the kernel reads a state it did not deal itself).
    states, played = random_match(start, random.Random(other))
    middle = [at for at, s in enumerate(states) if s.phase is Phase.PLAY]
    at = middle[random.Random(other).randrange(len(middle))]
    followed = follow(t, states[: at + 1], played[:at])
    moves = []
    end = rollout(followed[-1], random.Random(seed), until="deal", moves=moves)
    image = replay(states[at], map(back.move, moves))
    assert back.plain().state(image) == back.state(end)


# ---------------------------------------------------------------------------------------
# 2. Ranks, with the capture values moved alike


@pytest.mark.parametrize("players", [2, 4])
@settings(max_examples=examples(30), deadline=None)
@given(seed=seeds(), dealer=st.integers(0, 3))
def test_the_tunisian_match_with_queens_and_jacks_swapped(
    players: int, seed: int, dealer: int
) -> None:
    start = new_match(players, dealer=dealer % players)
    states, moves = random_match(start, random.Random(seed))
    t = relabelling(TUNISIAN, players, ranks={Rank.QUEEN: Rank.JACK, Rank.JACK: Rank.QUEEN})
    assert t.target.capture_values == CARD_RULES_PLUS.capture_values  # Q=9, J=8, K=10
    assert t.target == attrs.evolve(TUNISIAN, capture_values=CARD_RULES_PLUS.capture_values)
    followed = follow(t, states, moves)
    assert followed[-1].deal_scores == states[-1].deal_scores  # Q/J never score apart
    assert followed[-1].winner == states[-1].winner


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_ranks_are_interchangeable_with_their_capture_values(data: st.DataObject) -> None:
    rules, seed, start = data.draw(matches())
    ranks = data.draw(rank_permutations(rules))
    suits = data.draw(suit_permutations())
    note(f"ranks {ranks}, suits {suits}")
    states, moves = random_match(start, random.Random(seed))
    t = relabelling(rules, start.players, suits=suits, ranks=ranks)
    follow(t, states, moves)
    # And through the kernel, from the relabelled start.
    played: list[Move] = []
    end = rollout(t.start(start), random.Random(seed), until="match", moves=played)
    back = t.inverse()
    assert back.plain().state(replay(start, map(back.move, played))) == back.state(end)


def test_the_rank_classes_follow_the_profile() -> None:
    # The Tunisian profile: 6 and 7 (bermila, 7♦) stay; the other eight may move.
    assert free_rank_classes(TUNISIAN) == [
        tuple(r for r in _RANKS if r not in (Rank.SIX, Rank.SEVEN))
    ]
    # CardRulesPlus: the 7 (7♦) and the K (three kings void the deal) stay.
    assert free_rank_classes(CARD_RULES_PLUS) == [
        tuple(r for r in _RANKS if r not in (Rank.SEVEN, Rank.KING))
    ]
    strict = attrs.evolve(TUNISIAN, courts_capture_sums=False, primiera=True)
    assert free_rank_classes(strict) == [_COURTS]
    bare = attrs.evolve(TUNISIAN, sevens_bermila=False, seven_of_diamonds=False)
    assert free_rank_classes(bare) == [_RANKS]


# ---------------------------------------------------------------------------------------
# 3. Seats


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_moving_the_first_dealer_moves_every_seat(data: st.DataObject) -> None:
    rules, seed, start = data.draw(matches())
    shift = data.draw(st.integers(1, start.players - 1))
    states, moves = random_match(start, random.Random(seed))
    t = relabelling(rules, start.players, shift=shift)
    followed = follow(t, states, moves)  # the same cards, the same moves
    end, image = states[-1], followed[-1]
    assert image.winner == t.side(end.winner)
    assert image.scores == t.per_side(end.scores)
    # The sides' points per deal are permuted, their multiset kept.
    for ours, theirs in zip(end.deal_scores, image.deal_scores, strict=True):
        assert sorted(ours.points) == sorted(theirs.points)


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_rollouts_commute_with_the_seats(data: st.DataObject) -> None:
    rules, seed, start = data.draw(matches())
    shift = data.draw(st.integers(1, start.players - 1))
    t = relabelling(rules, start.players, shift=shift)
    moves: list[Move] = []
    end = rollout(start, random.Random(seed), until="match", moves=moves)
    assert t.plain().state(replay(t.start(start), moves)) == t.state(end)
    moves = []
    end = rollout(t.start(start), random.Random(seed), until="match", moves=moves)
    back = t.inverse()
    assert back.plain().state(replay(start, moves)) == back.state(end)


# ---------------------------------------------------------------------------------------
# 4. Views and 5. records, under every symmetry at once


@st.composite
def transforms(draw: st.DrawFn, rules: Rules, players: int) -> Transform:
    """Suits, ranks and seats moved at once (each may stay)."""
    return relabelling(
        rules,
        players,
        suits=draw(suit_permutations()),
        ranks=draw(rank_permutations(rules)),
        shift=draw(st.integers(0, players - 1)),
    )


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_views_of_the_transformed_match_are_the_transformed_views(data: st.DataObject) -> None:
    rules, seed, start = data.draw(matches())
    t = data.draw(transforms(rules, start.players))
    states, moves = random_match(start, random.Random(seed))
    follow(t, states, moves, views=True)


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_records_of_the_transformed_moves_replay_to_the_transformed_states(
    data: st.DataObject,
) -> None:
    rules, seed, start = data.draw(matches())
    t = data.draw(transforms(rules, start.players))
    states, moves = random_match(start, random.Random(seed))
    record = Record.from_moves(start, moves)
    image = Record.from_moves(t.start(start), map(t.move, moves))
    replayed = image.replay()
    assert [t.plain().state(s) for s in replayed] == [t.state(s) for s in states]
    assert [t.plain().deal(d) for d in image.deals()] == [t.deal(d) for d in record.deals()]
    # The moves worked out from the transformed states lead to them again (a voided
    # deal's shuffle may be recorded as another voiding one: compare states, not moves).
    assert Record.from_states(replayed).replay() == replayed


# ---------------------------------------------------------------------------------------
# 5. Orders of listing, and the starting totals


def _unordered(s: State) -> tuple[Any, ...]:
    """A state with its hands, table and piles as sets of cards."""
    return (
        s.phase,
        s.current_player,
        tuple(tuple(sorted(h)) for h in s.hands),
        tuple(sorted(s.table)),
        s.stock,
        tuple(tuple(sorted(p)) for p in s.captured),
        s.chkobbas,
        s.scores,
        s.last_capturer,
        s.winner,
        s.deal_scores,
    )


def _check_listing_order(state: State, rng: random.Random, every_play: bool) -> None:
    """The same state with its table and the mover's hand in another order has the same
    legal plays, leading to the same states up to that order; with ``every_play``, each
    play's capture written in any order reads as that play."""
    plays = legal_moves(state)
    mover = state.mover
    table, hand = list(state.table), list(state.hands[mover])
    rng.shuffle(table)
    rng.shuffle(hand)
    hands = tuple(tuple(hand) if p == mover else h for p, h in enumerate(state.hands))
    shuffled = attrs.evolve(state, table=tuple(table), hands=hands)
    assert set(legal_moves(shuffled)) == set(plays)
    if not every_play:
        return
    for play in plays:
        assert isinstance(play, Play)
        assert _unordered(apply(shuffled, play)) == _unordered(apply(state, play))
        for order in itertools.islice(itertools.permutations(play.capture), 6):
            text = f"{play.card} x {'+'.join(map(str, order))}" if order else str(play.card)
            assert parse_move(text, state) == play
            assert parse_move(text) == play
            assert Play(play.card, order) == play


@settings(max_examples=examples(100), deadline=None)
@given(play_states(), st.randoms(use_true_random=False))
def test_the_order_of_a_capture_the_table_and_the_hand_never_matters(
    state: State, rng: random.Random
) -> None:
    _check_listing_order(state, rng, every_play=True)


@settings(max_examples=examples(30), deadline=None)
@given(matches(), st.randoms(use_true_random=False))
def test_the_order_of_the_table_never_matters_along_a_match(
    match: tuple[Rules, int, State], rng: random.Random
) -> None:
    # Every position of a whole match, under any profile (several equal table cards,
    # where an order-dependent choice would show, are rare in any one position).
    _, seed, start = match
    states, _ = random_match(start, random.Random(seed))
    for at, state in enumerate(states):
        if state.phase is Phase.PLAY:
            _check_listing_order(state, rng, every_play=at % 8 == 0)


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_starting_totals_only_shift_the_totals(data: st.DataObject) -> None:
    rules = data.draw(profiles())
    players = data.draw(st.sampled_from(rules.players))
    sides = 2 if players == 4 else players
    dealer = data.draw(st.integers(0, players - 1))
    shifted = tuple(
        data.draw(st.lists(st.integers(0, rules.target - 1), min_size=sides, max_size=sides))
    )
    start = new_match(players, dealer=dealer, rules=rules)
    states, moves = random_match(start, random.Random(data.draw(seeds())))
    state = new_match(players, dealer=dealer, scores=shifted, rules=rules)
    for at, move in enumerate(moves):
        before, after = states[at], states[at + 1]
        assert not state.is_over
        state = apply(state, move)
        assert state.deal_scores == after.deal_scores
        assert state.scores == tuple(a + b for a, b in zip(after.scores, shifted, strict=True))
        deal_end = len(after.deal_scores) > len(before.deal_scores)
        best = max(state.scores)
        decided = deal_end and best >= rules.target and state.scores.count(best) == 1
        assert state.is_over == decided
        if decided:
            assert state.winner == state.scores.index(best)
            break
        fields = ("hands", "table", "stock", "captured", "chkobbas", "current_player")
        assert all(getattr(state, f) == getattr(after, f) for f in fields)
        if not after.is_over:  # the same deal goes on, or the next is dealt by the same seat
            assert state.phase is after.phase and state.dealer == after.dealer
    else:
        # The shifted match went on while the other ended: then it has not ended yet.
        assert not state.is_over and states[-1].is_over


# ---------------------------------------------------------------------------------------
# Negative controls: the special cards and ranks do break the symmetry


def _broken_somewhere(
    make: Callable[[int], Transform], rules: Rules, seeds_to_try: int = 60
) -> bool:
    """Whether the transform changes the score of some deal (or makes a move illegal) in
    one of a few random matches."""
    for seed in range(seeds_to_try):
        t = make(2)
        start = new_match(2, rules=rules)
        states, moves = random_match(start, random.Random(seed))
        image = t.start(start)
        for at, move in enumerate(moves, 1):
            if image.is_over or illegal_reason(image, t.move(move)) is not None:
                return True
            image = apply(image, t.move(move))
            if t.plain().state(image)["deal_scores"] != t.state(states[at])["deal_scores"]:
                return True
    return False


def test_diamonds_are_not_interchangeable_with_spades() -> None:
    swap = {Suit.DIAMONDS: Suit.SPADES, Suit.SPADES: Suit.DIAMONDS}
    assert _broken_somewhere(lambda n: relabelling(TUNISIAN, n, suits=swap), TUNISIAN)


def test_fives_and_sixes_are_not_interchangeable() -> None:
    # With the capture values moved too, only the bermila (sevens, then sixes) tells them apart.
    swap = {Rank.FIVE: Rank.SIX, Rank.SIX: Rank.FIVE}
    # (relabelling leaves the tallies of sixes out of the comparison, since the swap moves
    # them: what differs is the bermila's winner, and so the points.)
    assert _broken_somewhere(lambda n: relabelling(TUNISIAN, n, ranks=swap), TUNISIAN)
    # Without the bermila (and its sixes) the same swap is a symmetry.
    bare = attrs.evolve(TUNISIAN, sevens_bermila=False)
    assert not _broken_somewhere(lambda n: relabelling(bare, n, ranks=swap), bare, 20)


def test_a_transform_keeps_cuts_and_inverts() -> None:
    t = relabelling(
        TUNISIAN, 2, suits={Suit.SPADES: Suit.HEARTS, Suit.HEARTS: Suit.SPADES}, shift=1
    )
    assert t.move(Cut(keep=True)) == Cut(keep=True)
    assert t.inverse().inverse() == t
