"""chkobba.deals on the edges: a record with no deal yet, and wrong arguments."""

from __future__ import annotations

from chkobba import Game, Record


def test_a_record_with_no_moves_has_no_deals() -> None:
    assert Record(players=2).deals() == ()
    assert Record(players=4, dealer=3).players_of_moves() == ()
    # A game not yet dealt: what a program shows before the first shuffle.
    assert Game().record().deals() == ()
