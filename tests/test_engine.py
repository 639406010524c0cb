"""The reducer, rule by rule (RULES.md §1, §3, §4 and §6).

Positions come from explicit 40-card orders (the dealing tests spell the order out by hand,
so they do not trust :mod:`tests.helpers`), from :func:`tests.helpers.dealt` (stacked
decks) or from :func:`tests.helpers.arranged` (hand-made mid-deal states).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
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
    IllegalMoveError,
    Move,
    Phase,
    Play,
    Rules,
    Shuffle,
    State,
    Suit,
    apply,
    card,
    cards,
    format_cards,
    illegal_reason,
    is_legal,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    rollout,
    score_deal,
)
from tests.helpers import (
    SUIT_MAJOR,
    arranged,
    dealt,
    play_randomly,
    random_history,
    round_order,
    stacked_shuffle,
)


def hands_text(state: State) -> list[str]:
    return [" ".join(map(str, hand)) for hand in state.hands]


def table_text(state: State) -> str:
    return " ".join(map(str, state.table))


def plays(state: State) -> list[str]:
    return sorted(str(m) for m in legal_moves(state))


# --- §1 players, seats and sides ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_new_match_waits_for_the_shuffle(players: int) -> None:
    state = new_match(players)
    assert state.phase is Phase.SHUFFLE and state.is_chance and not state.is_over
    assert state.players == players
    assert state.dealer == 0
    assert state.current_player is None
    assert state.hands == ((),) * players
    assert state.stock == DECK and state.table == ()
    assert state.captured == ((), ()) and state.chkobbas == (0, 0)
    assert state.scores == (0, 0)
    assert state.winner is None and state.last_capturer is None and state.deal_scores == ()
    assert legal_moves(state) == ()


def test_new_match_is_a_fresh_state_for_its_own_profile_every_time() -> None:
    # new_match copies a remembered fresh match: each call is a new object, equal to the
    # last, holding the very profile it was given (an equal profile keeps its identity).
    first, second = new_match(4, dealer=2), new_match(4, dealer=2)
    assert first == second and first is not second and hash(first) == hash(second)
    assert first.dealer == 2 and first.players == 4
    own = attrs.evolve(TUNISIAN, target=31)
    assert new_match(rules=own).rules is own and new_match(rules=own).rules is own
    same = attrs.evolve(TUNISIAN)
    assert same == TUNISIAN and same is not TUNISIAN and new_match(rules=same).rules is same
    assert new_match(rules=TUNISIAN).rules is TUNISIAN
    with pytest.raises(ChkobbaError, match="dealer must be a player from 0 to 1"):
        new_match(2, dealer=2)  # not a seating seen before: checked as ever
    with pytest.raises(ChkobbaError, match="players"):
        new_match(3)


@pytest.mark.parametrize("players", [0, 1, 3, 5, 6, -2, "2", 2.0, True, None])
def test_bad_player_counts_are_rejected(players: object) -> None:
    # A count of another type is refused for its type ("not 2.0" contradicted "2 or 4").
    counted = "2 or 4 players" if type(players) is int else "players must be an int"
    with pytest.raises(ChkobbaError, match=counted) as caught:
        new_match(players)  # type: ignore[arg-type]
    assert repr(players) in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(("players", "dealer"), [(2, 2), (2, -1), (4, 4), (4, "1")])
def test_bad_dealers_are_rejected(players: int, dealer: object) -> None:
    with pytest.raises(ChkobbaError, match="dealer"):
        new_match(players, dealer=dealer)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "scores",
    [(-1, 0), (1, 2, 3), (5,), (21, 3), (3, 25), (22, 21), "ab", 7, {0: 5, 1: 7}, iter(int, 1)],
)
def test_bad_or_decided_scores_are_rejected(scores: object) -> None:
    # A dict gave its keys as the scores (0, 1); an endless iterator hung.
    with pytest.raises(ChkobbaError, match="scores"):
        new_match(scores=scores)  # type: ignore[arg-type]


@pytest.mark.parametrize("scores", [(17, 3), (0, 20), (21, 21), (25, 25)])
def test_a_match_resumes_from_scores(scores: tuple[int, int]) -> None:
    state = new_match(4, dealer=3, scores=scores)
    assert state.scores == scores
    assert state.phase is Phase.SHUFFLE and state.winner is None


def test_sides_are_player_mod_2() -> None:
    two, four = new_match(2), new_match(4)
    assert [two.side_of(p) for p in range(2)] == [0, 1]
    assert [four.side_of(p) for p in range(4)] == [0, 1, 0, 1]
    for bad in (2, -1):
        with pytest.raises(ChkobbaError, match=f"^there is no player {bad} in a 2-player match$"):
            two.side_of(bad)
    with pytest.raises(ChkobbaError, match=r"^player must be an int, not '0' \(str\)$"):
        two.side_of("0")  # type: ignore[arg-type]


# --- §3 the deal ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (4, 0), (4, 1), (4, 2), (4, 3)])
def test_the_shuffle_leads_to_the_cut_by_the_dealers_right(players: int, dealer: int) -> None:
    order = Shuffle(SUIT_MAJOR)
    state = apply(new_match(players, dealer=dealer), order)
    assert state.phase is Phase.CUT
    assert state.cutter == (dealer + 1) % players
    assert state.current_player == (dealer + 1) % players
    assert state.dealer == dealer
    assert state.stock == SUIT_MAJOR  # stock[0] is the card the cutter looks at
    assert state.hands == ((),) * players and state.table == ()
    assert legal_moves(state) == (Cut(keep=True), Cut(keep=False))


def test_expose_two_players() -> None:
    state = apply(apply(new_match(2, dealer=0), Shuffle(SUIT_MAJOR)), Cut(keep=False))
    # AS exposed; then 2S to the cutter (player 1), 3S to player 0, and so on.
    assert hands_text(state) == ["3S 5S 7S", "2S 4S 6S"]
    assert table_text(state) == "AS QS JS KS"
    assert state.stock == SUIT_MAJOR[10:]
    assert state.phase is Phase.PLAY and state.current_player == 1


def test_keep_two_players_passes_over_the_full_hand() -> None:
    state = apply(apply(new_match(2, dealer=0), Shuffle(SUIT_MAJOR)), Cut(keep=True))
    # AS kept by player 1; 2S to player 1, 3S to 0, 4S to 1 (now full), 5S and 6S to 0.
    assert hands_text(state) == ["3S 5S 6S", "AS 2S 4S"]
    assert table_text(state) == "7S QS JS KS"
    assert state.stock == SUIT_MAJOR[10:]
    assert state.current_player == 1


def test_keep_four_players_passes_over_the_full_hand() -> None:
    state = apply(apply(new_match(4, dealer=3), Shuffle(SUIT_MAJOR)), Cut(keep=True))
    # Cutter 0 keeps AS; 2S 3S 4S 5S to 0 1 2 3; 6S fills 0; then 7S QS JS to 1 2 3, and
    # the next round passes over 0: KS AH 2H to 1 2 3.
    assert hands_text(state) == ["AS 2S 6S", "3S 7S KS", "4S QS AH", "5S JS 2H"]
    assert table_text(state) == "3H 4H 5H 6H"
    assert state.stock == SUIT_MAJOR[16:]
    assert state.current_player == 0


def test_expose_four_players() -> None:
    state = apply(apply(new_match(4, dealer=1), Shuffle(SUIT_MAJOR)), Cut(keep=False))
    # Cutter 2; AS is exposed and lies first on the table.
    assert hands_text(state) == ["4S QS 2H", "5S JS 3H", "2S 6S KS", "3S 7S AH"]
    assert table_text(state) == "AS 4H 5H 6H"
    assert state.stock == SUIT_MAJOR[16:]
    assert state.current_player == 2


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (4, 0), (4, 3)])
def test_stacked_shuffle_helper_deals_what_it_promises(
    players: int, dealer: int, keep: bool
) -> None:
    rng = random.Random(players * 10 + dealer)
    order = list(SUIT_MAJOR)
    rng.shuffle(order)
    hands = [order[3 * p : 3 * p + 3] for p in range(players)]
    table = order[3 * players : 3 * players + 4]
    stock = order[3 * players + 4 : 3 * players + 10]
    if max(sum(c.rank is t.rank for t in table) for c in table) >= 3:
        table = [table[0], table[1], *[c for c in order if c.rank is not table[0].rank][-2:]]
    state = dealt(players, dealer=dealer, hands=hands, table=table, keep=keep, stock=stock)
    assert [list(h) for h in state.hands] == hands
    assert list(state.table) == table
    assert list(state.stock[:6]) == stock


@pytest.mark.parametrize(
    ("table", "keep"),
    [
        ("5S 5H 5D AC", False),  # three of a rank, the exposed one among them
        ("AC 5S 5H 5D", False),
        ("QS 2C QH QD", False),
        ("KS KH KD KC", False),  # four of a rank
        ("3S 2C 3H 3D", True),  # kept cut card elsewhere; the table alone decides
    ],
)
@pytest.mark.parametrize(("players", "dealer"), [(2, 1), (4, 2)])
def test_three_or_four_of_a_rank_on_the_table_voids_the_deal(
    table: str, keep: bool, players: int, dealer: int
) -> None:
    used = set(cards(table))
    free = [c for c in SUIT_MAJOR[::-1] if c not in used and c.rank not in {t.rank for t in used}]
    hands = [free[3 * p : 3 * p + 3] for p in range(players)]
    start = new_match(players, dealer=dealer, scores=(7, 9))
    order = stacked_shuffle(players, dealer=dealer, hands=hands, table=table, keep=keep)
    voided = apply(apply(start, order), Cut(keep=keep))
    assert voided.phase is Phase.SHUFFLE
    assert voided.dealer == dealer  # the same dealer shuffles again
    assert voided.current_player is None
    assert sorted(voided.stock) == list(DECK)  # every card is gathered
    assert voided.hands == ((),) * players and voided.table == ()
    assert voided.captured == ((), ())
    assert voided.scores == (7, 9) and voided.deal_scores == ()
    again = apply(voided, Shuffle(SUIT_MAJOR))
    assert again.phase is Phase.CUT and again.current_player == (dealer + 1) % players


@pytest.mark.parametrize(
    ("table", "hand"),
    [
        ("5S 5H AD AC", "5D 2C 3C"),  # the third five is in a hand: the table decides
        ("5S 5H AD AS", "2D 2C 3C"),  # two pairs
        ("5S 4H 3D 2C", "5D 5C 3C"),
    ],
)
def test_pairs_on_the_table_do_not_void(table: str, hand: str) -> None:
    for keep in (True, False):
        state = dealt(2, dealer=0, hands=["KS KH KD", hand], table=table, keep=keep)
        assert state.phase is Phase.PLAY
        assert set(state.table) == set(cards(table))


def test_random_shuffle_is_a_seeded_permutation() -> None:
    shuffle = random_shuffle(random.Random(5))
    assert sorted(shuffle.order) == list(DECK)
    assert shuffle == random_shuffle(random.Random(5))
    assert shuffle != random_shuffle(random.Random(6))


# --- §4 play --------------------------------------------------------------------------------


def first_position() -> State:
    """Player 1 (the cutter; dealer 0) holds QH AC 3C; the table is 2D 6S KS JS."""
    return dealt(hands=["4C 5C 7C", "QH AC 3C"], table="2D 6S KS JS")


def test_play_starts_at_the_cutter_and_moves_right() -> None:
    for players, dealer in ((2, 0), (2, 1), (4, 0), (4, 2)):
        state = apply(apply(new_match(players, dealer=dealer), Shuffle(SUIT_MAJOR)), Cut(False))
        seen = []
        for _ in range(players):
            seen.append(state.current_player)
            held = state.current_player
            state = apply(state, legal_moves(state)[0])
            assert len(state.hands[held]) == 2  # type: ignore[index]
        cutter = (dealer + 1) % players
        assert seen == [(cutter + i) % players for i in range(players)]


def test_a_card_that_can_capture_must_capture() -> None:
    state = first_position()
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, Play(card("QH")))
    assert str(caught.value) == "QH must capture: it can take 2D+6S"
    assert Play(card("QH")) not in legal_moves(state)
    assert not is_legal(state, Play(card("QH")))


def test_the_choice_of_card_is_free() -> None:
    state = first_position()
    # AC and 3C capture nothing, QH could: laying AC down is still legal.
    assert plays(state) == ["3C", "AC", "QH x 2D+6S"]
    after = apply(state, Play(card("AC")))
    assert table_text(after) == "2D 6S KS JS AC"
    assert after.captured == ((), ())
    assert after.current_player == 0


def test_a_capture_goes_to_the_players_side() -> None:
    after = apply(first_position(), Play(card("QH"), cards("6S 2D")))
    assert table_text(after) == "KS JS"
    assert sorted(after.captured[1]) == sorted(cards("QH 2D 6S"))
    assert after.captured[0] == ()
    assert after.last_capturer == 1
    assert after.chkobbas == (0, 0)  # the table is not empty: no sweep
    assert after.hands[1] == cards("AC 3C")


def test_a_capture_that_does_not_add_up_is_told_so_first() -> None:
    # A player's report: 3D x 2S+6S was refused with "an equal card comes first", though
    # 2 + 6 is not 3; and QS x 6S read as if the queen were worth 6.
    state = dealt(hands=["5D AC JC", "3D QS QH"], table="2S 6S QD 3H")
    with pytest.raises(
        IllegalMoveError, match=r"3D cannot take 2S\+6S: the values sum to 8, not 3$"
    ):
        apply(state, Play(card("3D"), cards("2S 6S")))
    with pytest.raises(IllegalMoveError, match=r"QS cannot take 6S: 6S is worth 6, QS 8$"):
        apply(state, Play(card("QS"), cards("6S")))
    # Two equal cards at once: the player meant an equal capture, which takes one card.
    state = dealt(hands=["4C 6C 7C", "5D AC JC"], table="5C 2D 3S 5H")
    with pytest.raises(IllegalMoveError, match=r"an equal card is taken alone, take 5C or 5H$"):
        apply(state, Play(card("5D"), cards("5C 5H")))


def test_a_capture_of_absent_cards_names_them_in_a_sentence() -> None:
    state = dealt(hands=["5D AC JC", "3D QS QH"], table="2S 6S QD 3H")
    with pytest.raises(IllegalMoveError, match=r"take 2D\+6D: 2D 6D are not on the table$"):
        apply(state, Play(card("QS"), cards("2D 6D")))
    with pytest.raises(IllegalMoveError, match=r"QS cannot take 2S\+6D: 6D is not on the table$"):
        apply(state, Play(card("QS"), cards("2S 6D")))


def test_equal_single_comes_before_any_sum() -> None:
    state = dealt(hands=["4C 6C 7C", "5D AC JC"], table="5C 2D 3S KS")
    assert plays(state) == ["5D x 5C", "AC", "JC"]
    with pytest.raises(IllegalMoveError, match="an equal card comes first, take 5C"):
        apply(state, Play(card("5D"), cards("2D 3S")))
    with pytest.raises(IllegalMoveError, match="5D must capture"):
        apply(state, Play(card("5D")))
    after = apply(state, Play(card("5D"), cards("5C")))
    assert table_text(after) == "2D 3S KS"


def test_the_player_chooses_among_equal_singles() -> None:
    state = dealt(hands=["4C 6C 7C", "5D AC QC"], table="5C 2D 5H KS")
    assert plays(state) == ["5D x 5C", "5D x 5H", "AC", "QC"]
    assert table_text(apply(state, Play(card("5D"), cards("5C")))) == "2D 5H KS"
    assert table_text(apply(state, Play(card("5D"), cards("5H")))) == "5C 2D KS"
    with pytest.raises(IllegalMoveError):
        apply(state, Play(card("5D"), cards("5C 5H")))


def test_the_player_chooses_among_sums() -> None:
    state = dealt(hands=["4C 6C 7C", "7D QC JC"], table="AS 2S 4S 5S")
    assert plays(state) == ["7D x 2S+5S", "7D x AS+2S+4S", "JC x 4S+5S", "QC x AS+2S+5S"]
    after = apply(state, Play(card("7D"), cards("AS 2S 4S")))
    assert table_text(after) == "5S"
    with pytest.raises(IllegalMoveError, match="sum to 6, not 7"):
        apply(state, Play(card("7D"), cards("AS 5S")))


def test_a_card_that_captures_nothing_stays_on_the_table() -> None:
    state = dealt(hands=["4C 6C 7C", "QC AH 2H"], table="KS JS 5D 7S")
    after = apply(state, Play(card("2H")))
    assert table_text(after) == "KS JS 5D 7S 2H"
    assert after.last_capturer is None


def test_worked_example_sweep_scores_a_chkobba() -> None:
    state = arranged(hands=["4C 5C", "QH JC"], table="2D 6S", stock=None, current=1)
    assert plays(state) == ["JC", "QH x 2D+6S"]  # J (9) cannot take 2+6
    after = apply(state, Play(card("QH"), cards("2D 6S")))
    assert after.table == ()
    assert after.chkobbas == (0, 1)
    assert sorted(after.captured[1]) == sorted(cards("QH 2D 6S"))
    assert after.current_player == 0


def test_a_sweep_with_the_last_card_of_the_deal_is_no_chkobba() -> None:
    # Dealer 0: player 1 led the round, player 0 plays the very last card of the deal.
    state = arranged(
        hands=["QH", ""], table="2D 6S", stock="", current=0, last_capturer=1, chkobbas=(1, 2)
    )
    after = apply(state, Play(card("QH"), cards("2D 6S")))
    assert after.phase is Phase.SHUFFLE
    assert after.chkobbas == (1, 2)
    assert after.deal_scores[-1].chkobbas == (1, 2)
    assert card("QH") in after.captured[0]


def test_a_sweep_with_the_last_card_of_a_round_still_counts() -> None:
    state = arranged(
        hands=["QH", ""],
        table="2D 6S",
        stock=round_order(2, 0, ["AC 2C 3C", "4C 5C 7C"]),
        current=0,
    )
    after = apply(state, Play(card("QH"), cards("2D 6S")))
    assert after.chkobbas == (1, 0)
    assert after.phase is Phase.PLAY


def test_a_sweep_before_the_other_player_plays_the_last_card_counts() -> None:
    # Dealer 1: player 0 leads the last round, so player 1 still holds the last card.
    state = arranged(dealer=1, hands=["QH", "KC"], table="2D 6S", stock="", current=0)
    after = apply(state, Play(card("QH"), cards("2D 6S")))
    assert after.chkobbas == (1, 0)
    assert after.phase is Phase.PLAY and after.current_player == 1
    end = apply(after, Play(card("KC")))
    assert end.deal_scores[-1].chkobbas == (1, 0)


@pytest.mark.parametrize("players", [2, 4])
def test_empty_hands_get_three_more_cards_and_the_cutter_leads(players: int) -> None:
    dealer = players - 1  # the dealer plays last in each round
    cutter = (dealer + 1) % players
    refill = [c for c in SUIT_MAJOR if c.suit is Suit.HEARTS][: 3 * players]
    hands: list[str] = [""] * players
    hands[dealer] = "KD"
    state = arranged(
        players, dealer=dealer, current=dealer, hands=hands, table="AC 2C", stock=refill
    )
    after = apply(state, Play(card("KD")))
    assert after.phase is Phase.PLAY
    assert after.current_player == cutter
    assert table_text(after) == "AC 2C KD"  # nothing is dealt to the table
    assert after.stock == ()
    for p in range(players):
        # One card at a time in playing order from the cutter.
        assert after.hands[p] == tuple(refill[(p - cutter) % players :: players])


def test_round_order_helper_matches_the_engine() -> None:
    wanted = ["AH 2H 3H", "4H 5H 6H", "7H QH JH", "KH AD 2D"]
    stock = round_order(4, 1, wanted)
    state = arranged(4, dealer=1, current=1, hands=["", "KC", "", ""], table="AC", stock=stock)
    assert hands_text(apply(state, Play(card("KC")))) == wanted


@pytest.mark.parametrize(("players", "rounds"), [(2, 6), (4, 3)])
def test_a_deal_has_6_rounds_with_2_players_and_3_with_4(players: int, rounds: int) -> None:
    for seed in range(3):
        states, moves = random_history(seed, players)
        first_end = next(i for i, s in enumerate(states) if s.deal_scores)
        deal = states[: first_end + 1]
        full = [s for s in deal if s.phase is Phase.PLAY and all(len(h) == 3 for h in s.hands)]
        assert len(full) == rounds
        assert all(s.current_player == s.cutter for s in full)
        played = [m for m in moves[:first_end] if isinstance(m, Play)]
        assert len(played) == 36


def leftovers_position(players: int, last_capturer: int | None, rules: Rules = TUNISIAN) -> State:
    """Dealer 0's last card (3C) captures nothing; KS JH stay on the table."""
    hands = [""] * players
    hands[0] = "3C"
    sides = 3 if players == 3 else 2
    return arranged(
        players,
        hands=hands,
        table="KS JH",
        stock="",
        current=0,
        last_capturer=last_capturer,
        captured=[""] * sides,
        chkobbas=(0,) * sides,
        scores=(0,) * sides,
        rest_side=0,
        rules=rules,
    )


