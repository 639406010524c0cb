"""The engine honours every play-level field of a rule profile (the profiles issue, #9).

Each test builds the exact position its rule is about, and checks both sides of the
field: the profile that has the rule and the one that does not, so a test fails when the
rule is broken either way.
"""

from __future__ import annotations

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    IllegalMoveError,
    Phase,
    Play,
    Rules,
    Shuffle,
    apply,
    capture_options,
    card,
    cards,
    legal_moves,
    new_match,
)
from chkobba.state import match_winner
from tests.helpers import SUIT_MAJOR, arranged, dealt, stacked_shuffle

THREE = attrs.evolve(TUNISIAN, name="three", players=(2, 3, 4))


def options(table: str, played: str, rules: Rules) -> list[str]:
    return sorted(
        "+".join(str(c) for c in sorted(option))
        for option in capture_options(cards(table), card(played), rules)
    )


# --- players ---------------------------------------------------------------------------


def test_the_tunisian_profile_has_no_three_player_match() -> None:
    with pytest.raises(ChkobbaError, match="2 or 4 players, not 3"):
        new_match(3)
    with pytest.raises(ChkobbaError, match="not 2"):
        new_match(2, rules=attrs.evolve(TUNISIAN, players=(3,)))


@pytest.mark.parametrize(("players", "sides"), [(2, 2), (3, 3), (4, 2)])
def test_sides_of_each_player_count(players: int, sides: int) -> None:
    state = new_match(players, rules=CARD_RULES_PLUS)
    assert state.sides == sides
    assert len(state.scores) == len(state.captured) == len(state.chkobbas) == sides
    assert [state.side_of(p) for p in range(players)] == [p % sides for p in range(players)]


def test_three_player_scores_need_three_entries() -> None:
    with pytest.raises(ChkobbaError, match="3 whole numbers"):
        new_match(3, rules=CARD_RULES_PLUS, scores=(1, 2))
    assert new_match(3, rules=CARD_RULES_PLUS, scores=(1, 2, 3)).scores == (1, 2, 3)


def test_three_players_each_capture_for_themselves() -> None:
    state = arranged(
        3,
        hands=["AS 2S 3S", "4H 5H 6H", "7C QC JC"],
        table="4D 5D",
        captured=((), (), ()),
        chkobbas=(0, 0, 0),
        scores=(0, 0, 0),
        rules=THREE,
    )
    assert state.current_player == 1
    after = apply(state, Play(card("4H"), frozenset(cards("4D"))))
    assert after.captured == ((), cards("4H 4D"), ())
    after = apply(after, Play(card("7C")))  # player 2 lays the 7
    after = apply(after, Play(card("2S")))  # player 0 lays the 2
    assert after.current_player == 1
    after = apply(after, Play(card("5H"), frozenset(cards("5D"))))
    assert after.captured[1] == cards("4H 4D 5H 5D")
    after = apply(after, Play(card("JC"), frozenset(cards("7C 2S"))))  # J=9: 7+2, a sweep
    assert set(after.captured[2]) == set(cards("JC 2S 7C"))
    assert after.chkobbas == (0, 0, 1)


def test_four_players_play_in_partnerships() -> None:
    state = arranged(
        4,
        dealer=2,
        hands=["AS 2S 3S", "4H 5H 6H", "7C QC JC", "4C 5C 6C"],
        table="4D 5D",
        rules=CARD_RULES_PLUS,
    )
    assert state.current_player == 3
    after = apply(state, Play(card("4C"), frozenset(cards("4D"))))
    assert after.captured == ((), cards("4C 4D"))
    after = apply(after, Play(card("AS")))
    after = apply(after, Play(card("5H"), frozenset(cards("5D"))))  # player 1, side 1
    assert after.captured == ((), cards("4C 4D 5H 5D"))


# --- cut -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_without_the_cut_the_shuffle_deals_one_card_at_a_time(players: int) -> None:
    dealer = players - 1
    order = SUIT_MAJOR
    state = apply(new_match(players, dealer=dealer, rules=CARD_RULES_PLUS), Shuffle(order))
    first = (dealer + 1) % players
    assert state.phase is Phase.PLAY and state.current_player == first
    for offset in range(players):
        player = (first + offset) % players
        assert state.hands[player] == order[offset : 3 * players : players]
    assert state.table == order[3 * players : 3 * players + 4]
    assert state.stock == order[3 * players + 4 :]
    assert legal_moves(state) and all(isinstance(m, Play) for m in legal_moves(state))


def test_with_the_cut_the_shuffle_waits_for_the_cutter() -> None:
    state = apply(new_match(3, rules=THREE), Shuffle(SUIT_MAJOR))
    assert state.phase is Phase.CUT and state.stock == SUIT_MAJOR


