"""Tests for the gaps a mutmut audit of ``engine.py``, ``rules.py`` and ``state.py`` found.

Like ``tests/test_mutation_gaps.py``: each test here fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md,
the audit of 2026-12-01); each docstring names the rule or the behaviour it pins.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import attrs
import pytest

import chkobba.checks
import chkobba.rules
from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Phase,
    Play,
    Rules,
    Shuffle,
    State,
    apply,
    card,
    cards,
    illegal_reason,
    is_legal,
    legal_moves,
    new_match,
    random_shuffle,
)
from chkobba.rules import profile
from tests.helpers import arranged

# --- moves built around their converters -------------------------------------------------
# Cut, Shuffle and Play convert and check what they are given; a move built with
# object.__new__ skips that, and the engine names what is wrong with it.


def _built_around(kind: type[object], **fields: object) -> object:
    made = object.__new__(kind)
    for name, value in fields.items():
        object.__setattr__(made, name, value)
    return made


def _cut_state() -> State:
    return apply(new_match(), random_shuffle(random.Random(1)))


def test_a_cut_whose_keep_is_not_a_bool_is_refused_by_name() -> None:
    """A Cut keeps or exposes the top card (RULES.md §3): a keep that is neither True nor
    False is no cut, and the reason quotes it."""
    odd = _built_around(Cut, keep="yes")
    reason = "Cut(keep='yes'): keep must be True or False"
    assert illegal_reason(_cut_state(), odd) == reason  # type: ignore[arg-type]
    assert not is_legal(_cut_state(), odd)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError) as raised:
        apply(_cut_state(), odd)  # type: ignore[arg-type]
    assert str(raised.value) == reason


def test_a_shuffle_holding_a_non_card_names_it() -> None:
    """A shuffle orders the 40 cards (RULES.md §3); an item that is no card is named."""
    odd = _built_around(Shuffle, order=(*DECK[:39], "x"))
    assert illegal_reason(new_match(), odd) == "shuffle: 'x' is not a card"  # type: ignore[arg-type]


def _last_round(table: str, rules: Rules = TUNISIAN) -> State:
    """The last round of a deal, player 0 to move; the other cards are in side 1's pile."""
    return arranged(
        dealer=1,
        hands=[cards("QH 5H 2S"), cards("KC 2H 3H")],
        table=cards(table),
        stock=[],
        last_capturer=1,
        rules=rules,
    )


def test_a_play_of_a_non_card_or_taking_one_names_it() -> None:
    """A play is a card from hand taking table cards (RULES.md §4); a played item or a
    taken item that is no card is named, not another one."""
    state = _last_round("5C 2D 3S")
    odd_card = _built_around(Play, card="x", capture=frozenset())
    assert illegal_reason(state, odd_card) == "'x' is not a card"  # type: ignore[arg-type]
    odd_capture = _built_around(Play, card=card("5H"), capture=frozenset({"x"}))
    reason = "5H cannot take 'x': it is not a card"
    assert illegal_reason(state, odd_capture) == reason  # type: ignore[arg-type]


# --- the reasons for an illegal capture --------------------------------------------------


def test_a_court_without_sums_is_told_about_sums_only_when_it_takes_a_sum() -> None:
    """With ``courts_capture_sums=False`` a Q, J or K takes only an equal card: a single
    card it cannot take is refused for what it is (not for being a sum)."""
    no_sums = attrs.evolve(TUNISIAN, courts_capture_sums=False)
    state = _last_round("5C 2D 6S", no_sums)
    assert illegal_reason(state, Play("QH", "5C")) == "QH cannot take 5C: it captures nothing here"
    assert illegal_reason(state, Play("QH", "2D 6S")) == (
        "QH cannot take 2D+6S: a court takes only an equal card (no sums)"
    )


