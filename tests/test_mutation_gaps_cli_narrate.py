"""Tests for the gaps a mutmut audit of ``cli/narrate.py`` found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/cli/narrate.py`` that the rest of the suite let through
(tools/mutation/README.md). They pin whole narrations of chosen stacked deals, as
``chkobba demo``, ``replay`` and ``play`` print them: a deal's opening line (its number
counted from the scored deals when none is given, the dealer, the scores), both cuts told
to the cutter and to everyone else, void deals after the cut and, under a profile without
the cut, at the shuffle, a whole first round of plays (a capture of several cards, a
chkobba, plays that take nothing, the new hands), and the last play of a deal with its
score breakdown and the match's winner, for two players and for two partnerships (every
side named from the listener's seat, a tied category going to nobody, the primiera line
of a profile that plays it, the void deals counted in the winner's line); and the text of
``symbols`` and ``counted`` on the inputs the narration never gives them.
"""

from __future__ import annotations

import attrs

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    Cut,
    Move,
    Play,
    Rules,
    State,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
)
from chkobba.cli.narrate import counted, describe, symbols
from tests.helpers import arranged, dealt, stacked_shuffle

#: The Tunisian profile with the primiera point played too.
PRIMIERA = attrs.evolve(TUNISIAN, name="primiera", primiera=True)

#: Side 0's pile before the last play of the two-player deal: 20 cards, 5 diamonds, the
#: sevens and sixes of spades, clubs and hearts.
PILE_OF_TWENTY = "AS 2S 3S 4S 5S 6S 7S QS JS KS AD 2D 3D 4D 5D 7C 7H 6C 6H QC"


def _told(before: State, move: Move, you: int | None = None, deal: int | None = None) -> str:
    """The narration of ``move`` from ``before``, one line each, as the commands print it."""
    return "\n".join(describe(before, move, apply(before, move), you=you, deal=deal))


#: The hands of the stacked deals: player 0's, then player 1's.
HANDS = ["6H 7D KC", "4C 5C 3C"]


def _shuffled(table: str, keep: bool = False) -> State:
    """A new two-player match after the stacked shuffle of ``HANDS`` and ``table``,
    before the cut (the cut card is the first of player 1's hand when kept, else the
    first table card)."""
    return apply(new_match(), stacked_shuffle(hands=HANDS, table=table, keep=keep))


def test_a_deal_opens_with_its_number_its_dealer_and_the_scores() -> None:
    start = new_match()
    shuffle = stacked_shuffle(hands=HANDS, table="2D 6S AS AC")
    # Under the cut the shuffle deals nothing yet: one line, the deal counted from 1.
    assert _told(start, shuffle) == "deal 1: player 0 deals (scores 0-0)"
    assert _told(start, shuffle, you=0) == "deal 1: you deal (scores 0-0)"
    assert _told(start, shuffle, you=1, deal=4) == "deal 4: player 0 deals (scores 0-0)"


def test_the_cutter_exposes_the_top_card_or_keeps_it_unseen() -> None:
    exposed = _shuffled("2D 6S AS AC")
    assert _told(exposed, Cut(keep=False)) == "player 1 cuts and exposes 2♦\ntable: 2♦ 6♠ A♠ A♣"
    assert _told(exposed, Cut(keep=False), you=1) == "you cut and expose 2♦\ntable: 2♦ 6♠ A♠ A♣"
    kept = _shuffled("2D 6S AS AC", keep=True)
    assert _told(kept, Cut(keep=True)) == "player 1 cuts and keeps the top card\ntable: 2♦ 6♠ A♠ A♣"
    assert _told(kept, Cut(keep=True), you=1) == (
        "you cut and keep the top card\ntable: 2♦ 6♠ A♠ A♣"
    )