@pytest.mark.parametrize(("players", "last", "side"), [(2, 1, 1), (2, 0, 0), (4, 2, 0), (4, 3, 1)])
def test_leftovers_go_to_the_last_capturer(players: int, last: int, side: int) -> None:
    state = leftovers_position(players, last)
    before = len(state.captured[side])
    after = apply(state, Play(card("3C")))
    assert after.phase is Phase.SHUFFLE  # the deal is over: no extra turn
    assert after.current_player is None
    assert after.table == ()
    assert set(cards("KS JH 3C")) <= set(after.captured[side])
    assert len(after.captured[side]) == before + 3
    assert after.chkobbas == (0, 0)  # taking the leftovers is never a chkobba
    assert after.deal_scores[-1].card_counts[side] == before + 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_leftovers_of_a_deal_without_captures_go_to_nobody(players: int) -> None:
    # Unreachable in a real deal (the last card always finds a card of its rank), so the
    # convention is checked on a hand-made position with no capturer, with each seating
    # (3 players under the profile that allows them).
    rules = CARD_RULES_PLUS if players == 3 else TUNISIAN
    state = leftovers_position(players, None, rules)
    after = apply(state, Play(card("3C")))
    assert table_text(after) == "KS JH 3C"
    assert after.captured == state.captured
    assert sum(after.deal_scores[-1].card_counts) == 37


