"""A transcript audit of the user documentation: the shell commands the pages show, and
what they show those commands print.

The ``>>>`` examples of ``docs/*.md`` run as doctests; the other fenced blocks did not
run anywhere, or ran only in part. Every fenced block that is not Python was read in
``README.md``, ``docs/index.md``, ``docs/cli.md``, ``docs/perft.md``,
``docs/cluster.md``, ``docs/records.md`` (which has none), ``docs/snapshots.md``,
``docs/bots.md``, ``docs/strength.md`` and ``docs/performance.md``: the ``bash``,
``console`` and plain blocks of commands, and the ``text`` and ``json`` blocks of what
they print. Each was first looked up in the suite, then run as written (long runs with
their sizes shrunk, said where) and what it printed compared with the page: exactly where
the output is seeded, line by line in its grammar where it is not (timings, a session
whose record the page does not give).

Most were already pinned: the perft positions and their counts
(``tests/test_perft.py``, through ``benchmarks/perft.py``'s own reading of the page), the
JSON of ``docs/snapshots.md`` (``tests/test_snapshot_schemas.py``), the error sessions
of ``docs/cli.md`` (``tests/test_hardening_cli.py``, ``tests/test_cli_usability.py``,
``tests/test_cli_house_rules.py``, each running the command and finding its message in
the page), ``simulate --scheduler`` (``tests/test_distributed.py``, on a local cluster),
and every ``benchmarks/*.py`` command of the measurement pages, parsed by its script's
own parser (``tests/test_audit_docs_measurements.py``). The tests here are the blocks
nothing ran, one test per block or group of blocks, grouped by page; each reads the block
it checks from the page and quotes it.

Run by hand and not made tests, as too long for the suite, as changing the machine, or
as needing what an sdist lacks (the git history): the installs and the whole suite of the
README and the home page (``pip install -e ...``, ``python -m pytest -q``, the compiled
build's ``CHKOBBA_MYPYC=1 python -m pip install .``), the home page's ``git clone`` and
the README's ``mkdocs serve`` (``mkdocs build --strict`` is ``tests/test_docs_site.py``'s);
``dask scheduler`` and ``dask worker tcp://...:PORT --nthreads 1`` of
``docs/cluster.md`` (on a free port), then its ``chkobba simulate --scheduler ...
--records matches.jsonl`` with ``--games 2`` (two matches, two records; the scheduler
logs ``Scheduler at:      tcp://...``, its address padded); the ``--compare REV``
commands of ``docs/performance.md`` (in a clone, ``--deals 20 --runs 1`` and ``--steps 40
--runs 1``: both tables printed); its ``valgrind`` blocks, the four scripts at tiny sizes
(one, perft's, is a test here, skipped without valgrind); and the commands of
``docs/strength.md`` and ``docs/bots.md`` at ``--games`` 1 to 3 and ``--deals`` 1 to 30
(``strength.py`` with greedy/random, expert/greedy at 2, 3 (cardrulesplus) and 4
players; ``estimate_ab.py``, which reads commit abaffff from git; ``oracle_bound.py
--knows hands``; ``inference_gain.py``; ``estimate_fit.py``; ``match_odds.py --deals 50
--matches 20``): an ExpertBot match takes seconds. All of them ran and printed what the
pages say they print. Not run: ``benchmarks/match_odds.py`` with its defaults, whose
figures ``docs/strength.md`` says the same defaults give again (about a minute).

No block was found that does not reproduce: every test below states what its block shows
and holds. One sentence was behind the suite: ``docs/index.md`` said the shell commands
and sample outputs are not run "but for a few that the tests read"; it now names those
the tests run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import attrs
import pytest

from chkobba import TUNISIAN, Cut, IllegalMoveError, Play, Record, apply, card, cards
from chkobba.arena import play_match
from tests.helpers import dealt, load_script, run_cli, stacked_shuffle

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _page(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _blocks(name: str, info: str) -> list[str]:
    """The bodies of the page's fenced blocks whose info string is ``info`` (``""`` for
    a plain fence), in page order."""
    found = re.findall(r"^```([^\n]*)\n(.*?)^```$", _page(name), flags=re.M | re.S)
    return [body for kind, body in found if kind == info]


def _block(name: str, info: str, holding: str) -> str:
    """The one ``info`` block of the page that holds ``holding``."""
    (body,) = [body for body in _blocks(name, info) if holding in body]
    return body


def _typed(line: str) -> list[str]:
    """The arguments of the ``chkobba`` command on a line of a block (``$ `` prompt, the
    install before ``&&``, a ``#`` comment and a ``>`` redirection cut off)."""
    command = line.removeprefix("$ ").split("&&")[-1]
    words = shlex.split(command, comments=True)
    if ">" in words:
        words = words[: words.index(">")]
    assert words[0] == "chkobba", line
    return words[1:]


def _commands(name: str, info: str, holding: str) -> list[list[str]]:
    """Every ``chkobba`` command of the ``info`` block holding ``holding``."""
    lines = _block(name, info, holding).splitlines()
    return [_typed(line) for line in lines if re.match(r"(\$ )?chkobba |.*&& chkobba ", line)]


# --- README.md, docs/index.md and docs/cli.md: the first commands ------------------------


def test_the_first_demo_is_the_default_match_of_seed_1() -> None:
    # README.md: "```bash\npython -m pip install -e '.[cli]' && chkobba demo --seed 1\n```";
    # docs/index.md: "chkobba demo --seed 1          # watch two bots play a whole,
    # narrated match"; docs/cli.md: "python -m pip install -e '.[cli]' ...\nchkobba demo"
    # (whose --seed is "the match seed (default 1)").
    typed = [
        *_commands("README.md", "bash", "chkobba demo"),
        *[c for c in _commands("docs/index.md", "bash", "chkobba demo") if c[0] == "demo"],
        *_commands("docs/cli.md", "bash", "chkobba demo"),
    ]
    assert typed == [["demo", "--seed", "1"], ["demo", "--seed", "1"], ["demo"]]
    shown = {run_cli(*args) for args in typed}
    assert len(shown) == 1  # the same match
    ((code, out, err),) = shown
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "chkobba demo: 2 players (player 0: greedy, player 1: greedy), seed 1"
    assert lines[1] == "deal 1: player 0 deals (scores 0-0)"
    assert re.fullmatch(
        r"player [01] wins the match \d+-\d+ after \d+ deals( \(\d+ void\))?", lines[-1]
    )


def test_the_play_commands_start_a_match_against_greedy_and_end_at_end_of_input() -> None:
    # docs/index.md: "chkobba play                   # play against a bot yourself"; README:
    # "Then play against a bot yourself with `chkobba play --opponent greedy`." Without a
    # --seed the match is random: its first lines and its clean end are what is fixed.
    (home,) = [c for c in _commands("docs/index.md", "bash", "chkobba play") if c[0] == "play"]
    assert "`chkobba play --opponent greedy`" in _page("README.md")
    for args in (home, ["play", "--opponent", "greedy"]):
        code, out, err = run_cli(*args)
        assert (code, err) == (0, "")
        lines = out.splitlines()
        assert lines[0] == "You are player 0; player 1: greedy."  # its seed is secret
        assert lines[1] == "Type help for help."
        assert re.fullmatch(r"deal 1: (you deal|player 1 deals) \(scores 0-0\)", lines[2])
        assert lines[-3:-1] == ["your move> ", "End of input: goodbye."]
        assert re.fullmatch(r"The match's seed was (\d+): --seed \1 deals it again\.", lines[-1])


def test_the_readmes_illegal_move_is_the_error_it_shows() -> None:
    # README.md: "Moves are values with a text form: `Play(card("QH"), cards("2D 6S"))`
    # prints as `QH x 2D+6S`, and an illegal move raises a `ValueError` subclass that says
    # why:\n```text\nIllegalMoveError: QH must capture: it can take 2D+6S\n```"
    (shown,) = _blocks("README.md", "text")
    assert str(Play(card("QH"), cards("2D 6S"))) == "QH x 2D+6S"
    state = dealt(hands=["4C 5C 7C", "QH AC 3C"], table="2D 6S KS JS")  # player 1 to play
    with pytest.raises(ValueError) as refused:
        apply(state, Play(card("QH")))
    assert type(refused.value) is IllegalMoveError
    assert f"{type(refused.value).__name__}: {refused.value}\n" == shown


# --- docs/cli.md ----------------------------------------------------------------------------


def test_the_house_profile_session_starts_from_rules_tunisian_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cli.md: "Start from a named profile, then change the name and what your house plays
    # differently:\n```text\n$ chkobba rules tunisian > house.json\n```", the file edited
    # (a ```json block), then "$ chkobba simulate --games 100 --bots greedy random --rules
    # house.json   # seconds; expert: minutes" (run here with --games 2).
    monkeypatch.chdir(tmp_path)
    (start,) = _commands("docs/cli.md", "text", "> house.json")
    assert start == ["rules", "tunisian"]
    code, printed, _ = run_cli(*start)
    assert code == 0
    Path("house.json").write_text(printed, encoding="utf-8")  # what > house.json writes
    edited = _block("docs/cli.md", "json", '"name": "our house"')
    # The page's file is the printed one, line for line, but the lines the house changed.
    changed = [
        (a, b) for a, b in zip(printed.splitlines(), edited.splitlines(), strict=True) if a != b
    ]
    assert [b.split(":")[0].strip() for _, b in changed] == [
        '"name"',
        '"target"',
        '"last_card_chkobba"',
        '"primiera"',
    ]
    Path("house.json").write_text(edited, encoding="utf-8")
    (simulate,) = _commands("docs/cli.md", "text", "--rules house.json   #")
    assert simulate[:3] == ["simulate", "--games", "100"]
    code, out, err = run_cli("simulate", "--games", "2", *simulate[3:])
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        "2 matches, 2 players, our house rules to 16, seed 0 (win rates with 95% Wilson intervals)"
    )


