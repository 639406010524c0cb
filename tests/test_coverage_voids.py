"""Voided deals and three-sided match ends, forced on purpose (RULES.md §3 "Redeal", §6).

Random play almost never voids a deal (three of a rank on the table: about one deal in
fifty; three kings: one in five hundred), seldom seats three players, and never starts a
match with three sides tied past the target, so those paths are built here:

* Shuffles that void the deal (:func:`tests.strategies.voiding_shuffles`), under each
  void rule, for 2, 3 and 4 players of the Tunisian profile, CardRulesPlus and house
  profiles (:func:`tests.strategies.void_profiles`): the rule alone decides
  (``"never"`` never voids, ``"three_kings"`` only on kings); the same dealer shuffles
  again with the 40 cards back in the stock and the match as it was; the redeal deals
  the 40 cards once each; every state passes :func:`~chkobba.check_state`; a rollout
  from the void replays through ``apply`` to the same state.
* :func:`~chkobba.rollout`'s own redeal (its kernel deals, not ``apply``): from a cut
  whose deal is void whatever the cutter decides, and, without the cut, in a seeded
  search for a rollout that voids its deal. Its shuffles hold the 40 cards once each
  and its moves replay through ``apply`` to its result.
* Termination: random 3-sided CardRulesPlus matches end, from 0-0 and from the three
  sides tied at or past the target (totals that decide nothing, so a match may start
  from them), played move by move through ``apply`` and deal by deal through
  ``rollout``, within bounds that fail the test instead of hanging.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    Cut,
    Move,
    Phase,
    Play,
    Rank,
    Rules,
    Shuffle,
    State,
    apply,
    check_state,
    new_match,
    rollout,
)
from chkobba.rules import VoidDeal
from tests.helpers import MOVE_LIMIT, play_randomly, replayed, where_cards_are
from tests.strategies import examples, seeds, shuffles, void_profiles, voiding_shuffles

VOIDING_RULES: tuple[VoidDeal, ...] = ("three_of_a_rank", "three_kings")
#: The most deals a match is rolled out for, deal by deal (a 3-sided match to 21 takes
#: about 15): reaching it fails the test, as MOVE_LIMIT does move by move.
DEAL_LIMIT = 200
#: The most rollouts searched for one whose own shuffle voids its deal: three kings void
#: one deal in about five hundred, so 20,000 deals all missing would take a broken void.
SEARCH_LIMIT = 20_000


def assert_whole(state: State, what: str) -> None:
    """The 40 cards once each in ``state``, which passes check_state."""
    held = where_cards_are(state)
    missing = sorted(set(DECK) - set(held))
    repeated = sorted({c for c in held if held.count(c) > 1})
    assert len(held) == len(DECK) and not missing, (
        f"{what}: {len(held)} cards, missing {missing}, repeated {repeated}"
    )
    check_state(state)


def deal(state: State, order: Shuffle, keep: bool | None) -> State:
    """``state`` (a chance node) after the shuffle and, in a profile with the cut, the cut."""
    shuffled = apply(state, order)
    if not state.rules.cut:
        return shuffled
    assert shuffled.phase is Phase.CUT
    assert_whole(shuffled, "the cut")
    assert keep is not None
    return apply(shuffled, Cut(keep=keep))


def voids(rules: Rules, rank: Rank) -> bool:
    """Whether three or four cards of ``rank`` on the dealt table void it under ``rules``
    (the other card, if any, cannot add a third of any other rank)."""
    return rules.void_deal == "three_of_a_rank" or (
        rules.void_deal == "three_kings" and rank is Rank.KING
    )


# The redeal (RULES.md §3): a table of three of a rank (three kings in CardRulesPlus)
# voids the deal; the same dealer shuffles again with the 40 cards back in the stock, the
# match unchanged; the redeal deals every card once; rollout and apply agree after it.
@pytest.mark.parametrize("void_deal", VOIDING_RULES)
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_a_voided_deal_is_shuffled_again_with_all_40_cards(
    players: int, void_deal: VoidDeal, data: st.DataObject
) -> None:
    rules = data.draw(void_profiles(players, void_deal), label="rules")
    rank = Rank.KING if void_deal == "three_kings" else data.draw(st.sampled_from(Rank))
    keep = data.draw(st.booleans(), label="keep") if rules.cut else None
    order = data.draw(voiding_shuffles(players, rank, (keep,)), label="voiding shuffle")
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    sides = rules.sides(players)
    totals = st.lists(st.integers(0, rules.target - 1), min_size=sides, max_size=sides)
    scores = data.draw(totals, label="scores")
    start = new_match(players, dealer=dealer, scores=scores, rules=rules)

    voided = deal(start, order, keep)
    assert voided.phase is Phase.SHUFFLE, f"{rank.name} x3 on the table did not void the deal"
    assert (voided.dealer, voided.scores, voided.deal_scores) == (dealer, start.scores, ())
    assert voided.hands == ((),) * players and voided.table == ()
    assert_whole(voided, f"the void ({players} players, {void_deal})")

    # The same table under the other rules: "never" deals it, and so does "three_kings"
    # when the three are not kings.
    for other in ("never", "three_kings"):
        house = attrs.evolve(rules, name="house", void_deal=other)
        dealt = deal(new_match(players, dealer=dealer, scores=scores, rules=house), order, keep)
        assert (dealt.phase is Phase.SHUFFLE) == voids(house, rank), f"{other}: {dealt.phase}"
        if dealt.phase is Phase.PLAY:
            assert sum(c.rank is rank for c in dealt.table) >= 3
            assert_whole(dealt, f"the deal {other} keeps")

    redeal = data.draw(shuffles(), label="redeal")
    redeal_keep = data.draw(st.booleans(), label="redeal keep") if rules.cut else None
    redealt = deal(voided, redeal, redeal_keep)
    assert redealt.dealer == dealer and redealt.scores == start.scores
    assert_whole(redealt, f"the redeal ({players} players, {void_deal})")
    if redealt.phase is Phase.PLAY:
        assert len(redealt.stock) == len(DECK) - 3 * players - 4
        assert redealt.current_player == redealt.cutter

    played: list[Move] = []
    end = rollout(voided, random.Random(data.draw(seeds(), label="seed")), moves=played)
    assert replayed(voided, played) == end
    assert_whole(end, "the rolled-out redeal")
    assert end.is_over or len(end.deal_scores) == 1


# rollout's kernel deals a redeal itself: from a cut whose deal is void whether the top
# card is kept or exposed, it must shuffle the 40 cards again, and its moves replay.
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_rollout_deals_again_after_a_cut_that_voids(players: int, data: st.DataObject) -> None:
    void_deal = data.draw(st.sampled_from(VOIDING_RULES), label="void_deal")
    rules = data.draw(void_profiles(players, void_deal, cut=True), label="rules")
    rank = Rank.KING if void_deal == "three_kings" else data.draw(st.sampled_from(Rank))
    order = data.draw(voiding_shuffles(players, rank, (True, False)), label="voiding shuffle")
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    cut = apply(new_match(players, dealer=dealer, rules=rules), order)
    for keep in (True, False):
        assert apply(cut, Cut(keep=keep)).phase is Phase.SHUFFLE, f"Cut({keep}) dealt"

    played: list[Move] = []
    end = rollout(cut, random.Random(data.draw(seeds(), label="seed")), moves=played)
    assert isinstance(played[0], Cut) and isinstance(played[1], Shuffle), played[:2]
    for move in played:
        if isinstance(move, Shuffle):
            assert sorted(move.order) == sorted(DECK), f"rollout's redeal: {move}"
    assert replayed(cut, played) == end
    assert_whole(end, f"the rolled-out redeal ({players} players)")
    assert end.is_over or len(end.deal_scores) == 1


# The same without the cut (CardRulesPlus, whose rule is three kings, and its house with
# three of a rank): rollout shuffles, finds the deal void and shuffles again; the search
# over seeds is deterministic.
@pytest.mark.parametrize("void_deal", VOIDING_RULES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rollout_without_the_cut_deals_again_after_a_void(
    players: int, void_deal: VoidDeal
) -> None:
    rules = attrs.evolve(CARD_RULES_PLUS, name="house", void_deal=void_deal)
    start = new_match(players, rules=rules)
    for seed in range(SEARCH_LIMIT):
        played: list[Move] = []
        end = rollout(start, random.Random(seed), moves=played)
        first_play = next(at for at, move in enumerate(played) if isinstance(move, Play))
        if first_play == 1:
            continue  # dealt at the first shuffle
        for move in played[:first_play]:
            assert isinstance(move, Shuffle)
            assert sorted(move.order) == sorted(DECK), f"seed {seed}: rollout's shuffle {move}"
        voided = apply(start, played[0])
        assert voided.phase is Phase.SHUFFLE, f"seed {seed}: apply deals what rollout voided"
        assert_whole(voided, f"seed {seed}: the void")
        assert replayed(start, played) == end, f"seed {seed}"
        assert_whole(end, f"seed {seed}: the rolled-out redeal")
        return
    pytest.fail(f"no rollout of {SEARCH_LIMIT} voided its deal ({players} players, {void_deal})")


def assert_scored(before: State, after: State, how: str) -> None:
    """When ``after`` ends a deal, its totals are ``before``'s plus the deal's points
    (RULES.md §6: every deal scores, tied totals past the target or not)."""
    if len(after.deal_scores) > len(before.deal_scores):
        points = after.deal_scores[-1].points
        assert after.scores == tuple(s + p for s, p in zip(before.scores, points, strict=True)), (
            f"{how}: deal {len(after.deal_scores)} scored {points}, but the totals "
            f"went from {before.scores} to {after.scores}"
        )


def play_out(start: State, seed: int) -> State:
    """The end of a random match from ``start`` through ``apply``; fails at MOVE_LIMIT."""
    state, moves = start, 0
    for before, _move, after in play_randomly(start, random.Random(seed), limit=MOVE_LIMIT):
        assert_scored(before, after, f"seed {seed}, move {moves}")
        state, moves = after, moves + 1
    assert state.is_over, (
        f"the match from {start.scores} (target {start.rules.target}, seed {seed}) did not "
        f"end in {moves} moves: {len(state.deal_scores)} deals, scores {state.scores}"
    )
    return state


def roll_out(start: State, seed: int) -> State:
    """The end of a random match from ``start``, rolled out one deal at a time (never an
    unbounded ``until="match"``); fails at DEAL_LIMIT deals."""
    rng, state = random.Random(seed), start
    for _ in range(DEAL_LIMIT):
        if state.is_over:
            return state
        before, state = state, rollout(state, rng)
        assert_scored(before, state, f"rollout of seed {seed}")
    pytest.fail(
        f"the rolled-out match from {start.scores} (target {start.rules.target}, seed "
        f"{seed}) did not end in {DEAL_LIMIT} deals: scores {state.scores}"
    )


def assert_ended(start: State, end: State) -> None:
    """``end`` is a won match: the start plus the deal points, a unique highest total at
    or past the target, and it passes check_state."""
    check_state(end)
    points = [sum(score.points[side] for score in end.deal_scores) for side in range(3)]
    assert end.scores == tuple(s + p for s, p in zip(start.scores, points, strict=True))
    best = max(end.scores)
    assert best >= start.rules.target and end.scores.count(best) == 1, end.scores
    assert end.winner == end.scores.index(best)


# RULES.md §6 for three sides: from 0-0 every match ends (a unique highest total at or
# past the target), whatever the target up to 21.
@settings(max_examples=examples(20), deadline=None)
@given(st.integers(1, 21), st.integers(0, 2), seeds())
def test_three_sided_matches_from_nil_end(target: int, dealer: int, seed: int) -> None:
    rules = attrs.evolve(CARD_RULES_PLUS, name="house", target=target)
    start = new_match(3, dealer=dealer, rules=rules)
    assert_ended(start, play_out(start, seed))
    assert_ended(start, roll_out(start, seed))


# RULES.md §6: three sides tied at or past the target decide nothing; the deals go on,
# and score, until one side alone has the highest total.
@settings(max_examples=examples(20), deadline=None)
@given(st.integers(1, 21), st.integers(0, 5), st.integers(0, 2), seeds())
def test_three_sides_tied_past_the_target_play_on_to_an_end(
    target: int, past: int, dealer: int, seed: int
) -> None:
    rules = attrs.evolve(CARD_RULES_PLUS, name="house", target=target)
    tied = (target + past,) * 3
    start = new_match(3, dealer=dealer, scores=tied, rules=rules)
    assert start.phase is Phase.SHUFFLE and start.scores == tied
    assert_ended(start, play_out(start, seed))
    assert_ended(start, roll_out(start, seed))
