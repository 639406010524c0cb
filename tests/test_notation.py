"""Move notation: parse_move reads str(move) back, forgiving variants, short forms, errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chkobba import (
    DECK,
    Card,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Move,
    NotationError,
    Phase,
    Play,
    PlayerView,
    Shuffle,
    State,
    apply,
    card,
    cards,
    illegal_reason,
    legal_moves,
    new_match,
    observe,
    parse_move,
    public_view,
    random_shuffle,
)
from chkobba.errors import shown
from tests.helpers import dealt
from tests.strategies import a_card, distinct_cards, moves_in, play_states, shuffles, states

QH_2D_6S = Play(card("QH"), cards("2D 6S"))


def table_state() -> State:
    """Player 1 to play QH 4C 5C on a table of 2D 6S AS AC (QH can take 2D+6S or AS+AC+6S)."""
    return dealt(hands=["3C 6C 7C", "QH 4C 5C"], table="2D 6S AS AC")


# --- without a state: the whole move is written ------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("QH", Play(card("QH"))),
        ("QH x 2D+6S", QH_2D_6S),
        ("keep", Cut(keep=True)),
        ("expose", Cut(keep=False)),
        ("KD x AS+2S+3S+4S", Play(card("KD"), cards("AS 2S 3S 4S"))),
    ],
)
def test_canonical_text_parses_to_its_move(text: str, move: object) -> None:
    assert parse_move(text) == move
    assert str(parse_move(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "qh x 2d+6s",
        "QH X 2D+6S",
        "QH: 2D+6S",
        "QH:2D+6S",
        "QHx2D+6S",
        "QH x 6S+2D",
        "QH x 6S 2D",
        "QH x 2D, 6S",
        "QH x 2D + 6S",
        "  QH   x   2D+6S  ",
        "Q♥ x 2♦+6♠",
        "q♥ \u00d7 6♠ 2♦",
        "\tQH\nx\t2D+6S\n",
    ],
)
def test_forgiving_variants_of_a_capture(text: str) -> None:
    assert parse_move(text) == QH_2D_6S


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("KEEP", Cut(keep=True)),
        (" Keep ", Cut(keep=True)),
        ("Expose", Cut(keep=False)),
        ("7♦", Play(card("7D"))),
        ("ks", Play(card("KS"))),
    ],
)
def test_forgiving_variants_of_cuts_and_plays(text: str, move: object) -> None:
    assert parse_move(text) == move


def test_shuffle_text_round_trips_in_any_case_and_with_symbols() -> None:
    move = random_shuffle(random.Random(5))
    text = str(move)
    assert text.startswith("shuffle ") and len(text.split()) == 41
    assert parse_move(text) == move
    assert parse_move(text.lower()) == move
    assert parse_move("SHUFFLE  " + "  ".join(c.symbol for c in move.order)) == move
    assert parse_move("shuffle " + ", ".join(str(c) for c in move.order)) == move


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "the text is empty"),
        ("   ", "the text is empty"),
        ("8D", "8 is not a rank"),
        ("10H", "10 is not a rank"),
        ("QZ", "Z is not a suit"),
        ("Q", "a card is a rank and a suit"),
        ("QH 2D", "write a capture as QH x 2D+6S"),
        ("QH x", "no captured card follows the capture mark"),
        ("QH x +", "no captured card follows the capture mark"),
        ("x 2D", "the played card is missing"),
        ("QH x 2D x 6S", "more than one capture mark"),
        ("QH x 2D+2D", "it captures 2D twice"),
        ("QH x QH", "QH cannot capture itself"),
        ("QH x 2D+9S", "9 is not a rank"),
        ("keep 7D", "keep is a whole move"),
        ("expose now", "expose is a whole move"),
        ("keeps", "is not a card"),
        ("shuffle", "this one has 0"),
        ("shuffle AS AH", "this one has 2; missing 38 cards"),
        ("shuffle AS AS", "AS comes again as card 2 (index 1)"),
        ("shuffle " + " ".join(str(c) for c in DECK[:39]) + " 8D", "8 is not a rank"),
    ],
)
def test_bad_text_raises_notation_error_naming_text_and_reason(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_move(text)
    message = str(raised.value)
    assert fragment in message
    assert shown(text) in message


def test_a_shuffle_of_39_or_41_cards_is_not_a_move() -> None:
    words = [str(c) for c in DECK]
    with pytest.raises(NotationError, match="has 39; missing KC"):
        parse_move("shuffle " + " ".join(words[:-1]))
    with pytest.raises(NotationError, match=r"AS comes again as card 41 \(index 40\)"):
        parse_move("shuffle " + " ".join([*words, "AS"]))


@pytest.mark.parametrize("value", [None, 7, b"QH", ["QH"], card("QH")])
def test_text_that_is_not_a_string_raises_notation_error(value: object) -> None:
    with pytest.raises(NotationError, match="is not a move"):
        parse_move(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("move", [Cut(keep=True), Play(card("QH"))])
def test_a_move_given_to_parse_move_is_called_one(move: Move) -> None:
    # It said "Play(card('QH')) is not a move", which it is.
    with pytest.raises(NotationError) as refused:
        parse_move(move)  # type: ignore[arg-type]
    assert str(refused.value) == f"parse_move() reads text; {move!r} is already a move"


def test_a_state_that_is_not_a_state_is_refused() -> None:
    # In the words legal_moves and is_legal use (it said "PublicView(...) is not a
    # State or a PlayerView", quoting the whole view).
    expected = "parse_move: expected a State or a PlayerView, got"
    with pytest.raises(ChkobbaError, match=f"^{expected} 'not a state' \\(str\\)$"):
        parse_move("QH", "not a state")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=f"^{expected} a PublicView \\(a public view sh"):
        parse_move("QH", public_view(new_match()))  # type: ignore[arg-type]


def test_notation_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_move("8D")


# --- with a state: short forms resolve, illegal moves are refused -------------------------


def test_a_card_alone_is_its_one_legal_move() -> None:
    state = table_state()
    assert parse_move("4C", state) == Play(card("4C"), cards("2D AS AC"))  # 4 = 2+1+1
    assert parse_move("5c", state) == Play(card("5C"))  # takes nothing: laid down


def test_a_card_alone_with_several_moves_is_ambiguous_and_lists_them() -> None:
    with pytest.raises(NotationError) as raised:
        parse_move("QH", table_state())
    assert str(raised.value) == "QH is ambiguous here: QH x AS+AC+6S, QH x 2D+6S"


def test_each_listed_alternative_parses_to_a_legal_move() -> None:
    state = table_state()
    for text in ("QH x AS+AC+6S", "QH x 2D+6S", "q♥ : 6♠ a♣ a♠"):
        move = parse_move(text, state)
        assert move in legal_moves(state)


def test_a_full_move_that_is_illegal_raises_the_engines_reason() -> None:
    state = table_state()
    with pytest.raises(IllegalMoveError) as raised:
        parse_move("QH x 2D", state)
    assert str(raised.value) == illegal_reason(state, Play(card("QH"), cards("2D")))
    with pytest.raises(IllegalMoveError, match="7C is not in player 1's hand"):
        parse_move("7C", state)
    with pytest.raises(IllegalMoveError, match="Cut is not allowed in phase PLAY"):
        parse_move("keep", state)
    with pytest.raises(IllegalMoveError, match="Shuffle is not allowed in phase PLAY"):
        parse_move(str(random_shuffle(random.Random(1))), state)


def test_a_card_alone_means_laid_down_without_a_state_and_resolves_with_one() -> None:
    state = dealt(hands=["3C 6C 7C", "KH 4C 5C"], table="2D 6S AS AC")
    assert parse_move("KH") == Play(card("KH"))
    assert illegal_reason(state, parse_move("KH")) == "KH must capture: it can take AS+AC+2D+6S"
    assert parse_move("KH", state) == Play(card("KH"), cards("2D 6S AS AC"))  # a chkobba


def test_moves_in_other_phases_with_a_state() -> None:
    start = new_match()
    shuffle = random_shuffle(random.Random(3))
    assert parse_move(str(shuffle), start) == shuffle
    with pytest.raises(IllegalMoveError, match="Play is not allowed in phase SHUFFLE"):
        parse_move("QH", start)
    cutting = apply(start, shuffle)
    assert parse_move("keep", cutting) == Cut(keep=True)
    with pytest.raises(IllegalMoveError, match="Play is not allowed in phase CUT"):
        parse_move("QH x 2D", cutting)


def test_bad_text_is_a_notation_error_even_with_a_state() -> None:
    with pytest.raises(NotationError):
        parse_move("QH x 9D", table_state())


# --- properties over random matches ------------------------------------------------------


@given(states())
def test_every_legal_move_round_trips_with_and_without_the_state(state: State) -> None:
    for move in legal_moves(state):
        text = str(move)
        assert parse_move(text) == move
        assert parse_move(text, state) == move


@given(play_states(), st.data())
def test_forgiving_variants_of_legal_plays_parse_to_them(state: State, data: st.DataObject) -> None:
    move = data.draw(st.sampled_from(legal_moves(state)))
    assert isinstance(move, Play)
    taken = data.draw(st.permutations(sorted(move.capture)))
    symbols = data.draw(st.booleans())
    words = [c.symbol if symbols else str(c).lower() for c in taken]
    played = move.card.symbol if symbols else str(move.card).lower()
    if words:
        mark = data.draw(st.sampled_from([" x ", "X", " : ", "\u00d7"]))
        glue = data.draw(st.sampled_from(["+", " ", " + ", ", "]))
        text = played + mark + glue.join(words)
    else:
        text = f"  {played}  "
    assert parse_move(text) == move
    assert parse_move(text, state) == move


@given(play_states())
def test_a_card_alone_resolves_exactly_when_it_has_one_legal_move(state: State) -> None:
    hand = state.hands[state.current_player]  # type: ignore[index]
    for held in hand:
        options = [m for m in legal_moves(state) if isinstance(m, Play) and m.card is held]
        if len(options) == 1:
            assert parse_move(str(held), state) == options[0]
        else:
            with pytest.raises(NotationError, match=f"^{held} is ambiguous here: "):
                parse_move(str(held), state)


@given(shuffles())
def test_every_shuffle_round_trips(move: Shuffle) -> None:
    assert parse_move(str(move)) == move
    assert parse_move(str(move), new_match()) == move


NOTATION_ALPHABET = "AKQJ2345678910SHDCxX:+, \t♠♥♦♣♤keposhufl\u00d7"


@st.composite
def _move_shaped_texts(draw: st.DrawFn) -> str:
    """Text shaped like a move, in either case: a card alone or taking up to four others
    (a capture that may be no legal one anywhere), a cut, a shuffle. Random text almost
    never parses (a run of the test below once parsed 1 of its 100), so these make the
    parsed branch run."""
    kind = draw(st.sampled_from(["play", "cut", "shuffle"]))
    if kind == "shuffle":
        text = str(draw(shuffles()))
    elif kind == "cut":
        text = draw(st.sampled_from(["keep", "expose"]))
    else:
        played = draw(a_card())
        taken = draw(st.lists(a_card().filter(lambda c: c != played), unique=True, max_size=4))
        text = f"{played} x {'+'.join(map(str, taken))}" if taken else str(played)
    return text.lower() if draw(st.booleans()) else text


@given(st.one_of(st.text(), st.text(alphabet=NOTATION_ALPHABET, max_size=30), _move_shaped_texts()))
def test_any_text_gives_a_move_or_a_notation_error(text: str) -> None:
    try:
        move = parse_move(text)
    except NotationError:
        return
    # What parses is a move whose canonical text reads back to it.
    assert parse_move(str(move)) == move


@st.composite
def _move_like_texts(draw: st.DrawFn, state: State) -> str:
    """Text shaped like a move of ``state``, in either case: a listed move's, or a card
    of some hand alone or taking some of the table's cards (legal or not). Random text
    almost never parses against a state (a run of the test below once parsed none of its
    100), so these make the parsed branch run."""
    listed: tuple[Move, ...] = ()
    if not state.is_chance and state.phase is not Phase.OVER:
        listed = legal_moves(state)
    pick_listed: bool = draw(st.booleans())
    if listed and pick_listed:
        text = str(draw(st.sampled_from(listed)))
    else:
        held = [c for hand in state.hands for c in hand] or list(DECK)
        played = draw(st.sampled_from(held))
        table = state.table
        taken = draw(st.lists(st.sampled_from(table), unique=True, max_size=3)) if table else []
        text = f"{played} x {'+'.join(map(str, taken))}" if taken else str(played)
    return text.lower() if draw(st.booleans()) else text


@given(states(), st.data())
def test_any_text_with_a_state_gives_a_legal_move_or_a_clear_error(
    state: State, data: st.DataObject
) -> None:
    text = data.draw(
        st.one_of(st.text(alphabet=NOTATION_ALPHABET, max_size=20), _move_like_texts(state))
    )
    try:
        move = parse_move(text, state)
    except (NotationError, IllegalMoveError):
        return
    assert illegal_reason(state, move) is None


# --- with a player's view instead of the state ---------------------------------------------


def test_a_view_of_the_player_to_move_resolves_like_the_state() -> None:
    state = table_state()
    view = observe(state, 1)
    assert parse_move("4C", view) == Play(card("4C"), cards("2D AS AC"))
    with pytest.raises(NotationError, match="QH is ambiguous here"):
        parse_move("QH", view)
    with pytest.raises(IllegalMoveError, match="QH cannot take 2D: 2D is worth 2, QH 8"):
        parse_move("QH x 2D", view)


def test_a_view_of_another_player_may_not_move() -> None:
    with pytest.raises(IllegalMoveError, match="it is player 1's turn, not player 0's"):
        parse_move("3C", observe(table_state(), 0))
    with pytest.raises(NotationError):
        parse_move("3Z", observe(table_state(), 0))


def _outcome(text: str, position: State | PlayerView) -> object:
    try:
        return parse_move(text, position)
    except (NotationError, IllegalMoveError) as error:
        return type(error), str(error)


@given(states(), st.data())
def test_the_movers_view_judges_every_text_as_the_state_does(
    state: State, data: st.DataObject
) -> None:
    mover = state.current_player
    if mover is None:
        return
    view = observe(state, mover)
    texts = [str(m) for m in legal_moves(state)]
    texts += [str(c) for c in DECK[:: data.draw(st.integers(1, 7))]]
    texts.append(data.draw(st.text(alphabet=NOTATION_ALPHABET, max_size=12)))
    for text in texts:
        assert _outcome(text, view) == _outcome(text, state)


@given(states(), st.data())
def test_every_move_repr_evaluates_back_to_the_move(state: State, data: st.DataObject) -> None:
    move = data.draw(moves_in(state))
    names = {"Play": Play, "Cut": Cut, "Shuffle": Shuffle, "card": card, "cards": cards}
    assert eval(repr(move), names) == move


def test_a_view_never_reads_a_shuffle_so_no_client_chooses_the_deck_order() -> None:
    order = " ".join(str(c) for c in reversed(DECK))
    between = new_match(4)  # a state between deals: nobody is to move
    mid_deal = table_state()
    for state in (between, mid_deal):
        for seat in range(state.players):
            with pytest.raises(IllegalMoveError, match=f"not player {seat}'s to play: a shuffle"):
                parse_move("shuffle " + order, observe(state, seat))
    # The one who runs the match still reads a shuffle with the state, or without one.
    assert parse_move("shuffle " + order, between) == Shuffle(tuple(reversed(DECK)))
    assert parse_move("shuffle " + order) == Shuffle(tuple(reversed(DECK)))
    # Malformed shuffle text is still a NotationError about the text.
    with pytest.raises(NotationError, match="a shuffle orders all 40 cards"):
        parse_move("shuffle AS", observe(between, 0))


@given(distinct_cards(min_size=1))
@example(tuple(DECK))  # the whole deck: CI's hypothesis once drew it
def test_every_play_that_can_be_legal_reads_back_and_no_other(group: tuple[Card, ...]) -> None:
    # docs/notation.md: str and parse_move are inverses on the moves some state accepts.
    played, capture = group[0], group[1:]
    assert parse_move(str(Play(played, capture))) == Play(played, capture)
    # With the whole deck the capture names 40 cards, which is refused before reading
    # them (tests/test_robustness.py); any fewer, and the played card is what is wrong.
    whole_deck = len(group) == len(DECK)
    reason = "a capture takes at most 39 cards" if whole_deck else f"{played} cannot capture itself"
    with pytest.raises(NotationError, match=reason):
        parse_move(str(Play(played, (*capture, played))))


@given(shuffles(), st.integers(0, 39), st.integers(0, 39))
def test_a_shuffle_that_repeats_a_card_is_written_but_not_read_back(
    move: Shuffle, i: int, j: int
) -> None:
    order = list(move.order)
    if i == j:
        del order[i]  # a card missing
    else:
        order[i] = order[j]  # a card twice, another missing
    with pytest.raises(NotationError, match="a shuffle"):
        parse_move(str(Shuffle(order)))
