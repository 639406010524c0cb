"""chkobba.history: DealHistory takes every play of a real deal and refuses the events no
deal can have (a card played twice, a capture of a card not on the table, a seat beyond
the players)."""

from __future__ import annotations

import random

import pytest

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Cut,
    Phase,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
)
from chkobba.history import DealHistory
from chkobba.moves import random_shuffle

START = DealHistory().started(cards("AS 2S 3S 4S"), exposed=None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_play_of_real_deals_is_taken(players: int) -> None:
    rng = random.Random(players)
    for _ in range(5):
        rules = CARD_RULES_PLUS if players == 3 else TUNISIAN  # (3 players need a profile)
        state = apply(new_match(players, rules=rules), random_shuffle(rng))
        if state.phase is Phase.CUT:
            state = apply(state, Cut(keep=rng.random() < 0.5))
        if state.phase is not Phase.PLAY:
            continue  # a voided deal
        history = DealHistory().started(state.table, exposed=None)
        made = []
        while state.phase is Phase.PLAY:
            move = rng.choice(legal_moves(state))
            player = state.current_player
            assert player is not None
            history = history.played(player, move.card, move.capture)  # type: ignore[union-attr]
            made.append((player, move.card, move.capture))  # type: ignore[union-attr]
            state = apply(state, move)
        assert list(history.plays) == made


def test_a_card_laid_down_can_be_taken_later() -> None:
    history = START.played(0, card("5D"), frozenset()).played(1, card("5C"), frozenset(cards("5D")))
    assert history.played(0, card("7H"), frozenset(cards("3S 4S"))).plays[-1][1] == card("7H")


@pytest.mark.parametrize(
    ("history", "play", "message"),
    [
        (
            START.played(0, card("5D"), frozenset(cards("AS 4S"))),
            (1, card("5D"), frozenset(cards("2S 3S"))),
            "player 1 cannot play 5D taking 2S\\+3S: it was played already \\(play 1\\)",
        ),
        (
            START,
            (0, card("3S"), frozenset()),
            "player 0 cannot play 3S: it was on the table when play began",
        ),
        (
            START,
            (0, card("KC"), frozenset(cards("KD"))),
            "player 0 cannot play KC taking KD: KD is not on the table",
        ),
        (
            START.played(0, card("5D"), frozenset(cards("AS 4S"))),
            (1, card("5C"), frozenset(cards("AS 4S"))),
            "player 1 cannot play 5C taking AS\\+4S: AS 4S are not on the table",
        ),
        (
            DealHistory(),
            (0, card("5D"), frozenset(cards("5D"))),
            "player 0 cannot play 5D taking 5D: 5D is not on the table",
        ),
    ],
    ids=["twice", "from-the-table", "not-on-the-table", "taken-already", "itself"],
)
def test_a_play_no_deal_can_have_is_refused(
    history: DealHistory, play: tuple[int, object, frozenset[object]], message: str
) -> None:
    with pytest.raises(ChkobbaError, match=f"DealHistory.played: {message}"):
        history.played(*play)  # type: ignore[arg-type]


def test_the_vector_refuses_a_play_by_a_seat_beyond_the_players() -> None:
    history = START.played(3, card("5D"), frozenset(cards("AS 4S")))
    assert len(history.vector(viewer=0, players=4)) == len(history.vector(viewer=1, players=4))
    with pytest.raises(
        ChkobbaError, match=r"vector: play 1 \(5D\) is by player 3, but only players 0 to 1 play"
    ):
        history.vector(viewer=0, players=2)