@pytest.mark.parametrize(
    ("players", "last"), [(2, None), (2, 1), (3, None), (3, 2), (4, None), (4, 3)]
)
def test_rollout_leaves_the_leftovers_as_apply_does(players: int, last: int | None) -> None:
    # The kernel keeps its own copy of the leftovers rule: nobody's when nobody captured.
    state = leftovers_position(players, last, CARD_RULES_PLUS if players == 3 else TUNISIAN)
    played = apply(state, Play(card("3C")))
    assert rollout(state, random.Random(0)) == played
    assert (table_text(played) == "KS JH 3C") is (last is None)


def test_the_last_capture_takes_the_leftovers_with_it() -> None:
    state = arranged(hands=["5C", ""], table="5D KS", stock="", current=0, last_capturer=1)
    after = apply(state, Play(card("5C"), cards("5D")))
    assert after.table == ()
    assert set(cards("5C 5D KS")) <= set(after.captured[0])
    assert after.chkobbas == (0, 0)


# --- the end of a deal and §6 the match -----------------------------------------------------


def final_position(
    scores: Sequence[int], strong: int, chkobbas: Sequence[int] = (0, 0), players: int = 2
) -> State:
    """The last play of a deal: side ``strong`` wins all four categories.

    Player 0 (the dealer) plays KC on an empty table; the last capturer was player 0,
    so KC goes to side 0 as a leftover.
    """
    strong_pile = DECK[:30]  # every ace to seven, QS, QH: 30 cards, 7 diamonds, 4 sevens
    weak_pile = tuple(c for c in DECK[30:] if c is not card("KC"))
    piles = [strong_pile, weak_pile] if strong == 0 else [weak_pile, strong_pile]
    hands = ["KC"] + [""] * (players - 1)
    return arranged(
        players,
        hands=hands,
        table="",
        stock="",
        current=0,
        captured=piles,
        chkobbas=chkobbas,
        scores=scores,
        last_capturer=0,
    )


