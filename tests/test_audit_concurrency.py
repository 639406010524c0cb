"""Found by the concurrency audit (stop 52): a game server plays from many threads at
once, so a cache eviction in one thread must never change what another thread gets.

The interleavings are made deterministic with a line tracer: the "other thread" runs at
every line of the evicting function. The compiled build runs those functions as C code,
which a tracer does not see, so there the tests skip.
"""

from __future__ import annotations

import pickle
import random
import sys
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    Cut,
    State,
    _kernel,
    _plays,
    apply,
    legal_moves,
    new_match,
    random_shuffle,
)
from chkobba.captures import clear_caches, hand_plays
from chkobba.cards import cards
from chkobba.engine import clear_caches as clear_engine_caches

Tracer = Callable[[FrameType, str, Any], Any]


def _at_every_line(
    code: CodeType, other_thread: Callable[[], None], run: Callable[[], None]
) -> int:
    """Run ``run()``, calling ``other_thread()`` before each line of ``code`` runs; the
    number of lines seen."""
    seen = 0

    def local(frame: FrameType, event: str, arg: Any) -> Tracer:
        nonlocal seen
        if event == "line":
            seen += 1
            other_thread()
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Tracer | None:
        return local if frame.f_code is code else None

    # The tracer in place (coverage's, a debugger's) is put back after: left at None, it
    # silently stopped coverage from measuring every test after this file.
    before = sys.gettrace()
    sys.settrace(calls)
    try:
        run()
    finally:
        sys.settrace(before)
    return seen


def test_the_line_tracer_puts_back_the_tracer_it_found() -> None:
    # Coverage measures by a tracer of its own (under Python 3.11): replacing it with None
    # made one coverage run of the suite report 65% where the tests cover 98%.
    def outer(frame: FrameType, event: str, arg: Any) -> None:
        return None

    def run() -> None:
        sum(range(3))

    before = sys.gettrace()
    sys.settrace(outer)
    try:
        assert _at_every_line(run.__code__, lambda: None, run) == 1
        assert sys.gettrace() is outer
    finally:
        sys.settrace(before)


def _traceable(function: Any) -> CodeType:
    code = getattr(function, "__code__", None)
    if code is None:
        pytest.skip("compiled build: the function runs as C code, which no tracer sees")
    if getattr(function, "__wrapped__", None) is not None:
        # A mutation audit's copy, where the function is a trampoline: the lines that run
        # are those of a copy of it or of a mutant, which this test cannot name.
        pytest.skip("a mutation audit's trampoline: its own code is not the function's")
    return code  # type: ignore[no-any-return]


def test_plays_listed_while_a_profile_forgets_its_tables_are_right() -> None:
    # A profile's tables are forgotten when they grow past their bound (hand-built
    # positions can hold any table): a listing in another thread at that moment found
    # the tables half forgotten and raised a bare IndexError.
    # Each listing reads a table of values not listed since the eviction began.
    hand = cards("QH 5D JC")
    tables = [cards(text) for text in ("2D 6S 5C 3H", "AD 2S 4C 3D", "AS 3C 4D 2H 5S", "6D AC 2C")]
    tables += [cards(text) for text in ("5H 3S 2S", "4H AH 6H", "3C 7S", "2H 4S AS 6C")]
    expected = [hand_plays(hand, table, TUNISIAN) for table in tables]
    listed: list[object] = []
    code = _traceable(_kernel.Kernel.clear)

    def other_thread() -> None:
        table = tables[len(listed)]
        listed.append(hand_plays(hand, table, TUNISIAN))

    seen = _at_every_line(code, other_thread, _kernel.kernel(TUNISIAN).clear)
    assert 3 <= seen <= len(tables) and listed == expected[:seen]


def test_clearing_the_caches_while_other_threads_add_profiles_is_safe() -> None:
    # clear_caches walked the profiles' dicts while another thread could add one:
    # "dictionary changed size during iteration".
    for profile in (TUNISIAN, attrs.evolve(TUNISIAN, target=12)):
        hand_plays(cards("7D"), cards("3S 4C"), profile)  # two profiles to walk
    targets = iter(range(100, 1000))
    hand, table = cards("QH 5D"), cards("2D 6S 5C")
    expected = hand_plays(hand, table, TUNISIAN)

    def other_thread() -> None:
        profile = attrs.evolve(TUNISIAN, target=next(targets))
        assert hand_plays(hand, table, profile) == expected

    for function in (_kernel.clear_caches, _plays.clear_caches):
        seen = _at_every_line(_traceable(function), other_thread, function)
        assert seen >= 2
    clear_caches()
    clear_engine_caches()


def _dealt(seed: int) -> State:
    return apply(apply(new_match(), random_shuffle(random.Random(seed))), Cut(keep=False))


def _assert_same_state(loaded: State, state: State) -> None:
    """A state read back is the state: equal, the same hash, the same moves listed."""
    assert loaded == state and hash(loaded) == hash(state)
    assert legal_moves(loaded) == legal_moves(state)


def test_equal_states_pickle_to_equal_bytes_whatever_was_asked_of_them() -> None:
    # docs/api.md: "the same value gives the same bytes". A state's pickle carried its
    # memos (the listed plays, the cached hash), so the bytes told what had been asked.
    plain, listed, hashed = _dealt(3), _dealt(3), _dealt(3)
    legal_moves(listed)
    hash(hashed)
    assert plain == listed == hashed
    assert pickle.dumps(plain) == pickle.dumps(listed) == pickle.dumps(hashed)
    for state in (plain, listed, hashed):
        _assert_same_state(pickle.loads(pickle.dumps(state)), state)


def test_states_pickled_with_their_memos_still_load() -> None:
    # Pickles written before the memos were left out hold them; they load as before.
    state = _dealt(4)
    legal_moves(state)
    hash(state)
    old = pickle.dumps(state.__dict__.copy())
    fields = pickle.loads(old)
    loaded = State.__new__(State)
    loaded.__setstate__(fields)
    _assert_same_state(loaded, state)


def test_a_pickled_state_reads_back_where_nothing_resets_its_memos() -> None:
    # 0.1.0's State has no __setstate__: unpickling there puts the pickled dict as it is,
    # and its hash reads the memo. The memos are pickled empty, so it finds them.
    state = _dealt(5)
    hash(state)
    legal_moves(state)
    loaded = State.__new__(State)
    loaded.__dict__.update(state.__getstate__())
    assert loaded == state and hash(loaded) == hash(state)
