"""The ``chkobba`` command: ``demo``, ``play``, ``simulate``, ``replay``, ``analyse`` and
``rules``.

Run ``chkobba --help`` (or ``python -m chkobba --help``) for the options; ``docs/cli.md``
has examples. Exit status: 0 on success, 2 for bad arguments, 1 for any other failure,
130 when interrupted (Ctrl-C), always with a one-line message and never a traceback.
The arguments are declared in :mod:`chkobba.cli.arguments`; here each command checks what
argparse cannot, then runs.

>>> from chkobba.cli import main
>>> main(["simulate", "--games", "2", "--bots", "greedy", "random", "--json"]) == 0
{
  "players": 2,
...
True
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor
from typing import TextIO

import attrs

from chkobba._describe import one_line
from chkobba.bots.ismcts import inference_refusal
from chkobba.bots.registry import BotSpec, make_bot
from chkobba.cli.analyse import UsageError, run_analyse
from chkobba.cli.arguments import PROGRAM as PROGRAM
from chkobba.cli.arguments import build_parser as build_parser
from chkobba.cli.arguments import read_profile, subcommand
from chkobba.cli.demo import run_demo
from chkobba.cli.output import Output, escaped, is_closed
from chkobba.cli.play import run_play
from chkobba.cli.replay import CommandError, run_replay
from chkobba.cli.rules import run_rules
from chkobba.cli.simulate import run_simulate
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import PROFILES, Rules

__all__ = ["main"]
# PROGRAM and build_parser are imported ``as`` themselves: they stay importable from
# here, where they were defined before (mypy --strict reads a plain import as private).

_PARTNERSHIP = 4  # players in a match of two partnerships


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status of the command it ran.

    Bad arguments, ``--help`` and ``--version`` end in :class:`SystemExit` instead, as
    argparse does (status 2 after the usage message on standard error, 0 after the help
    or the version): what the ``chkobba`` command exits with, in every case.

    >>> from chkobba.cli import main
    >>> main(["rules", "cardrulesplus"])
    {
      "name": "cardrulesplus",
      "capture_values": [1, 2, 3, 4, 5, 6, 7, 9, 8, 10],
      "target": 11,
    ...
    0

    A failure is one line on standard error (shown here on standard output) and status 1:

    >>> import contextlib, sys
    >>> with contextlib.redirect_stderr(sys.stdout):
    ...     main(["replay", "no-such-record.json"])
    chkobba replay: error: cannot read 'no-such-record.json': ...
    1
    """
    if is_closed(sys.stdout) or is_closed(sys.stderr):
        closed = "output" if is_closed(sys.stdout) else "error"
        _complain(f"standard {closed} is closed", PROGRAM)
        return 1
    parser = build_parser()
    args = parser.parse_args(argv)
    colour = False if args.no_colour else None
    out = Output(sys.stdout, colour=colour)
    err = Output(sys.stderr, colour=colour)
    # Every error names its command, as argparse's do: "chkobba replay: error: ...".
    name = f"{PROGRAM} {args.command}"
    try:
        return _RUNNERS[args.command](args, parser, out, err)
    except UsageError as error:
        subcommand(parser, args.command).error(str(error))
    except (CommandError, ChkobbaError) as error:
        _complain(str(error), name)
        return 1
    except KeyboardInterrupt:
        _complain("interrupted", name, prefix="")
        return 130
    except BrokenPipeError:
        return 0
    except UnicodeDecodeError as error:
        byte = error.object[error.start]
        _complain(f"standard input is not {error.encoding} text (byte 0x{byte:02x})", name)
        return 1
    except UnicodeEncodeError as error:
        wrong = shown(error.object[error.start : error.end])
        _complain(f"cannot write {wrong} in {error.encoding}", name)
        return 1
    except UnicodeError as error:  # a codec's own complaint (PYTHONIOENCODING=utf-16)
        _complain(f"standard input or output cannot be used: {error}", name)
        return 1
    except BrokenExecutor:  # a worker killed (the out-of-memory killer, a kill -9)
        _complain("a worker process stopped unexpectedly (killed? out of memory?)", name)
        return 1
    except MemoryError:
        _complain("out of memory", name)
        return 1
    except RuntimeError as error:  # a thread the machine refuses ("can't start new thread")
        if not _workers_cannot_start(error):
            raise  # a bug's, whatever note a match added: its traceback
        _complain(_cannot_start(error), name)
        return 1
    except OSError as error:
        if _workers_cannot_start(error):  # no semaphores, too few files or processes
            _complain(_cannot_start(error.strerror or error), name)
        else:
            _complain(f"input/output failed: {error.strerror or error}", name)
        return 1


def _cannot_start(reason: object) -> str:
    return f"worker processes cannot start: {reason} (--workers 1 plays without them)"


def _workers_cannot_start(error: BaseException) -> bool:
    """Whether the arena noted ``error`` as its worker processes failing to start."""
    notes = getattr(error, "__notes__", None)
    return isinstance(notes, list) and any(
        isinstance(note, str) and "worker processes cannot start" in note for note in notes
    )