@pytest.mark.parametrize("players", [2, 4])
def test_the_deal_is_scored_into_the_totals_and_passes_right(players: int) -> None:
    state = final_position((3, 5), strong=1, chkobbas=(2, 1), players=players)
    after = apply(state, Play(card("KC")))
    assert after.phase is Phase.SHUFFLE
    assert after.deal_scores[-1].points == (2, 5)
    assert after.scores == (5, 10)
    assert after.dealer == 1  # the deal passes to the right
    assert after.hands == ((),) * players and after.stock == ()
    assert after.winner is None
    assert legal_moves(after) == ()
    nxt = apply(after, Shuffle(SUIT_MAJOR))
    assert nxt.current_player == 2 % players and nxt.dealer == 1
    assert nxt.captured == ((), ()) and nxt.chkobbas == (0, 0) and nxt.table == ()
    assert nxt.scores == (5, 10) and nxt.deal_scores == after.deal_scores


def test_the_dealer_passes_right_deal_after_deal() -> None:
    for players in (2, 4):
        states, _ = random_history(11, players, dealer=1)
        dealers = [s.dealer for s in states if s.phase is Phase.CUT]
        voided = {
            i
            for i, (a, b) in enumerate(itertools.pairwise(states))
            if a.phase is Phase.CUT and b.phase is Phase.SHUFFLE
        }
        assert dealers[0] == 1
        changes = [(a, b) for a, b in itertools.pairwise(dealers) if a != b]
        assert all(b == (a + 1) % players for a, b in changes)
        assert len(changes) == len(states[-1].deal_scores) - 1
        assert len(dealers) == len(states[-1].deal_scores) + len(voided)


