"""A clean-room model of the rules, played move for move against the library.

The model below (``Model``, ``model_options``, ``model_score``) was written from the binding
rules text (``RULES.md``) and the user documentation only (``docs/rules.md``: the profiles,
the variant table and the conventions of the implementation; ``docs/api.md``: the public
API; ``docs/snapshots.md`` was read for the names of the deal-score fields and the orders
of hands, table and stock), without reading the library's code, its private modules or
the team's older engine in ``tests/reference.py``. The library is driven through its
public API alone. Where the documents are silent the model follows the library, and a
comment says so.

The differential test draws a profile (``TUNISIAN``, ``CARD_RULES_PLUS`` or a house profile
made with ``attrs.evolve`` over every field of the variant table), a player count the
profile allows, a first dealer, starting totals and a seed, and plays whole matches: at
every step it compares the library's state with the model's (phase, player to move,
dealer, hands, table, stock, piles, chkobbas, last capturer, every deal score field by
field, match totals, winner) and the legal moves (card and captured set). Plain example
tests pin the corners the documents spell out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    ChkobbaError,
    Cut,
    DealScore,
    Phase,
    Play,
    Rank,
    Rules,
    Shuffle,
    State,
    Suit,
    apply,
    capture_options,
    card,
    cards,
    check_state,
    is_legal,
    legal_moves,
    new_match,
    score_deal,
)
from chkobba.rules import Majority
from tests.strategies import examples

# ---------------------------------------------------------------------------------------
# The clean-room model (RULES.md and docs/rules.md, docs/api.md only)
# ---------------------------------------------------------------------------------------

# docs/rules.md, the variant table: capture values are given in rank order A 2 3 4 5 6 7 Q J K.
RANK_ORDER = (
    Rank.ACE,
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.QUEEN,
    Rank.JACK,
    Rank.KING,
)
COURTS = frozenset({Rank.QUEEN, Rank.JACK, Rank.KING})
# The primiera variant: per suit the best card counts 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
# 2=12, Q/J/K=10.
PRIMIERA_POINTS = {
    Rank.SEVEN: 21,
    Rank.SIX: 18,
    Rank.ACE: 16,
    Rank.FIVE: 15,
    Rank.FOUR: 14,
    Rank.THREE: 13,
    Rank.TWO: 12,
    Rank.QUEEN: 10,
    Rank.JACK: 10,
    Rank.KING: 10,
}
SEVEN_OF_DIAMONDS = next(c for c in DECK if c.rank is Rank.SEVEN and c.suit is Suit.DIAMONDS)
DECK_INDEX = {c: i for i, c in enumerate(DECK)}
TUNISIAN_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
CRP_VALUES = (1, 2, 3, 4, 5, 6, 7, 9, 8, 10)

# A legal move as the model sees it: a play (card, captured set), or a cut ("keep"/"expose").
ModelMove = tuple[Card, frozenset[Card]] | str
# A deal score as a tuple in the order of DealScore's documented fields.
ScoreTuple = tuple[object, ...]
WINNERS = ("cards", "diamonds", "bermila", "seven_of_diamonds", "primiera")
SCORE_FIELDS = (
    "cards_winner",
    "diamonds_winner",
    "bermila_winner",
    "seven_of_diamonds_winner",
    "chkobbas",
    "points",
    "card_counts",
    "diamond_counts",
    "seven_counts",
    "six_counts",
    "primiera_winner",
    "primiera_sums",
)


def value(rules: Rules, c: Card) -> int:
    return rules.capture_values[RANK_ORDER.index(c.rank)]


def _sum_groups(
    items: Sequence[tuple[int, Card]], target: int, start: int, chosen: list[Card]
) -> Iterable[frozenset[Card]]:
    # Every group of table cards whose values add up to ``target`` (values are positive).
    if target == 0:
        yield frozenset(chosen)
        return
    for i in range(start, len(items)):
        v, c = items[i]
        if v <= target:
            chosen.append(c)
            yield from _sum_groups(items, target - v, i + 1, chosen)
            chosen.pop()


def model_options(rules: Rules, table: Sequence[Card], played: Card) -> list[frozenset[Card]]:
    """Every capture ``played`` may make on ``table`` (empty: it captures nothing)."""
    v = value(rules, played)
    singles = [frozenset({t}) for t in table if value(rules, t) == v]
    if rules.equal_single_first and singles:
        return singles  # equal single first: it beats every sum
    if played.rank in COURTS and not rules.courts_capture_sums:
        return singles  # a court takes only an equal single under this house rule
    items = [(value(rules, t), t) for t in table]
    sums = [g for g in _sum_groups(items, v, 0, []) if len(g) >= 2]
    return singles + sums


def side_count(players: int) -> int:
    return 3 if players == 3 else 2


def side_of(players: int, player: int) -> int:
    return player % 2 if players == 4 else player


def _leader(counts: Sequence[int]) -> tuple[int | None, list[int]]:
    best = max(counts)
    leaders = [s for s, n in enumerate(counts) if n == best]
    return (leaders[0] if len(leaders) == 1 else None), leaders


def _majority(rules: Rules, counts: Sequence[int], half: int, last_side: int | None) -> int | None:
    if rules.majority == "more_than_half":
        over = [s for s, n in enumerate(counts) if n > half]
        if over:
            return over[0]  # at most one side can hold more than half
        tied = [s for s, n in enumerate(counts) if n == half]
        if len(tied) >= 2 and rules.ties_to_last_capturer and last_side in tied:
            return last_side
        return None
    winner, leaders = _leader(counts)
    if winner is None and rules.ties_to_last_capturer and last_side in leaders:
        return last_side
    return winner


def model_score(
    rules: Rules,
    piles: Sequence[Sequence[Card]],
    chkobbas: Sequence[int],
    last_side: int | None,
) -> ScoreTuple:
    """A deal's score, as the tuple of DealScore's fields (SCORE_FIELDS)."""
    sides = range(len(piles))
    card_counts = tuple(len(p) for p in piles)
    diamond_counts = tuple(sum(c.suit is Suit.DIAMONDS for c in p) for p in piles)
    seven_counts = tuple(sum(c.rank is Rank.SEVEN for c in p) for p in piles)
    six_counts = tuple(sum(c.rank is Rank.SIX for c in p) for p in piles)
    cards_winner = _majority(rules, card_counts, 20, last_side)
    diamonds_winner = _majority(rules, diamond_counts, 5, last_side)
    bermila_winner: int | None = None
    if rules.sevens_bermila:
        bermila_winner, tied = _leader(seven_counts)
        if bermila_winner is None:  # equal sevens: the sixes decide among the tied sides
            best = max(six_counts[s] for s in tied)
            on_sixes = [s for s in tied if six_counts[s] == best]
            bermila_winner = on_sixes[0] if len(on_sixes) == 1 else None
    seven_winner: int | None = None
    if rules.seven_of_diamonds:
        seven_winner = next((s for s in sides if SEVEN_OF_DIAMONDS in piles[s]), None)
    # primiera: docs/rules.md says a side missing a suit "cannot" win; the sum it is
    # given is 0 (docs/snapshots.md), so its partial sum never blocks a full side. The
    # variant table gives ties to the last capturer for cards and diamonds only.
    primiera_sums: list[int] = []
    for pile in piles:
        tops = [
            max((PRIMIERA_POINTS[c.rank] for c in pile if c.suit is suit), default=0)
            for suit in Suit
        ]
        primiera_sums.append(sum(tops) if all(tops) else 0)  # a side missing a suit: 0
    primiera_winner: int | None = None
    if rules.primiera:
        top, _ = _leader(primiera_sums)
        primiera_winner = top if top is not None and primiera_sums[top] > 0 else None
    winners = (cards_winner, diamonds_winner, bermila_winner, seven_winner, primiera_winner)
    points = tuple(chkobbas[s] + sum(w == s for w in winners) for s in sides)
    return (
        cards_winner,
        diamonds_winner,
        bermila_winner,
        seven_winner,
        tuple(chkobbas),
        points,
        card_counts,
        diamond_counts,
        seven_counts,
        six_counts,
        primiera_winner,
        tuple(primiera_sums),
    )


class Model:
    """A match as the rules texts describe it, one move at a time."""

    def __init__(
        self, rules: Rules, players: int, dealer: int, scores: Sequence[int] | None = None
    ) -> None:
        self.rules = rules
        self.n = players
        self.sides = side_count(players)
        self.dealer = dealer
        self.scores = list(scores) if scores is not None else [0] * self.sides
        self.phase = Phase.SHUFFLE
        self.current: int | None = None
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.table: list[Card] = []
        self.stock: list[Card] = list(DECK)  # a fresh match: all 40 cards face down
        self.piles: list[list[Card]] = [[] for _ in range(self.sides)]
        self.chkobbas = [0] * self.sides
        self.last_capturer: int | None = None
        self.winner: int | None = None
        self.deal_scores: list[ScoreTuple] = []
        self.voids = 0
        self.notes: set[str] = set()  # what happened, for the example tests' searches

    @property
    def cutter(self) -> int:
        return (self.dealer + 1) % self.n

    # -- the deal -----------------------------------------------------------------------
    def shuffle(self, order: Sequence[Card]) -> None:
        assert self.phase is Phase.SHUFFLE
        # The next shuffle starts the new deal with empty piles (docs/rules.md, conventions).
        self.piles = [[] for _ in range(self.sides)]
        self.chkobbas = [0] * self.sides
        self.last_capturer = None
        self.table = []
        if self.rules.cut:
            self.phase, self.current, self.stock = Phase.CUT, self.cutter, list(order)
        else:
            self._deal(list(order), keep=None)

    def cut(self, keep: bool) -> None:
        assert self.phase is Phase.CUT
        self._deal(self.stock, keep=keep)

    def _deal(self, order: list[Card], keep: bool | None) -> None:
        hands: list[list[Card]] = [[] for _ in range(self.n)]
        table: list[Card] = []
        rest = iter(order)
        if keep is True:
            hands[self.cutter].append(next(rest))
        elif keep is False:
            table.append(next(rest))
        while any(len(h) < 3 for h in hands):
            for k in range(self.n):
                p = (self.cutter + k) % self.n
                if len(hands[p]) < 3:  # passing over a hand that already holds three
                    hands[p].append(next(rest))
        while len(table) < 4:
            table.append(next(rest))
        ranks = Counter(c.rank for c in table)
        void = {
            "three_of_a_rank": max(ranks.values()) >= 3,
            "three_kings": ranks[Rank.KING] >= 3,
            "never": False,
        }[self.rules.void_deal]
        if void:  # the same dealer shuffles again; every card back in the stock
            # (the docs give no order for the gathered stock: it is compared as a set)
            self.voids += 1
            self.phase, self.current = Phase.SHUFFLE, None
            self.hands = [[] for _ in range(self.n)]
            self.table, self.stock = [], list(DECK)
            return
        self.hands, self.table, self.stock = hands, table, list(rest)
        self.phase, self.current = Phase.PLAY, self.cutter

    # -- play ---------------------------------------------------------------------------
    def legal(self) -> set[ModelMove]:
        if self.phase is Phase.CUT:
            return {"keep", "expose"}
        if self.phase is not Phase.PLAY:
            return set()
        assert self.current is not None
        moves: set[ModelMove] = set()
        for c in self.hands[self.current]:
            # Free choice of card; a card that can capture must (compulsory capture).
            options = model_options(self.rules, self.table, c) or [frozenset()]
            moves.update((c, o) for o in options)
        return moves

    def play(self, played: Card, capture: frozenset[Card]) -> None:
        assert self.phase is Phase.PLAY and self.current is not None
        assert (played, capture) in self.legal()
        p = self.current
        side = side_of(self.n, p)
        self.hands[p].remove(played)
        last_card = not self.stock and not any(self.hands)
        if capture:
            self.table = [c for c in self.table if c not in capture]
            self.piles[side].extend([*capture, played])
            self.last_capturer = p
            if not self.table:
                round_end = not any(self.hands)
                self.notes.add(
                    "last-card sweep" if last_card else "round-end sweep" if round_end else "sweep"
                )
            if not self.table and (not last_card or self.rules.last_card_chkobba):
                self.chkobbas[side] += 1
        else:
            self.table.append(played)  # laid at the end of the table
        if any(self.hands):
            self.current = (p + 1) % self.n
        elif self.stock:
            for _ in range(3):  # refill: one card at a time from the cutter
                for k in range(self.n):
                    self.hands[(self.cutter + k) % self.n].append(self.stock.pop(0))
            self.current = self.cutter
        else:
            self._end_deal()

    def _end_deal(self) -> None:
        last_side = None
        if self.last_capturer is not None:  # the leftovers; to nobody if nobody captured
            last_side = side_of(self.n, self.last_capturer)
            self.piles[last_side].extend(self.table)
            self.table = []
        score = model_score(self.rules, self.piles, self.chkobbas, last_side)
        sevens = score[SCORE_FIELDS.index("seven_counts")]
        assert isinstance(sevens, tuple)
        if self.rules.sevens_bermila and score[2] is not None and sevens.count(max(sevens)) > 1:
            self.notes.add("sixes decide")
        self.deal_scores.append(score)
        points = score[SCORE_FIELDS.index("points")]
        assert isinstance(points, tuple)
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        self.current = None
        if max(self.scores) >= self.rules.target:
            winner, _ = _leader(self.scores)
            if winner is not None:  # the unique highest total at or past the target
                # The docs pass the deal on only for a SHUFFLE state; they are silent on
                # the dealer of an OVER state: the model keeps it, as the library does.
                self.phase, self.winner = Phase.OVER, winner
                return
        self.phase = Phase.SHUFFLE
        self.dealer = (self.dealer + 1) % self.n  # the deal passes to the right


# ---------------------------------------------------------------------------------------
# Comparing the library with the model
# ---------------------------------------------------------------------------------------


def library_score(score: DealScore) -> ScoreTuple:
    return tuple(getattr(score, name) for name in SCORE_FIELDS)


def library_moves(state: State) -> list[ModelMove]:
    moves: list[ModelMove] = []
    for move in legal_moves(state):
        if isinstance(move, Cut):
            moves.append("keep" if move.keep else "expose")
        else:
            assert isinstance(move, Play)
            moves.append((move.card, frozenset(move.capture)))
    return moves


def by_deck(group: Iterable[Card]) -> list[Card]:
    return sorted(group, key=DECK_INDEX.__getitem__)


def model_categories(rules: Rules) -> tuple[str, ...]:
    """The deal-scoring categories a profile plays, in the order of DealScore.winners."""
    played = {
        "cards": True,
        "diamonds": True,
        "bermila": rules.sevens_bermila,
        "seven_of_diamonds": rules.seven_of_diamonds,
        "primiera": rules.primiera,
    }
    return tuple(name for name, on in played.items() if on)


def assert_agree(state: State, model: Model, probe: random.Random | None = None) -> None:
    assert state.phase is model.phase
    assert state.players == model.n and state.sides == model.sides
    assert state.current_player == model.current
    assert state.dealer == model.dealer
    assert [list(h) for h in state.hands] == model.hands  # in the order dealt
    assert list(state.table) == model.table  # in the order laid
    if model.phase in (Phase.CUT, Phase.PLAY):
        assert list(state.stock) == model.stock  # dealt from the top, stock[0]
    else:
        assert by_deck(state.stock) == by_deck(model.stock)
    assert [by_deck(p) for p in state.captured] == [by_deck(p) for p in model.piles]
    assert list(state.chkobbas) == model.chkobbas
    assert state.last_capturer == model.last_capturer
    assert list(state.scores) == model.scores
    assert state.winner == model.winner
    assert [library_score(s) for s in state.deal_scores] == model.deal_scores
    assert state.rules.categories == model_categories(model.rules)
    for score, mine in zip(state.deal_scores, model.deal_scores, strict=True):
        assert score.winners == dict(zip(WINNERS, mine[:4] + mine[10:11], strict=True))
    moves = library_moves(state)
    assert len(set(moves)) == len(moves), "a legal move listed twice"
    assert set(moves) == model.legal()
    if model.phase is Phase.PLAY:
        # Compulsory capture: a card may be laid alone only when it can take nothing.
        assert model.current is not None
        legal = model.legal()
        for c in model.hands[model.current]:
            assert is_legal(state, Play(c)) == ((c, frozenset()) in legal)
            if probe is not None and model.table:  # and a random group of table cards
                group = frozenset(probe.sample(model.table, probe.randint(1, len(model.table))))
                assert is_legal(state, Play(c, group)) == ((c, group) in legal)


def play_along(
    state: State,
    model: Model,
    choose: random.Random,
    deals: int,
) -> State:
    """Play random legal moves (and shuffles) until ``deals`` more deals are scored, a
    void deal aside, or the match ends, checking the two agree at every step."""
    target = len(model.deal_scores) + deals
    probe = random.Random(choose.random())
    assert_agree(state, model, probe)
    while model.phase is not Phase.OVER and len(model.deal_scores) < target:
        if model.phase is Phase.SHUFFLE:
            order = list(DECK)
            choose.shuffle(order)
            state = apply(state, Shuffle(tuple(order)))
            model.shuffle(order)
        else:
            moves = legal_moves(state)
            move = choose.choice(moves)
            state = apply(state, move)
            if isinstance(move, Cut):
                model.cut(move.keep)
            else:
                assert isinstance(move, Play)
                model.play(move.card, frozenset(move.capture))
        assert_agree(state, model, probe)
    return state


# ---------------------------------------------------------------------------------------
# The differential test
# ---------------------------------------------------------------------------------------


@st.composite
def profiles(draw: st.DrawFn) -> Rules:
    kind = draw(st.sampled_from(["tunisian", "cardrulesplus", "house"]))
    event(f"profile: {kind}")
    if kind == "tunisian":
        return TUNISIAN
    if kind == "cardrulesplus":
        return CARD_RULES_PLUS
    values = draw(
        st.one_of(
            st.sampled_from([TUNISIAN_VALUES, CRP_VALUES]),
            st.lists(st.integers(1, 12), min_size=10, max_size=10).map(tuple),
            st.lists(st.integers(1, 1000), min_size=10, max_size=10).map(tuple),
        )
    )
    players = draw(st.sets(st.sampled_from([2, 3, 4]), min_size=1).map(lambda s: tuple(sorted(s))))
    rules = attrs.evolve(
        TUNISIAN,
        name="house",
        capture_values=values,
        target=draw(st.sampled_from([1, 5, 11, 16, 21])),
        players=players,
        cut=draw(st.booleans()),
        void_deal=draw(st.sampled_from(["three_of_a_rank", "three_kings", "never"])),
        equal_single_first=draw(st.booleans()),
        courts_capture_sums=draw(st.booleans()),
        last_card_chkobba=draw(st.booleans()),
        majority=draw(st.sampled_from(["more_than_half", "most"])),
        sevens_bermila=draw(st.booleans()),
        seven_of_diamonds=draw(st.booleans()),
        primiera=draw(st.booleans()),
        ties_to_last_capturer=draw(st.booleans()),
    )
    for field in attrs.fields(Rules):
        skip = ("name", "capture_values", "target", "players", "card_values")
        if field.name not in skip and getattr(rules, field.name) != getattr(TUNISIAN, field.name):
            event(f"house rule: {field.name}={getattr(rules, field.name)}")
    return rules


@given(data=st.data(), rules=profiles(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=examples(150), deadline=None)
def test_whole_matches_agree_with_the_clean_room_model(
    data: st.DataObject, rules: Rules, seed: int
) -> None:
    players = data.draw(st.sampled_from(rules.players), label="players")
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    sides = side_count(players)
    # From scratch, resumed from totals below the target (the match ends sooner), or
    # from a tie of the leaders at or past the target (which plays on).
    tied = st.integers(0, rules.target + 3).flatmap(
        lambda v: st.lists(st.integers(0, v), min_size=sides - 2, max_size=sides - 2).map(
            lambda rest: [v, v, *rest]
        )
    )
    scores = data.draw(
        st.one_of(
            st.just([0] * sides),
            st.lists(st.integers(0, rules.target - 1), min_size=sides, max_size=sides),
            tied,
        ),
        label="scores",
    )
    for count in range(1, 6):  # any other player count is refused
        if count not in rules.players:
            with pytest.raises(ChkobbaError):
                new_match(count, rules=rules)
    event(f"players: {players}")
    state = new_match(players, dealer=dealer, scores=scores, rules=rules)
    model = Model(rules, players, dealer, scores)
    state = play_along(state, model, random.Random(seed), deals=40)
    event(f"match over: {model.phase is Phase.OVER}")
    event(f"void deals: {min(model.voids, 2)}")
    if model.phase is Phase.OVER:
        assert state.winner is not None and state.winner == model.winner


# ---------------------------------------------------------------------------------------
# Example tests: corners the documents spell out
# ---------------------------------------------------------------------------------------


def order_with(top: str) -> tuple[Card, ...]:
    """A shuffle order starting with the given cards, the rest in deck order."""
    first = cards(top)
    return first + tuple(c for c in DECK if c not in first)


def test_the_documented_deal_orders() -> None:
    # docs/rules.md: 2 players, dealer 0, an exposure and a keep.
    order = order_with("AS 2S 3S 4S 5S 6S 7S QS JS KS")  # no three of a rank
    for keep, hands, table in [
        (False, ([2, 4, 6], [1, 3, 5]), [0, 7, 8, 9]),
        (True, ([2, 4, 5], [0, 1, 3]), [6, 7, 8, 9]),
    ]:
        state = apply(apply(new_match(), Shuffle(order)), Cut(keep=keep))
        model = Model(TUNISIAN, 2, 0)
        model.shuffle(order)
        model.cut(keep)
        assert_agree(state, model)
        assert [list(h) for h in state.hands] == [[order[i] for i in h] for h in hands]
        assert list(state.table) == [order[i] for i in table]


@pytest.mark.parametrize(
    ("rules", "top", "void"),
    [
        # Tunisian, exposed: the table is c0 c7 c8 c9.
        (TUNISIAN, "5S AS 2S 3S 4S 6S 7S 5H 5D QS", True),
        (TUNISIAN, "5S AS 2S 3S 4S 6S 7S 5H 5D 5C", True),  # four of a rank
        (TUNISIAN, "KS AS 2S 3S 4S 6S 7S KH KD QS", True),
        (TUNISIAN, "5S AS 2S 3S 4S 6S 5H 7S 5D QS", False),  # the third five is in a hand
        (TUNISIAN, "5S AS 2S 3S 4S 6S 7S 5H 6H 6D", False),  # two pairs
        # CardRulesPlus: no cut, hands c0..c5, the table c6 c7 c8 c9.
        (CARD_RULES_PLUS, "AS 2S 3S 4S 6S 7S 5S 5H 5D QS", False),
        (CARD_RULES_PLUS, "AS 2S 3S 4S 6S 7S KS KH KD QS", True),
        (CARD_RULES_PLUS, "AS 2S 3S 4S 6S 7S KS KH KD KC", True),
        (attrs.evolve(TUNISIAN, void_deal="never"), "5S AS 2S 3S 4S 6S 7S 5H 5D 5C", False),
    ],
)
def test_void_deals(rules: Rules, top: str, void: bool) -> None:
    order = order_with(top)
    state = apply(new_match(rules=rules, dealer=1), Shuffle(order))
    model = Model(rules, 2, 1)
    model.shuffle(order)
    if rules.cut:
        state = apply(state, Cut(keep=False))
        model.cut(False)
    assert_agree(state, model)
    assert (model.phase is Phase.SHUFFLE) == void
    if void:  # the same dealer shuffles again, and the match goes on from there
        play_along(state, model, random.Random(3), deals=1)


def test_the_worked_example_sweep() -> None:
    # Dealer 0 exposes 2D: the table is 2D 6S 3C 4C; player 1 holds 7H AS 5S, player 0
    # QH JH KC. Player 1 takes 3C+4C with 7H, leaving 2D and 6S; then QH (8) takes
    # 2D+6S, a chkobba (not the last card of the deal), which JH (9) could not.
    order = order_with("2D 7H QH AS JH 5S KC 6S 3C 4C")
    state = apply(apply(new_match(), Shuffle(order)), Cut(keep=False))
    model = Model(TUNISIAN, 2, 0)
    model.shuffle(order)
    model.cut(False)
    for played, taken in [("7H", "3C 4C"), ("QH", "2D 6S")]:
        assert_agree(state, model)
        move = (card(played), frozenset(cards(taken)))
        assert move in model.legal()
        state = apply(state, Play(*move))
        model.play(*move)
        if played == "7H":
            assert (card("JH"), frozenset()) in model.legal()  # J=9 takes nothing here
    assert_agree(state, model)
    assert state.chkobbas == (1, 0) and state.table == ()


def test_the_worked_example_and_the_sixes_tie_break() -> None:
    a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
    b = [c for c in DECK if c not in a]
    for rules in (TUNISIAN, CARD_RULES_PLUS, attrs.evolve(TUNISIAN, primiera=True)):
        expected = model_score(rules, (a, b), (1, 0), None)
        assert library_score(score_deal((a, b), (1, 0), rules)) == expected
    assert model_score(TUNISIAN, (a, b), (1, 0), None)[:6] == (0, 0, 0, 0, (1, 0), (5, 0))
    # Equal sevens and equal sixes: nobody.
    c = cards("7D 7S 6S 6H AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
    d = [x for x in DECK if x not in c]
    assert model_score(TUNISIAN, (c, d), (0, 0), None)[2] is None
    assert score_deal((c, d), (0, 0)).bermila_winner is None
    # Three sides: the sixes decide only among the sides tied on sevens.
    piles = (cards("7S 7H 6S"), cards("7C 7D"), cards("6H 6C 6D"))
    assert model_score(CARD_RULES_PLUS, piles, (0, 0, 0), None)[:4] == (None, None, None, 1)
    assert score_deal(piles, (0, 0, 0)).bermila_winner == 0
    assert model_score(TUNISIAN, piles, (0, 0, 0), None)[2] == 0


@pytest.mark.parametrize("majority", ["more_than_half", "most"])
@pytest.mark.parametrize("last_side", [None, 0, 1, 2])
def test_ties_to_the_last_capturer(majority: Majority, last_side: int | None) -> None:
    # Diamonds come third in each suit's run of DECK (S H D C), so these splits tie the
    # diamonds too.
    splits: list[tuple[Sequence[Card], ...]] = [
        (DECK[:20], DECK[20:]),  # 20-20
        (DECK[:19], DECK[19:37]),  # 19-18, 3 cards to nobody
        (DECK[:20], DECK[20:], ()),  # 20-20-0
        (DECK[:16], DECK[16:32], DECK[32:]),  # 16-16-8: the third is no leader
        (DECK[:12], DECK[12:24], DECK[24:]),  # 12-12-16
    ]
    for ties in (False, True):
        rules = attrs.evolve(TUNISIAN, majority=majority, ties_to_last_capturer=ties)
        for piles in splits:
            if last_side is not None and last_side >= len(piles):
                continue
            chkobbas = (0,) * len(piles)
            score = score_deal(piles, chkobbas, rules, last_capturer_side=last_side)
            assert library_score(score) == model_score(rules, piles, chkobbas, last_side)


def by_capture(move: ModelMove) -> tuple[int, int, list[int]]:
    """A total order of plays: the biggest capture first, then by card."""
    assert not isinstance(move, str)
    played, capture = move
    return (-len(capture), DECK_INDEX[played], sorted(DECK_INDEX[c] for c in capture))


def greedy_deal(
    rules: Rules,
    players: int,
    seed: int,
    scores: Sequence[int] | None = None,
    library: bool = True,
) -> tuple[Model, list[tuple[State, State]]]:
    """One deal (with any void deals before it) by a seeded greedy player who takes the
    most cards it can, on the model and, with ``library``, on the library as well,
    checking they agree after every move. Returns the model and the library's steps."""
    model, rng = Model(rules, players, 0, scores), random.Random(seed)
    state = new_match(players, rules=rules, scores=scores) if library else None
    steps: list[tuple[State, State]] = []
    while not model.deal_scores:
        move: Shuffle | Cut | Play
        if model.phase is Phase.SHUFFLE:
            order = list(DECK)
            rng.shuffle(order)
            model.shuffle(order)
            move = Shuffle(tuple(order))
        elif model.phase is Phase.CUT:
            keep = rng.random() < 0.5
            model.cut(keep)
            move = Cut(keep=keep)
        else:
            moves = sorted(model.legal(), key=by_capture)
            best = [m for m in moves if by_capture(m)[0] == by_capture(moves[0])[0]]
            chosen = rng.choice(best)
            assert not isinstance(chosen, str)
            model.play(*chosen)
            move = Play(*chosen)
        if state is not None:
            after = apply(state, move)
            steps.append((state, after))
            state = after
            assert_agree(state, model)
    return model, steps


