"""``chkobba simulate``: a tournament between bots, as a table or as JSON.

``--scheduler ADDRESS`` runs the matches on a Dask cluster (the ``chkobba[dask]`` extra)
with the same results as on one core; ``--records FILE`` writes every match's record,
one JSON object per line, in game order; a file that exists is only replaced with
``--force`` (a tournament must not silently replace a saved game or yesterday's data).
``--records -`` writes them to standard output instead, for a pipe, and the table (or
the JSON) then goes to standard error.

While it runs, SIGTERM stops it like Ctrl-C: the matches not yet started are cancelled,
the worker processes are stopped (the matches they run with them), the records file
keeps whole lines, and then the process ends by SIGTERM as it would have (exit status
143 in a shell).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from types import FrameType
from typing import IO, Any

from chkobba._describe import one_line
from chkobba.arena import MATCH_LIMIT, MatchSummary, TournamentResult, tournament
from chkobba.bots.registry import BotSpec
from chkobba.cli.analyse import UsageError
from chkobba.cli.narrate import counted
from chkobba.cli.output import Output
from chkobba.cli.replay import CommandError
from chkobba.errors import shown, shown_path
from chkobba.rules import TUNISIAN, Rules

__all__ = ["STANDARD_OUTPUT", "run_simulate"]

#: The ``--records`` name that means standard output.
STANDARD_OUTPUT = "-"


def run_simulate(
    out: Output,
    err: Output,
    *,
    specs: list[BotSpec],
    games: int,
    players: int,
    workers: int,
    seed: int,
    as_json: bool,
    scheduler: str | None = None,
    records: str | None = None,
    force: bool = False,
    rules: Rules = TUNISIAN,
) -> int:
    """Run the tournament; progress goes to ``err`` (a bar only on a terminal). SIGTERM
    while it runs shuts it down as Ctrl-C does, then ends the process by SIGTERM."""
    _check_schedule(games, len(specs))
    if records == STANDARD_OUTPUT:  # the records alone on standard output, for a pipe
        out, records_stream = err, out.stream
    else:
        records_stream = None
    try:
        with _terminate_as_interrupt():
            result = _run_tournament(
                err,
                specs,
                games=games,
                players=players,
                workers=workers,
                seed=seed,
                scheduler=scheduler,
                records=records if records_stream is None else records_stream,
                force=force,
                rules=rules,
            )
    except _Terminated:
        return _end_by_sigterm()
    # Said once the tournament is done (an error stays one line); not where the JSON goes
    # to standard error, which must then hold the JSON alone.
    if games % 2 and not (as_json and records_stream is not None):
        _note_unbalanced_seats(err, games, players)
    if as_json:
        out.line(json.dumps(result.to_dict(), indent=2))
    else:
        _print_table(out, result)
    return 0


def _check_schedule(games: int, bots: int) -> None:
    """All the matches within the tournament's limit, or a usage error naming --games
    (as one --games too large alone is), before anything is opened or connected."""
    pairs = bots * (bots - 1) // 2
    if games * pairs > MATCH_LIMIT:
        raise UsageError(
            f"argument --games: {games:,} games for each of {pairs:,} pairs of bots make "
            f"{games * pairs:,} matches, more than a tournament plays ({MATCH_LIMIT:,}; "
            "play several tournaments)"
        )


def _run_tournament(
    err: Output,
    specs: list[BotSpec],
    *,
    games: int,
    players: int,
    workers: int,
    seed: int,
    scheduler: str | None,
    records: str | IO[str] | None,
    force: bool,
    rules: Rules,
) -> TournamentResult:
    """The tournament, inside what it writes to or runs on (the Dask client, the records
    file, the progress bar), all closed when it ends, however it ends."""
    total = games * len(specs) * (len(specs) - 1) // 2
    with ExitStack() as stack:
        # The file first: a refused one must not wait for a cluster to connect (and the
        # cluster closes before the file, after its last match is written).
        if records is None:
            on_match = None
        elif isinstance(records, str):
            stream, replacing = stack.enter_context(_open(records, force=force))
            on_match = _writer(stream, replacing, shown_path(records))
        else:  # standard output, not closed here
            on_match = _utf8_writer(records)
        executor = None if scheduler is None else stack.enter_context(_dask(scheduler))
        advance = stack.enter_context(err.progress(total, "playing matches"))
        return tournament(
            specs,
            games=games,
            seed=seed,
            players=players,
            workers=workers,
            progress=advance,
            executor=executor,
            records=False if records is None else "stream",  # written, then let go
            on_match=on_match,
            rules=rules,
        )


def _end_by_sigterm() -> int:
    """Once everything is shut down and the previous handler is back, let it have the
    signal (the default one ends the process by SIGTERM, status 143 in a shell)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    signal.raise_signal(signal.SIGTERM)
    return 128 + signal.SIGTERM  # a handler that let the process live


