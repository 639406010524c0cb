"""Perft: the game tree of fixed positions counted move by move, a check of rules and speed.

Usage::

    python benchmarks/perft.py [--position NAME ...] [--depth D] [--divide]
    python benchmarks/perft.py --only NAME --depth D

Like a chess engine's *perft* (performance test, move path enumeration), this walks
every sequence of legal moves from a position to a given depth through the step API
(``legal_moves`` and ``apply``) and counts what it meets at the last ply. Two engines
that agree on these counts agree on every legal move of every position of the tree, and
on what each move leads to; ``tests/test_perft.py`` checks them against the
straightforward reference rules of ``tests/reference.py`` and against the figures
published in ``docs/perft.md``, which defines the positions (read from there by
:func:`positions`).

Per depth it prints, for the moves of the last ply: the leaves (the moves themselves),
how many capture, how many make a chkobba, how many end the deal, and the deal points
those deal-ending moves score (per side, summed over the leaves); then the nodes walked
(every ``apply``, at every ply) and the nodes per second. ``--divide`` splits the
deepest count by the first move, to find where two implementations part. A deal ends
in phase ``SHUFFLE`` (or ``OVER``), where the next move is a shuffle, a chance move that
perft does not enumerate: a branch stops there, and contributes no leaves below it.

For a figure that does not drift with the machine's load, count instructions:
``--only NAME --depth D`` walks that tree (``legal_moves`` and ``apply`` at every node,
nothing counted) and prints nothing, and under
``PYTHONHASHSEED=0 valgrind --tool=callgrind`` the difference between depth D and
depth 0, divided by the nodes, is the instructions per node (see ``docs/perft.md``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import attrs
from _args import at_least_zero

from chkobba import PROFILES, Move, State, apply, legal_moves, new_match, parse_move

#: Where the positions and their published counts live.
PAGE = Path(__file__).resolve().parent.parent / "docs" / "perft.md"

#: Between the sides' points in a row of the page (as the docs write score pairs).
_DASH = "\N{EN DASH}"

Legal = Callable[[State], Sequence[Move]]
Step = Callable[[State, Move], State]


class Tally(NamedTuple):
    """What perft counts at the last ply: moves (leaves), captures, chkobbas, moves that
    end the deal, and the deal points of each side that those moves score."""

    leaves: int
    captures: int
    chkobbas: int
    deals: int
    points: tuple[int, ...]

    def plus(self, other: Tally) -> Tally:
        """Both tallies together."""
        return Tally(
            self.leaves + other.leaves,
            self.captures + other.captures,
            self.chkobbas + other.chkobbas,
            self.deals + other.deals,
            tuple(map(int.__add__, self.points, other.points)),
        )


def perft(state: State, depth: int, legal: Legal = legal_moves, step: Step = apply) -> Tally:
    """The :class:`Tally` of every move sequence of ``depth`` moves from ``state``.

    ``legal`` and ``step`` default to the step API; a test passes another
    implementation's to compare the two.
    """
    if depth == 0:
        return Tally(1, 0, 0, 0, (0,) * len(state.captured))
    return tallies(state, depth, legal, step)[-1]


def tallies(
    state: State, depth: int, legal: Legal = legal_moves, step: Step = apply
) -> list[Tally]:
    """:func:`perft` at every depth from 1 to ``depth``, in one walk of the tree."""
    found = [Tally(0, 0, 0, 0, (0,) * len(state.captured))] * depth

    def walk(state: State, ply: int) -> None:
        for move in legal(state):
            child = step(state, move)
            found[ply] = found[ply].plus(_leaf(state, move, child))
            if ply + 1 < depth:
                walk(child, ply + 1)

    walk(state, 0)
    return found


def _leaf(state: State, move: Move, child: State) -> Tally:
    """What one move of the last ply counts for."""
    captures = int(bool(getattr(move, "capture", ())))
    # A deal's last state keeps its chkobbas (a new deal's shuffle resets them).
    chkobbas = sum(child.chkobbas) - sum(state.chkobbas)
    ended = len(child.deal_scores) > len(state.deal_scores)
    points = child.deal_scores[-1].points if ended else (0,) * len(state.captured)
    return Tally(1, captures, chkobbas, int(ended), points)


def divide(
    state: State, depth: int, legal: Legal = legal_moves, step: Step = apply
) -> dict[str, Tally]:
    """:func:`perft` of ``depth`` split by the first move (named by its text)."""
    return {
        str(move): perft(step(state, move), depth - 1, legal, step)
        if depth > 1
        else _leaf(state, move, step(state, move))
        for move in legal(state)
    }


def nodes(state: State, depth: int) -> int:
    """Every ``apply`` a perft of ``depth`` makes (the moves of every ply)."""
    if depth == 0:
        return 0
    return sum(1 + nodes(apply(state, move), depth - 1) for move in legal_moves(state))


class Position(NamedTuple):
    """A position of ``docs/perft.md``: its name, the state its moves lead to, and its
    published tallies by depth."""

    name: str
    state: State
    published: dict[int, Tally]


def positions(page: Path = PAGE, names: Sequence[str] | None = None) -> list[Position]:
    """The positions defined in ``page`` (only those ``names`` when given), with their
    published tallies.

    Each is a ``### `name``` heading, then a ``text`` code block whose first line sets
    the profile (``rules NAME [FIELD=VALUE ...]``), the players and the dealer, and whose
    other lines are the moves from :func:`~chkobba.new_match`, and then a table of
    tallies by depth. Only the positions asked for are played, so an older chkobba
    (``PYTHONPATH=``) can walk those its rules support.
    """
    found = []
    for name, block, rows in _sections(page.read_text(encoding="utf-8")):
        if names is None or name in names:
            published = {int(row[0]): _tally(row[1:]) for row in rows}
            found.append(Position(name, _played(block), published))
    if not found:
        raise ValueError(f"{page} defines no position")
    return found


def names(page: Path = PAGE) -> list[str]:
    """The names of the positions ``page`` defines, in its order."""
    return [name for name, _, _ in _sections(page.read_text(encoding="utf-8"))]


def _sections(text: str) -> Iterator[tuple[str, list[str], list[list[str]]]]:
    """Per position heading: its name, its code block's lines and its table's rows."""
    for section in text.split("\n### ")[1:]:
        heading, _, body = section.partition("\n")
        name = heading.strip().strip("`")
        block = body.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
        rows = [
            [cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in body.splitlines()
            if line.startswith("|") and line[1:].strip()[:1].isdigit()
        ]
        yield name, block, rows


def _played(block: list[str]) -> State:
    """The state that the code block's profile, seating and moves lead to."""
    setting = dict(part.strip().split(" ", 1) for part in block[0].split(";"))
    name, *changes = setting["rules"].split()
    fields = {}
    for change in changes:
        field, value = change.split("=")
        fields[field] = {"true": True, "false": False}.get(value, value)
    rules = attrs.evolve(PROFILES[name], **fields)
    state = new_match(int(setting["players"]), dealer=int(setting["dealer"]), rules=rules)
    for text in block[1:]:
        state = apply(state, parse_move(text, state))
    return state


