"""Where the engine's work goes: Python bytecodes per play, function by function.

Usage::

    python benchmarks/bytecodes.py [--only step|rollout] [--deals N] [--warmup W]
                                   [--seed S] [--players P] [--rules NAME] [--lines] [--top K]

Plays ``--warmup W`` random deals of a workload of ``benchmarks/playouts.py`` to fill the
engine's caches, then ``--deals N`` more under ``sys.settrace`` with opcode events on,
and counts the bytecodes each function executed. The workload is the step API (the
default: ``apply(state, rng.choice(legal_moves(state)))``, and ``random_shuffle`` at
the chance node) or ``rollout`` (``chkobba.rollout`` of a fresh match, once a deal).
It prints the total per deal and per play (a deal's count over its 36 plays, as
``docs/performance.md`` divides), then the functions that ran most, per play, with
their share; ``--lines`` counts by source line instead.

Like callgrind's instruction counts, bytecode counts do not drift with the machine's
load, and they take seconds rather than minutes. They show where the interpreter spends
its steps, not what each step costs: a bytecode that builds a tuple or looks up a dict
costs far more than one that loads a local, so the two counts together say how much of
a change came from running less code and how much from cheaper code. Code that is not
Python bytecode (C functions such as ``random.getrandbits``, and the compiled modules of
the ``CHKOBBA_MYPYC=1`` build, which this script cannot see) counts nothing. With
``PYTHONPATH=`` another tree's ``src``, the same command counts that revision: from
commit 95844c0 on, the baseline docs/performance.md calls 0.1.0 (the 0.1.0 release itself,
3ecc727, lacks the rule profiles this script imports; ``rollout`` came later still).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from playouts import WORKLOADS, check_seating

from chkobba import PROFILES

#: Every deal has 36 plays whatever the seating (see benchmarks/playouts.py).
PLAYS_A_DEAL = 36


def count_bytecodes(
    workload: str, deals: int, warmup: int, seed: int, players: int, rules: str, by_line: bool
) -> collections.Counter[str]:
    """The bytecodes executed by each function (or line) over ``deals`` warm deals of
    the workload."""
    profile = PROFILES[rules]
    play = WORKLOADS[workload]
    play(warmup, seed + 1, players, profile)
    counts: collections.Counter[str] = collections.Counter()

    def where(frame: FrameType) -> str:
        code = frame.f_code
        name = f"{Path(code.co_filename).stem}.{getattr(code, 'co_qualname', code.co_name)}"
        if not by_line:
            return name
        # An instruction the compiler added without a line (exception cleanup) has none.
        line = frame.f_lineno
        return f"{name}:{'(no line)' if line is None else line}"

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            counts[where(frame)] += 1
        return tracer

    previous = sys.gettrace()  # a debugger's or coverage's, put back after
    # CPython 3.12.1 gives a process's first traced run no opcode events (a frame's
    # f_trace_opcodes takes effect from the next settrace on): a traced call of nothing
    # first, its count dropped, so that every version counts the workload whole.
    sys.settrace(tracer)
    try:
        _nothing()
    finally:
        sys.settrace(previous)
    counts.clear()
    sys.settrace(tracer)
    try:
        play(deals, seed, players, profile)
    finally:
        sys.settrace(previous)
    return counts


def _nothing() -> None:
    """What the tracer is primed on."""


def report(counts: collections.Counter[str], deals: int, top: int) -> list[str]:
    """The lines the script prints."""
    total = sum(counts.values())
    plays = deals * PLAYS_A_DEAL
    lines = [
        f"{deals} warm deals: {total / deals:,.0f} bytecodes a deal, {total / plays:,.1f} a play",
        f"{'per play':>9}  {'share':>6}  where",
    ]
    for name, count in counts.most_common(top):
        lines.append(f"{count / plays:9.1f}  {count / total:6.1%}  {name}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(WORKLOADS), default="step")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", choices=sorted(PROFILES), default="tunisian")
    parser.add_argument("--lines", action="store_true", help="count by source line")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    if args.deals < 1 or args.warmup < 0 or args.top < 1:
        parser.error("--deals and --top must be at least 1, --warmup at least 0")
    check_seating(parser, args)
    counts = count_bytecodes(
        args.only, args.deals, args.warmup, args.seed, args.players, args.rules, args.lines
    )
    print("\n".join(report(counts, args.deals, args.top)))


if __name__ == "__main__":
    main()