def _note_unbalanced_seats(err: Output, games: int, players: int) -> None:
    # Matches come in pairs with the seats swapped: only an even count balances them. At
    # 3 players the first bot of a match holds two of the three seats (about two matches
    # in three won between equal bots): that, more than the deal, weighs on the results.
    if players == 3:
        err.line(
            f"note: with an odd --games ({games}) the first bot of each pair holds two of "
            "the three seats, and deals first, in one match more than the other (between "
            "equal bots, two seats win about two matches in three): an even number "
            "balances them"
        )
        return
    err.line(
        f"note: with an odd --games ({games}) the first bot of each pair holds seat 0, "
        "and deals first, in one match more than the other: an even number balances them"
    )


def _print_table(out: Output, result: TournamentResult) -> None:
    """The results as a table under a heading that says how they were played."""
    out.line(
        f"{counted(len(result.matches), 'match')}, {result.players} players"
        f"{_profile(out, result.rules)}, seed {result.seed} (win rates with 95% Wilson intervals)",
        style="bold",
    )
    rows = [
        [
            bot.name,
            str(bot.games),
            str(bot.wins),
            f"{bot.win_rate:.1%}",
            f"{bot.ci_low:.1%} - {bot.ci_high:.1%}",
            f"{bot.points_per_deal:.2f}",
        ]
        for bot in result.bots
    ]
    out.table(["bot", "games", "wins", "win rate", "95% CI", "points/deal"], rows)
    if len(result.bots) >= 3:  # with two bots the table above already says who beats whom
        _print_head_to_head(out, result)
        _print_ratings(out, result)


def _print_head_to_head(out: Output, result: TournamentResult) -> None:
    """A cross table: each row's wins against each column, of the matches between them
    (a bot's overall win rate mixes its opponents; this keeps them apart)."""
    names = [bot.name for bot in result.bots]
    cells = {(line.bot, line.opponent): line for line in result.head_to_head()}
    rows = [
        [name]
        + [
            "-"
            if name == opponent
            else f"{cells[name, opponent].wins}/{cells[name, opponent].games}"
            f" ({cells[name, opponent].win_rate:.0%})"
            for opponent in names
        ]
        for name in names
    ]
    out.line()
    out.line("head to head: the row's wins against the column, of their matches", style="bold")
    out.table(["bot", *names], rows)


def _print_ratings(out: Output, result: TournamentResult) -> None:
    """The Bradley-Terry ratings, strongest first, with their standard errors."""
    ratings = sorted(result.ratings().bots, key=lambda bot: -bot.rating)
    rows = [[bot.name, f"{round(bot.rating):+d}", f"{bot.std_error:.0f}"] for bot in ratings]
    out.line()
    out.line(
        "Bradley-Terry ratings on the Elo scale, mean 0 (prior: a virtual win and loss per bot)",
        style="bold",
    )
    out.table(["bot", "rating", "std error"], rows)


