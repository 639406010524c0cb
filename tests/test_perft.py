"""Perft: the published game-tree counts of docs/perft.md, and two implementations that agree.

The positions and their counts are defined once, in ``docs/perft.md``, and read from
there by ``benchmarks/perft.py``: the page cannot drift from what the engine does.
Every count is checked twice, through the step API and through the straightforward
reference rules of ``tests/reference.py``, which share no capture or successor code
with the library (the deal is scored by ``score_deal``, which ``tests/test_scoring.py``
and ``tests/test_profile_scoring.py`` check against examples worked by hand).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings

from chkobba import Move, Phase, Play, State, apply, legal_moves
from chkobba.actions import Position, legal_actions, step
from tests.reference import reference_play, reference_plays
from tests.strategies import examples, profile_states

_SCRIPT = Path(__file__).parent.parent / "benchmarks" / "perft.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("perft_benchmark", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # attrs resolves the module of its classes
    # Run as a script, it imports its neighbour _args: so must the test.
    sys.path.insert(0, str(_SCRIPT.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(_SCRIPT.parent))
    return module


perft = _load()

#: The names of the positions docs/perft.md defines, in its order: written out so that
#: collecting this module plays nothing (the positions are played by the tests, through
#: :func:`positions`); a test checks they are the page's.
NAMES = (
    "deal-2p",
    "deal-4p",
    "deal-3p-cardrulesplus",
    "crowded-table-2p",
    "refill-2p",
    "last-round-4p",
    "last-round-3p-cardrulesplus",
    "house-last-round",
)


@functools.cache
def positions() -> tuple[Any, ...]:
    """The page's positions, played once, on first use."""
    return tuple(perft.positions())


def position_named(name: str) -> Any:
    return next(p for p in positions() if p.name == name)


def reference_legal(state: State) -> Sequence[Move]:
    """The reference rules' plays (cuts have no rule of their own to cross-check)."""
    return reference_plays(state) if state.phase is Phase.PLAY else legal_moves(state)


def reference_step(state: State, move: Move) -> State:
    return reference_play(state, move) if isinstance(move, Play) else apply(state, move)


def test_the_page_defines_every_kind_of_position() -> None:
    """Two, three and four players, both named profiles and a house one, deal starts,
    a refill and deal ends are all covered."""
    assert list(NAMES) == [position.name for position in positions()] == perft.names()
    assert len(positions()) == 8
    players = {position.state.players for position in positions()}
    profiles = {position.state.rules.name for position in positions()}
    rules = {position.state.rules for position in positions()}
    assert players == {2, 3, 4}
    assert profiles == {"tunisian", "cardrulesplus"}
    assert len(rules) == 3  # the house profile is a changed "tunisian"
    assert any(position.state.phase is Phase.CUT for position in positions())
    assert sum(any(t.deals for t in p.published.values()) for p in positions()) == 4


@pytest.mark.parametrize("name", NAMES)
def test_the_step_api_gives_the_published_counts(name: str) -> None:
    position = position_named(name)
    counted = perft.tallies(position.state, max(position.published))
    for depth, published in position.published.items():
        assert counted[depth - 1] == published, f"depth {depth}"


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_rules_give_the_published_counts(name: str) -> None:
    position = position_named(name)
    deepest = max(position.published)
    counted = perft.tallies(position.state, deepest, reference_legal, reference_step)
    for depth, published in position.published.items():
        assert counted[depth - 1] == published, f"depth {depth}"


def _action_leaves(position: Position, depth: int) -> int:
    """Perft's leaves through the adapters' integer actions: a card with several capture
    options takes two actions (the card, then the option) and is one move."""
    if depth == 0:
        return 1
    total = 0
    for action in legal_actions(position):
        child = step(position, action)
        total += _action_leaves(child, depth if child.pending is not None else depth - 1)
    return total


@pytest.mark.parametrize("name", NAMES)
def test_the_action_encoding_gives_the_published_leaves(name: str) -> None:
    """The encoding of the game-AI adapters names every legal move once, in every
    position of the trees (to the deepest depth of at most 3,000 leaves)."""
    position = position_named(name)
    small = [d for d, tally in position.published.items() if tally.leaves <= 3000]
    depth = max(small)
    assert _action_leaves(Position(position.state), depth) == position.published[depth].leaves


@settings(max_examples=examples(60), deadline=None)
@given(profile_states(phases=(Phase.PLAY, Phase.CUT)))
def test_step_api_and_reference_agree_on_random_trees(state: State) -> None:
    """Random positions of random profiles: the same tallies three plies deep."""
    assert perft.tallies(state, 3) == perft.tallies(state, 3, reference_legal, reference_step)


def test_perft_counts_what_it_says() -> None:
    """Depth 0 is the position itself; divide splits a depth by first move; nodes
    counts every move of every ply."""
    position = position_named("refill-2p")
    state, published = position.state, position.published
    assert perft.perft(state, 0).leaves == 1
    split = perft.divide(state, 4)
    assert set(split) == {str(move) for move in legal_moves(state)}
    total = perft.Tally(0, 0, 0, 0, (0, 0))
    for tally in split.values():
        total = total.plus(tally)
    assert total == published[4] == perft.perft(state, 4)
    assert perft.nodes(state, 4) == sum(published[d].leaves for d in range(1, 5))


def test_a_deal_end_is_a_leaf_with_its_points() -> None:
    """Past the deal's last play nothing is enumerated (the next move is a shuffle),
    and the last ply's points are the deal scores of the leaves."""
    position = position_named("house-last-round")
    last = max(position.published)
    assert perft.perft(position.state, last + 1).leaves == 0
    ends: list[State] = []

    def collect(state: State, depth: int) -> None:
        for move in legal_moves(state):
            child = apply(state, move)
            if depth == 1:
                ends.append(child)
            else:
                collect(child, depth - 1)

    collect(position.state, last)
    assert all(end.phase in (Phase.SHUFFLE, Phase.OVER) for end in ends)
    points = [sum(end.deal_scores[-1].points[side] for end in ends) for side in (0, 1)]
    assert position.published[last].points == tuple(points)
    assert position.published[last].deals == len(ends)


def test_the_script_names_an_unknown_position(capsys: pytest.CaptureFixture[str]) -> None:
    argv = sys.argv
    sys.argv = ["perft.py", "--position", "nowhere"]
    try:
        with pytest.raises(SystemExit):
            perft.main()
    finally:
        sys.argv = argv
    assert "no position 'nowhere' in perft.md; it has deal-2p" in capsys.readouterr().err
