"""Tests for the gaps a mutmut audit of the rules engine found (tests that could not fail).

Each test here fails with at least one single-point change to the library that the rest
of the suite let through (the audit's report names them); each docstring names the rule
or the behaviour it pins.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    DealScore,
    Move,
    State,
    capture_options,
    card,
    cards,
    legal_moves,
    rollout,
    score_deal,
)
from chkobba._kernel import kernel
from chkobba._playout import _limit, _shuffled
from chkobba.captures import options_for_value
from tests.helpers import arranged, first_plays, replayed

# --- rollout from hand-built states whose hands are not of 3 cards ------------------------
# The playout loop has a general branch for a hand of any size (a state built by hand);
# no other test reached it.


def _four_card_hands() -> State:
    return arranged(
        dealer=1,
        hands=[cards("5D AS 7C 2S"), cards("KC 2H 3H 4H")],
        table=cards("5C 5H QS"),
        stock=[],
    )


def test_a_rollout_from_hands_of_four_cards_replays_through_apply() -> None:
    """rollout from a hand-built state whose hands hold 4 cards plays only legal moves
    (RULES.md §4: a card from hand, its capture compulsory) and ends where apply ends."""
    start = _four_card_hands()
    for seed in range(40):
        played: list[Move] = []
        end = rollout(start, random.Random(seed), moves=played)
        assert len(played) == 8
        assert replayed(start, played) == end


def test_a_rollout_from_four_cards_picks_each_play_uniformly() -> None:
    """rollout's promise (each play uniform among the legal moves) holds for a hand of
    4 cards too: 5D may take either 5 (two plays), AS, 7C and 2S have one each."""
    start = _four_card_hands()
    options = legal_moves(start)
    assert len(options) == 5
    counts = first_plays(start, random.Random(0), 3000)
    assert set(counts) == set(options)
    assert all(480 < n < 720 for n in counts.values()), counts


def test_a_rollout_names_a_player_to_move_without_cards() -> None:
    """A hand-built state whose player to move holds no card is refused with a
    ChkobbaError naming the problem (nobody plays from an empty hand, RULES.md §4)."""
    start = arranged(dealer=1, hands=[(), cards("KC 2H 3H")], table=cards("5C 5H QS"), stock=[])
    with pytest.raises(ChkobbaError, match=r"^rollout: the player to move has no card \("):
        rollout(start, random.Random(1))


class _TopFirst(random.Random):
    """A generator whose first draw is the highest 30-bit value, then a seeded stream."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.first = True

    def getrandbits(self, k: int) -> int:
        if self.first:
            self.first = False
            return (1 << k) - 1
        return super().getrandbits(k)


def test_a_rollout_with_1024_plays_to_choose_from_draws_past_the_limit_table() -> None:
    """rollout draws uniformly among any number of plays: here exactly 1024 (K takes
    511 sums of this hand-built table, RULES.md §4), the first count past the
    precomputed draw limits, with a draw in the range's top that is checked exactly."""
    table = "7S 3C AC 7C QH 4S QD AH 2S 6H 6D 7D 7H 2H 2C JH JD 3H 3D 6C 4H QS AS JC JS 5C 6S 2D"
    start = arranged(
        dealer=1, hands=[cards("KC KH 4D"), cards("5D 5H 5S")], table=cards(table), stock=[]
    )
    assert len(legal_moves(start)) == 1024
    played: list[Move] = []
    end = rollout(start, _TopFirst(3), moves=played)
    assert replayed(start, played) == end


class _Scripted(random.Random):
    """A generator whose 30-bit draws are given, then 0."""

    def __new__(cls, *draws: int) -> _Scripted:
        # random.Random.__new__ takes at most one argument on Python 3.10 and 3.13.
        return super().__new__(cls)

    def __init__(self, *draws: int) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def getrandbits(self, k: int) -> int:
        return self.draws.pop(0) if self.draws else 0


def test_every_draw_in_the_top_of_the_range_is_drawn_again_in_a_shuffle() -> None:
    """rollout's shuffle is uniform over the 40! orders (RULES.md §3: the shuffle is a
    chance event): the first draw places 3 cards in 2 x 3 x 4 ways, so each of the 16
    draws from the largest multiple of 24 up to 2**30 would favour some orders; every
    one of them is discarded and the next draw (here 5) takes its place."""
    k = kernel(TUNISIAN)
    limit = _limit(2 * 3 * 4)
    assert (1 << 30) - limit == 16
    redrawn = _shuffled(_Scripted(5), k)
    assert all(_shuffled(_Scripted(top, 5), k) == redrawn for top in range(limit, 1 << 30))
    assert _shuffled(_Scripted(limit - 1, 5), k) != redrawn


def test_a_play_drawn_in_the_top_of_the_range_is_drawn_again() -> None:
    """Each play of a rollout is uniform among the legal moves: a 30-bit draw at or over
    the largest multiple of the number of plays (3 here) is discarded, so the rollout is
    the one the generator's following draws give."""
    start = arranged(
        dealer=1,
        hands=[cards("5D AS"), cards("KC 2H")],
        table=cards("5C 5H QS"),
        stock=[],
    )
    assert len(legal_moves(start)) == 3
    for seed in range(5):
        skipped: list[Move] = []
        direct: list[Move] = []
        end = rollout(start, _TopFirst(seed), moves=skipped)
        assert end == rollout(start, random.Random(seed), moves=direct)
        assert skipped == direct