def _tally(cells: list[str]) -> Tally:
    """A table row's cells after the depth: leaves, captures, chkobbas, deals, points."""
    numbers = [int(cell.replace(",", "")) for cell in cells[:4]]
    points = tuple(int(side.replace(",", "")) for side in cells[4].split(_DASH))
    return Tally(*numbers, points)


def _row(depth: int, tally: Tally) -> str:
    points = f" {_DASH} ".join(f"{side:,}" for side in tally.points)
    counts = " | ".join(f"{n:,}" for n in tally[:4])
    return f"| {depth} | {counts} | {points} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--position", nargs="*", help="names from docs/perft.md (default: all)")
    parser.add_argument(
        "--depth", type=at_least_zero, help="the deepest count (default: the page's)"
    )
    parser.add_argument("--divide", action="store_true", help="split the deepest by first move")
    parser.add_argument("--only", metavar="NAME", help="walk one position silently (callgrind)")
    args = parser.parse_args()
    if args.depth == 0 and not args.only:  # 0 is the base callgrind subtracts, with --only
        parser.error("argument --depth: depth 0 is a base to count with --only, not a count")
    known = names()
    chosen = [args.only] if args.only else args.position or known
    unknown = [name for name in chosen if name not in known]
    if unknown:
        parser.error(f"no position {unknown[0]!r} in {PAGE.name}; it has {', '.join(known)}")
    for position in positions(names=chosen):
        deepest = args.depth if args.depth is not None else max(position.published)
        if args.only:
            nodes(position.state, deepest)
            return
        print(f"{position.name}: depth | leaves | captures | chkobbas | deals | points")
        for depth, tally in enumerate(tallies(position.state, deepest), 1):
            print(_row(depth, tally))
        start = time.perf_counter()
        walked = nodes(position.state, deepest)
        seconds = time.perf_counter() - start
        print(f"  {walked:,} nodes to depth {deepest}: {walked / seconds:,.0f} nodes/s")
        if args.divide:
            for move, tally in divide(position.state, deepest).items():
                print(f"  {move}: {tally.leaves:,}")


if __name__ == "__main__":
    main()