def test_without_equal_single_first_a_wrong_sum_is_named_as_a_sum() -> None:
    """With ``equal_single_first=False`` an equal card need not come first (RULES.md §4
    house rules), so a group holding one that does not add up is refused for its sum."""
    any_group = attrs.evolve(TUNISIAN, equal_single_first=False)
    state = _last_round("5C 2D 3S", any_group)
    assert illegal_reason(state, Play("5H", "5C 2D 3S")) == (
        "5H cannot take 2D+3S+5C: the values sum to 10, not 5"
    )


# --- new_match -----------------------------------------------------------------------------


def test_new_match_refuses_a_bool_dealer_after_a_fresh_match_was_made() -> None:
    """new_match copies a fresh match of a seating it has seen; that shortcut keeps the
    check of the dealer: False (equal to 0 as a key) is no player number."""
    new_match()
    with pytest.raises(ChkobbaError, match=r"^dealer must be an int, not False \(bool\)$"):
        new_match(dealer=False)


# --- rule profiles -------------------------------------------------------------------------


def test_a_profile_name_of_60_characters_is_allowed() -> None:
    """A profile's name has at most 60 characters (docs/rules.md), that length included."""
    assert Rules(name="n" * 60).name == "n" * 60
    with pytest.raises(ChkobbaError, match=r"^name must be printable text, not blank"):
        Rules(name="n" * 61)


# --- a hand-built state the engine cannot play on ------------------------------------------


def _broken() -> State:
    """A last round whose player to move (7) does not exist."""
    return attrs.evolve(_last_round("5C 2D 3S"), current_player=7)


class _Annotated(State):
    """A State subclass: legal_moves and apply read it through its properties."""


def _subclassed(state: State) -> State:
    return _Annotated(**{field.name: getattr(state, field.name) for field in attrs.fields(State)})


def _short_stock() -> State:
    """A CUT state whose stock lost 35 cards: the cut cannot deal."""
    state = _cut_state()
    return attrs.evolve(state, stock=state.stock[:5])


_NO_PLAYER_7 = "inconsistent state: current_player 7 is not a player from 0 to 1 (see check_state)"
_BROKEN: list[tuple[Callable[[], object], str]] = [
    (lambda: legal_moves(_broken()), _NO_PLAYER_7),
    (lambda: legal_moves(_subclassed(_broken())), _NO_PLAYER_7),
    (lambda: illegal_reason(_broken(), Play("QH")), _NO_PLAYER_7),
    (lambda: apply(_broken(), Play("QH")), _NO_PLAYER_7),
    (
        lambda: apply(_short_stock(), Cut(keep=True)),
        "inconsistent state: AS is nowhere (35 of the 40 cards missing) (see check_state)",
    ),
]