@pytest.mark.parametrize(
    ("scores", "strong", "chkobbas", "totals", "winner"),
    [
        ((17, 3), 0, (0, 0), (21, 3), 0),  # exactly 21 wins
        ((20, 20), 1, (0, 0), (20, 24), 1),  # only side 1 reaches the target
        ((19, 20), 0, (0, 2), (23, 22), 0),  # both past 21: the higher total wins
        ((20, 19), 1, (2, 0), (22, 23), 1),
        ((18, 20), 0, (0, 2), (22, 22), None),  # equal totals: another deal
        ((16, 3), 0, (0, 0), (20, 3), None),
        ((25, 25), 0, (0, 0), (29, 25), 0),  # resumed from equal totals past the target
    ],
)
def test_match_endings(
    scores: tuple[int, int],
    strong: int,
    chkobbas: tuple[int, int],
    totals: tuple[int, int],
    winner: int | None,
) -> None:
    after = apply(final_position(scores, strong, chkobbas), Play(card("KC")))
    assert after.scores == totals
    assert after.winner == winner
    if winner is None:
        assert after.phase is Phase.SHUFFLE and not after.is_over
    else:
        assert after.phase is Phase.OVER and after.is_over
        assert after.current_player is None
        assert legal_moves(after) == ()
        for move in (Shuffle(DECK), Cut(keep=True), Play(card("AS"))):
            with pytest.raises(IllegalMoveError, match="not allowed in phase OVER"):
                apply(after, move)