def test_replaying_a_corrupt_record_stops_at_the_illegal_move_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cli.md: "A record with an illegal move is replayed up to it and the command fails
    # (status 1) naming it:\n```text\n$ chkobba replay corrupt.json\n...\nchkobba replay:
    # error: 'corrupt.json': move 3 (index 2) ('KD x AS') is not legal: KD is not in
    # player 1's hand\n```"
    monkeypatch.chdir(tmp_path)
    block = _block("docs/cli.md", "text", "$ chkobba replay corrupt.json")
    typed, dots, said = block.splitlines()
    assert dots == "..."
    # A deal whose first player (1, the cutter) does not hold KD, with AS on the table.
    order = stacked_shuffle(hands=["QH 2S 3S", "4C 5C 6C"], table="AS 7D 2D 4S")
    data = Record(players=2, moves=[order, Cut(keep=False)]).to_dict()
    data["moves"].append("KD x AS")
    Path("corrupt.json").write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli(*_typed(typed))
    assert (code, err) == (1, said + "\n")
    moves = [line for line in out.splitlines() if re.match(r"\d+\. ", line)]
    assert moves == ["1. shuffle", "2. expose"]  # the "...": the moves up to it


#: The kinds of line of ``chkobba analyse``'s review, as the page shows them.
_REVIEW_LINES = {
    "heading": r"analysing '[^']+': \d+ decisions",
    "values": r"values: the mover's side's expected deal points minus the opponents'",
    "play": r"\d+\. player \d played \S.* \(loses \d+\.\d\d points\)",
    "flagged play": r"\d+\. player \d played \S.* \(loses \d+\.\d\d points\)  <- lost the most",
    "value": r"      [+-]\d+\.\d\d points  \S.*",
    "summary": r"moves that lost the most:",
    "worst": r"  move \d+, player \d: \S.* instead of \S.* \(loses \d+\.\d\d points\)",
    "none flagged": r"no move flagged: none lost 0\.5 points or more by the bot's reckoning",
}