@pytest.mark.parametrize(("call", "message"), _BROKEN)
def test_a_broken_state_is_named_by_check_state_at_each_entry_point(
    call: Callable[[], object], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """legal_moves, illegal_reason and apply (its quick path for listed plays and its
    checked path) name what check_state finds wrong with a hand-built state they fail on;
    when check_state finds nothing, the failure is a bug and escapes as it is."""
    with pytest.raises(ChkobbaError) as raised:
        call()
    assert str(raised.value) == message
    monkeypatch.setattr(chkobba.checks, "check_state", lambda state: state)
    with pytest.raises(IndexError):
        call()


# --- the full text of error messages -------------------------------------------------------

_OVER = attrs.evolve(new_match(), phase=Phase.OVER, winner=0)
_ODD_PHASE = attrs.evolve(new_match(), phase="play")

_MESSAGES: list[tuple[Callable[[], object], str]] = [
    (
        lambda: Rules(name=""),
        "name must be printable text, not blank, of at most 60 characters, got ''",
    ),
    (
        lambda: Rules(capture_values=(1,)),
        "capture_values must be a tuple of 10 integers from 1 to 1000 in rank order "
        "A 2 3 4 5 6 7 Q J K (a list in JSON), got (1,)",
    ),
    (lambda: TUNISIAN.value("QH"), "value: 'QH' is not a card or a rank"),  # type: ignore[arg-type]
    (
        lambda: CARD_RULES_PLUS.sides(5),
        "a match has 2, 3 or 4 players, not 5 (the cardrulesplus profile)",
    ),
    (
        lambda: profile("house"),
        "no rule profile is named 'house': the profiles are cardrulesplus, tunisian",
    ),
    (lambda: new_match(rules="x"), "rules must be a Rules profile, not 'x'"),  # type: ignore[arg-type]
    (lambda: new_match(dealer=5), "dealer must be a player from 0 to 1, not 5"),
    (
        lambda: new_match(scores=(1, 2, 3, 4, 5)),
        "scores must be 2 whole numbers, not (1, 2, 3, 4, 5)",
    ),
    (lambda: new_match(scores=(1, -2)), "scores must be 2 whole numbers >= 0, not (1, -2)"),
    (lambda: new_match().side_of(2), "there is no player 2 in a 2-player match"),
    (lambda: _OVER.mover, "nobody is to move in phase OVER: the match is over"),
]


@pytest.mark.parametrize(("call", "message"), _MESSAGES)
def test_bad_input_to_profiles_and_states_is_named_exactly(
    call: Callable[[], object], message: str
) -> None:
    """The profile's checks and methods, new_match and the State's helpers name what is
    wrong in a ChkobbaError, in full (the suite matched only parts of these, or none)."""
    with pytest.raises(ChkobbaError) as raised:
        call()
    assert str(raised.value) == message


def test_a_state_repr_writes_a_phase_that_is_no_phase_as_its_repr() -> None:
    """repr(State) writes its phase as code (``Phase.SHUFFLE``); a hand-built phase that
    is no Phase is written as its own repr, so the repr still shows what the state holds."""
    assert ", phase='play', " in repr(_ODD_PHASE)


# --- Rules.load: the file's bounds -----------------------------------------------------------


def test_a_profile_file_of_exactly_64_kib_is_read(tmp_path: Path) -> None:
    """Rules.load reads a profile file of at most 64 KiB, that size included (its
    documented bound); one byte more is refused."""
    text = json.dumps(TUNISIAN.to_dict()).encode("utf-8")
    path = tmp_path / "padded.json"
    path.write_bytes(text + b" " * (64 * 1024 - len(text)))
    assert Rules.load(path) == TUNISIAN
    path.write_bytes(text + b" " * (64 * 1024 + 1 - len(text)))
    with pytest.raises(ChkobbaError, match=r" is larger than a rule profile \(64 KiB\)$"):
        Rules.load(path)


class _CountingReader:
    """A file opened for Rules.load that counts the bytes it hands over."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.delivered = 0

    def __enter__(self) -> _CountingReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def read(self, size: int | None = -1) -> bytes:
        data = self.file.read(size)
        self.delivered += len(data)
        return data


def test_load_reads_no_more_of_a_large_file_than_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong path (a log, a device) is not read whole: Rules.load reads 64 KiB and one
    byte, enough to know the file is larger than any profile."""
    path = tmp_path / "log.json"
    path.write_bytes(b" " * 1_000_000)
    readers: list[_CountingReader] = []

    def counting_open(file: Path, mode: str) -> _CountingReader:
        readers.append(_CountingReader(open(file, mode)))  # noqa: SIM115 (closed by __exit__)
        return readers[-1]

    monkeypatch.setattr(chkobba.rules, "open", counting_open, raising=False)
    with pytest.raises(ChkobbaError, match=r" is larger than a rule profile"):
        Rules.load(path)
    assert [reader.delivered for reader in readers] == [64 * 1024 + 1]


def test_load_quotes_a_long_file_name_in_200_characters(tmp_path: Path) -> None:
    """Rules.load names the file in its errors, a long name cut to 200 characters so
    that the message stays readable."""
    path = tmp_path / ("p" * 220 + ".json")
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ChkobbaError) as raised:
        Rules.load(path)
    name = str(raised.value).split(" is not valid JSON: ")[0]
    assert name.startswith(repr(str(tmp_path))[:-1])
    assert len(name) == 200 and name.endswith("…")
