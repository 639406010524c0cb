"""A run-time audit of the public API's annotations: do the values match them?

``mypy --strict`` passes, but static typing can be fooled by ``cast``, ``Any``,
``# type: ignore`` and untyped data (JSON, pickles, numpy), and downstream clients (mypy,
pyright) trust these annotations (the package ships ``py.typed``).

What was done. A pytest plugin (kept outside the repository, as
``/tmp/rtypes/rtplugin.py`` when the audit was made; it needs ``typeguard``, which the
test venvs lack) wrapped, at configure time, 249 public callables: every function in the
``__all__`` of ``chkobba`` and of each public submodule (the bots, the adapters
``chkobba.gymnasium``, ``chkobba.pettingzoo`` and ``chkobba.openspiel``, records,
notation, views, the CLI's modules...), and every public method, staticmethod, classmethod
and property of the classes they export (and of the chkobba classes in their MRO),
rebinding every module-level reference to them. Each RETURN value (never the arguments:
the suite passes wrong types on purpose) was checked with ``typeguard.check_type`` against
the resolved return annotation, every item of every collection (a stricter ``isinstance``
pre-filter of the common annotations passes most values quickly; typeguard decides every
other), plus three checks typeguard does not make: ``bool`` where ``int`` is annotated, a
numpy scalar where ``int``/``float``/``bool`` is (``np.float64`` subclasses ``float``),
and an ndarray's dtype against ``NDArray[X]``. The ``attrs`` values returned (and a few
items of returned collections) had every field checked against its annotation the same
way, two levels deep. Four ``pettingzoo`` callables annotated ``Any`` were not checked,
nor ``render`` and the four deprecated ``DealScore`` aliases (a wrapper's frame moves
their ``DeprecationWarning`` off the caller's line, which tests pin); every annotation
resolved; two protocol methods (``Bot.choose``, ``Evaluator.evaluate``) were never called.
The whole suite ran under it (5,100 tests): about 33 million calls checked, the fields of
1.8 million ``attrs`` values.

What was found. 90 distinct mismatches, under 10 callables and 19 fields; all but one are
acceptable. Garbage in, garbage out: states and views built by hand with wrong field types
(``attrs.evolve(state, players=2.0)`` in the hardening, robustness and fuzz tests), which
docs/api.md says "can hold anything" until ``check_state``/``check_view`` checks them, so
their fields, the properties computed from them (``State.sides``, ``State.mover``,
``State.cutter``, ``State.side_of``, ``PlayerView.side``...), ``apply``'s successor of a
state with list fields and ``observe``'s copy of them hold the wrong types they were given.
The checker's limit: ``chkobba.cli.output.Output.progress`` "returns" a context manager
while annotated ``Iterator[Any]``, the annotation of a ``@contextlib.contextmanager``
generator, which type checkers read right. An argument outside its annotation:
``observations.cap_scores`` returns its argument, a numpy array when a caller passes one
through ``Any`` to its ``list[float]`` parameter. One real mismatch, now mended:
:func:`chkobba.observations.piece`, annotated ``-> list[float]``, returned the items of
the vector it slices, so on the adapters' own observations (``float32`` numpy arrays) it
gave ``numpy.float32`` values, which are not ``float`` (unlike ``float64``) and which
``json`` cannot write. Its ``Sequence[float]`` parameter did not admit an ndarray either,
yet docs/adapters.md offers it to slice "the vector" and the suite slices the PettingZoo
observation with it. It now returns Python floats and takes any vector that slices into
numbers (a protocol a numpy array meets); the last tests pin both.

Every other promise checked held: no ``bool`` or numpy scalar where an ``int``/``float``
is annotated (rewards, returns, scores, ratings), tuples where tuples are annotated (never
lists, also after JSON). The adapters annotate their arrays as bare ``np.ndarray``, so
no dtype was promised, nor checked. The passing tests
below pin the core's part without typeguard: along random matches of every player count,
``legal_moves``, ``apply``, ``apply_with_outcome`` and ``observe`` return their annotated
types, with every field of the values holding its annotated type exactly (an ``int`` is
an ``int``, not a ``bool``), also for values read back from JSON and pickles.
"""

from __future__ import annotations

import collections.abc
import enum
import json
import pickle
import random
import types
import typing
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import attrs
import pytest