def test_a_void_deal_after_the_cut_names_the_rank_and_who_shuffles_again() -> None:
    queens = _shuffled("QD QS QC QH")
    assert _told(queens, Cut(keep=False), you=0) == (
        "player 1 cuts and exposes Q♦\n"
        "table: Q♦ Q♠ Q♣ Q♥\n"
        "four queens on the table: the deal is void (three or more of a rank void it); "
        "you shuffle again"
    )
    aces = _shuffled("AH AS AC 2D")
    assert _told(aces, Cut(keep=False)) == (
        "player 1 cuts and exposes A♥\n"
        "table: A♥ A♠ A♣ 2♦\n"
        "three aces on the table: the deal is void (three or more of a rank void it); "
        "player 0 shuffles again"
    )


def test_without_the_cut_the_shuffle_lays_the_table_at_once() -> None:
    start = new_match(rules=CARD_RULES_PLUS)
    shuffle = stacked_shuffle(hands=HANDS, table="2D 6S AS AC", cut=False)
    assert _told(start, shuffle, you=1, deal=3) == (
        "deal 3: player 0 deals (scores 0-0)\ntable: 2♦ 6♠ A♠ A♣"
    )
    kings = stacked_shuffle(hands=["6H 7D QC", "4C 5C 3C"], table="KD KS KC AH", cut=False)
    assert _told(start, kings, you=0) == (
        "deal 1: you deal (scores 0-0)\n"
        "table: K♦ K♠ K♣ A♥\n"
        "three kings on the table: the deal is void (three or more kings void it); "
        "you shuffle again"
    )


def _first_round(you: int | None) -> list[str]:
    """The narration of the first round of a stacked deal: 1 takes three cards with a
    sum, 0 sweeps the 6 that is left, three plays take nothing, and 0's last card takes
    two cards with a sum before the new hands are dealt."""
    state = dealt(hands=HANDS, table="2D 6S AS AC")
    told = []
    for name in ["4C", "6H", "5C", "7D", "3C", "KC"]:
        # Each card has one legal play: capturing is compulsory.
        (play,) = [m for m in legal_moves(state) if isinstance(m, Play) and m.card == card(name)]
        told.append(_told(state, play, you=you))
        state = apply(state, play)
    return told


def test_a_round_of_plays_tells_captures_sweeps_and_new_hands() -> None:
    assert _first_round(you=None) == [
        "player 1 plays 4♣ and takes A♠ A♣ 2♦",
        "player 0 plays 6♥ and takes 6♠ - chkobba!",
        "player 1 plays 5♣",
        "player 0 plays 7♦",
        "player 1 plays 3♣",
        "player 0 plays K♣ and takes 3♣ 7♦\nnew hands are dealt; 24 cards left in the stock",
    ]
    assert _first_round(you=0) == [
        "player 1 plays 4♣ and takes A♠ A♣ 2♦",
        "you play 6♥ and take 6♠ - chkobba!",
        "player 1 plays 5♣",
        "you play 7♦",
        "player 1 plays 3♣",
        "you play K♣ and take 3♣ 7♦\nnew hands are dealt; 24 cards left in the stock",
    ]


def _last_play_of_two(scores: tuple[int, int]) -> State:
    """Player 0 holds the deal's last card, 5C, which takes nothing from the 3H on the
    table; player 1 captured last and has a chkobba. The cards end 20-20, the diamonds
    5-5, side 0 has more sevens, side 1 the 7D."""
    return arranged(
        hands=["5C", ""],
        table="3H",
        current=0,
        stock="",
        captured=[PILE_OF_TWENTY, ""],
        last_capturer=1,
        chkobbas=(0, 1),
        scores=scores,
    )


def _last_play_scored(deal: int, zero: str, one: str, match: str) -> str:
    """The narrated score of the deal :func:`_last_play_of_two` ends: ``zero`` and ``one``
    as the narration names players 0 and 1, ``match`` the totals after it."""
    return (
        f"deal {deal} score:\n"
        "  cards      20-20  -> nobody\n"
        "  diamonds   5-5  -> nobody\n"
        f"  bermila    sevens 3-1, sixes 3-1  -> {zero}\n"
        f"  7♦         -> {one}\n"
        "  chkobbas   0-1\n"
        f"  points     1-2; match {match}"
    )


