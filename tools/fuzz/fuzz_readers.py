"""Coverage-guided fuzzing of every reader of outside input (see README.md here).

    python tools/fuzz/fuzz_readers.py TARGET --seconds 300
    python tools/fuzz/fuzz_readers.py TARGET --reproduce FILE...
    python tools/fuzz/fuzz_readers.py --list

Each target takes bytes, feeds them to one reader, and checks the library's promise: bad
input raises a :class:`chkobba.ChkobbaError` (the documented subclass where one is
promised) with a short message, never another exception, never a hang or a slow read;
and what a reader accepts is sound: it writes back to the same thing, and a state, view,
record or profile read from data plays on without a crash. Anything else is raised out
of the target, so the fuzzer saves the input as a crash.

The engine is atheris (libFuzzer, coverage-guided) with a JSON-structure-aware custom
mutator for the JSON readers; without atheris (``--engine mutate``, or when it is not
installed) a plain mutation loop over the same seeds and mutators runs instead.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

try:
    import atheris  # type: ignore[import-untyped]
except ImportError:  # the fallback engine needs none of it
    atheris = None

if atheris is not None:
    with atheris.instrument_imports(include=["chkobba"]):
        # Every module a target reaches, instrumented before anything else imports it.
        import chkobba
        import chkobba.actions
        import chkobba.bots.registry
        import chkobba.events
        import chkobba.records  # noqa: F401

import seeds  # noqa: E402
from mutators import JsonMutator, byte_mutation  # noqa: E402

from chkobba import (  # noqa: E402
    ChkobbaError,
    IllegalMoveError,
    NotationError,
    PlayerView,
    Record,
    RecordError,
    Rules,
    State,
    apply,
    card,
    cards,
    check_state,
    check_view,
    format_cards,
    is_legal,
    legal_moves,
    new_match,
    observe,
    parse_move,
    render,
    rollout,
)
from chkobba.actions import advance, describe, move_for, num_actions  # noqa: E402
from chkobba.bots.registry import BotSpec  # noqa: E402
from chkobba.events import MoveOutcome  # noqa: E402
from chkobba.records import read_record_lines  # noqa: E402

#: A message longer than this is not "short" (the library cuts at 4000; a fuzzed input
#: should never need even this much).
MESSAGE_LIMIT = 1000
#: One input taking longer than this is a finding (the longest seed takes well under).
SLOW_SECONDS = 3.0


class Finding(Exception):
    """A broken promise that is not an exception of the library (a slow read, a long
    message, a read that does not write back)."""


def refused(error: ChkobbaError, kinds: tuple[type[ChkobbaError], ...]) -> None:
    """Check a refusal: the promised kind, a short message that says something."""
    if not isinstance(error, kinds):
        raise Finding(f"{type(error).__name__} where {kinds} was promised: {error}") from error
    message = str(error)
    if not message.strip() or len(message) > MESSAGE_LIMIT:
        raise Finding(f"message of {len(message)} characters: {message[:200]!r}") from error


def same(first: object, second: object, what: str) -> None:
    if first != second:
        raise Finding(f"{what} does not read back: {first!r} != {second!r}")


def text_of(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


# --- the targets ---------------------------------------------------------------------


def t_card(data: bytes) -> None:
    text = text_of(data)
    try:
        found = card(text)
    except ChkobbaError as error:
        refused(error, (NotationError,))
    else:
        same(card(str(found)), found, "card")
    try:
        group = cards(text)
    except ChkobbaError as error:
        refused(error, (NotationError,))
    else:
        same(cards(format_cards(group)), tuple(sorted(group)), "cards")


def t_move(data: bytes) -> None:
    try:
        move = parse_move(text_of(data))
    except ChkobbaError as error:
        refused(error, (NotationError,))
    else:
        same(parse_move(str(move)), move, "move")


def t_move_in_state(data: bytes) -> None:
    """Byte 0 picks a state of the pool, byte 1 whether to judge from it (0) or from a
    seat's view; the rest is the move's text."""
    if len(data) < 2:
        return
    state = seeds.pool()[data[0]]
    where: State | PlayerView = state
    if data[1] % 5:
        where = observe(state, data[1] % state.players)
    before = where.to_dict()
    try:
        move = parse_move(text_of(data[2:]), where)
    except ChkobbaError as error:
        refused(error, (NotationError, IllegalMoveError))
    else:
        if not is_legal(state, move):
            raise Finding(f"parse_move returned {move}, not legal in the state")
        same(parse_move(str(move), where), move, "move in state")
    same(where.to_dict(), before, "the state after parse_move")


def _record_checks(record: Record, data: bytes) -> None:
    """What a record read without replaying it promises."""
    same(Record.from_json(record.to_json(), verify=False), record, "record")
    same(Record.from_json(record.to_json(compact=True), verify=False), record, "compact record")
    try:
        states = record.replay()
    except ChkobbaError as error:
        refused(error, (RecordError,))
        return
    same(len(states), len(record.moves) + 1, "replay length")
    record.deals()
    record.players_of_moves()
    same(Record.from_json(data), record, "verified record")


def t_record(data: bytes) -> None:
    try:
        record = Record.from_json(data, verify=False)
    except ChkobbaError as error:
        refused(error, (RecordError,))
        try:
            Record.from_json(data)  # verified: the same refusal, or the replay's
        except ChkobbaError as again:
            refused(again, (RecordError,))
        else:
            raise Finding("verify=True read a record that verify=False refused") from error
        return
    _record_checks(record, data)


def t_lines(data: bytes) -> None:
    for verify in (False, True):
        try:
            found = list(read_record_lines(io.BytesIO(data), "fuzz.jsonl", verify=verify))
        except ChkobbaError as error:
            refused(error, (RecordError,))
        else:
            for record in found:
                same(Record.from_json(record.to_json(compact=True), verify=False), record, "line")


def _loads(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return _NOT_JSON


_NOT_JSON = object()


class _Readable(Protocol):
    """What State, PlayerView, Rules and MoveOutcome have in common: a dict form."""

    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=_Readable)


def _read_back(value: Any, read: Callable[[Any], R], what: str) -> R | None:
    """``read(value)``, or ``None`` when it is refused as promised; what it reads must
    read back the same from its own JSON."""
    try:
        found = read(value)
    except ChkobbaError as error:
        refused(error, (ChkobbaError,))
        return None
    same(read(json.loads(json.dumps(found.to_dict()))), found, what)
    return found


def _plays_on(state: State) -> None:
    """A state read from data is one the engine can play on: check, move, observe."""
    check_state(state)
    render(state)
    for seat in range(state.players):
        check_view(observe(state, seat))
    if state.is_over:
        return
    rng = random.Random(len(state.stock))
    if state.is_chance:
        rollout(state, rng)
        return
    moves = legal_moves(state)
    if not moves:
        raise Finding("a state read from data where nobody can move")
    after = apply(state, rng.choice(moves))
    rollout(after, rng)


def t_state(data: bytes) -> None:
    value = _loads(data)
    if value is _NOT_JSON:
        return
    state = _read_back(value, State.from_dict, "state")
    if state is not None:
        _plays_on(state)


def t_view(data: bytes) -> None:
    value = _loads(data)
    if value is _NOT_JSON:
        return
    view = _read_back(value, PlayerView.from_dict, "view")
    if view is None:
        return
    render(view)
    view.unseen  # noqa: B018 (a property that reads every field)
    for text in ("keep", "expose", *(str(c) for c in view.hand)):
        try:
            parse_move(text, view)
        except ChkobbaError as error:
            refused(error, (NotationError, IllegalMoveError))


_RULES_FILE = Path(tempfile.gettempdir()) / f"chkobba-fuzz-rules-{os.getpid()}.json"


def t_rules(data: bytes) -> None:
    _RULES_FILE.write_bytes(data)
    try:
        from_file: Rules | None = Rules.load(_RULES_FILE)
    except ChkobbaError as error:
        refused(error, (ChkobbaError,))
        from_file = None
    value = _loads(data)
    if value is _NOT_JSON:
        if from_file is not None:
            raise Finding("Rules.load read text that is not JSON")
        return
    rules = _read_back(value, Rules.from_dict, "rules")
    if rules is None:
        return
    if from_file is not None:
        same(from_file, rules, "Rules.load against Rules.from_dict")
    num_actions(rules)
    rng = random.Random(1)
    for players in rules.players:
        rollout(new_match(players, rules=rules), rng)


def t_outcome(data: bytes) -> None:
    value = _loads(data)
    if value is _NOT_JSON:
        return
    _read_back(value, MoveOutcome.from_dict, "outcome")


class _Index:
    """An object whose ``__index__`` gives a chosen value (what numpy integers do)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __index__(self) -> Any:
        return self.value