from chkobba import (
    PROFILES,
    ChkobbaError,
    Cut,
    Move,
    MoveOutcome,
    Play,
    PlayerView,
    Record,
    Shuffle,
    State,
    apply,
    apply_with_outcome,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.observations import OBSERVATION_SIZE, piece

_HINTS: dict[type, dict[str, Any]] = {}


def _problem(value: object, annotation: Any, where: str) -> str | None:
    """Why ``value`` does not hold ``annotation`` (exactly: ``bool`` is no ``int``), or None.

    Covers the annotations of the value types' fields; an ``attrs`` value's own fields
    are checked too.
    """
    if annotation is type(None) or annotation is None:
        return None if value is None else f"{where}: {value!r} is not None"
    if annotation is int:
        return None if type(value) is int else f"{where}: {type(value).__name__}, not int"
    if annotation is bool:
        return None if type(value) is bool else f"{where}: {type(value).__name__}, not bool"
    if annotation is str:
        return None if type(value) is str else f"{where}: {type(value).__name__}, not str"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        problems = [_problem(value, arg, where) for arg in args]
        return None if None in problems else f"{where}: {value!r} is none of {args}"
    if origin is typing.Literal:
        return None if value in args else f"{where}: {value!r} is not one of {args}"
    if origin is tuple:
        if type(value) is not tuple:
            return f"{where}: {type(value).__name__}, not tuple"
        items = args[:1] * len(value) if args[1:] == (...,) else args
        if len(items) != len(value):
            return f"{where}: {len(value)} items, not {len(items)}"
        for index, (item, arg) in enumerate(zip(value, items, strict=True)):
            problem = _problem(item, arg, f"{where}[{index}]")
            if problem:
                return problem
        return None
    if origin is frozenset:
        if type(value) is not frozenset:
            return f"{where}: {type(value).__name__}, not frozenset"
        return next((p for p in (_problem(v, args[0], f"{where} item") for v in value) if p), None)
    if origin is collections.abc.Mapping:
        if not isinstance(value, collections.abc.Mapping):
            return f"{where}: {type(value).__name__}, not a Mapping"
        pairs = (
            (_problem(k, args[0], where), _problem(v, args[1], where)) for k, v in value.items()
        )
        return next((p for pair in pairs for p in pair if p), None)
    assert origin is None and isinstance(annotation, type), f"{where}: {annotation} not covered"
    if not isinstance(value, annotation):
        return f"{where}: {type(value).__name__}, not {annotation.__name__}"
    if attrs.has(annotation) and not issubclass(annotation, enum.Enum):
        return _field_problem(value)
    return None


def _field_problem(value: Any) -> str | None:
    """The first field of the ``attrs`` value ``value`` that does not hold its annotation."""
    cls = type(value)
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    for field in attrs.fields(cls):
        problem = _problem(getattr(value, field.name), _HINTS[cls][field.name], field.name)
        if problem:
            return f"{cls.__name__}.{problem}"
    return None


def _random_matches() -> list[State]:
    """The starts of random matches: every player count, every profile, some dealers."""
    rng = random.Random(2026)
    starts = []
    for rules in PROFILES.values():
        for players in rules.players:
            starts.append(new_match(players, dealer=rng.randrange(players), rules=rules))
    return starts


def _match_id(start: State) -> str:
    return f"{start.rules.name}-{start.players}p-dealer{start.dealer}"


@pytest.mark.parametrize("start", _random_matches(), ids=_match_id)
def test_the_core_calls_return_their_annotated_types_along_a_random_match(start: State) -> None:
    rng = random.Random(start.players * 100 + start.dealer)
    state = start
    moves: list[Move] = []
    while not state.is_over and len(moves) < 400:
        if state.is_chance:
            move: Move = random_shuffle(rng)
            assert type(move) is Shuffle
        else:
            legal = legal_moves(state)  # annotated tuple[Move, ...]
            assert type(legal) is tuple and legal
            assert all(type(m) in (Cut, Play) for m in legal)
            move = rng.choice(legal)
        after, outcome = apply_with_outcome(state, move)
        assert type(after) is State and type(outcome) is MoveOutcome
        assert _field_problem(outcome) is None
        state = apply(state, move)
        assert type(state) is State and state == after
        assert _field_problem(state) is None
        for player in range(state.players):
            view = observe(state, player)
            assert type(view) is PlayerView
            assert _field_problem(view) is None
        moves.append(move)
    record = Record.from_moves(start, moves)
    assert type(record) is Record and _field_problem(record) is None


@pytest.mark.parametrize("start", _random_matches()[::3], ids=_match_id)
def test_values_read_back_from_json_and_pickles_hold_their_annotated_types(
    start: State,
) -> None:
    """Untyped data is where a list could pass for a tuple: ``from_dict``/``from_json``
    (and pickles) give back values whose every field holds its annotated type."""
    rng = random.Random(7)
    state = start
    moves: list[Move] = []
    for _ in range(60):
        if state.is_over:
            break
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state = apply(state, move)
        moves.append(move)
        view = observe(state, 0)
        for back in (
            State.from_dict(json.loads(json.dumps(state.to_dict()))),
            pickle.loads(pickle.dumps(state)),
        ):
            assert type(back) is State and back == state
            assert _field_problem(back) is None
        for view_back in (
            PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))),
            pickle.loads(pickle.dumps(view)),
        ):
            assert type(view_back) is PlayerView and view_back == view
            assert _field_problem(view_back) is None
    record = Record.from_moves(start, moves, tags={"event": "audit"})
    for record_back in (Record.from_json(record.to_json()), pickle.loads(pickle.dumps(record))):
        assert type(record_back) is Record and record_back == record
        assert _field_problem(record_back) is None