def test_equal_totals_past_the_target_play_on_until_they_differ() -> None:
    tied = apply(final_position((18, 20), 0, (0, 2)), Play(card("KC")))
    assert tied.scores == (22, 22) and tied.phase is Phase.SHUFFLE
    rng = random.Random(4)
    state = tied
    while state.phase is not Phase.OVER:
        state = apply(
            state, rng.choice(legal_moves(state)) if not state.is_chance else random_shuffle(rng)
        )
    winner = state.winner
    assert winner is not None
    assert state.scores[winner] > state.scores[1 - winner]


def test_a_resumed_match_adds_to_the_given_totals() -> None:
    states, _ = random_history(3, 2, scores=(15, 12))
    end = next(s for s in states if s.deal_scores)
    points = end.deal_scores[0].points
    assert end.scores == (15 + points[0], 12 + points[1])


def test_a_smaller_target_ends_the_match_sooner() -> None:
    rules = Rules(target=3)
    state = list(play_randomly(new_match(rules=rules), random.Random(0)))[-1][2]
    assert state.is_over  # play_randomly stops at MOVE_LIMIT moves rather than hang
    assert max(state.scores) >= 3
    assert len(state.deal_scores) <= 3


# --- 4 players: partnerships ----------------------------------------------------------------


def test_partners_pool_piles_chkobbas_and_points() -> None:
    # Dealer 3, cutter 0. Player 0 sweeps, 1 captures, 2 sweeps, 3 lays down.
    state = arranged(
        4,
        dealer=3,
        hands=["QH 4C", "7D 4H", "KC 4D", "2H 3H"],
        table="2D 6S",
        stock=None,
    )
    state = apply(state, Play(card("QH"), cards("2D 6S")))
    assert state.chkobbas == (1, 0)
    state = apply(state, Play(card("4H")))
    state = apply(state, Play(card("4D"), cards("4H")))  # player 2: partner of 0
    assert state.chkobbas == (2, 0)
    assert sorted(state.captured[0]) == sorted(cards("QH 2D 6S 4D 4H"))
    state = apply(state, Play(card("2H")))
    state = apply(state, Play(card("4C")))
    state = apply(state, Play(card("7D")))  # player 1: 2+4=6, nothing makes 7
    assert table_text(state) == "2H 4C 7D"
    assert state.current_player == 2
    state = apply(state, Play(card("KC")))
    state = apply(state, Play(card("3H")))
    assert state.current_player == 0 and state.captured[1] == ()