def _action(data: bytes) -> object:
    kind, rest = data[0] % 8, data[1:]
    number = int.from_bytes(rest[:64], "little", signed=True)
    if kind == 0:
        return number % 64  # mostly in range
    if kind == 1:
        return number
    if kind == 2:
        return _Index(number)
    if kind == 3:
        return float(number % 64)
    if kind == 4:
        return text_of(rest)
    if kind == 5:
        return bool(number % 2)
    if kind == 6:
        return _Index(text_of(rest))
    return None


def t_actions(data: bytes) -> None:
    """Byte 0 picks a position of the pool, byte 1 the kind of action (an int, an
    ``__index__`` object, a float, text, a bool, None), the rest its value."""
    if len(data) < 2:
        return
    position = seeds.positions()[data[0]]
    action = _action(data[1:])
    for function in (move_for, advance, describe):
        try:
            function(position, action)  # type: ignore[arg-type]  # anything, on purpose
        except ChkobbaError as error:
            refused(error, (ChkobbaError,))


def t_botspec(data: bytes) -> None:
    try:
        spec = BotSpec.parse(text_of(data))
    except ChkobbaError as error:
        refused(error, (ChkobbaError,))
    else:
        same(BotSpec.parse(str(spec)), spec, "bot spec")


TARGETS: dict[str, tuple[Callable[[bytes], None], bool, int]] = {
    # name: (the check, whether its input is JSON, the largest input in bytes)
    "card": (t_card, False, 512),
    "move": (t_move, False, 2048),
    "move_in_state": (t_move_in_state, False, 2048),
    "record": (t_record, True, 200_000),
    "lines": (t_lines, True, 200_000),
    "state": (t_state, True, 20_000),
    "view": (t_view, True, 20_000),
    "rules": (t_rules, True, 4096),
    "outcome": (t_outcome, True, 4096),
    "actions": (t_actions, False, 128),
    "botspec": (t_botspec, False, 2048),
}