def test_the_checker_of_this_file_sees_a_bool_a_list_and_a_wrong_item() -> None:
    """The checker above is strict where typeguard is lax (a bool is an int to it)."""
    state: Any = new_match()
    assert _field_problem(state) is None
    assert _field_problem(attrs.evolve(state, dealer=True)) == "State.dealer: bool, not int"
    assert _field_problem(attrs.evolve(state, scores=[0, 0])) == "State.scores: list, not tuple"
    assert _field_problem(attrs.evolve(state, scores=(0, 0.0))) == (
        "State.scores[1]: float, not int"
    )


def test_piece_of_an_adapters_observation_is_a_list_of_floats() -> None:
    gymnasium_adapter = pytest.importorskip("chkobba.gymnasium")
    observation: Any = gymnasium_adapter.ChkobbaEnv().reset(seed=3)[0]
    assert len(observation) == OBSERVATION_SIZE
    sliced = piece(observation, "phase")
    assert type(sliced) is list
    assert all(isinstance(entry, float) for entry in sliced), [type(e) for e in sliced]
    assert json.loads(json.dumps(sliced)) == sliced


@pytest.mark.parametrize("entry", ["1.0", None, b"1", (1.0,)])
def test_piece_refuses_a_vector_whose_piece_holds_no_number(entry: object) -> None:
    vector: list[Any] = [0.0] * OBSERVATION_SIZE
    start = piece(range(OBSERVATION_SIZE), "dealer")[0]
    vector[int(start)] = entry
    with pytest.raises(ChkobbaError, match=r"^piece: the dealer piece holds .*, not a number$"):
        piece(vector, "dealer")
    assert piece(vector, "hand") == [0.0] * 40


def test_piece_refuses_numpy_text_complex_numbers_and_rows() -> None:
    np = pytest.importorskip("numpy")
    for vector, shown in [
        (np.array(["1"] * OBSERVATION_SIZE), "'1'"),
        (np.ones(OBSERVATION_SIZE, complex), "(1+0j)"),
        (np.ones((OBSERVATION_SIZE, 2)), "[1.0, 1.0]"),
        # numpy's scalars in a list: their text and complex numbers have a __float__
        ([np.str_("1")] * OBSERVATION_SIZE, "'1'"),
        # (np.complex64(1+0j), or (1+0j) before numpy 2)
        ([np.complex64(1)] * OBSERVATION_SIZE, repr(np.complex64(1))),
    ]:
        with pytest.raises(ChkobbaError) as caught:
            piece(vector, "dealer")
        assert str(caught.value) == f"piece: the dealer piece holds {shown}, not a number"


class _Lazy:
    """A vector whose slices are generators: the protocol asks only for an iterable."""

    def __len__(self) -> int:
        return OBSERVATION_SIZE

    def __getitem__(self, index: slice) -> Iterator[float]:
        return (float(i) for i in range(OBSERVATION_SIZE)[index])


def test_piece_refuses_a_number_too_large_for_a_float_and_takes_ints() -> None:
    # OverflowError escaped before; ints, numpy's scalars in a list and ranges take the
    # fast path once their type is known.
    with pytest.raises(ChkobbaError, match=r"^piece: the dealer piece holds an integer of "):
        piece([10**400] * OBSERVATION_SIZE, "dealer")
    assert piece([1] * OBSERVATION_SIZE, "dealer") == [1.0] * 4
    assert all(type(entry) is float for entry in piece([True] * OBSERVATION_SIZE, "dealer"))


def test_piece_takes_numbers_of_other_types_in_a_list() -> None:
    # numpy's scalars (list(array)), fractions and decimals: real numbers, made floats.
    np = pytest.importorskip("numpy")
    for entry in (np.float32(0.5), np.int64(2), Fraction(1, 2), Decimal("0.5")):
        taken = piece([entry] * OBSERVATION_SIZE, "dealer")
        assert taken == [float(entry)] * 4 and all(type(e) is float for e in taken)


def test_piece_reads_a_vector_whose_slices_are_only_iterable() -> None:
    assert piece(_Lazy(), "dealer") == piece(range(OBSERVATION_SIZE), "dealer")
    assert piece(_Lazy(), "dealer") == [250.0, 251.0, 252.0, 253.0]


def test_piece_takes_a_boolean_mask_as_numbers() -> None:
    np = pytest.importorskip("numpy")
    mask = np.zeros(OBSERVATION_SIZE, dtype=bool)
    mask[0] = True  # the A of spades in hand
    assert piece(mask, "hand") == [1.0] + [0.0] * 39
    assert all(type(entry) is float for entry in piece(mask, "hand"))