def _kind(line: str) -> str:
    """The kind of a line of a review (``...``: lines the page leaves out)."""
    if line == "...":
        return line
    kinds = [kind for kind, pattern in _REVIEW_LINES.items() if re.fullmatch(pattern, line)]
    assert len(kinds) == 1, line
    return kinds[0]


def _review_holds_together(lines: list[str], *, whole: bool) -> None:
    """The best move of a play is the first value under it, and each move summed up at
    the end is a flagged play, with the loss and the best move its play shows, the most
    first; in a ``whole`` review, every flagged play is summed up."""
    plays: dict[str, tuple[str, str, str]] = {}  # move number: played, loss, best
    flagged = set()
    for at, line in enumerate(lines):
        if _kind(line) in ("play", "flagged play"):
            found = re.match(r"(\d+)\. player \d played (.*) \(loses (\S+) points\)", line)
            assert found is not None
            best = re.fullmatch(r"      \S+ points  (.*)", lines[at + 1])
            if best is not None:
                plays[found[1]] = (found[2], found[3], best[1])
            if _kind(line) == "flagged play":
                flagged.add(found[1])
    summed, losses = set(), []
    for line in lines:
        found = re.fullmatch(
            r"  move (\d+), player \d: (.*) instead of (.*) \(loses (\S+) points\)", line
        )
        if found is not None:
            if found[1] in plays:
                assert plays[found[1]] == (found[2], found[4], found[3]), line
            summed.add(found[1])
            losses.append(float(found[4]))
    assert losses == sorted(losses, reverse=True)
    assert flagged <= summed and (flagged == summed or not whole)