def test_the_last_capturer_takes_the_cards_left_and_the_deal_is_scored() -> None:
    before = _last_play_of_two(scores=(7, 5))
    assert _told(before, Play(card("5C"))) == (
        "player 0 plays 5♣\nplayer 1 takes the last cards: 3♥ 5♣\n"
        + _last_play_scored(1, "player 0", "player 1", "8-7")
    )
    assert _told(before, Play(card("5C")), you=1) == (
        "player 0 plays 5♣\nyou take the last cards: 3♥ 5♣\n"
        + _last_play_scored(1, "player 0", "you", "8-7")
    )
    # The next deal is the second, counted from the scored ones; player 1 deals it.
    after = apply(before, Play(card("5C")))
    shuffle = stacked_shuffle(dealer=1, hands=HANDS, table="2D 6S AS AC")
    assert _told(after, shuffle) == "deal 2: player 1 deals (scores 8-7)"
    assert _told(after, shuffle, you=1) == "deal 2: you deal (scores 8-7)"


def test_the_deal_that_ends_the_match_names_its_winner_and_the_void_deals() -> None:
    before = _last_play_of_two(scores=(20, 5))
    assert _told(before, Play(card("5C"))) == (
        "player 0 plays 5♣\nplayer 1 takes the last cards: 3♥ 5♣\n"
        + _last_play_scored(1, "player 0", "player 1", "21-7")
        + "\nplayer 0 wins the match 21-7 after 1 deal"
    )
    assert _told(before, Play(card("5C")), you=0, deal=3) == (
        "you play 5♣\nplayer 1 takes the last cards: 3♥ 5♣\n"
        + _last_play_scored(3, "you", "player 1", "21-7")
        + "\nyou win the match 21-7 after 3 deals (2 void)"
    )


def test_a_sweep_with_the_last_card_leaves_nothing_to_take_and_is_no_chkobba() -> None:
    before = arranged(
        hands=["3C", ""],
        table="3H",
        current=0,
        stock="",
        captured=["7D 7H 6D", ""],
        last_capturer=1,
    )
    assert _told(before, Play(card("3C"), cards("3H"))) == (
        "player 0 plays 3♣ and takes 3♥ (the deal's last card: no chkobba)\n"
        "deal 1 score:\n"
        "  cards      5-35  -> player 1\n"
        "  diamonds   2-8  -> player 1\n"
        "  bermila    sevens 2-2, sixes 1-3  -> player 1\n"
        "  7♦         -> player 0\n"
        "  chkobbas   0-0\n"
        "  points     1-3; match 1-3"
    )


def _last_play_of_four() -> State:
    """Four players, the primiera played: player 0's last card, 3C, takes the 3H and
    leaves the 5D to side 0; side 1 reaches 21 with the cards and the primiera."""
    return arranged(
        4,
        hands=["3C", "", "", ""],
        table="3H 5D",
        current=0,
        stock="",
        captured=["AD 2D 4D 6D 7D 7S 6S AS 2S 4S QS JS KS QH", ""],
        last_capturer=1,
        chkobbas=(1, 0),
        scores=(10, 19),
        rules=PRIMIERA,
    )


def test_partnerships_are_named_as_sides_and_from_the_listeners_seat() -> None:
    before = _last_play_of_four()
    told = (
        "player 0 plays 3♣ and takes 3♥\n"
        "side 0 (players 0 and 2) takes the last cards: 5♦\n"
        "deal 1 score:\n"
        "  cards      17-23  -> {one}\n"
        "  diamonds   6-4  -> side 0 (players 0 and 2)\n"
        "  bermila    sevens 2-2, sixes 2-2  -> nobody\n"
        "  7♦         -> side 0 (players 0 and 2)\n"
        "  primiera   68-70  -> {one}\n"
        "  chkobbas   1-0\n"
        "  points     3-2; match 13-21\n"
        "{one} wins the match 13-21 after 1 deal"
    )
    play = Play(card("3C"), cards("3H"))
    assert _told(before, play) == told.format(one="side 1 (players 1 and 3)")
    assert _told(before, play, you=3) == told.format(one="your side (you and player 1)")