@pytest.mark.parametrize(("seed", "dealer"), [(8, 0), (9, 1), (10, 2), (11, 3), (12, 0), (13, 3)])
def test_four_player_deal_scores_two_sides(seed: int, dealer: int) -> None:
    states, moves = random_history(seed, 4, dealer=dealer, max_moves=120)
    # Who took what, player by player, read from the plays alone.
    taken: list[list[Card]] = [[], [], [], []]
    sweeps = [0, 0, 0, 0]
    last: int | None = None
    for before, move, after in zip(states[:-1], moves, states[1:], strict=True):
        if not isinstance(move, Play):
            continue
        player = before.current_player
        assert player is not None
        deal_ends = bool(after.deal_scores)
        if move.capture:
            taken[player] += [move.card, *move.capture]
            last = player
            if move.capture == frozenset(before.table) and not deal_ends:
                sweeps[player] += 1
        if deal_ends:
            leftovers = [c for c in before.table if c not in move.capture]
            if not move.capture:
                leftovers.append(move.card)
            if last is not None:
                taken[last] += leftovers  # to the last capturer, no chkobba
            end = after
            break
    else:
        raise AssertionError(f"seed {seed}: no deal ended in {len(moves)} moves")
    # Partners (players 0 and 2, players 1 and 3) pool their piles and chkobbas.
    piles = [taken[side] + taken[side + 2] for side in (0, 1)]
    chkobbas = [sweeps[side] + sweeps[side + 2] for side in (0, 1)]
    assert len(end.captured) == 2 and len(end.scores) == 2
    assert [sorted(pile) for pile in end.captured] == [sorted(pile) for pile in piles]
    assert list(end.chkobbas) == chkobbas
    assert sum(map(len, piles)) + len(end.table) == 40
    side = None if last is None else last % 2
    expected = score_deal(piles, chkobbas, TUNISIAN, last_capturer_side=side)
    assert end.deal_scores == (expected,)
    assert end.scores == expected.points


# --- illegal moves --------------------------------------------------------------------------


def in_phase(phase: Phase) -> State:
    if phase is Phase.SHUFFLE:
        return new_match()
    cut = apply(new_match(), Shuffle(SUIT_MAJOR))
    if phase is Phase.CUT:
        return cut
    if phase is Phase.PLAY:
        return first_position()
    return apply(final_position((20, 3), 0), Play(card("KC")))


