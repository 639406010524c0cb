"""Found by a sweep of the error messages (stop 53): each refusal names what was given
and why, without blaming text nobody typed, without contradicting itself, and without
a path of this machine or a temporary file's name."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    DECK,
    ChkobbaError,
    Cut,
    NotationError,
    Play,
    Record,
    Rules,
    State,
    apply,
    card,
    cards,
    check_view,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
)
from chkobba.arena import play_match, tournament
from chkobba.bots import GreedyBot
from chkobba.bots.analysis import rank_moves
from chkobba.cards import Rank, Suit
from chkobba.cli.commands import command_of
from chkobba.errors import QUOTE_LIMIT, shown
from chkobba.observations import observation_vector
from tests.helpers import refusal


@pytest.mark.parametrize("text", ["hello", "10", "cut", "kep"])
def test_text_with_no_rank_and_no_suit_is_not_blamed_on_a_piece_of_it(text: str) -> None:
    # 'hello' was "HELL is not a rank", 'cut' "CU is not a rank".
    assert refusal(lambda: card(text)) == (
        f"{text!r} is not a card: a card is a rank (A 2 3 4 5 6 7 Q J K) then a suit "
        "(S H D C or ♠ ♥ ♦ ♣)"
    )


def test_a_card_given_to_card_is_called_one() -> None:
    # It said "card('7D') is not a card".
    with pytest.raises(NotationError) as refused:
        card(card("7D"))  # type: ignore[arg-type]
    assert str(refused.value) == "card() reads text; card('7D') is already a Card"


def test_ranks_and_suits_refuse_text_as_notation() -> None:
    # Enum's own refusal was a bare ValueError, "'8' is not a valid Rank".
    with pytest.raises(NotationError) as refused:
        Rank("8")
    assert str(refused.value) == (
        "'8' is not a rank's value: Rank takes A 2 3 4 5 6 7 Q J K (card() also reads small "
        "letters)"
    )
    with pytest.raises(NotationError) as refused:
        Suit("X")
    assert str(refused.value) == (
        "'X' is not a suit's value: Suit takes S H D C (card() also reads small letters and "
        "♠ ♥ ♦ ♣)"
    )
    with pytest.raises(NotationError, match=r"^'♠' is not a suit's value: Suit takes S H D C"):
        Suit("♠")
    assert (Rank("Q"), Suit("D")) == (Rank.QUEEN, Suit.DIAMONDS)


def test_a_seat_of_the_wrong_type_is_refused_for_its_type() -> None:
    # "there is no player 1.0 in a 2-player match": there is a player 1.
    state = new_match()
    assert refusal(lambda: observe(state, 1.0)) == "player must be an int, not 1.0 (float)"  # type: ignore[arg-type]
    assert refusal(lambda: state.side_of(True)) == "player must be an int, not True (bool)"
    assert refusal(lambda: observe(state, 2)) == "there is no player 2 in a 2-player match"


def test_rollout_names_a_view_by_its_type_and_says_what_to_give() -> None:
    # It quoted the view's repr, cut in the middle of its rules.
    message = refusal(lambda: rollout(observe(new_match(), 0), random.Random(1)))  # type: ignore[arg-type]
    assert message.startswith("rollout: expected a State, got a PlayerView (a view hides")


def test_a_module_is_named_not_quoted_with_its_path() -> None:
    message = refusal(lambda: random_shuffle(random))  # type: ignore[arg-type]
    assert message == "random_shuffle: rng must be a random.Random, not the module random"


def test_saving_a_record_over_a_folder_names_the_folder(tmp_path: Path) -> None:
    # os.replace's error named the temporary file beside it.
    with pytest.raises(IsADirectoryError) as refused:
        Record(players=2).save(tmp_path)
    assert refused.value.filename == str(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_cut_card_in_a_view_is_written_as_a_card() -> None:
    start = new_match()
    cut = apply_shuffle(start)
    view = attrs.evolve(observe(cut, 0), cut_card=cut.stock[0])
    assert refusal(lambda: check_view(view)) == (
        "inconsistent view: cut_card must be set exactly in the cutter's view in phase CUT, "
        f"not {cut.stock[0]} in player 0's view in CUT"
    )


def apply_shuffle(start: State) -> State:
    return apply(start, random_shuffle(random.Random(3)))


def test_a_card_twice_in_one_place_is_not_in_two_places() -> None:
    # "3C is in two places (hands[0] and hands[0])".
    data = new_match().to_dict()
    data["stock"] = [str(c) for c in DECK[1:]]
    data["table"] = [str(DECK[1])]
    assert "is in two places (stock and table)" in refusal(lambda: State.from_dict(data))
    data["stock"] = [str(c) for c in (*DECK, DECK[5])]
    data["table"] = []
    assert refusal(lambda: State.from_dict(data)) == f"state: {DECK[5]} is twice in stock"


@pytest.mark.parametrize("field", ["format", "version"])
def test_a_missing_envelope_field_is_called_missing(field: str) -> None:
    # "state format must be 'chkobba-state', not None (NoneType)": the data held no None.
    data = new_match().to_dict()
    del data[field]
    assert refusal(lambda: State.from_dict(data)) == f"state: missing field {field!r}"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("hint x", "'hint x': hint takes nothing after it"),
        ("help me", "'help me': help takes nothing after it"),
        ("? x", "'? x': help takes nothing after it"),
        ("undo\t3", "'undo\\t3': undo takes nothing after it"),
        ("hint me now", "'hint me now': hint takes nothing after it"),
    ],
)
def test_a_play_command_with_words_after_it_says_so(typed: str, message: str) -> None:
    # 'hint x' was read as a card: "HIN is not a rank".
    with pytest.raises(ChkobbaError) as refused:
        command_of(typed)
    assert str(refused.value) == message
    assert command_of(" hint ") == "hint" and command_of("QH x 2D") is None


# Found by an audit from a game server's side (stop 53).


def test_a_piece_of_card_text_is_quoted_past_the_quote_limit() -> None:
    at_limit, past = "K" * QUOTE_LIMIT, "K" * (QUOTE_LIMIT + 1)
    assert refusal(lambda: card(at_limit + "S")).endswith(
        f": {at_limit} is not a rank of the 40-card deck (A 2 3 4 5 6 7 Q J K)"
    )
    assert refusal(lambda: card(past + "S")).endswith(
        f": '{at_limit}…' (1 more characters) is not a rank of the 40-card deck "
        "(A 2 3 4 5 6 7 Q J K)"
    )


def test_a_long_piece_of_a_card_is_quoted_cut() -> None:
    # The rank piece was repeated whole: 150 K's, upper-cased, in a message to a client.
    message = refusal(lambda: card("K" * 150 + "S"))
    assert "(90 more characters) is not a rank" in message and len(message) < 250


@pytest.mark.parametrize("where", ["end", "start", "twice"])
def test_a_shuffle_refuses_a_comma_with_no_card_beside_it(where: str) -> None:
    # docs/notation.md: "Every + or , stands between two cards"; a shuffle let it pass.
    words = [str(c) for c in DECK]
    text = {
        "end": "shuffle " + " ".join(words) + ",",
        "start": "shuffle , " + " ".join(words),
        "twice": "shuffle " + words[0] + ",, " + " ".join(words[1:]),
    }[where]
    with pytest.raises(NotationError) as refused:
        parse_move(text)
    assert str(refused.value).startswith("'" + text[:40])
    assert str(refused.value).endswith(
        " is not a move: a card of the shuffle is missing next to a ,"
    )
    assert parse_move("shuffle " + ", ".join(words)) == parse_move("shuffle " + " ".join(words))


def test_capture_values_as_a_list_are_refused_for_being_a_list() -> None:
    # "must be 10 integers from 1 to 1000 in rank order": a list of them is just that.
    message = refusal(lambda: Rules(capture_values=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))  # type: ignore[arg-type]
    assert message.startswith("capture_values must be a tuple of 10 integers from 1 to 1000")


def test_a_failed_save_names_the_file_asked_for(tmp_path: Path) -> None:
    # It named the temporary file beside it: '/nonexistent/.x.json.cefaa3076206.tmp'.
    target = tmp_path / "missing" / "x.json"
    with pytest.raises(FileNotFoundError) as refused:
        Record(players=2).save(target)
    assert refused.value.filename == str(target)
    assert str(refused.value) == f"[Errno 2] No such file or directory: {str(target)!r}"


# Found by an audit of the bots' contract (stop 53).


def _cut_exposed() -> State:
    return apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))


def test_greedy_evaluate_checks_its_arguments_as_choose_does() -> None:
    # docs/bots.md: "A bot's choose (and evaluate) checks its arguments before it thinks";
    # GreedyBot's evaluate scored a view of the player not to move, and an illegal play.
    state = _cut_exposed()
    bot = GreedyBot(seed=1)
    assert refusal(lambda: bot.evaluate(observe(state, 0), legal_moves(state)[0])) == (
        "GreedyBot.evaluate: player 0's view has no choice: it is player 1's turn, not player 0's"
    )
    illegal = Play(card("7C"), frozenset(cards("QS")))
    assert refusal(lambda: bot.evaluate(observe(state, 1), illegal)) == (
        "GreedyBot.evaluate: Play(card('7C'), cards('QS')) is not legal in player 1's view: "
        "7C cannot take QS: it captures nothing here"
    )
    assert isinstance(bot.evaluate(observe(state, 1), legal_moves(state)[0]), float)


def test_rank_moves_refuses_greedy_for_what_its_evaluate_is() -> None:
    # It failed inside GreedyBot.evaluate: "expected a move, got (Play(...), ...) (tuple)".
    state = _cut_exposed()
    message = refusal(lambda: rank_moves(observe(state, 1), legal_moves(state), GreedyBot(seed=1)))  # type: ignore[arg-type]
    assert message == (
        "rank_moves: GreedyBot(seed=1) cannot evaluate moves: its evaluate scores one move "
        "by a heuristic, not every legal move in deal points (use ExpertBot or ISMCTSBot)"
    )


# Found by a review of this stop's change.


def test_a_dealer_of_the_wrong_type_is_refused_for_its_type() -> None:
    assert refusal(lambda: new_match(dealer=1.0)) == "dealer must be an int, not 1.0 (float)"  # type: ignore[arg-type]
    assert refusal(lambda: new_match(dealer=2)) == "dealer must be a player from 0 to 1, not 2"


def test_the_vectors_and_from_states_name_a_wrong_argument_by_its_type() -> None:
    state = new_match()
    assert refusal(lambda: observation_vector(state)) == (  # type: ignore[arg-type]
        "observation_vector: expected a PlayerView, got a State"
    )
    assert refusal(lambda: Record.from_states([state, observe(state, 0)])) == (  # type: ignore[list-item]
        "state 2 (index 1) is not a State: a PlayerView"
    )


def test_rank_moves_takes_a_greedy_subclass_that_values_every_move() -> None:
    class Valuing(GreedyBot):
        def evaluate(self, view: Any, legal: Any) -> Any:
            return dict.fromkeys(legal, 0.0)

    state = _cut_exposed()
    ranked = rank_moves(observe(state, 1), legal_moves(state), Valuing(seed=1))
    assert [item.move for item in ranked] == list(legal_moves(state))


class _Plain:
    """An object with the default repr, which holds its address."""


@pytest.mark.parametrize(
    "call",
    [
        lambda: play_match([_Plain(), "greedy"], seed=1),  # type: ignore[list-item]
        lambda: tournament([_Plain(), "greedy"], games=2, seed=1),  # type: ignore[list-item]
        lambda: new_match(players=_Plain()),  # type: ignore[arg-type]
        lambda: new_match(players=[_Plain()]),  # type: ignore[arg-type]  # (inside a list)
    ],
)
def test_an_object_with_the_default_repr_is_named_by_its_class_without_an_address(
    call: Callable[[], object],
) -> None:
    with pytest.raises(ChkobbaError) as caught:
        call()
    message = str(caught.value)
    assert f"<{__name__}._Plain object>" in message
    assert " at 0x" not in message


def _function() -> None:
    """A function, whose repr holds its address."""


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: new_match(players=_function), "<function _function>"),  # type: ignore[arg-type]
        (lambda: new_match(players=[_function]), "[<function _function>]"),  # type: ignore[arg-type]
        (lambda: play_match([_function, "greedy"], seed=1), "<function _function>"),  # type: ignore[list-item]
        (lambda: new_match(players=memoryview(b"2")), "<memory>"),  # type: ignore[arg-type]
        (lambda: new_match(players=iter(())), "<tuple_iterator object>"),  # type: ignore[arg-type]
    ],
)
def test_a_repr_that_holds_an_address_is_shown_without_it(
    call: Callable[[], object], named: str
) -> None:
    with pytest.raises(ChkobbaError) as caught:
        call()
    message = str(caught.value)
    assert named in message
    assert " at 0x" not in message


def test_text_that_looks_like_an_address_is_quoted_as_it_is() -> None:
    with pytest.raises(ChkobbaError) as caught:
        card("7D at 0x12>")
    assert str(caught.value).startswith("'7D at 0x12>' is not a card")
    with pytest.raises(ChkobbaError) as caught:
        new_match(players=["at 0x12>"])  # type: ignore[arg-type]
    assert "['at 0x12>']" in str(caught.value)


class _Text(str):
    """A subclass of str: reprlib quotes it through repr_instance, not repr_str."""


@pytest.mark.parametrize(
    "value",
    [
        [_Text("hello at 0x1f>")],
        {"k": _Text("<v at 0xdead>")},
        ValueError("<x at 0xab>"),
        [ValueError("x at 0xab>")],
    ],
)
def test_what_a_value_quotes_keeps_its_text_whatever_it_holds(value: object) -> None:
    assert shown(value) == repr(value)