def test_the_dealt_helper_matches_the_engine_without_a_cut() -> None:
    state = dealt(
        3, hands=["AS 2S 3S", "4H 5H 6H", "7C QC JC"], table="4D 5D KS AC", rules=CARD_RULES_PLUS
    )
    assert state.hands == (cards("AS 2S 3S"), cards("4H 5H 6H"), cards("7C QC JC"))
    assert state.table == cards("4D 5D KS AC")


# --- void_deal -------------------------------------------------------------------------

THREE_FIVES = "5S 5H 5C 2D"
THREE_KINGS = "KS KH KC 2D"
FOUR_KINGS = "KS KH KC KD"


@pytest.mark.parametrize(
    ("void_deal", "table", "void"),
    [
        ("three_of_a_rank", THREE_FIVES, True),
        ("three_of_a_rank", THREE_KINGS, True),
        ("three_of_a_rank", "5S 5H 2C 2D", False),
        ("three_kings", THREE_FIVES, False),
        ("three_kings", THREE_KINGS, True),
        ("three_kings", FOUR_KINGS, True),
        ("three_kings", "KS KH 2C 2D", False),
        ("never", FOUR_KINGS, False),
        ("never", THREE_FIVES, False),
    ],
)
@pytest.mark.parametrize("cut", [True, False])
def test_void_deal(void_deal: str, table: str, void: bool, cut: bool) -> None:
    rules = attrs.evolve(TUNISIAN, void_deal=void_deal, cut=cut)
    state = dealt(hands=["AS 2S 3S", "4H 6H 7H"], table=table, rules=rules)
    if void:
        assert state.phase is Phase.SHUFFLE and state.dealer == 0
        assert state.stock == DECK and state.captured == ((), ()) and not state.deal_scores
    else:
        assert state.phase is Phase.PLAY and state.table == cards(table)


def test_card_rules_plus_voids_only_on_kings() -> None:
    assert (
        dealt(hands=["AS 2S 3S", "4H 6H 7H"], table=THREE_FIVES, rules=CARD_RULES_PLUS).phase
        is Phase.PLAY
    )
    assert (
        dealt(hands=["AS 2S 3S", "4H 6H 7H"], table=THREE_KINGS, rules=CARD_RULES_PLUS).phase
        is Phase.SHUFFLE
    )


def test_a_void_deal_without_the_cut_returns_every_card_to_the_stock() -> None:
    # After a scored deal the piles lie on; a void redeal must not keep them.
    rules = attrs.evolve(CARD_RULES_PLUS, target=99)
    state = arranged(
        hands=["", "5S"], table="5H", stock="", captured=((), ()), rest_side=0, rules=rules
    )
    over = apply(state, Play(card("5S"), frozenset(cards("5H"))))
    assert over.phase is Phase.SHUFFLE and over.deal_scores
    void = apply(
        over,
        stacked_shuffle(
            hands=["AS 2S 3S", "4H 6H 7H"], table=THREE_KINGS, dealer=over.dealer, cut=False
        ),
    )
    assert void.phase is Phase.SHUFFLE
    assert void.stock == DECK and void.captured == ((), ()) and void.table == ()


# --- equal_single_first ----------------------------------------------------------------


def test_equal_single_first_forbids_the_sum() -> None:
    assert options("5C 2D 3S", "5D", TUNISIAN) == ["5C"]
    state = arranged(hands=["5D 6D 7D", "AH 2H 3H"], current=0, table="5C 2D 3S")
    with pytest.raises(IllegalMoveError, match="an equal card comes first"):
        apply(state, Play(card("5D"), frozenset(cards("2D 3S"))))


def test_without_equal_single_first_any_single_or_sum() -> None:
    free = attrs.evolve(TUNISIAN, equal_single_first=False)
    assert options("5C 2D 3S 5H", "5D", free) == ["2D+3S", "5C", "5H"]
    state = arranged(hands=["5D 6D 7D", "AH 2H 3H"], current=0, table="5C 2D 3S", rules=free)
    plays = {m for m in legal_moves(state) if m.card == card("5D")}
    assert plays == {
        Play(card("5D"), frozenset(cards("5C"))),
        Play(card("5D"), frozenset(cards("2D 3S"))),
    }
    after = apply(state, Play(card("5D"), frozenset(cards("2D 3S"))))
    assert after.table == cards("5C")
    with pytest.raises(IllegalMoveError, match="must capture"):
        apply(state, Play(card("5D")))


# --- courts_capture_sums ---------------------------------------------------------------


def test_courts_capture_sums_by_default() -> None:
    assert options("2D 6S", "QH", TUNISIAN) == ["2D+6S"]
    assert options("2D 6S 3C", "KH", CARD_RULES_PLUS) == []  # K=10 needs 4+6 here: none
    assert options("4D 6S", "KH", CARD_RULES_PLUS) == ["4D+6S"]  # the seeds' own example