@pytest.fixture(scope="module")
def match_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``match.json`` of two deals between greedy bots (seed 1, a match to 1)."""
    record = play_match(["greedy", "greedy"], seed=1, rules=attrs.evolve(TUNISIAN, target=1))
    folder = tmp_path_factory.mktemp("review")
    attrs.evolve(record.record, tags={}).save(folder / "match.json")  # the page shows no tags
    return folder


def test_a_review_of_one_seat_prints_the_lines_the_page_shows(
    match_json: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cli.md: "```text\n$ chkobba analyse match.json --seat 1\nanalysing 'match.json': 13
    # decisions\nvalues: ...\n4. player 1 played 7♥ x 2♠+5♣ (loses 0.00 points)\n ...
    # moves that lost the most:\n  move 18, player 1: 3♠ instead of K♠ x K♦ (loses 1.60
    # points)\n ...```": the page does not give its match.json, so the review of another
    # match is compared with it line by line, kind by kind.
    block = _block("docs/cli.md", "text", "$ chkobba analyse match.json --seat 1")
    typed, *shown = block.splitlines()
    kinds = [_kind(line) for line in shown]
    assert set(kinds) == {*_REVIEW_LINES, "..."} - {"none flagged"}
    _review_holds_together(shown, whole=False)
    monkeypatch.chdir(match_json)
    code, out, err = run_cli(*_typed(typed))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    real = [_kind(line) for line in lines]
    assert real[:3] == kinds[:3] == ["heading", "values", "play"]
    summary = real.index("summary")
    assert set(real) == set(kinds) - {"..."} and real[summary + 1 :] == ["worst"] * (
        len(real) - summary - 1
    )
    assert len(real) - summary - 1 >= 1
    decisions = real.count("play") + real.count("flagged play")
    assert lines[0] == f"analysing 'match.json': {decisions} decisions"
    assert set(re.findall(r"^\d+\. player (\d)", out, re.M)) == {"1"}
    _review_holds_together(lines, whole=True)


def test_the_bots_pages_three_reviews_run(
    match_json: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bots.md: "```\nchkobba analyse match.json --seat 0            # one player's
    # decisions\nchkobba analyse match.json --json > review.json\nchkobba analyse
    # match.json --bot ismcts:v1 --worst 5\n```", then "`--json` prints the same as data
    # (`moves`: index, player, played, best, loss and every move's value; `worst`: the
    # indices flagged)".
    monkeypatch.chdir(match_json)
    one_seat, as_json, other_bot = _commands("docs/bots.md", "", "chkobba analyse match.json")
    code, out, _ = run_cli(*one_seat)
    assert code == 0 and {_kind(line) for line in out.splitlines()} >= {"heading", "play"}
    assert set(re.findall(r"^\d+\. player (\d)", out, re.M)) == {"0"}
    assert "> review.json" in _block("docs/bots.md", "", "chkobba analyse match.json")
    code, out, _ = run_cli(*as_json)
    Path("review.json").write_text(out, encoding="utf-8")
    review = json.loads(Path("review.json").read_text(encoding="utf-8"))
    assert code == 0 and {"moves", "worst", "tags"} <= set(review)
    fields = {"index", "player", "played", "best", "loss", "moves"}
    assert set(review["moves"][0]) - {"top"} == fields  # a cut's has top, the card on top
    for move in review["moves"]:
        assert ("top" in move) == (move["played"] in ("keep", "expose")), move
    assert set(review["worst"]) <= {move["index"] for move in review["moves"]}
    code, out, _ = run_cli(*other_bot)
    assert code == 0
    assert 1 <= out.count("<- lost the most") <= 5
    _review_holds_together(out.splitlines(), whole=True)


# --- docs/perft.md ------------------------------------------------------------------------


def _load(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module, its ``main`` not run (as tests/test_perft.py
    loads it: run as a script, it imports its neighbours)."""
    return load_script(BENCHMARKS / f"{name}.py", f"transcript_{name}")