class _Terminated(BaseException):
    """SIGTERM, raised where the command is (a BaseException, like KeyboardInterrupt, so
    that no ``except Exception`` on the way swallows it)."""


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`_Terminated`, so the tournament
    cancels its matches and the blocks around it close (the worker pool, the records
    file); the previous handler is put back after. A second SIGTERM during that shutdown
    is let pass: the process ends by SIGTERM once everything is closed. Left alone off the
    main thread (only it may set handlers) and when SIGTERM is ignored or handled outside
    Python."""
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread() or previous in (
        signal.SIG_IGN,
        None,
    ):
        yield
        return

    shutting_down = False

    def terminate(signum: int, frame: FrameType | None) -> None:
        nonlocal shutting_down
        # Once: a second SIGTERM while the first shuts the tournament down must not break
        # off that shutdown (it would leave worker processes running).
        if not shutting_down:
            shutting_down = True
            raise _Terminated

    signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _profile(out: Output, rules: Rules) -> str:
    """How the heading names the rules: nothing for the default profile."""
    return "" if rules == TUNISIAN else f", {out.literal(rules.name)} rules to {rules.target}"


@contextmanager
def _open(path: str, *, force: bool) -> Iterator[tuple[IO[str], bool]]:
    """The records file, opened to write, and whether its old lines are still to go; one
    that exists is refused unless ``force``, and then emptied only as the first record is
    written. A run that fails before any match (a scheduler it cannot reach, say) leaves
    the file as it was: one it created is removed again, so that the same command can
    simply be run again, and one it was to replace keeps its lines."""
    try:
        stream, created, replacing = _created_or_opened(path, force)
    except FileExistsError:
        _refuse_an_unwritable_link(path)
        raise UsageError(
            f"argument --records: {shown_path(path)} exists: give --force to replace it, "
            "or another file name"
        ) from None
    except OSError as error:
        if os.path.islink(path):  # with --force: why its target cannot be written, if known
            _refuse_an_unwritable_link(path)
        raise CommandError(
            f"cannot write records to {shown_path(path)}: {error.strerror}"
        ) from None
    except ValueError:  # open() refuses a name with a NUL
        raise CommandError(
            f"cannot write records to {shown_path(path)}: a file name cannot hold a NUL character"
        ) from None
    try:
        _lock(stream, path)
    except CommandError:  # the file is another run's now, even one this run created
        stream.close()
        raise
    try:
        yield stream, replacing
    except BaseException:
        if created:
            _remove_if_unwritten(stream, path)
        # A write that failed (a full disk) left its bytes in the buffer: closing would
        # fail on them again, and that error would hide the one that names the file.
        with contextlib.suppress(OSError):
            stream.close()
        raise
    stream.close()


def _refuse_an_unwritable_link(path: str) -> None:
    """A symbolic link exists as a name, and so asks for ``--force``; one that cannot be
    followed to a file it could write (it leads to itself, through a file, into a folder
    that does not exist or that this user cannot write to) is refused with the reason,
    rather than ask for ``--force``, which would then fail. A link to a file still to
    be made in a folder it can write to passes: ``--force`` writes through it."""
    try:
        os.stat(path)
    except OSError as error:
        folder = os.path.dirname(os.path.realpath(path))
        reason = error.strerror or os.strerror(error.errno or 0)
        if error.errno == errno.ENOENT:
            if not os.path.isdir(folder):
                reason += f" (a symbolic link into {shown_path(folder)}, which is no folder)"
            elif not os.access(folder, os.W_OK):
                reason = (
                    f"{os.strerror(errno.EACCES)} (a symbolic link into {shown_path(folder)},"
                    " which this user cannot write to)"
                )
            else:
                return
        raise CommandError(f"cannot write records to {shown_path(path)}: {reason}") from None


def _lock(stream: IO[str], path: str) -> None:
    """Hold the records file for this run alone (an advisory lock, where the system has
    them): a second run given the same file with ``--force`` is refused, where both
    wrote to it and the file mixed their matches. A device or a pipe is not locked.

    A POSIX record lock (``lockf``), not ``flock``: a job wrapped as ``flock FILE
    chkobba simulate ... --records FILE`` (cron's way to keep runs apart) holds a
    ``flock`` on the file itself, which must not read as another run. Such a lock is
    the process's: it keeps other processes out, not another thread of this one."""
    try:
        import fcntl  # not on Windows: no lock there
    except ImportError:
        return
    if not os.path.isfile(path):
        return
    try:
        fcntl.lockf(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EAGAIN):  # POSIX allows either
            raise CommandError(
                f"cannot write records to {shown_path(path)}: another run is writing to it"
            ) from None
        # Otherwise a file system without locks (some network ones): write as before.


def _created_or_opened(path: str, force: bool) -> tuple[IO[str], bool, bool]:
    """The stream, whether this run created the file (``x`` succeeded), and whether it
    replaces a file's lines (opened to append, emptied at the first record): a file that
    another process makes in the meantime is opened as ``--force`` asks, never taken for
    this run's own."""
    mode = _mode(path, force)
    if mode == "w":
        try:
            return open(path, "x", encoding="utf-8"), True, False
        except FileExistsError:
            pass
        if os.path.isfile(path):  # its lines stay until this run has one to write
            return open(path, "a", encoding="utf-8"), False, True
    return open(path, mode, encoding="utf-8"), mode == "x", False


def _remove_if_unwritten(stream: IO[str], path: str) -> None:
    """Remove the file this run created at ``path`` if nothing was written to it, and if
    ``path`` is still that file (another process may have put its own there)."""
    with contextlib.suppress(OSError, ValueError):  # never hide the run's own failure
        stream.flush()
        ours = os.fstat(stream.fileno())
        there = os.stat(path)
        if ours.st_size == 0 and (ours.st_dev, ours.st_ino) == (there.st_dev, there.st_ino):
            stream.close()
            os.remove(path)


def _mode(path: str, force: bool) -> str:
    """``x`` (create, refusing a file that exists: no race between a check and the
    write) unless ``force``; a device or a pipe (``/dev/null``) holds nothing to lose and
    is written to, as the shell's noclobber does. A folder fails the open, as it should."""
    if force or (os.path.exists(path) and not os.path.isfile(path)):
        return "w"
    return "x"


def _writer(stream: IO[str], replacing: bool = False, name: str | None = None) -> Any:
    """What writes each match's record to ``stream``; ``replacing``: empty the file
    first, once there is a record to write; ``name``: the file's, quoted, for the error
    of a failed write (a full disk), which otherwise names no file."""
    emptied = not replacing

    def write(summary: MatchSummary) -> None:
        nonlocal emptied
        if summary.record is None:
            return
        try:
            if not emptied:
                stream.seek(0)
                stream.truncate()
                emptied = True
            stream.write(summary.record.to_json(compact=True) + "\n")
            stream.flush()  # a pipe's reader gets each match as it ends
        except OSError as error:
            if name is None:
                raise
            raise CommandError(
                f"cannot write records to {name}: {error.strerror or error}"
            ) from None

    return write


def _utf8_writer(stream: IO[str]) -> Any:
    """What writes each match's record to standard output as UTF-8, as a records file
    holds it, whatever the stream's own encoding (a locale of Latin-1 or ASCII): its
    bytes go to the stream's buffer, when it has one."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text stream alone (a test's StringIO): its text
        return _writer(stream)

    def write(summary: MatchSummary) -> None:
        if summary.record is not None:
            stream.flush()  # whatever the stream holds goes first
            buffer.write((summary.record.to_json(compact=True) + "\n").encode("utf-8"))
            buffer.flush()  # a pipe's reader gets each match as it ends

    return write


@contextmanager
def _dask(address: str) -> Iterator[Executor]:
    try:
        # Any: distributed is an optional extra (and only partly typed).
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise CommandError(
            "--scheduler needs Dask's distributed package: install chkobba[dask] (in a "
            "clone of chkobba: pip install -e '.[dask]')"
        ) from None
    with _connect(distributed, address) as client:
        yield client.get_executor()


#: How long ``--scheduler`` waits for the scheduler's answer.
CONNECT_SECONDS = 10


def _connect(distributed: Any, address: str) -> Any:
    """A client of the scheduler at ``address``, or a one-line :class:`CommandError`.

    Made in a thread of its own, given a second more than Dask's own timeout: a peer
    that answers but is no scheduler (an HTTP server) kept Dask waiting for good, and an
    address of another scheme (``tls://`` without its certificates, ``ucx://`` without
    its package) fails with errors of other types. A client made after the command gave
    up is closed at once; a thread that Dask never lets go (a peer that accepts and never
    answers) stays, with its sockets, as long as the process (docs/cli.md says so).
    """
    made: dict[str, Any] = {}
    lock = threading.Lock()  # the thread's result and the command's giving up, one at a time

    def connect() -> None:
        try:
            client = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s")
        except Exception as error:  # reported below, in the command's own words
            made["error"] = error
            return
        with lock:
            if "given up" not in made:
                made["client"] = client
                return
        # Too late: nobody else will use or close it (and nobody would hear its errors).
        with contextlib.suppress(Exception):
            client.close()

    thread = threading.Thread(target=connect, name="chkobba-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 1)  # Dask's own timeout, when it keeps it, comes first
    cannot = f"cannot reach the Dask scheduler at {shown(address, 200)}"  # '' shows too
    with lock:
        if "client" not in made and "error" not in made:
            made["given up"] = True
            raise CommandError(
                f"{cannot}: no answer in {CONNECT_SECONDS} s (is a Dask scheduler listening there?)"
            )
    if "error" in made:
        raise CommandError(f"{cannot}: {one_line(str(made['error']))}")
    return made["client"]