def find_seed(rules: Rules, players: int, note: str) -> int:
    """The first seed whose greedy deal shows ``note`` in the model (the model alone)."""
    return next(
        s for s in range(5000) if note in greedy_deal(rules, players, s, library=False)[0].notes
    )


@pytest.mark.parametrize("last_card_chkobba", [False, True])
def test_a_sweep_with_the_last_card_of_the_deal(last_card_chkobba: bool) -> None:
    rules = attrs.evolve(TUNISIAN, last_card_chkobba=last_card_chkobba)
    _, steps = greedy_deal(rules, 2, find_seed(rules, 2, "last-card sweep"))
    before, after = steps[-1]
    assert before.current_player is not None
    side = before.current_player  # 2 players: side = player
    assert len(before.table) > 0 and after.deal_scores[-1].card_counts[side] > 0
    gained = after.deal_scores[-1].chkobbas[side] - before.chkobbas[side]
    assert gained == (1 if last_card_chkobba else 0)  # not a chkobba under the Tunisian rules
    assert after.table == () and after.last_capturer == before.current_player


@pytest.mark.parametrize("players", [2, 4])
def test_a_sweep_with_the_last_card_of_a_round_counts(players: int) -> None:
    _, steps = greedy_deal(TUNISIAN, players, find_seed(TUNISIAN, players, "round-end sweep"))
    swept = [
        (before, after)
        for before, after in steps
        if before.phase is Phase.PLAY
        and before.table
        and not after.table
        and sum(map(len, before.hands)) == 1  # the last card of its round
        and after.phase is Phase.PLAY  # but not of the deal
    ]
    assert swept
    for before, after in swept:
        assert before.current_player is not None
        side = before.current_player % 2
        assert after.chkobbas[side] == before.chkobbas[side] + 1


