"""Tests for the gaps a mutmut audit of ``openspiel.py`` found: what the game shows.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/openspiel.py`` that the rest of the suite let through
(tools/mutation/README.md). This file takes the observation, text and game-info half of
the module: the game's maximum length and its whole-match utility bounds worked out from
the rules, the full text of the game's and the observers' refusals, the default observer
(no perfect recall), the names, sizes and dtype of every observer's pieces, a tensor
emptied before the lot, the kept and voided cards as vectors and in the information
state's tensor, and whole texts (``str(state)``, observation and information-state
strings, each observer's string) at hand-chosen points of stacked deals: before the lot,
mid-shuffle, the cut, play with a kept card, a pending capture choice, a voided deal and
the end of a match.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import chkobba.openspiel  # noqa: E402
from chkobba import DECK, TUNISIAN, card  # noqa: E402
from chkobba.actions import EXPOSE, KEEP  # noqa: E402
from chkobba.history import HISTORY_SIZE  # noqa: E402
from chkobba.observations import LAYOUT, OBSERVATION_SIZE  # noqa: E402
from chkobba.openspiel import ChkobbaGame  # noqa: E402
from tests.helpers import refusal, stacked_shuffle  # noqa: E402

_NONE = pyspiel.PrivateInfoType.NONE
_SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER


def _load(**params: Any) -> Any:
    return pyspiel.load_game(chkobba.openspiel.GAME_NAME, params)


def _kind(perfect_recall: bool, public: bool, private: Any) -> Any:
    return pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=public, private_info=private
    )


def _shuffled(state: Any, dealer: int, table: str, keep: bool, count: int = 40) -> Any:
    """``state`` after the lot for ``dealer`` (unless drawn already) and ``count`` cards of
    a stacked shuffle: p0 gets 7D 5H KS, p1 6C 4H JD, and the table ``table``. With
    ``keep``, the cut card is the first card of the cutter's hand, else the table's."""
    hands = ["7D 5H KS", "6C 4H JD"]
    if state.match_state is None:
        state.apply_action(dealer)
    shuffle = stacked_shuffle(2, dealer=dealer, hands=hands, table=table, keep=keep)
    for dealt in shuffle.order[:count]:
        state.apply_action(dealt.index)
    return state


def _cut(state: Any, dealer: int, table: str, keep: bool) -> Any:
    """The stacked deal of :func:`_shuffled`, its cut made (kept or exposed)."""
    _shuffled(state, dealer, table, keep)
    state.apply_action(KEEP if keep else EXPOSE)
    return state


_BOARD_HEAD = (
    "Chkobba: 2 players, tunisian rules, match to 21\n"
    "Scores     player 0: 0   player 1: 0\n"
    "Dealer     player 0\n"
)
_EMPTY_PILES = "Piles      player 0: 0 cards, 0 chkobbas\n           player 1: 0 cards, 0 chkobbas"
#: Dealer p0, cutter p1: p0 holds 7D 5H KS, p1 holds 6C 4H JD, the table is AS 5S 2D 3H.
_PLAY_BOARD = (
    _BOARD_HEAD + "Turn       player 1 to play\n"
    "Table      A♠ 5♠ 2♦ 3♥\n"
    "Hands      player 0: 5♥ 7♦ K♠\n"
    "           player 1: 4♥ 6♣ J♦\n"
    "Stock      30 cards\n" + _EMPTY_PILES
)
_PLAY_LINE = "PLAY dealer p0 turn p1 | table AS 2D 3H 5S | hands 3/3 stock 30 | piles 0/0"


# --- the game's information ------------------------------------------------------------


def test_the_maximum_game_length_is_the_lot_then_113_actions_per_shuffle() -> None:
    # The lot for the first dealer, then per shuffle: 40 cards dealt, the cut, and the
    # 36 cards played, each of which may be followed by a capture choice.
    per_shuffle = 40 + 1 + 36 * 2
    assert _load().max_game_length() == 1 + 50 * per_shuffle == 5651
    assert _load(max_shuffles=2).max_game_length() == 1 + 2 * per_shuffle
    assert _load(players=4, max_shuffles=1).max_game_length() == 114


def test_a_lost_match_costs_each_loser_a_share_of_the_win() -> None:
    # Zero-sum: the winning side's +1 is paid by the others, -1/2 each with 3 sides.
    three = _load(players=3, rules="cardrulesplus")
    assert (three.min_utility(), three.max_utility()) == (-0.5, 1.0)
    for players, rules in [(2, "tunisian"), (4, "tunisian"), (2, "cardrulesplus")]:
        game = _load(players=players, rules=rules)
        assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


# --- the game's refusals ---------------------------------------------------------------


def test_the_games_refusals_quote_what_came() -> None:
    assert refusal(lambda: ChkobbaGame([1])) == (  # type: ignore[arg-type]
        "python_chkobba: params must be a dict, not [1]"
    )
    assert refusal(lambda: ChkobbaGame({"nope": 1})) == (
        "python_chkobba: unknown parameter 'nope'; "
        "the parameters are players, rules, target, single_deal, max_shuffles"
    )
    for bad, shown in [(0, "0"), (-3, "-3"), ("2", "'2'")]:
        assert refusal(partial(ChkobbaGame, {"max_shuffles": bad})) == (
            f"python_chkobba: max_shuffles must be from 1 to 1,000,000, not {shown}"
        )


def test_a_rules_object_is_refused_with_the_profile_names() -> None:
    assert refusal(lambda: ChkobbaGame({"rules": TUNISIAN})) == (
        "python_chkobba: rules must be a profile name (cardrulesplus, tunisian), not a Rules "
        "object (the tunisian profile): OpenSpiel parameters are plain values; a house "
        "profile plays through chkobba's own API or the PettingZoo and Gymnasium environments"
    )


def test_the_observers_refusals() -> None:
    game = _load()
    message = "python_chkobba observers take no parameters, got {'depth': 2}"
    assert refusal(lambda: game.make_py_observer(None, {"depth": 2})) == message
    recall = _kind(True, True, _SINGLE)
    assert refusal(lambda: game.make_py_observer(recall, {"depth": 2})) == message
    every = _kind(False, True, pyspiel.PrivateInfoType.ALL_PLAYERS)
    assert refusal(lambda: game.make_py_observer(every)) == (
        "python_chkobba observes one player's private cards, not all"
    )


# --- the observers' pieces -------------------------------------------------------------


def test_the_default_observer_is_the_observation_without_perfect_recall() -> None:
    game = _load()
    observer = game.make_py_observer()
    assert observer.perfect_recall is False
    assert (observer.public, observer.private) == (True, True)
    assert list(observer.dict) == [name for name, _ in LAYOUT]
    assert observer.tensor.shape == (OBSERVATION_SIZE,) == (313,)
    state = _cut(game.new_initial_state(), 0, "AS 5S 2D 3H", keep=True)
    assert observer.string_from(state, 0) == (
        f"p0 | {_PLAY_LINE} | chkobbas 0/0 | scores 0-0 | hand 5H 7D KS"
    )


def test_the_perfect_recall_pieces_are_named_and_sized() -> None:
    game = _load()
    public_names = [name for name, _ in LAYOUT if name not in ("hand", "cut_card")]
    sizes = {"history": HISTORY_SIZE, "voided": 40, "kept_card": 40, **dict(LAYOUT)}
    expected = {
        (True, True, _SINGLE): [
            "hand",
            *public_names[:3],
            "cut_card",
            *public_names[3:],
            "history",
            "voided",
            "kept_card",
        ],
        (True, True, _NONE): [*public_names, "history", "voided"],
        (True, False, _SINGLE): ["hand", "cut_card", "kept_card"],
        (True, False, _NONE): [],
        (False, False, _SINGLE): ["hand", "cut_card"],
    }
    for kind, names in expected.items():
        observer = game.make_py_observer(_kind(*kind))
        assert list(observer.dict) == names, kind
        assert [observer.dict[name].size for name in names] == [sizes[n] for n in names]
        assert observer.tensor.shape == (sum(sizes[n] for n in names),)
        assert observer.tensor.dtype == np.float32
    assert game.make_py_observer().tensor.dtype == np.float32


def test_a_tensor_is_emptied_before_the_lot() -> None:
    game = _load()
    dealt = _cut(game.new_initial_state(), 0, "AS 5S 2D 3H", keep=True)
    for kind in [(False, True, _SINGLE), (True, True, _SINGLE), (True, False, _SINGLE)]:
        observer = game.make_py_observer(_kind(*kind))
        observer.set_from(dealt, 1)
        assert observer.tensor.any()
        observer.set_from(game.new_initial_state(), 1)
        assert observer.tensor.tolist() == [0.0] * observer.tensor.size


# --- the kept and the voided cards -----------------------------------------------------


def _one_hot(name: str) -> list[float]:
    return [1.0 if c == card(name) else 0.0 for c in DECK]


def test_the_kept_card_is_its_cutters_alone() -> None:
    game = _load()
    state = _cut(game.new_initial_state(), 0, "AS 5S 2D 3H", keep=True)  # p1 keeps 6C
    assert state.kept_vector(1) == _one_hot("6C")
    assert state.kept_vector(0) == [0.0] * 40
    assert state.voided_vector() == [0.0] * 40
    observer = game.make_py_observer(_kind(True, True, _SINGLE))
    for player, kept in [(1, _one_hot("6C")), (0, [0.0] * 40)]:
        observer.set_from(state, player)
        assert observer.dict["kept_card"].tolist() == kept
        assert observer.dict["voided"].tolist() == [0.0] * 40
        assert state.information_state_tensor(player)[-40:] == kept


def test_a_voided_deals_exposed_card_is_public_and_a_kept_one_private() -> None:
    # Dealer p1, so p0 cuts: it exposes 2S, and 2S 2H 2D on the table void the deal.
    # Dealt again, p0 keeps 7D; the voided 2S stays public until a deal is scored.
    game = _load()
    state = _cut(game.new_initial_state(), 1, "2S 2H 2D 5C", keep=False)
    assert state.voided_vector() == _one_hot("2S")
    assert state.kept_vector(0) == state.kept_vector(1) == [0.0] * 40
    _cut(state, 1, "AS 5S 2D 3H", keep=True)
    assert state.voided_vector() == _one_hot("2S")
    assert state.kept_vector(0) == _one_hot("7D")
    assert state.kept_vector(1) == [0.0] * 40
    observer = game.make_py_observer(_kind(True, True, _SINGLE))
    for player in (0, 1):
        observer.set_from(state, player)
        assert observer.dict["voided"].tolist() == _one_hot("2S")
        kept = _one_hot("7D") if player == 0 else [0.0] * 40
        assert observer.dict["kept_card"].tolist() == kept
    events = "dealer p1\nshuffle 1\np0 exposes 2S\nvoid\nshuffle 2\np0 keeps\ntable AS 2D 3H 5S"
    line = "PLAY dealer p1 turn p0 | table AS 2D 3H 5S | hands 3/3 stock 30 | piles 0/0"
    line += " | chkobbas 0/0 | scores 0-0"
    assert state.information_state_string(0) == (
        f"python_chkobba p0 of 2\n{events}\nshuffle 1: saw 2S (void)\nkept 7D\n"
        f"p0 | {line} | hand 5H 7D KS"
    )
    assert state.information_state_string(1) == (
        f"python_chkobba p1 of 2\n{events}\np1 | {line} | hand 4H 6C JD"
    )


# --- texts at chosen points ------------------------------------------------------------


def test_the_texts_before_the_lot() -> None:
    state = _load().new_initial_state()
    assert str(state) == "the first dealer is not drawn yet"
    assert state.information_state_string(1) == (
        "python_chkobba p1 of 2\np1: the first dealer is not drawn yet"
    )
    assert state.information_state_text(0) == (
        "python_chkobba p0 of 2\np0: the first dealer is not drawn yet"
    )
    assert state.observation_string(0) == "p0: the first dealer is not drawn yet"


def test_the_texts_during_the_shuffle() -> None:
    state = _shuffled(_load().new_initial_state(), 0, "AS 5S 2D 3H", keep=True, count=5)
    assert str(state) == (
        _BOARD_HEAD + "Turn       player 0, the dealer, to shuffle\n"
        "Table      (empty)\n"
        "Stock      40 cards\n" + _EMPTY_PILES + "\nShuffle    5 of 40 cards dealt"
    )
    line = "p1 | SHUFFLE dealer p0 turn - | table - | hands 0/0 stock 40 | piles 0/0"
    line += " | chkobbas 0/0 | scores 0-0 | hand -"
    assert state.observation_string(1) == line
    assert state.information_state_string(1) == (
        f"python_chkobba p1 of 2\ndealer p0\nshuffle: 5 cards\n{line}"
    )


def test_the_cutter_alone_sees_the_cut_card() -> None:
    state = _shuffled(_load().new_initial_state(), 0, "AS 5S 2D 3H", keep=False)
    public = "CUT dealer p0 turn p1 | table - | hands 0/0 stock 40 | piles 0/0"
    public += " | chkobbas 0/0 | scores 0-0"
    assert state.observation_string(1) == f"p1 | {public} | hand - | cut card AS"
    assert state.observation_string(0) == f"p0 | {public} | hand -"
    game = state.get_game()
    private_only = game.make_py_observer(_kind(False, False, _SINGLE))
    assert private_only.string_from(state, 1) == "p1 | hand - | cut card AS"
    assert private_only.string_from(state, 0) == "p0 | hand -"
    public_only = game.make_py_observer(_kind(False, True, _NONE))
    assert public_only.string_from(state, 1) == f"p1 | {public}"
    assert state.observation_text(1, private=False, public=False) == "p1"


def test_the_texts_of_a_deal_with_a_kept_card() -> None:
    state = _cut(_load().new_initial_state(), 0, "AS 5S 2D 3H", keep=True)
    assert str(state) == _PLAY_BOARD
    events = "dealer p0\nshuffle 1\np1 keeps\ntable AS 2D 3H 5S"
    tail = " | chkobbas 0/0 | scores 0-0"
    mine = f"p1 | {_PLAY_LINE}{tail} | hand 4H 6C JD"
    assert state.observation_string(1) == state.observation_text(1) == mine
    assert state.information_state_string(1) == (
        f"python_chkobba p1 of 2\n{events}\nkept 6C\n{mine}"
    )
    assert state.information_state_text(1) == state.information_state_string(1)
    assert state.information_state_text(1, private=False) == (
        f"python_chkobba p1 of 2\n{events}\np1 | {_PLAY_LINE}{tail}"
    )
    theirs = f"p0 | {_PLAY_LINE}{tail} | hand 5H 7D KS"
    assert state.information_state_string(0) == f"python_chkobba p0 of 2\n{events}\n{theirs}"


def test_a_private_only_observer_with_perfect_recall_tells_no_public_event() -> None:
    # Found by a review: its string held every public event and the public observation,
    # while its tensor (the hand, the cut card, the kept card) holds none of them.
    state = _cut(_load().new_initial_state(), 0, "AS 5S 2D 3H", keep=True)
    game = state.get_game()
    private_only = game.make_py_observer(_kind(True, False, _SINGLE))
    assert (
        private_only.string_from(state, 1) == "python_chkobba p1 of 2\nkept 6C\np1 | hand 4H 6C JD"
    )
    assert private_only.string_from(state, 0) == "python_chkobba p0 of 2\np0 | hand 5H 7D KS"
    nothing = game.make_py_observer(_kind(True, False, _NONE))
    assert nothing.string_from(state, 1) == "python_chkobba p1 of 2\np1"
    assert state.information_state_text(1, public=False) == private_only.string_from(state, 1)
    shuffling = _shuffled(_load().new_initial_state(), 0, "AS 5S 2D 3H", keep=True, count=5)
    assert private_only.string_from(shuffling, 1) == "python_chkobba p1 of 2\np1 | hand -"


def test_the_texts_of_a_pending_capture_choice() -> None:
    # p1 plays 6C on AS 5S 2D 3H: AS+5S or AS+2D+3H, to choose.
    state = _cut(_load().new_initial_state(), 0, "AS 5S 2D 3H", keep=False)
    state.apply_action(card("6C").index)
    assert str(state) == _PLAY_BOARD + "\nPending    6♣ waits for its capture choice"
    line = f"{_PLAY_LINE} | chkobbas 0/0 | scores 0-0 | pending 6C"
    assert state.observation_string(0) == f"p0 | {line} | hand 5H 7D KS"
    assert state.observation_string(1) == f"p1 | {line} | hand 4H 6C JD"
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "6C x AS+2D+3H",
        "6C x AS+5S",
    ]
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) == (
        "python_chkobba p0 of 2\ndealer p0\nshuffle 1\np1 exposes AS\ntable AS 2D 3H 5S\n"
        "p1 plays 6C\ntakes AS+2D+3H\n"
        "p0 | PLAY dealer p0 turn p0 | table 5S | hands 3/2 stock 30 | piles 0/4"
        " | chkobbas 0/0 | scores 0-0 | hand 5H 7D KS"
    )


def test_the_winner_is_named_at_the_end_of_the_match() -> None:
    # A match to 1 point: the stacked deal, p1 taking AS+2D+3H with 6C, then the first
    # legal action each time. Player 0 takes 25 cards, 7 diamonds, the four sevens and
    # the 7D, and one chkobba (5H on 5S): 5-0, and the match.
    state = _cut(_load(target=1).new_initial_state(), 0, "AS 5S 2D 3H", keep=False)
    state.apply_action(card("6C").index)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    end = "OVER dealer p0 turn - | table - | hands 0/0 stock 0 | piles 25/15 | chkobbas 1/0"
    end += " | scores 5-0 | winner side 0 | hand -"
    assert state.observation_string(0) == f"p0 | {end}"
    assert state.observation_string(1) == f"p1 | {end}"
    assert state.returns() == [1.0, -1.0]


# --- every observer copies exactly its pieces ---------------------------------------------


def test_every_observer_copies_exactly_its_pieces_of_the_observation() -> None:
    # The observer copies the pieces that follow each other in one run: a run must never
    # take in a piece the observer leaves out (the cut card of a public-only observer
    # would show in its pending piece). Checked piece by piece over a random deal, the
    # cut seen by its cutter and pending capture choices included.
    import random

    from chkobba.observations import observation_vector, piece

    game = _load()
    kinds = [
        _kind(recall, public, private)
        for recall in (False, True)
        for public in (False, True)
        for private in (_NONE, _SINGLE)
    ]
    observers = [game.make_py_observer(kind) for kind in kinds]
    rng = random.Random(5)
    state = game.new_initial_state()
    seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        for player in (0, 1):
            full = observation_vector(state.view(player), state.position.pending)
            for observer in observers:
                observer.set_from(state, player)
                for name, _ in LAYOUT:
                    if name in observer.dict:
                        expected = np.asarray(piece(full, name), np.float32)
                        assert observer.dict[name].tolist() == expected.tolist(), name
                        seen.add((name, any(piece(full, name))))
        state.apply_action(rng.choice(state.legal_actions()))
    assert ("cut_card", True) in seen and ("pending", True) in seen