def test_courts_without_sums_take_only_an_equal_single() -> None:
    strict = attrs.evolve(TUNISIAN, courts_capture_sums=False)
    assert options("2D 6S", "QH", strict) == []
    assert options("2D 6S QS", "QH", strict) == ["QS"]
    assert options("2D 5S", "7H", strict) == ["2D+5S"]  # other cards still take sums
    state = arranged(hands=["QH AD 3D", "AH 2H 3H"], current=0, table="2D 6S", rules=strict)
    assert Play(card("QH")) in legal_moves(state)
    with pytest.raises(IllegalMoveError, match="a court takes only an equal card"):
        apply(state, Play(card("QH"), frozenset(cards("2D 6S"))))
    assert apply(state, Play(card("QH"))).table == cards("2D 6S QH")


def test_courts_may_be_summands_when_they_take_no_sums() -> None:
    # With house values where a court is worth 2, a 7 may take Q+5.
    values = (1, 2, 3, 4, 5, 6, 7, 2, 9, 10)
    strict = attrs.evolve(TUNISIAN, courts_capture_sums=False, capture_values=values)
    assert options("QS 5S", "7H", strict) == ["5S+QS"]


# --- last_card_chkobba -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "counted"),
    [
        (TUNISIAN, 0),
        (attrs.evolve(TUNISIAN, last_card_chkobba=True), 1),
    ],
)
def test_a_sweep_with_the_last_card(rules: Rules, counted: int) -> None:
    state = arranged(hands=["", "5S"], table="5H", stock="", rest_side=0, rules=rules)
    after = apply(state, Play(card("5S"), frozenset(cards("5H"))))
    assert after.deal_scores[-1].chkobbas == (0, counted)


def test_a_sweep_before_the_last_card_always_counts() -> None:
    rules = attrs.evolve(TUNISIAN, last_card_chkobba=True)
    for profile in (TUNISIAN, rules):
        state = arranged(hands=["AH", "5S"], table="5H", stock="", rest_side=0, rules=profile)
        after = apply(state, Play(card("5S"), frozenset(cards("5H"))))
        assert after.chkobbas == (0, 1)


# --- the match end for N sides ----------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "winner"),
    [
        ((10, 11, 9), 1),
        ((12, 11, 12), None),  # a shared highest plays on, though side 1 reached it too
        ((13, 11, 12), 0),
        ((10, 10, 10), None),
        ((11, 11, 11), None),
        ((10, 9), None),
        ((11, 11), None),
        ((12, 11), 0),
    ],
)
def test_match_winner_for_n_sides(scores: tuple[int, ...], winner: int | None) -> None:
    assert match_winner(scores, 11) == winner


def test_a_three_player_match_ends_on_the_unique_highest_total() -> None:
    rules = attrs.evolve(CARD_RULES_PLUS, target=2)
    state = arranged(
        3,
        hands=["5S", "", ""],
        table="5H",
        stock="",
        current=0,
        captured=((), (), ()),
        chkobbas=(0, 0, 0),
        scores=(1, 0, 1),
        rest_side=2,
        rules=rules,
    )
    # Side 2 gets every other card: most cards, most diamonds, the 7D: side 2 ends at 4.
    over = apply(state, Play(card("5S"), frozenset(cards("5H"))))
    assert over.is_over and over.winner == 2
    assert over.scores == tuple(
        s + p for s, p in zip((1, 0, 1), over.deal_scores[-1].points, strict=True)
    )


# --- the engine scores the deal under its profile ----------------------------------------


@pytest.mark.parametrize(
    ("rules", "winners"),
    [
        (TUNISIAN, (None, None)),
        (attrs.evolve(TUNISIAN, ties_to_last_capturer=True), (1, 1)),
        (attrs.evolve(TUNISIAN, majority="most"), (None, None)),
    ],
)
def test_the_last_capture_decides_even_splits_where_the_profile_says(
    rules: Rules, winners: tuple[int | None, int | None]
) -> None:
    others = [c for c in DECK if c not in cards("5S 5H")]
    state = arranged(
        hands=["", "5S"],
        table="5H",
        stock="",
        captured=(others[:20], others[20:]),
        last_capturer=0,
        rules=rules,
    )
    end = apply(state, Play(card("5S"), frozenset(cards("5H"))))
    score = end.deal_scores[-1]
    assert score.card_counts == (20, 20) and score.diamond_counts == (5, 5)
    assert (score.cards_winner, score.diamonds_winner) == winners


def test_the_engine_scores_the_primiera_and_drops_the_bermila_where_the_profile_says() -> None:
    rules = attrs.evolve(TUNISIAN, primiera=True, sevens_bermila=False)
    state = arranged(hands=["", "5S"], table="5H", stock="", rest_side=0, rules=rules)
    score = apply(state, Play(card("5S"), frozenset(cards("5H")))).deal_scores[-1]
    assert score.primiera_winner == 0 and score.primiera_sums[1] == 0  # side 1: two suits
    assert score.bermila_winner is None and score.seven_counts == (4, 0)
    assert score.points == (4, 0)  # cards, diamonds, 7D, primiera; no sweep with the last card