@pytest.mark.parametrize(
    ("rules", "players"),
    [(TUNISIAN, 2), (TUNISIAN, 4), (attrs.evolve(CARD_RULES_PLUS, sevens_bermila=True), 3)],
)
def test_the_bermila_tie_broken_by_the_sixes_in_a_real_deal(rules: Rules, players: int) -> None:
    _, steps = greedy_deal(rules, players, find_seed(rules, players, "sixes decide"))
    score = steps[-1][1].deal_scores[-1]
    sevens, sixes = score.seven_counts, score.six_counts
    tied = [s for s, n in enumerate(sevens) if n == max(sevens)]
    assert len(tied) > 1 and score.bermila_winner in tied
    assert score.bermila_winner is not None
    assert all(sixes[score.bermila_winner] > sixes[s] for s in tied if s != score.bermila_winner)


def model_from(state: State) -> Model:
    """The model in the position ``state`` holds (for positions built by hand)."""
    model = Model(state.rules, state.players, state.dealer, state.scores)
    model.phase, model.current = state.phase, state.current_player
    model.hands = [list(h) for h in state.hands]
    model.table, model.stock = list(state.table), list(state.stock)
    model.piles = [list(p) for p in state.captured]
    model.chkobbas, model.last_capturer = list(state.chkobbas), state.last_capturer
    return model