@pytest.mark.parametrize(
    ("phase", "move", "message"),
    [
        (Phase.PLAY, Play(card("7D")), "7D is not in player 1's hand"),
        (Phase.PLAY, Play(card("QH")), "QH must capture: it can take 2D+6S"),
        (Phase.PLAY, Play(card("QH"), cards("2D")), "QH cannot take 2D: 2D is worth 2, QH 8"),
        (Phase.PLAY, Play(card("QH"), cards("KS JS")), "QH cannot take JS+KS: the values sum"),
        (Phase.PLAY, Play(card("QH"), cards("2D 6C")), "QH cannot take 2D+6C: 6C is not on the"),
        (Phase.PLAY, Play(card("AC"), cards("2D")), "AC cannot take 2D: it captures nothing"),
        (Phase.PLAY, Cut(keep=True), "Cut is not allowed in phase PLAY"),
        (Phase.PLAY, Shuffle(DECK), "Shuffle is not allowed in phase PLAY"),
        (Phase.CUT, Play(card("AS")), "Play is not allowed in phase CUT"),
        (Phase.SHUFFLE, Play(card("AS")), "Play is not allowed in phase SHUFFLE"),
        (Phase.SHUFFLE, Cut(keep=False), "Cut is not allowed in phase SHUFFLE"),
        (Phase.SHUFFLE, Shuffle(DECK[:39]), "lacks KC"),
        (Phase.SHUFFLE, Shuffle((*DECK[:39], DECK[0])), "repeats AS and lacks KC"),
        (Phase.SHUFFLE, Shuffle((*DECK, DECK[5])), "repeats 2H"),
        (Phase.SHUFFLE, Shuffle(()), "lacks AS AH"),
        (Phase.OVER, Shuffle(DECK), "Shuffle is not allowed in phase OVER"),
        (Phase.PLAY, "QH", "'QH' is not a move"),
    ],
)
def test_illegal_moves_name_the_move_and_the_reason_and_change_nothing(
    phase: Phase, move: Move, message: str
) -> None:
    state = in_phase(phase)
    assert state.phase is phase
    copy = in_phase(phase)
    before = hash(state)
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, move)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert illegal_reason(state, move) == str(caught.value)
    assert not is_legal(state, move)
    assert state == copy and hash(state) == before


@pytest.mark.parametrize(
    "rules",
    [CARD_RULES_PLUS, attrs.evolve(TUNISIAN, cut=False, name="no-cut house")],
    ids=["cardrulesplus", "house"],
)
def test_a_cut_under_a_profile_without_cuts_says_the_profile_never_cuts(rules: Rules) -> None:
    expected = f"Cut is not allowed: the {rules.name} profile deals without a cut"
    fresh = new_match(rules=rules)
    playing = apply(fresh, random_shuffle(random.Random(3)))
    assert playing.phase is Phase.PLAY
    for state in (fresh, playing):
        before = hash(state)
        with pytest.raises(IllegalMoveError) as caught:
            apply(state, Cut(keep=True))
        assert str(caught.value) == expected
        assert illegal_reason(state, Cut(keep=False)) == expected
        assert hash(state) == before
    # The player to move is told the same; a profile with cuts keeps the phase's reason.
    assert illegal_reason(observe(playing, playing.mover), Cut(keep=True)) == expected
    tunisian = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    assert illegal_reason(tunisian, Cut(keep=True)) == "Cut is not allowed in phase PLAY"


def test_non_states_are_rejected() -> None:
    not_a_state: Any = "state"
    with pytest.raises(ChkobbaError, match="expected a State"):
        legal_moves(not_a_state)
    with pytest.raises(ChkobbaError, match="expected a State"):
        apply(not_a_state, Cut(keep=True))
    with pytest.raises(ChkobbaError, match="expected a State"):
        is_legal(not_a_state, Cut(keep=True))


def test_each_public_function_names_itself_when_given_a_wrong_argument() -> None:
    # apply needs the state; is_legal and illegal_reason also judge a player's view.
    state = dealt(hands=["3C 6C 7C", "QH 4C 5C"], table="2D 6S AS AC")
    view: Any = observe(state, 1)
    for move in (Play(card("4C"), cards("2D AS AC")), Cut(keep=True), Shuffle(DECK)):
        with pytest.raises(ChkobbaError, match=r"^apply: expected a State, got a PlayerView"):
            apply(view, move)
        for function in (is_legal, illegal_reason):
            with pytest.raises(ChkobbaError) as caught:
                function(None, move)  # type: ignore[arg-type]
            expected = f"{function.__name__}: expected a State or a PlayerView, got None"
            assert str(caught.value).startswith(expected)


def test_str_of_moves() -> None:
    assert str(Play(card("QH"), cards("6S 2D"))) == "QH x 2D+6S"
    assert str(Play(card("7D"))) == "7D"
    assert (str(Cut(keep=True)), str(Cut(keep=False))) == ("keep", "expose")
    assert str(Shuffle(DECK)) == "shuffle " + format_cards(DECK)


def test_legal_moves_serve_a_state_subclass_through_its_fields() -> None:
    # legal_moves reads a State's instance dict directly; a subclass goes through the
    # properties, with the same result, and apply takes its plays.
    class Annotated(State):
        pass

    state = apply(apply(new_match(), random_shuffle(random.Random(6))), Cut(keep=False))
    twin = Annotated(**{field.name: getattr(state, field.name) for field in attrs.fields(State)})
    assert legal_moves(twin) == legal_moves(state)
    for move in legal_moves(twin):
        assert apply(twin, move) == apply(state, move)