def test_a_partner_hears_the_last_cards_go_to_their_own_side() -> None:
    play = Play(card("3C"), cards("3H"))
    lines = _told(_last_play_of_four(), play, you=2).splitlines()
    assert lines[:4] == [
        "player 0 plays 3♣ and takes 3♥",
        "your side (you and player 0) takes the last cards: 5♦",
        "deal 1 score:",
        "  cards      17-23  -> side 1 (players 1 and 3)",
    ]


def test_symbols_and_counted_on_what_the_narration_never_gives_them() -> None:
    # Exported helpers: cards in deck order, and "(empty)" for no card at all.
    assert symbols(cards("6S 2D AS")) == "A♠ 2♦ 6♠"
    assert symbols(()) == "(empty)"
    # A noun ending in "s" or "ch" takes "es", as "match" does in ``chkobba simulate``.
    assert [counted(1, "pass"), counted(2, "pass"), counted(2, "match")] == [
        "1 pass",
        "2 passes",
        "2 matches",
    ]
    assert counted(0, "deal") == "0 deals"


def _last_sweep(pile: str, rules: Rules = TUNISIAN) -> list[str]:
    """The narration of player 0's 3♣ taking the 3♥, the deal's last play, side 0's pile
    ``pile`` before it (every other card in side 1's), player 1 the last capturer."""
    before = arranged(
        hands=["3C", ""],
        table="3H",
        current=0,
        stock="",
        captured=[pile, ""],
        last_capturer=1,
        rules=rules,
    )
    return _told(before, Play(card("3C"), cards("3H"))).splitlines()


def test_a_house_rule_that_counts_the_last_cards_sweep_calls_it_a_chkobba() -> None:
    house = attrs.evolve(TUNISIAN, name="last card counts", last_card_chkobba=True)
    told = _last_sweep("7D 7H 6D", house)
    assert told[:2] == ["player 0 plays 3♣ and takes 3♥ - chkobba!", "deal 1 score:"]
    assert not any("no chkobba" in line for line in told)


def test_a_tie_the_house_rule_gives_the_last_capturer_says_so() -> None:
    house = attrs.evolve(TUNISIAN, name="ties", ties_to_last_capturer=True)
    assert _last_sweep(PILE_OF_TWENTY, house)[2:4] == [
        "  cards      22-18  -> player 0",
        "  diamonds   5-5  -> player 0 (the tie goes to the last capturer)",
    ]
    # Without the house rule the same tie goes to nobody, and says nothing more.
    assert _last_sweep(PILE_OF_TWENTY)[3] == "  diamonds   5-5  -> nobody"
    # A tied count of cards, 20-20, the same way.
    pile = "AS 2S 3S 4S 5S 6S 7S QS JS KS AD 2D 3D 4D 5D 7C 7H 6C"
    assert _last_sweep(pile, house)[2] == (
        "  cards      20-20  -> player 0 (the tie goes to the last capturer)"
    )


def test_a_count_tied_below_the_winner_s_says_nothing_of_ties() -> None:
    # Three players: sides 0 and 2 hold 13 cards each, side 1 wins with 14 alone.
    before = arranged(
        3,
        hands=["3C", "", ""],
        table="3H",
        current=0,
        stock="",
        captured=["AS 2S 3S 4S 5S 6S 7S QS JS KS AH", "", "2H 4H 5H 6H 7H QH JH KH AC 2C 4C 5C 6C"],
        chkobbas=(0, 0, 0),
        scores=(0, 0, 0),
        last_capturer=1,
        rules=attrs.evolve(CARD_RULES_PLUS, name="ties", ties_to_last_capturer=True),
    )
    told = _told(before, Play(card("3C"), cards("3H"))).splitlines()
    assert told[2] == "  cards      13-14-13  -> player 1"