def _last_play(
    last: Card,
    table: tuple[Card, ...],
    *,
    split: int,
    chkobbas: tuple[int, int],
    last_capturer: int | None,
) -> State:
    """A 2-player deal's last play, built by hand: player 0 holds ``last`` alone, the
    ``table`` lies out, and every other card is in the piles (``split`` in side 0's)."""
    start = apply(
        apply(new_match(), Shuffle(order_with("AS 2S 3S 4S 5S 6S 7S QS JS KS"))), Cut(keep=False)
    )
    piles = [c for c in DECK if c is not last and c not in table]
    return attrs.evolve(
        start,
        hands=((last,), ()),
        table=table,
        stock=(),
        captured=(tuple(piles[:split]), tuple(piles[split:])),
        chkobbas=chkobbas,
        last_capturer=last_capturer,
        current_player=0,
    )


def test_leftovers_go_to_nobody_when_nobody_captured() -> None:
    # No real deal gets here (docs/rules.md: the last card's three mates would lie on the
    # table), and check_state refuses piles without a last capturer, so the position is
    # one check_state rejects; docs/api.md: such a state "is played on as it is".
    last, table = card("KD"), cards("7S")
    position = _last_play(last, table, split=20, chkobbas=(0, 0), last_capturer=None)
    with pytest.raises(ValueError, match="last_capturer"):
        check_state(position)
    model = model_from(position)
    assert set(library_moves(position)) == model.legal() == {(last, frozenset())}
    after = apply(position, Play(last))
    model.play(last, frozenset())
    assert_agree(after, model)
    assert list(after.table) == [*table, last]  # the leftovers stay on the table
    assert after.deal_scores[-1].card_counts == (20, 18)