def timed(check: Callable[[bytes], None]) -> Callable[[bytes], None]:
    def run(data: bytes) -> None:
        start = time.perf_counter()
        check(data)
        spent = time.perf_counter() - start
        if spent > SLOW_SECONDS:
            raise Finding(f"one input of {len(data)} bytes took {spent:.1f} s")

    return run


def signature(error: BaseException) -> str:
    """What tells two failures apart: the exception's type and where it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if "chkobba" in f.filename and "tools/fuzz" not in f.filename]
    where = (inside or frames)[-1]
    kind = type(error).__name__
    if isinstance(error, Finding):
        kind += ":" + str(error).split(":")[0][:40]
    return f"{kind} at {Path(where.filename).name}:{where.lineno}"


def collecting(check: Callable[[bytes], None], artifacts: Path) -> Callable[[bytes], None]:
    """``check`` that saves each distinct failure (the first input of each signature,
    then any smaller one) and goes on fuzzing, so one run finds them all."""
    smallest: dict[str, int] = {}

    def run(data: bytes) -> None:
        try:
            check(data)
        except Exception as error:
            key = signature(error)
            if key in smallest and smallest[key] <= len(data):
                return
            first = key not in smallest
            smallest[key] = len(data)
            name = "finding-" + "".join(c if c.isalnum() else "_" for c in key)[:80]
            (artifacts / name).write_bytes(data)
            (artifacts / f"{name}.txt").write_text(f"{key}\n\n{traceback.format_exc()}")
            if first:
                print(f"\n*** new finding: {key} ({len(data)} bytes) -> {name}", flush=True)

    return run


# --- the engines -----------------------------------------------------------------------


def write_seeds(target: str, corpus: Path) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    if any(corpus.iterdir()):
        return
    limit = TARGETS[target][2]
    for number, data in enumerate(seeds.seed_inputs(target)):
        if len(data) <= limit:
            (corpus / f"seed-{number:05d}").write_bytes(data)


def splice_pool(corpus: Path) -> list[Any]:
    found = []
    for path in sorted(corpus.glob("seed-*"))[:200]:
        with contextlib.suppress(ValueError, RecursionError):
            found.append(json.loads(path.read_bytes()))
    return found


def run_atheris(target: str, seconds: int, work: Path, extra: list[str]) -> None:
    check, is_json, limit = TARGETS[target]
    corpus, artifacts = work / "corpus", work / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    arguments = [
        sys.argv[0],
        str(corpus),
        f"-max_total_time={seconds}",
        f"-max_len={limit}",
        "-timeout=30",
        "-rss_limit_mb=3000",
        f"-artifact_prefix={artifacts}/",
        "-print_final_stats=1",
        *extra,
    ]
    mutator = None
    if is_json:
        json_mutator = JsonMutator(splice_pool(corpus))

        def mutator(data: bytes, max_size: int, seed: int) -> bytes:
            rng = random.Random(seed)
            if rng.random() < 0.6:
                mutated = json_mutator.mutate(data, rng)
                if mutated is not None and len(mutated) <= max_size:
                    return mutated
            mutated = atheris.Mutate(data, max_size)
            assert isinstance(mutated, bytes)
            return mutated

    atheris.Setup(arguments, collecting(timed(check), artifacts), custom_mutator=mutator)
    atheris.Fuzz()


def run_mutate(target: str, seconds: int, work: Path) -> None:
    """The fallback engine: mutate the corpus at random, no coverage feedback."""
    check, is_json, limit = TARGETS[target]
    corpus, artifacts = work / "corpus", work / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    inputs = [p.read_bytes() for p in sorted(corpus.iterdir())]
    json_mutator = JsonMutator(splice_pool(corpus)) if is_json else None
    rng, runs, end = random.Random(), 0, time.monotonic() + seconds
    run = collecting(timed(check), artifacts)
    while time.monotonic() < end:
        data = rng.choice(inputs)
        mutated = json_mutator.mutate(data, rng) if json_mutator and rng.random() < 0.6 else None
        if mutated is None or len(mutated) > limit:
            mutated = byte_mutation(data, rng, limit)
        runs += 1
        run(mutated)
    print(f"done: {runs} runs in {seconds} s (mutation engine, no coverage)", flush=True)


def reproduce(target: str, paths: list[str]) -> int:
    check = timed(TARGETS[target][0])
    failures = 0
    for path in paths:
        try:
            check(Path(path).read_bytes())
        except Exception:
            failures += 1
            print(f"{path}: FAILS\n{traceback.format_exc()}")
        else:
            print(f"{path}: ok")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("target", nargs="?", choices=sorted(TARGETS))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "chkobba-fuzz")
    parser.add_argument("--engine", choices=("atheris", "mutate"), default="atheris")
    parser.add_argument("--reproduce", nargs="+", metavar="FILE")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("libfuzzer", nargs="*", help="extra libFuzzer options (after --)")
    args = parser.parse_args()
    if args.list or not args.target:
        print("\n".join(sorted(TARGETS)))
        return 0
    if args.reproduce:
        return reproduce(args.target, args.reproduce)
    work = args.work / args.target
    write_seeds(args.target, work / "corpus")
    if args.engine == "atheris" and atheris is not None:
        run_atheris(args.target, args.seconds, work, args.libfuzzer)
    else:
        run_mutate(args.target, args.seconds, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
