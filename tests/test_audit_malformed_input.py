"""What a fresh audit of the public API with malformed input found (2026-12-04).

Each test is a reproducer: a public function let an ``OverflowError``, a
``UnicodeEncodeError``, numpy's ambiguous-truth ``ValueError`` or an attrs error escape,
took a flag it could not read as true or false, built an impossible state, or returned a
wrong interval. Now each refuses its input with a :class:`~chkobba.ChkobbaError` naming
it and the reason, or answers correctly.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Cut,
    Record,
    RecordError,
    Rules,
    apply,
    check_state,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.arena import wilson_interval
from chkobba.bots import ExpertBot, ISMCTSBot
from chkobba.bots.analysis import points_text
from chkobba.bots.base import Deadline
from chkobba.bots.inference import OpponentModel
from chkobba.bots.ismcts import rollout
from chkobba.bots.sampling import weighted_determinizer
from chkobba.errors import shown
from chkobba.rules import CAPTURE_VALUE_LIMIT

HUGE = 10**400  # more than a float holds

#: Every option that takes a real number, given one too large for a float.
_HUGE_NUMBERS: list[tuple[str, Callable[[], object]]] = [
    ("ISMCTSBot: exploration", lambda: ISMCTSBot(exploration=HUGE)),
    ("ISMCTSBot: seconds", lambda: ISMCTSBot(seconds=HUGE)),
    ("ExpertBot: exploration", lambda: ExpertBot(exploration=HUGE)),
    ("ExpertBot: seconds", lambda: ExpertBot(seconds=HUGE)),
    ("OpponentModel: temperature", lambda: OpponentModel(temperature=HUGE, noise=0.1)),
    ("rollout: epsilon", lambda: rollout(new_match(), random.Random(0), HUGE)),
    ("Deadline: seconds", lambda: Deadline(HUGE)),
]


@pytest.mark.parametrize(("named", "make"), _HUGE_NUMBERS, ids=[n for n, _ in _HUGE_NUMBERS])
def test_a_number_too_large_for_a_float_is_refused_by_name(
    named: str, make: Callable[[], object]
) -> None:
    with pytest.raises(ChkobbaError, match=f"^{named} must be .*an integer of about 401 digits"):
        make()


@pytest.mark.parametrize("seconds", [-1, math.nan, math.inf, "1", None, True])
def test_a_deadline_takes_a_finite_number_of_seconds(seconds: object) -> None:
    with pytest.raises(ChkobbaError, match="Deadline: seconds must be a finite number >= 0"):
        Deadline(seconds)  # type: ignore[arg-type]
    assert not Deadline(0).passed() and not Deadline(0.5).passed()


def _opponent_view() -> tuple[Any, list[Any]]:
    """A 2-player view in phase PLAY, and its unseen cards."""
    state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=False))
    view = observe(state, state.mover)
    return view, list(view.unseen())


def test_a_weighted_determinizer_refuses_a_hand_that_repeats_a_card() -> None:
    view, unseen = _opponent_view()
    size = view.hand_sizes[1 - view.player]
    with pytest.raises(ChkobbaError, match=f"do not fit .* \\({size} different cards"):
        weighted_determinizer(view, [(unseen[0],) * size], [1.0])
    fair = tuple(unseen[:size])
    sample = weighted_determinizer(view, [fair], [1.0])(random.Random(0))
    check_state(sample)  # every sample is a possible state
    assert sample.hands[1 - view.player] == fair


_NEVER_DECREASE = "cumulative weights are finite and never decrease"


@pytest.mark.parametrize(
    ("hands", "weights", "message"),
    [
        (None, [1.0], "expected a list of hands (tuples of cards), got None (NoneType)"),
        ([["AS"]], [1.0], "expected a list of hands (tuples of cards), got [['AS']] (list)"),
        ([("AS",)], [1.0], "expected a list of hands (tuples of cards), got [('AS',)] (list)"),
        ("fair", None, "expected a list of cumulative weights, got None (NoneType)"),
        ("fair", "1", "expected a list of cumulative weights, got '1' (str)"),
        (
            "fair",
            [math.nan],
            "cumulative weights are finite and never decrease, but nan follows 0.0",
        ),
        (
            "fair2",
            [2.0, 1.0],
            "cumulative weights are finite and never decrease, but 1.0 follows 2.0",
        ),
        ("fair", ["1"], "cumulative weights are finite and never decrease, but '1' follows 0.0"),
    ],
)
def test_a_weighted_determinizer_names_bad_hands_and_weights(
    hands: object, weights: object, message: str
) -> None:
    view, unseen = _opponent_view()
    size = view.hand_sizes[1 - view.player]
    if hands == "fair":
        hands = [tuple(unseen[:size])]
    elif hands == "fair2":
        hands = [tuple(unseen[:size]), tuple(unseen[size : 2 * size])]
    with pytest.raises(ChkobbaError) as caught:
        weighted_determinizer(view, hands, weights)  # type: ignore[arg-type]
    assert str(caught.value) == f"weighted_determinizer: {message}"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")
@pytest.mark.parametrize(
    "read",
    [Record.load, Record.load_lines, Rules.load, lambda path: Record(players=2).save(path)],
)
def test_a_file_name_the_file_system_cannot_encode_is_refused_by_name(
    read: Callable[[str], object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ChkobbaError) as caught:
        read("\ud800.json")
    message = str(caught.value)
    assert message.endswith(
        "'\\ud800.json': the file system cannot name a file with '\\ud800' (utf-8)"
    )
    long = "x" * 300 + "\ud800"  # quoted up to 200 characters, as a NUL's name is
    with pytest.raises(ChkobbaError) as caught:
        read(long)
    assert str(caught.value).endswith(
        f"{shown(long, 200)}: the file system cannot name a file with '\\ud800' (utf-8)"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("value", "sign", "message"),
    [
        (None, "+", "expected a number of points, got None (NoneType)"),
        ("0.5", "+", "expected a number of points, got '0.5' (str)"),
        (True, "+", "expected a number of points, got True (bool)"),
        (HUGE, "+", "an integer of about 401 digits is too large a number"),
        (1.0, None, "sign must be '+', '-', ' ' or '', not None"),
        (1.0, "100000000", "sign must be '+', '-', ' ' or '', not '100000000'"),
    ],
)
def test_points_text_names_what_it_cannot_write(value: object, sign: object, message: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        points_text(value, sign)  # type: ignore[arg-type]
    assert str(caught.value) == f"points_text: {message}"


def test_points_text_writes_every_number_it_takes() -> None:
    assert points_text(0.594, "") == "0.59 points" and points_text(2) == "+2.00 points"
    assert points_text(-1, " ") == "-1.00 points" and points_text(1, " ") == " 1.00 points"
    assert points_text(math.nan) == "unknown" and points_text(-math.inf) == "not tried"
    assert points_text(math.inf) == "+inf points"  # no mark of anything: it said "not tried"


_RECORD = Record.from_moves(new_match(), [])


@pytest.mark.parametrize("flag", [None, "no", 2, [True]])
@pytest.mark.parametrize(
    "call",
    [
        lambda flag: Record.from_dict(_RECORD.to_dict(), verify=flag),
        lambda flag: Record.from_json(_RECORD.to_json(), verify=flag),
        lambda flag: Record.load("missing.json", verify=flag),
        lambda flag: Record.load_lines("missing.jsonl", verify=flag),
        lambda flag: _RECORD.to_json(compact=flag),
    ],
)
def test_a_records_flags_are_true_or_false(call: Callable[[object], object], flag: object) -> None:
    # verify=None turned the replay off without a word; verify="no" turned it on.
    with pytest.raises(ChkobbaError, match=r"(verify|compact) must be True or False, not "):
        call(flag)


def test_a_numpy_flag_array_is_refused_by_name() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(ChkobbaError, match=r"verify must be True or False, not array"):
        Record.from_dict(_RECORD.to_dict(), verify=np.array([True, False]))
    assert Record.from_dict(_RECORD.to_dict(), verify=np.bool_(False)) == _RECORD


def test_the_adapters_string_options_refuse_arrays_by_name() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from chkobba.bots.policy import PolicyBot, policy_input
    from chkobba.gymnasium import ChkobbaEnv, deal_info
    from chkobba.pettingzoo import raw_env

    for option in ("seat", "illegal_action", "render_mode"):
        with pytest.raises(ChkobbaError, match=f"^{option} must be"):
            ChkobbaEnv(**{option: np.array(["ansi", "raise"])})
    with pytest.raises(ChkobbaError, match=r"^render_mode must be"):
        raw_env(render_mode=np.array(["ansi"]))
    with pytest.raises(ChkobbaError, match="features must be True or False, not None"):
        PolicyBot(lambda observation, mask: 0, features=None)  # type: ignore[arg-type]
    view, _ = _opponent_view()
    with pytest.raises(ChkobbaError, match="features must be True or False, not 'yes'"):
        policy_input(view, (), features="yes")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="deal_info: expected a DealScore, got None"):
        deal_info(None)  # type: ignore[arg-type]


def test_an_openspiel_states_text_flags_are_true_or_false() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel

    state = pyspiel.load_game(chkobba.openspiel.GAME_NAME).new_initial_state()
    texts: list[tuple[Callable[[], object], str]] = [
        (lambda: state.information_state_text(0, private="no"), "private"),
        (lambda: state.observation_text(0, private="no"), "private"),
        (lambda: state.observation_text(0, public="no"), "public"),
    ]
    for text, flag in texts:
        with pytest.raises(ChkobbaError) as caught:
            text()
        assert str(caught.value) == f"{flag} must be True or False, not 'no'"


@pytest.mark.parametrize("z", [1e150, 1.4e154, 1e200, 1e300, sys.float_info.max])
@pytest.mark.parametrize(("wins", "games"), [(3, 10), (0, 10), (10, 10), (500, 1000)])
def test_a_huge_z_widens_the_interval_to_everything(wins: int, games: int, z: float) -> None:
    # z * z overflowed to infinity above about 1.3e154, and the NaNs it made were dropped
    # by min and max: a zero-width interval at the rate.
    low, high = wilson_interval(wins, games, z)
    assert low <= wins / games <= high
    assert (low, high) == pytest.approx((0.0, 1.0), abs=1e-6)


def test_capture_values_are_at_most_the_limit() -> None:
    top = (*TUNISIAN.capture_values[:9], CAPTURE_VALUE_LIMIT)
    assert attrs.evolve(TUNISIAN, name="house", capture_values=top).capture_values == top
    with pytest.raises(
        ChkobbaError, match="capture_values must be a tuple of 10 integers from 1 to 1000"
    ):
        attrs.evolve(TUNISIAN, name="house", capture_values=(*top[:9], CAPTURE_VALUE_LIMIT + 1))
    with pytest.raises(RecordError):
        Record.from_dict(
            {**_RECORD.to_dict(), "rules": {**TUNISIAN.to_dict(), "capture_values": [10**40] * 10}}
        )


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            '{"format": "chkobba-record",   ',
            "Expecting property name enclosed in double quotes at column 32",
        ),
        ('{"format": X', "Expecting value at column 12"),
        ("{}X", "Extra data at column 3"),
    ],
)
def test_a_json_lines_line_that_is_not_json_is_named_at_its_column(
    line: str, said: str, tmp_path: Path
) -> None:
    # The decoder's own position was "line 2 column 1" (the line's newline), against the
    # file's line 2: only the column within the line is said now.
    path = tmp_path / "records.jsonl"
    path.write_text(_RECORD.to_json(compact=True) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        Record.load_lines(path)
    assert str(caught.value) == f"{str(path)!r}, line 2: the record is not valid JSON: {said}"


def test_deal_info_names_what_is_no_deal_score() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import deal_info

    with pytest.raises(ChkobbaError) as caught:
        deal_info((2, 1))  # type: ignore[arg-type]
    assert str(caught.value) == "deal_info: expected a DealScore, got (2, 1) (tuple)"