def test_the_last_card_sweep_in_a_position_built_by_hand() -> None:
    last, table = card("KD"), cards("AS 2S 3S 4S")
    position = check_state(_last_play(last, table, split=18, chkobbas=(2, 1), last_capturer=1))
    for rules in (TUNISIAN, attrs.evolve(TUNISIAN, last_card_chkobba=True)):
        here = attrs.evolve(position, rules=rules)
        model = model_from(here)
        assert_agree(here, model)
        after = apply(here, Play(last, frozenset(table)))
        model.play(last, frozenset(table))
        assert_agree(after, model)
        assert after.deal_scores[-1].chkobbas == ((3, 1) if rules.last_card_chkobba else (2, 1))


def _points(rules: Rules, players: int, least: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    # A seed whose greedy deal gives each side at least ``least`` points (the model alone).
    for seed in range(5000):
        points = greedy_deal(rules, players, seed, library=False)[0].deal_scores[-1][5]
        assert isinstance(points, tuple)
        if all(p >= n for p, n in zip(points, least, strict=True)):
            return seed, points
    raise AssertionError("no such deal")


@pytest.mark.parametrize(
    ("rules", "players"), [(TUNISIAN, 2), (TUNISIAN, 4), (CARD_RULES_PLUS, 3), (CARD_RULES_PLUS, 2)]
)
def test_the_end_of_the_match(rules: Rules, players: int) -> None:
    sides = side_count(players)
    seed, p = _points(rules, players, [2, 2, 0][:sides])
    t, third = rules.target, [0] * (sides - 2)  # a third side, far behind
    ties = [t - p[0], t - p[1], *third]  # the two leaders tie on t: another deal
    one = [t - p[0], t - p[1] - 1, *third]  # only side 0 reaches t: it wins
    both = [t - p[0], t - p[1] + 1, *third]  # both reach it, side 1 the higher: it wins
    for start, winner in [(ties, None), (one, 0), (both, 1)]:
        model, steps = greedy_deal(rules, players, seed, scores=start)
        end = steps[-1][1]
        assert end.winner == model.winner == winner
        assert end.phase is (Phase.SHUFFLE if winner is None else Phase.OVER)
        assert end.dealer == (1 if winner is None else 0)  # a tie plays on, dealt by the next


def test_captures_follow_the_profile_fields() -> None:
    tables_and_cards = [
        ("5C 2D 3S 5H", "5D"),
        ("2D 6S", "QH"),
        ("2D 6S", "JH"),
        ("6S 4D", "KH"),
        ("AS 2S 3S 4S 5S", "7D"),
        ("QS AS AH", "KH"),
        ("AS 2S 3S 4S KC", "KH"),
    ]
    house = [
        attrs.evolve(TUNISIAN, equal_single_first=False),
        attrs.evolve(TUNISIAN, courts_capture_sums=False),
        attrs.evolve(CARD_RULES_PLUS, equal_single_first=False, courts_capture_sums=False),
    ]
    for rules in (TUNISIAN, CARD_RULES_PLUS, *house):
        for table, played in tables_and_cards:
            library = set(capture_options(cards(table), card(played), rules))
            assert library == set(model_options(rules, cards(table), card(played)))


@st.composite
def split_decks(draw: st.DrawFn) -> list[list[Card]]:
    """The 40 cards shuffled and cut into the piles of 2 or 3 sides (and some to nobody),
    often in equal parts so that the ties (20-20, 5-5, sevens, sixes) come up."""
    order = draw(st.permutations(DECK))
    sides = draw(st.sampled_from([2, 3]))
    sizes: list[int] = []
    for _ in range(sides):
        left = 40 - sum(sizes)
        even = [n for n in (20, 13, left) if n <= left]
        sizes.append(draw(st.one_of(st.sampled_from(even), st.integers(0, left))))
    starts = [sum(sizes[:k]) for k in range(sides)]
    return [list(order[a : a + n]) for a, n in zip(starts, sizes, strict=True)]


@given(
    rules=profiles(),
    piles=split_decks(),
    chkobbas=st.lists(st.integers(0, 3), min_size=3, max_size=3),
    last=st.one_of(st.none(), st.integers(0, 2)),
)
@settings(max_examples=examples(200), deadline=None)
def test_deal_scores_agree_with_the_model(
    rules: Rules, piles: list[list[Card]], chkobbas: list[int], last: int | None
) -> None:
    sides = len(piles)
    side = None if last is None or last >= sides else last
    score = score_deal(piles, chkobbas[:sides], rules, last_capturer_side=side)
    assert library_score(score) == model_score(rules, piles, chkobbas[:sides], side)


@given(
    rules=profiles(),
    table=st.lists(st.sampled_from(DECK), unique=True, max_size=9),
    played=st.sampled_from(DECK),
)
@settings(max_examples=examples(200), deadline=None)
def test_capture_options_agree_with_the_model(
    rules: Rules, table: list[Card], played: Card
) -> None:
    table = [c for c in table if c is not played]
    options = capture_options(table, played, rules)
    assert len(set(options)) == len(options)
    assert set(options) == set(model_options(rules, table, played))