def test_building_a_deal_score_with_old_names_names_them_in_the_warnings() -> None:
    """DealScore(...) still takes the 0.1.0 field names for one release; each warning
    names the old field and the new one to use (the aliases' own warnings were checked,
    the constructor's only counted)."""
    with pytest.warns(DeprecationWarning) as warned:
        DealScore(
            cards=0,
            diamonds=None,
            bermila=1,
            seven_of_diamonds=0,
            chkobbas=(0, 0),
            points=(2, 1),
            card_counts=(21, 19),
            diamond_counts=(5, 5),
            seven_counts=(1, 3),
            six_counts=(2, 2),
        )
    assert [str(w.message) for w in warned] == [
        f"DealScore.{old} is the 0.1.0 name of {old}_winner, kept for one release: use {old}_winner"
        for old in ("cards", "diamonds", "bermila", "seven_of_diamonds")
    ]


def test_score_deal_names_the_card_that_is_in_the_piles_twice() -> None:
    """score_deal refuses piles holding a card twice (RULES.md §2: 40 distinct cards)
    with a ChkobbaError naming that card, not another one, and not an IndexError."""
    pile = cards("AS 2S 7D 3C")
    with pytest.raises(ChkobbaError, match=r"^score_deal: 7D is in the piles twice$"):
        score_deal((pile, cards("7D 4H")), (0, 0))


def test_options_for_value_takes_sums_unless_told_not_to() -> None:
    """options_for_value (public in chkobba.captures) lists the sum groups by default:
    Q = 8 takes 2 + 6 (RULES.md §4, "Courts capture sums too"); ``sums=False`` is the
    court of a profile whose courts take no sums."""
    table = cards("2D 6S")
    assert options_for_value(table, 8, TUNISIAN) == (frozenset(table),)
    assert options_for_value(table, 8, TUNISIAN, sums=False) == ()


_BAD_INPUT: list[tuple[Callable[[], object], str]] = [
    (lambda: capture_options(cards("2D"), "QH"), "capture_options: 'QH' is not a card"),  # type: ignore[arg-type]
    (
        lambda: capture_options(5, card("QH")),  # type: ignore[arg-type]
        "capture_options: the table must be a collection, not 5",
    ),
    (
        lambda: capture_options(["QH"], card("2D")),  # type: ignore[list-item]
        "capture_options: 'QH' on the table is not a card",
    ),
    (
        lambda: capture_options(cards("2D"), card("QH"), "TUNISIAN"),  # type: ignore[arg-type]
        "capture_options: rules must be a Rules profile, not 'TUNISIAN'",
    ),
    (
        lambda: score_deal((cards("AS"), cards("2S")), (0, 0), rules="R"),  # type: ignore[arg-type]
        "score_deal: rules must be a Rules profile, not 'R'",
    ),
    (
        lambda: score_deal((5, cards("2S")), (0, 0)),  # type: ignore[arg-type]
        "score_deal: a pile must be a collection, not 5",
    ),
    (
        lambda: score_deal(5, (0, 0)),  # type: ignore[arg-type]
        "score_deal: captured must be a collection, not 5",
    ),
    (
        lambda: score_deal((cards("AS"), cards("2S")), 5),  # type: ignore[arg-type]
        "score_deal: chkobbas must be a collection, not 5",
    ),
    (
        lambda: score_deal((cards("AS"),), (0,)),
        "score_deal needs 2 or 3 piles (one per side) and as many chkobba counts, got 1 and 1",
    ),
    (
        lambda: score_deal((cards("AS"), cards("2S")), (0, -1)),
        "score_deal: chkobba count -1 is not a whole number >= 0",
    ),
    (
        lambda: score_deal((cards("AS"), cards("2S")), (0, 0), last_capturer_side=5),
        "score_deal: last_capturer_side must be a side from 0 to 1 or None, not 5",
    ),
    (
        lambda: score_deal((["x"], cards("2S")), (0, 0)),  # type: ignore[list-item]
        "score_deal: 'x' in a pile is not a card",
    ),
]


@pytest.mark.parametrize(("call", "message"), _BAD_INPUT)
def test_bad_input_to_the_capture_and_scoring_functions_is_named_exactly(
    call: Callable[[], object], message: str
) -> None:
    """capture_options and score_deal name what is wrong with their input in a
    ChkobbaError, in full (the suite matched only parts of these, or none)."""
    with pytest.raises(ChkobbaError) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize("module", ["scoring", "state"])
def test_the_old_sides_constants_warn_in_full(module: str) -> None:
    """chkobba.scoring.SIDES and chkobba.state.SIDES (deprecated) still read 2 and their
    warning says what to use instead, in full (the suite matched the warning's first
    words only)."""
    deprecated = importlib.import_module(f"chkobba.{module}")
    with pytest.warns(DeprecationWarning) as warned:
        assert deprecated.SIDES == 2
    assert [str(w.message) for w in warned] == [
        f"chkobba.{module}.SIDES is deprecated and stays for one release: use State.sides "
        "(3 in a 3-player match)"
    ]
