"""The fast core (issue #8): its fast paths agree with the straightforward rules.

:mod:`tests.reference` keeps the engine as it was before the fast core; ``legal_moves``
and ``apply`` must agree with it on over 100,000 positions of random profiles and player
counts, and the scorer used at the end of every deal (:func:`chkobba._kernel.score`) must
equal :func:`~chkobba.score_deal`.
"""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Phase,
    Play,
    Rank,
    Rules,
    apply,
    capture_options,
    captures,
    cards,
    legal_moves,
    new_match,
    random_shuffle,
    score_deal,
)
from chkobba._kernel import deal_points, is_void, kernel, score, tally
from chkobba._shuffle import shuffle
from chkobba.state import replaced
from tests.helpers import play_positions, random_rules
from tests.reference import reference_play, reference_plays
from tests.strategies import examples, rule_profiles, seeds, side_piles


@settings(max_examples=examples(300), deadline=None)
@given(seeds(), st.sampled_from([2, 3]))
def test_the_fast_scorer_is_score_deal(seed: int, sides: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    # Sometimes a few leftovers belong to nobody (a deal without any capture).
    choices = [*range(sides), *([None] if rng.random() < 0.3 else [])]
    owners = [rng.choice(choices) for _ in DECK]
    order = list(DECK)
    rng.shuffle(order)
    piles = tuple(
        tuple(c for c, o in zip(order, owners, strict=True) if o == side) for side in range(sides)
    )
    sweeps = tuple(rng.randint(0, 5) for _ in range(sides))
    last = rng.choice([None, *range(sides)])
    expected = score_deal(piles, sweeps, rules, last_capturer_side=last)
    fast = score(piles, sweeps, rules, last)
    assert fast == expected
    # Built by writing its instance dict: exactly the fields, the same hash and repr.
    assert vars(fast) == attrs.asdict(expected, recurse=False)
    assert hash(fast) == hash(expected) and repr(fast) == repr(expected)
    assert pickle.loads(pickle.dumps(fast)) == expected


@pytest.mark.parametrize("void_deal", ["three_of_a_rank", "three_kings", "never"])
def test_the_void_check_counts_ranks_on_every_dealt_table(void_deal: str) -> None:
    rules = attrs.evolve(TUNISIAN, void_deal=void_deal)
    fast = kernel(rules)
    # Every dealt table (4 cards), and tables of 3 and 5 through the general path.
    every = itertools.chain(
        itertools.combinations(range(len(DECK)), 4),
        itertools.combinations(range(len(DECK)), 3),
        itertools.islice(itertools.combinations(range(len(DECK)), 5), 0, None, 37),
    )
    for table in every:
        counts = Counter(DECK[n].rank for n in table)
        expected = {
            "three_of_a_rank": max(counts.values()) >= 3,
            "three_kings": counts[Rank.KING] >= 3,
            "never": False,
        }[void_deal]
        if is_void(table, rules) != expected:
            pytest.fail(f"{void_deal}: {[str(DECK[n]) for n in table]}")
        if fast.voids([fast.code[n] for n in table]) != expected:  # rollout's packed test
            pytest.fail(f"{void_deal}, by codes: {[str(DECK[n]) for n in table]}")


def test_legal_moves_and_apply_agree_with_the_reference_on_100kplay_positions() -> None:
    # 3,000 deals of about 36 plays (fewer with 4 players): over 100,000 positions.
    checked = 0
    for index, (state, move) in enumerate(play_positions(3000, seed=8)):
        plays = legal_moves(state)
        assert plays == reference_plays(state), state
        assert apply(state, move) == reference_play(state, move)  # type: ignore[arg-type]
        if index % 20 == 0:  # every legal move of some positions
            for each in plays:
                assert apply(state, each) == reference_play(state, each)  # type: ignore[arg-type]
        checked += 1
    assert checked >= 100_000


@pytest.mark.parametrize("equal_single_first", [True, False])
def test_several_options_come_in_capture_options_order_whatever_the_table_order(
    equal_single_first: bool,
) -> None:
    # The kernel reads the table sorted by value: a card with several options must still
    # list them as capture_options does (singles in table order, then groups by their
    # table positions), for every order the same cards can lie in.
    rules = attrs.evolve(TUNISIAN, equal_single_first=equal_single_first)
    hand = cards("5D AD 4S KD")
    several = 0
    for table in itertools.permutations(cards("AS AC 2D 3H 4C")):
        plays = captures.hand_plays(hand, table, rules)
        expected = [
            Play(held, option) for held in hand for option in capture_options(table, held, rules)
        ]
        assert list(plays) == expected
        several += sum(len(capture_options(table, held, rules)) > 1 for held in hand)
    assert several >= 120 * 3  # 5D, AD and KD have several options on every order


@settings(max_examples=examples(50), deadline=None)
@given(seeds())
def test_fast_states_are_values_like_any_other(seed: int) -> None:
    # States made by the fast step (no keyword construction, no checks) must be the same
    # values as the reference's: equality, hash, repr, pickling and attrs.evolve.
    history = list(play_positions(1, seed))
    state, move = history[len(history) // 2]
    fast = apply(state, move)
    plain = reference_play(state, move)  # type: ignore[arg-type]
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert pickle.loads(pickle.dumps(fast)) == plain
    assert attrs.evolve(fast) == plain and fast.captured == plain.captured


class _OwnNumbers(random.Random):
    """A Random subclass drawing its numbers its own way (random_shuffle must ask it)."""

    def random(self) -> float:
        return super().random() ** 2


@settings(max_examples=examples(200), deadline=None)
@given(seeds())
def test_random_shuffle_draws_exactly_what_rng_shuffle_draws(seed: int) -> None:
    # random_shuffle writes random.Random.shuffle out for speed; the same seed must still
    # give the same order as before (records and seeded matches depend on it).
    expected = list(DECK)
    random.Random(seed).shuffle(expected)
    assert random_shuffle(random.Random(seed)).order == tuple(expected)
    own = list(DECK)
    _OwnNumbers(seed).shuffle(own)
    assert random_shuffle(_OwnNumbers(seed)).order == tuple(own)
    # The rng ends where Random.shuffle leaves it, so later draws agree too.
    after = random.Random(seed)
    random_shuffle(after)
    before = random.Random(seed)
    before.shuffle(list(DECK))
    assert after.random() == before.random()


@settings(max_examples=examples(200), deadline=None)
@given(seeds(), st.integers(0, 60))
def test_the_written_out_shuffle_is_random_shuffle(seed: int, size: int) -> None:
    # Also used by the bots' determinizations: any length, same draws as Random.shuffle.
    mine, theirs = list(range(size)), list(range(size))
    rng, reference = random.Random(seed), random.Random(seed)
    shuffle(mine, rng)
    reference.shuffle(theirs)
    assert mine == theirs and rng.random() == reference.random()


def test_the_table_lookups_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from chkobba import _kernel

    monkeypatch.setattr(_kernel, "_KEPT", 3)
    k = _kernel.kernel(TUNISIAN)
    k.clear()
    hand = cards("KD")
    for table in ("AS", "AS 2S", "AS 3S", "AS 4S", "AS 5S", "AS 6S"):
        plays = captures.hand_plays(hand, cards(table), TUNISIAN)
        assert len(k.cache) <= 3
        assert plays == captures.hand_plays(hand, cards(table), TUNISIAN)
        options = capture_options(cards(table), hand[0])
        assert plays == (tuple(Play(hand[0], o) for o in options) or (Play(hand[0]),))


@settings(max_examples=examples(50), deadline=None)
@given(seeds())
def test_a_successor_forgets_its_predecessors_memos(seed: int) -> None:
    # A play's successor is made from a copy of its state's instance dict: the cached hash
    # and the legal plays of the state before must not carry over.
    for state, move in play_positions(1, seed):
        hash(state)
        legal_moves(state)
        after = apply(state, move)
        rebuilt = attrs.evolve(after)  # built by State.__init__, no memo
        assert hash(after) == hash(rebuilt) and {after} == {rebuilt}
        assert legal_moves(after) == legal_moves(rebuilt)


@settings(max_examples=examples(30), deadline=None)
@given(seeds())
def test_replaced_is_evolve_without_the_checks(seed: int) -> None:
    rng = random.Random(seed)
    state = new_match()
    while state.phase is not Phase.PLAY:  # a voided deal is shuffled again
        shuffling = state.phase is Phase.SHUFFLE
        state = apply(state, random_shuffle(rng) if shuffling else rng.choice(legal_moves(state)))
    hash(state), legal_moves(state)  # fill both memos: the copy must not keep them
    hands = (state.hands[1], state.hands[0])
    copy = replaced(state, hands=hands, current_player=1 - state.current_player)  # type: ignore[operator]
    expected = attrs.evolve(state, hands=hands, current_player=1 - state.current_player)  # type: ignore[operator]
    assert copy == expected and hash(copy) == hash(expected)
    assert legal_moves(copy) == legal_moves(expected)
    assert replaced(state) == state and replaced(state) is not state


def test_a_state_with_list_fields_plays_on_or_is_reported_broken() -> None:
    # A hand-built state whose hands are lists (check_state rejects it): the pure build
    # plays on, the compiled build's typed code stops with the broken-state error (the
    # README's compiled build); either way no raw TypeError reaches the caller.
    state, move = next(iter(play_positions(1, seed=3)))
    listed = attrs.evolve(state, hands=[list(hand) for hand in state.hands])
    try:
        plays = legal_moves(listed)
    except ChkobbaError as error:
        assert "check_state" in str(error)
    else:
        assert plays == legal_moves(state)
    try:
        after = apply(listed, move)
    except ChkobbaError as error:
        assert "check_state" in str(error)
    else:
        assert after.table == apply(state, move).table


def test_a_table_signature_holds_each_values_count_in_as_few_bits_as_it_needs() -> None:
    # With 4 cards of each of 10 values (the Tunisian and CardRulesPlus profiles) the
    # whole deck's signature fits in 30 bits, one digit of a Python int; a profile with
    # more cards of one value widens every count, and each count still reads back.
    from chkobba import CARD_RULES_PLUS
    from chkobba._kernel import kernel

    for rules in (TUNISIAN, CARD_RULES_PLUS):
        k = kernel(rules)
        assert k.signature(k.code) < 1 << 30
    courts_ten = attrs.evolve(TUNISIAN, capture_values=(1, 2, 3, 4, 5, 6, 7, 10, 10, 10))
    k = kernel(courts_ten)
    whole = k.signature(k.code)
    assert whole >= 1 << 30  # 12 cards of value 10 need 4 bits each
    tens = [c for c in k.code if k.values[c & 63] == 10]
    assert len(tens) == 12 and k.options(k.signature(tens))[k.play_key[tens[0]]] == tuple(
        (at,) for at in range(12)
    )


@settings(max_examples=examples(200), deadline=None)
@given(rule_profiles(), st.sampled_from([2, 3]), st.data())
def test_deal_points_from_tallies_are_the_scores_points(
    rules: Rules, sides: int, data: st.DataObject
) -> None:
    # What the search's rollouts score a finished deal with: the piles' tallies only.
    piles, chkobbas = data.draw(side_piles(sides))
    last = data.draw(st.sampled_from([None, *range(sides)]))
    tallies, sizes = [tally(pile) for pile in piles], [len(pile) for pile in piles]
    expected = score_deal(piles, chkobbas, rules, last_capturer_side=last).points
    assert deal_points(tallies, sizes, chkobbas, rules, last) == expected


@pytest.mark.parametrize("last", [None, 0, 1, 2])
def test_deal_points_give_a_three_way_tie_to_the_last_capturer(last: int | None) -> None:
    rules = attrs.evolve(CARD_RULES_PLUS, ties_to_last_capturer=True)
    piles = (DECK[:13], DECK[13:26], DECK[26:39])  # 13 cards each: the cards are tied
    tallies, sizes = [tally(pile) for pile in piles], [13, 13, 13]
    points = deal_points(tallies, sizes, (0, 0, 0), rules, last)
    assert points == score_deal(piles, (0, 0, 0), rules, last_capturer_side=last).points
    if last is not None:
        assert points[last] >= 1  # at least the cards category


def test_the_per_profile_caches_stay_bounded_under_many_house_profiles() -> None:
    # A server reading records of many house profiles: each profile's kernel, lookups,
    # shuffle plan and rollout tables were kept forever (69 MB for 400 profiles).
    from chkobba import _kernel, _playout, _plays, observe, rollout
    from chkobba.bots import ISMCTSBot, _policy_rollout

    rng = random.Random(3)
    limit = _kernel.PROFILES_KEPT
    for i in range(limit + 40):
        rules = attrs.evolve(TUNISIAN, name=f"house {i}", target=21 + i)
        after = rollout(new_match(rules=rules), rng, until="deal")  # the shuffle plan
        while after.phase is not Phase.PLAY:
            shuffling = after.phase is Phase.SHUFFLE
            after = apply(after, random_shuffle(rng) if shuffling else legal_moves(after)[0])
        player = after.current_player
        assert player is not None
        ISMCTSBot(iterations=2, seed=i).choose(observe(after, player), legal_moves(after))
    caches = (_kernel._KERNELS, _plays._LOOKUPS, _playout._SHUFFLES, _policy_rollout._TABLES)
    assert all(0 < len(cache) <= limit for cache in caches)
    # Still right after the clearing: a profile rebuilds what it needs, the same again.
    assert legal_moves(after) == reference_plays(after)


def test_the_rollout_shuffle_is_the_inside_out_shuffle_of_its_draws() -> None:
    # The reference: every card in deck order goes to its place among those before it,
    # three places read from one 30-bit draw (redrawn above the limit), no table.
    from chkobba._kernel import kernel
    from chkobba._playout import _limit, _shuffled

    for rules in (TUNISIAN, CARD_RULES_PLUS):
        codes = kernel(rules).code
        for seed in range(300):
            draws = random.Random(seed)
            expected = [codes[0]]
            for at in range(1, len(codes), 3):
                places = (at + 1, at + 2, at + 3)
                limit = _limit(places[0] * places[1] * places[2])
                drawn = draws.getrandbits(30)
                while drawn >= limit:
                    drawn = draws.getrandbits(30)
                for offset, count in enumerate(places):
                    expected.insert(drawn % count, codes[at + offset])
                    drawn //= count
            assert _shuffled(random.Random(seed), kernel(rules)) == expected
