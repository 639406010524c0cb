"""``rollout``: random playouts on the compact kernel agree with ``apply`` (issue #8)."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    DECK,
    ChkobbaError,
    Cut,
    Move,
    Phase,
    Play,
    Shuffle,
    State,
    apply,
    cards,
    legal_moves,
    new_match,
    rollout,
)
from chkobba._kernel import kernel
from chkobba._playout import _SAFE, _below, _limit, _redraw, _shuffled, _uniform
from tests.helpers import arranged, first_plays, random_rules, replayed
from tests.strategies import examples, seeds, states


@settings(max_examples=examples(60), deadline=None)
@given(states(), seeds(), st.sampled_from(["deal", "match"]))
def test_rollout_is_what_apply_gives_for_its_moves(start: State, seed: int, until: str) -> None:
    played: list[Move] = []
    end = rollout(start, random.Random(seed), until=until, moves=played)  # type: ignore[arg-type]
    assert replayed(start, played) == end
    if start.is_over:
        assert end is start and played == []
    elif until == "match":
        assert end.is_over
    else:
        assert end.is_over or len(end.deal_scores) == len(start.deal_scores) + 1
        assert end.phase in (Phase.SHUFFLE, Phase.OVER)


@pytest.mark.parametrize("players", [2, 4])
def test_whole_matches_replay_exactly(players: int) -> None:
    for seed in range(40):
        played: list[Move] = []
        end = rollout(new_match(players), random.Random(seed), until="match", moves=played)
        assert end.is_over and end.winner is not None
        assert replayed(new_match(players), played) == end


def _dealt_start(seed: int) -> State:
    """A 2-player deal just dealt (shuffled, cut card exposed)."""
    state = apply(new_match(), Shuffle(random.Random(seed).sample(DECK, len(DECK))))
    return apply(state, Cut(keep=False))


@pytest.mark.parametrize("seed", range(12))
def test_hands_of_four_and_a_short_stock_play_out_as_apply_does(seed: int) -> None:
    # A state built by hand: four cards a hand, and a stock of four, so the refill deals
    # two each. The kernel knows each turn's hand size ahead; this checks it counts them
    # right off the usual three-card rounds (the rest of the stock is already captured).
    start = _dealt_start(seed)
    first, second = start.hands
    stock = start.stock
    start = attrs.evolve(
        start,
        hands=(first + stock[:1], second + stock[1:2]),
        stock=stock[2:6],
        captured=(stock[6:], ()),
    )
    played: list[Move] = []
    end = rollout(start, random.Random(seed), moves=played)
    assert len(played) == 12 and end.phase in (Phase.SHUFFLE, Phase.OVER)
    assert replayed(start, played) == end


def test_a_hand_that_runs_out_before_its_turn_is_a_broken_state() -> None:
    # Four cards against two: the second player's turn comes with an empty hand.
    start = _dealt_start(1)
    first, second = start.hands
    start = attrs.evolve(start, hands=(first + start.stock[:1], second[:2]), stock=start.stock[1:])
    played: list[Move] = []
    with pytest.raises(ChkobbaError, match="no card"):
        rollout(start, random.Random(1), moves=played)
    assert played == []


def test_the_same_seed_gives_the_same_result() -> None:
    start = new_match(4)
    first, second = [], []  # type: ignore[var-annotated]
    a = rollout(start, random.Random(11), until="match", moves=first)
    b = rollout(start, random.Random(11), until="match", moves=second)
    assert a == b and first == second
    assert rollout(start, random.Random(12), until="match") != a


def test_moves_are_appended_to_the_given_list() -> None:
    played: list[Move] = [Cut(keep=True)]
    rollout(new_match(), random.Random(3), moves=played)
    assert played[0] == Cut(keep=True) and isinstance(played[1], Shuffle)
    assert isinstance(played[2], Cut) and isinstance(played[-1], Play)


def test_a_voided_deal_is_dealt_again_within_the_same_rollout() -> None:
    # Seed search is deterministic: find a rollout whose first shuffle voids the deal.
    for seed in range(2000):
        played: list[Move] = []
        end = rollout(new_match(), random.Random(seed), moves=played)
        if sum(isinstance(m, Shuffle) for m in played) > 1:
            assert len(end.deal_scores) == 1
            assert replayed(new_match(), played) == end
            return
    pytest.fail("no voided deal in 2000 rollouts")  # about 1 deal in 50 is void


def test_each_play_is_uniform_among_the_legal_moves() -> None:
    # 5D may take either 5; AS has one play. Choosing a card first would give AS a half.
    used = cards("5D AS KC 2H 5C 5H QS")
    stock = [c for c in DECK if c not in used][:30]
    state = arranged(
        dealer=1, hands=[cards("5D AS"), cards("KC 2H")], table=cards("5C 5H QS"), stock=stock
    )
    options = legal_moves(state)
    assert len(options) == 3
    counts = first_plays(state, random.Random(0), 3000)
    assert set(counts) == set(options)
    assert all(800 < n < 1200 for n in counts.values()), counts


def test_the_cutter_keeps_or_exposes_with_even_odds() -> None:
    rng = random.Random(1)
    keeps = 0
    for _ in range(2000):
        played: list[Move] = []
        rollout(new_match(), rng, moves=played)
        keeps += played[1] == Cut(keep=True)
    assert 900 < keeps < 1100


def test_a_state_that_is_over_comes_back_unchanged() -> None:
    over = rollout(new_match(), random.Random(2), until="match")
    played: list[Move] = []
    assert rollout(over, random.Random(0), moves=played) is over and played == []


@pytest.mark.parametrize("seed", range(8))
def test_every_profile_replays_exactly(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        rules = random_rules(rng)
        start = new_match(rng.choice(rules.players), rules=rules)
        played: list[Move] = []
        end = rollout(start, rng, until=rng.choice(["deal", "match"]), moves=played)
        assert replayed(start, played) == end


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rollout("state", random.Random()), r"expected a State, got 'state' \(str\)"),  # type: ignore[arg-type]
        (lambda: rollout(new_match(), random.Random(), until="turn"), "until must be"),  # type: ignore[arg-type]
        (lambda: rollout(new_match(), random.Random(), moves=()), "moves must be a list"),  # type: ignore[arg-type]
        (lambda: rollout(new_match(), 7), "rng must be a random.Random, not 7"),  # type: ignore[arg-type]
        (lambda: rollout(new_match(), None), "rng must be a random.Random, not None"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_named(call: object, message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        call()  # type: ignore[operator]


def _kernel_plays(state: State) -> set[Move]:
    """The plays the kernel offers the player to move: each capture option decoded."""
    k = kernel(state.rules)
    table = sorted(k.code[c.index] for c in state.table)
    options = k.options(k.signature(table))
    plays: set[Move] = set()
    for card in state.hands[state.current_player]:  # type: ignore[index]
        taken = options[k.play_key[k.code[card.index]]]
        plays.update(Play(card, frozenset(DECK[table[i] & 63] for i in group)) for group in taken)
        if not taken:
            plays.add(Play(card))
    return plays


@pytest.mark.parametrize("seed", range(4))
def test_the_kernel_offers_exactly_the_legal_plays(seed: int) -> None:
    # Every play position of rollouts of random profiles (tables of every size), and the
    # kernel built afresh so its memoised groups are built in a different order.
    rng = random.Random(seed)
    for _ in range(25):
        rules = random_rules(rng)
        state = new_match(rng.choice(rules.players), rules=rules)
        played: list[Move] = []
        rollout(state, rng, moves=played)
        kernel(rules).clear()
        for move in played:
            if state.phase is Phase.PLAY:
                assert _kernel_plays(state) == set(legal_moves(state))
            state = apply(state, move)


def test_uniform_draws_reject_the_top_of_the_range() -> None:
    # 30 random bits give 2**30 values: below 3, the last (2**30 % 3) must be redrawn.
    limit = _limit(3)
    assert limit % 3 == 0 and 0 < (1 << 30) - limit < 3
    draws = iter([limit, limit + 1, 7])
    assert _below(lambda bits: next(draws), limit) == 7
    assert _uniform(lambda bits: 5, 3) == 2
    rng = random.Random(4)
    counts = Counter(_uniform(rng.getrandbits, 5) for _ in range(5000))
    assert set(counts) == set(range(5)) and all(900 < n < 1100 for n in counts.values())


def test_draws_over_the_safe_bound_are_checked_exactly() -> None:
    # Below _SAFE every draw is under the limit of any plausible count; above it, the
    # exact limit decides, and a draw at or over it is replaced by a fresh one.
    assert min(_limit(n) for n in range(1, 1 << 12)) >= _SAFE
    assert _redraw(lambda bits: 7, _SAFE, 3) == _SAFE
    assert _redraw(lambda bits: 7, _limit(3), 3) == 7
    big = (1 << 20) + 3
    assert _redraw(lambda bits: 7, _limit(big), big) == 7


def test_the_shuffle_is_uniform_over_orders() -> None:
    # Where the first card of the deck lands, and which card comes first: both uniform.
    rng = random.Random(9)
    k = kernel(new_match().rules)
    first_place: Counter[int] = Counter()
    first_card: Counter[int] = Counter()
    for _ in range(8000):
        order = _shuffled(rng, k)
        assert sorted(order) == sorted(k.code)
        first_place[order.index(k.code[0]) // 8] += 1
        first_card[(order[0] & 63) // 8] += 1
    assert len(first_place) == len(first_card) == 5
    assert all(1400 < n < 1800 for n in [*first_place.values(), *first_card.values()])


def test_between_deals_the_current_deal_is_the_next_one() -> None:
    # As the docstring says: once a deal is scored, until="deal" shuffles and plays the
    # next deal; the deal just ended stays the last but one entry of deal_scores.
    ended = rollout(new_match(), random.Random(2))
    assert ended.phase is Phase.SHUFFLE and len(ended.deal_scores) == 1
    after = rollout(ended, random.Random(3))
    assert len(after.deal_scores) == 2 and after.deal_scores[0] == ended.deal_scores[0]


class _Scripted(random.Random):
    """A generator whose 30-bit draws are given: ``first`` for the first, 0 after."""

    def __init__(self, first: int) -> None:
        super().__init__(0)
        self.draws = [first]

    def getrandbits(self, k: int) -> int:
        return self.draws.pop() if self.draws else 0


def test_one_draw_places_three_cards_and_every_draw_a_different_way() -> None:
    # The first draw places the deck's 2nd, 3rd and 4th cards among those before them
    # (2 x 3 x 4 ways): each of its 24 values below the product orders the first four
    # cards another way, so no order is favoured; a draw at or over the limit is drawn
    # again, not folded in.
    k = kernel(new_match().rules)
    first = set(k.code[:4])

    def first_four(draw: int) -> tuple[int, ...]:
        return tuple(c for c in _shuffled(_Scripted(draw), k) if c in first)

    assert len({first_four(n) for n in range(24)}) == 24
    assert first_four(24) == first_four(0)
    limit = _limit(2 * 3 * 4)
    assert _shuffled(_Scripted(limit), k) == _shuffled(_Scripted(0), k)  # redrawn: 0
    assert first_four(limit - 1) == first_four(23)