def _script(
    words: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """``python benchmarks/NAME.py ARGS`` (``words``) in this process: what it printed."""
    assert words[0] == "python" and words[1].startswith("benchmarks/"), words
    module = _load(Path(words[1]).stem)
    monkeypatch.setattr(sys, "argv", [Path(words[1]).name, *words[2:]])
    capsys.readouterr()
    try:
        module.main()
    except SystemExit as stop:
        assert stop.code in (None, 0), stop.code
    out, _ = capsys.readouterr()
    return out


def _lines(block: str) -> Iterator[list[str]]:
    """The commands of a block: lines continued by ``\\`` joined, comments cut off."""
    for line in block.replace("\\\n", " ").splitlines():
        if line.strip():
            yield shlex.split(line, comments=True)


def _tables(page: str) -> dict[str, list[str]]:
    """Each perft position's published rows, as the page writes them."""
    tables = {}
    for name, body in re.findall(r"^### `([\w-]+)`\n(.*?)(?=^### |\Z)", page, re.M | re.S):
        tables[name] = re.findall(r"^\| \d+ \|.*\|$", body, re.M)
    return tables


def _printed(out: str) -> dict[str, list[str]]:
    """The rows the perft script printed, by position."""
    printed: dict[str, list[str]] = {}
    rows: list[str] = []
    for line in out.splitlines():
        heading = re.fullmatch(r"([\w-]+): depth \| leaves \| captures \| chkobbas .*", line)
        if heading:
            rows = printed[heading[1]] = []
        elif line.startswith("| "):
            rows.append(line)
    return printed


def test_perft_prints_every_positions_published_rows(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # perft.md: "```bash\npython benchmarks/perft.py                       # every
    # position, to its published depth\n...```", "It prints each depth's row, then the
    # nodes walked (every `apply` at every ply) and the nodes per second."
    every, _ = _lines(_block("docs/perft.md", "bash", "# every position"))
    assert every == ["python", "benchmarks/perft.py"]
    out = _script(every, monkeypatch, capsys)
    tables = _tables(_page("docs/perft.md"))
    assert len(tables) == 8 and _printed(out) == tables
    walked = re.findall(r"^  ([\d,]+) nodes to depth (\d+): [\d,]+ nodes/s$", out, re.M)
    assert [int(depth) for _, depth in walked] == [len(rows) for rows in tables.values()]


def test_perft_divides_the_refill_positions_deepest_count_by_first_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # perft.md: "python benchmarks/perft.py --position refill-2p --depth 12 --divide", and
    # "`--divide` splits the deepest count by the first move".
    _, divide = _lines(_block("docs/perft.md", "bash", "# every position"))
    assert divide[2:] == ["--position", "refill-2p", "--depth", "12", "--divide"]
    out = _script(divide, monkeypatch, capsys)
    rows = _tables(_page("docs/perft.md"))["refill-2p"]
    assert _printed(out) == {"refill-2p": rows} and rows[-1].startswith("| 12 | 1,472 |")
    split = re.findall(r"^  (\S.*): (\d+)$", out, re.M)
    assert len(split) == 3 and sum(int(n) for _, n in split) == 1_472


def test_perft_only_walks_one_position_silently(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # perft.md: "```bash\nPYTHONHASHSEED=0 valgrind --tool=callgrind
    # --callgrind-out-file=/dev/null \\\n    python benchmarks/perft.py --only NAME --depth
    # D\n```", NAME and D filled in (the valgrind run: the next test).
    (command,) = _lines(_block("docs/perft.md", "bash", "--only NAME"))
    walk = command[command.index("python") :]
    assert walk[2:] == ["--only", "NAME", "--depth", "D"]
    assert _script([*walk[:3], "refill-2p", "--depth", "12"], monkeypatch, capsys) == ""


@pytest.mark.out_of_process
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_perft_under_callgrind_as_the_page_runs_it() -> None:
    # The same block, as written, at depth 0 (the run the page subtracts): callgrind
    # counts it (about 5 seconds).
    (command,) = _lines(_block("docs/perft.md", "bash", "--only NAME"))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    while "=" in command[0]:
        key, _, value = command.pop(0).partition("=")
        env[key] = value
    at = command.index("python")
    command[at] = sys.executable
    command[-3:] = ["refill-2p", "--depth", "0"]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert env["PYTHONHASHSEED"] == "0" and result.stdout == ""
    assert re.search(r"^==\d+== Collected : \d+$", result.stderr, re.M)


# --- docs/performance.md --------------------------------------------------------------------

#: Sizes shrunk so that each command runs in a fraction of a second: the defaults
#: (thousands of deals, five runs) and the sizes written are for a measurement.
_SHRUNK = {"--deals": "3", "--warmup": "5", "--steps": "10", "--runs": "1"}
_ADDED = {
    "playouts": {"--deals": "5", "--runs": "1"},
    "env_steps": {"--warmup": "5", "--steps": "10", "--runs": "1"},
}


def _runnable() -> list[list[str]]:
    """The ``benchmarks/*.py`` commands of the page's ``bash`` blocks that this tree can
    run: not those of another revision (``--compare REV``, ``/path/to/...``)."""
    found = []
    for block in _blocks("docs/performance.md", "bash"):
        for words in _lines(block):
            if "--compare" in words or any("/path/to/" in word for word in words):
                continue
            if any(word.startswith("benchmarks/") for word in words):
                at = next(i for i, w in enumerate(words) if w.endswith("python"))
                found.append(["python", *words[at + 1 :]])
    return found


def test_the_performance_page_shows_the_commands_run_below() -> None:
    scripts = sorted({Path(words[1]).stem for words in _runnable()})
    assert scripts == ["bytecodes", "env_steps", "playouts", "step_parts"]
    assert len(_runnable()) == 9


@pytest.mark.parametrize("words", _runnable(), ids=shlex.join)
def test_every_performance_command_runs_and_prints_what_the_page_says(
    words: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # performance.md: playouts "prints deals per second for four figures"; "`--only step`
    # (or `rollout`) plays `--warmup W` deals and then `--deals N` deals of that workload
    # and nothing else"; bytecodes "counts the Python bytecodes a workload runs, function
    # by function"; env_steps "all installed adapters, 5 runs".
    name = Path(words[1]).stem
    filled = {"S": "0", "R": "cardrulesplus", "P": "3"}  # the placeholders of the page
    args = [
        _SHRUNK.get(words[at - 1] if at else "", filled.get(word, word))
        for at, word in enumerate(words)
    ]
    if "--only" not in args:
        for option, value in _ADDED.get(name, {}).items():
            if option not in args:
                args += [option, value]
    if name == "env_steps":
        adapters = {"pettingzoo": "pettingzoo", "gymnasium": "gymnasium", "openspiel": "pyspiel"}
        needed = [args[args.index("--only") + 1]] if "--only" in args else list(adapters)
        if not any(importlib.util.find_spec(adapters[n]) for n in needed):
            pytest.skip(f"no adapter of {needed} is installed")
    out = _script(args, monkeypatch, capsys)
    if "--only" in args:
        assert out == ""  # nothing but the workload, for callgrind
    elif name == "playouts":
        figures = "step cold +\\d+  step warm +\\d+  rollout cold +\\d+  rollout warm +\\d+"
        assert re.fullmatch(f"run 1: {figures}\nmedians of 1 runs .*\n", out)
    elif name == "bytecodes":
        assert re.match(r"\d+ warm deals: [\d,]+ bytecodes a deal, [\d,.]+ a play\n per play", out)
    else:
        assert re.search(r"^run 1: \w+ [\d,]+/s", out, re.M) and "steps/s" in out
