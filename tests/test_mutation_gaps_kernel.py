"""Gaps of the kernel found by the mutation audit of 2026-12-05 (tools/mutation/README.md).

``tools/mutation/mutclear.py`` had left the last profile's kernel (``_kernel._last``)
and the per-seating plans filled between tests, so mutants of the code that fills them
ran against the unmutated code's values. Rerun with them emptied, the audit of
``_kernel.py`` and ``_plays.py`` showed two mutants no test caught:

- the kernel's scorer for three sides giving the diamonds' tie to nobody instead of the
  last capturer (profiles with ``ties_to_last_capturer``);
- ``Kernel.options`` giving a group's positions in descending order, where its docstring
  (and the module's example) says ascending.
"""

from __future__ import annotations

from typing import Literal

import attrs
import pytest

from chkobba import CARD_RULES_PLUS, DECK, card, cards, score_deal
from chkobba._kernel import kernel, score


@pytest.mark.parametrize("majority", ["most", "more_than_half"])
def test_three_sides_tied_on_diamonds_give_them_to_the_last_capturer_among_them(
    majority: Literal["most", "more_than_half"],
) -> None:
    """With ``ties_to_last_capturer``, a tie at the top of the diamonds goes to the last
    capturer when it is one of the tied sides, in the kernel's scorer as in
    ``score_deal``; one that is not among them leaves the point to nobody."""
    rules = attrs.evolve(CARD_RULES_PLUS, ties_to_last_capturer=True, majority=majority)
    diamonds = [c for c in DECK if c.suit.name == "DIAMONDS"]
    others = [c for c in DECK if c.suit.name != "DIAMONDS"]
    # 5 + 5 + 0 diamonds: tied at the top under both rules of the majority; the cards
    # themselves split 14 / 13 / 13, so that category has a leader.
    piles = (
        (*diamonds[:5], *others[:9]),
        (*diamonds[5:], *others[9:17]),
        tuple(others[17:]),
    )
    for last, expected in ((0, 0), (1, 1), (2, None)):
        kernel_score = score(piles, (0, 0, 0), rules, last)
        assert kernel_score.diamonds_winner == expected
        assert kernel_score == score_deal(piles, (0, 0, 0), rules, last_capturer_side=last)


def test_kernel_options_give_each_groups_positions_in_ascending_order() -> None:
    """``Kernel.options``: "positions in the table sorted by value (ascending)", a
    group's positions too, as in the module's example (codes sort by value)."""
    k = kernel(CARD_RULES_PLUS)
    table = sorted(k.code[c.index] for c in cards("2D 6S 5C AH"))  # by value: A 2 5 6
    queen = k.code[card("QH").index]  # worth 9 in CardRulesPlus: only A + 2 + 6
    options = k.options(k.signature(table))[k.play_key[queen]]
    assert options == ((0, 1, 3),)
    assert [str(DECK[table[at] & 63]) for at in options[0]] == ["AH", "2D", "6S"]