def _complain(message: str, name: str, prefix: str = "error: ") -> None:
    """One line on standard error, if there is one to write to."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stderr.write(escaped(f"{name}: {prefix}{one_line(message)}\n", sys.stderr))
        sys.stderr.flush()


# --- the commands: what argparse cannot check, then the command's run_* function ----------

#: Runs the command of parsed arguments: ``(args, parser, out, err) -> exit status``.
_Runner = Callable[[argparse.Namespace, argparse.ArgumentParser, Output, Output], int]


def _demo_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    rules = _rules(args, parser)
    players = _players(args, parser, rules)
    specs = _seating(parser, args.bots or [BotSpec.parse("greedy")], players)
    _check_inference(parser, "demo", "--bots", specs, players)
    return run_demo(
        out, seed=args.seed, players=players, specs=specs, delay=args.delay, rules=rules
    )


def _play_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    rules = _rules(args, parser)
    players = _players(args, parser, rules)
    if args.partner is not None and players != _PARTNERSHIP:
        message = f"argument --partner: a {players}-player match has no partners"
        subcommand(parser, "play").error(f"{message}; --partner needs --players 4")
    _check_inference(parser, "play", "--opponent", [args.opponent], players)
    if args.partner is not None:
        _check_inference(parser, "play", "--partner", [args.partner], players)
    stdin = _moves_input()
    # A seed the person did not choose must stay secret until the end: it deals every
    # hidden card, and a small one is found from the first screen by trying them all.
    chosen = args.seed is not None
    seed = args.seed if chosen else secrets.randbits(63)
    return run_play(
        out,
        stdin,
        players=players,
        opponent=args.opponent,
        partner=args.partner,
        seed=seed,
        auto=args.auto,
        rules=rules,
        show_seed=chosen,
    )


def _moves_input() -> TextIO:
    """Standard input, where ``play`` reads the moves typed."""
    if is_closed(sys.stdin):
        raise CommandError("standard input is closed: play reads your moves from it")
    # A line that is not UTF-8 text is refused by name (typed again at a terminal; from a
    # pipe it ends the command), not a raw UnicodeDecodeError.
    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stdin.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]
    return sys.stdin


def _simulate_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    rules = _rules(args, parser)
    players = _players(args, parser, rules)
    if len(args.bots) < 2:
        subcommand(parser, "simulate").error("argument --bots: give at least two bots")
    _check_inference(parser, "simulate", "--bots", args.bots, players)
    return run_simulate(
        out,
        err,
        specs=args.bots,
        games=args.games,
        players=players,
        workers=args.workers,
        seed=args.seed,
        as_json=args.json,
        scheduler=args.scheduler,
        records=args.records,
        force=args.force,
        rules=rules,
    )


def _analyse_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    return run_analyse(
        out,
        args.file,
        seat=args.seat,
        bot=args.bot,
        seed=args.seed,
        flagged=args.worst,
        as_json=args.json,
        game=args.game,
        err=err,
    )


def _replay_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    return run_replay(
        out,
        args.file,
        boards=not args.no_boards,
        deal=args.deal,
        stdin=None if args.no_step else sys.stdin,
        game=args.game,
    )


def _rules_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    return run_rules(out, read_profile(parser, args.profile))


#: The runner of every command ``build_parser`` declares, by name.
_RUNNERS: dict[str, _Runner] = {
    "demo": _demo_from_args,
    "play": _play_from_args,
    "simulate": _simulate_from_args,
    "replay": _replay_from_args,
    "analyse": _analyse_from_args,
    "rules": _rules_from_args,
}


def _rules(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Rules:
    """The profile of ``--rules`` (a name or a file, read by the parser) and ``--target``."""
    rules: Rules = args.rules
    if args.target is None:
        return rules
    try:
        return attrs.evolve(rules, target=args.target)
    except ChkobbaError as error:  # the parser checks the range: a guard, should Rules change
        subcommand(parser, args.command).error(f"argument --target: {error}")


def _players(args: argparse.Namespace, parser: argparse.ArgumentParser, rules: Rules) -> int:
    """``--players``, checked against the profile; when it is not given, the fewest the
    profile seats (2 under both named ones), so a house profile of 3-player matches plays
    without being told its count again."""
    if args.players is None:
        return min(rules.players)
    players: int = args.players
    try:
        rules.sides(players)
    except ChkobbaError as error:
        seating = sorted(name for name, profile in PROFILES.items() if players in profile.players)
        fix = f"; for {players} players, use --rules {' or '.join(seating)}" if seating else ""
        subcommand(parser, args.command).error(f"argument --players: {error}{fix}")
    return players


def _check_inference(
    parser: argparse.ArgumentParser, command: str, option: str, specs: list[BotSpec], players: int
) -> None:
    """Refuse before the match a bot whose hand inference needs 2 players (its ``choose``
    would refuse at its first move)."""
    for spec in specs:
        refusal = inference_refusal(make_bot(spec), players)
        if refusal is not None:
            subcommand(parser, command).error(f"argument {option}: {spec}: {refusal}")


def _seating(parser: argparse.ArgumentParser, specs: list[BotSpec], players: int) -> list[BotSpec]:
    """The bot of every seat: one bot everywhere, one per seat, or at 4 players two
    partnerships (seats 0 and 2 get the first, 1 and 3 the second)."""
    if len(specs) == 1:
        return specs * players
    if players == 4 and len(specs) == 2:
        return specs * 2
    if len(specs) != players:
        counts = f"1 bot (for every seat) or {players} (one per seat)"
        if players == 4:
            counts = "1 bot (for every seat), 2 (one per partnership) or 4 (one per seat)"
        message = f"argument --bots: give {counts} at {players} players, not {len(specs)}"
        subcommand(parser, "demo").error(message)
    return specs
