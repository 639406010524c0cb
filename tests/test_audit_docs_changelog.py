"""A contract audit of the CHANGELOG, the README, the home page and the API reference page.

The earlier prose audits (``tests/test_audit_docs_prose.py`` and
``tests/test_audit_docs_prose_bots.py``) read eleven pages of ``docs/`` sentence by
sentence; the four texts they left are read here the same way: ``CHANGELOG.md`` (the
unreleased round's entries since 0.1.0, entry by entry, "Left alone" and "Not done"
notes included), ``README.md``, ``docs/index.md`` and ``docs/reference.md``. Every
checkable promise was looked for in ``tests/``: every public name, keyword argument,
command, option, bot option, file (schema, benchmark script, page) the entries say was
added; every deprecated name said to be kept (it works, it warns, at the caller's line
where the entry says so, and the entry says when it goes); every "raises ... naming
..."; every behaviour change ("now refuses", "now takes numpy integers", "now writes",
"no longer"); and the README's and the home page's claims about the API, the commands,
the install extras, the supported Pythons (``requires-python`` and the classifiers),
the sdist, CI, the pages and the reference. Measurements (speeds, instruction counts,
win rates, test counts and times) were skipped: another audit reads them.

The suite already pinned nearly every behaviour the CHANGELOG announces, most of them
several times (the hardening, mutation-gap, fuzz, stateful, docstring and prose audits,
the value-type and message audits). What no test pinned was mostly the texts' claims
about the project itself, which no test read: the packaging in ``pyproject.toml``
(extras, dependencies, classifiers, package data, the entry point), ``MANIFEST.in``,
``setup.py``'s compiled build, ``.ci/run``, the pages the README and the home page list,
the code blocks the home page says are not run, the API reference's entries, the
benchmark scripts' options and docstrings, the files the CHANGELOG names; and a few
behaviours and names: a deprecated alias that must not warn, a constant re-exported
unchanged, helpers said to be one function, the JSON schemas' bounds against the
library's limits. The tests here are those promises, one test per promise, named after
it and grouped by text; each quotes the sentence it checks and asserts that the text
still says it, so that a test follows its sentence.

Five promises were found false, and the texts fixed; each test states the promise as
it holds now:

- the API reference had no entry for ``chkobba.bots.base.checked_move`` (in that
  module's ``__all__``, added this round), though the README and the home page promise
  "every public name" and docs/reference.md says the bot modules' entries list "their
  other names": the entry's ``members`` list named ``OPTION_LIMIT``, ``Deadline`` and
  ``checked_choice`` only;
- the CHANGELOG said that ``make_bot("ismcts:seconds=1e308")`` searches as long as it
  is told, "the command line caps it at 60 s": it does not; ``play --opponent``,
  ``simulate --bots`` and ``analyse --bot`` take a bot spec with any ``seconds`` (the one
  60-second cap of the command line is ``demo --delay``'s), and the entry says so now;
- three "Left alone" notes describe behaviour that later entries of the same round
  changed, so the release notes contradicted themselves: numpy scalars passing for bots
  (now refused up front: "numpy's values are no bots"), ``replay --game N`` reading a
  whole file of records at once (now one record at a time), and a numpy array given to
  ``Ratings.difference`` or ``points_text`` raising numpy's ``ValueError`` (now a
  ``ChkobbaError`` naming it). Each note now says what changed since.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
import warnings
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import chkobba
from chkobba import (
    DECK,
    Game,
    IllegalMoveError,
    MoveOutcome,
    NotationError,
    PlayerView,
    PublicView,
    Record,
    Rules,
    State,
    apply,
    new_match,
    parse_move,
    score_deal,
)
from tests.helpers import EXTRA_MODULES, public_modules, run_cli

ROOT = Path(__file__).resolve().parent.parent


@cache
def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """``text`` with every run of white space one space: a sentence reads the same
    wherever the file wraps it."""
    return " ".join(text.split())


def says(name: str, sentence: str) -> None:
    """The file ``name`` (from the project's root) still says ``sentence``."""
    assert _flat(sentence) in _flat(_text(name)), f"{name} no longer says: {sentence!r}"


def _pyproject() -> dict[str, Any]:
    """``pyproject.toml``, read by the standard library (tomli before Python 3.11)."""
    toml = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    with open(ROOT / "pyproject.toml", "rb") as file:
        loaded: dict[str, Any] = toml.load(file)
    return loaded


def _extras() -> dict[str, list[str]]:
    extras: dict[str, list[str]] = _pyproject()["project"]["optional-dependencies"]
    return extras


def _requirement_names(requirements: list[str]) -> set[str]:
    """The distribution names of requirement strings (``mkdocstrings[python]>=0.29`` is
    ``mkdocstrings``; ``chkobba[cli,dask]`` is ``chkobba``)."""
    names = set()
    for requirement in requirements:
        match = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert match is not None, requirement
        names.add(match.group(0).lower())
    return names


def _script(path: Path) -> ModuleType:
    """A benchmark or example script loaded as a module (its ``main`` not run); scripts
    import their neighbours (``_args``), so its folder is on the path while it loads."""
    spec = importlib.util.spec_from_file_location(f"audit_changelog_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
        del sys.modules[spec.name]
    return module


def _script_help(
    path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """What ``python PATH --help`` prints, run in this process."""
    module = _script(path)
    monkeypatch.setattr(sys, "argv", [path.name, "--help"])
    with pytest.raises(SystemExit) as exit_:
        module.main()
    assert exit_.value.code in (0, None)
    return capsys.readouterr().out


def _reference_entries() -> dict[str, list[str] | None]:
    """The API reference's ``::: module`` entries: each module's ``members`` list, ``[]``
    for ``members: false``, ``None`` when the entry shows the whole ``__all__``."""
    entries: dict[str, list[str] | None] = {}
    for found in re.finditer(r"^::: (\S+)\n((?:    .*\n)*)", _text("docs/reference.md"), re.M):
        members = re.search(r"members: (.*)", found.group(2))
        if members is None:
            entries[found.group(1)] = None
        elif members.group(1).strip() == "false":
            entries[found.group(1)] = []
        else:
            listed = members.group(1).strip().strip("[]").split(",")
            entries[found.group(1)] = [name.strip() for name in listed]
    return entries


def _commands() -> list[str]:
    """The subcommands ``chkobba --help`` lists, in order."""
    code, out, _ = run_cli("--help")
    assert code == 0
    listed = out.split("positional arguments:")[1].split("options:")[0]
    return re.findall(r"^    (\w+)(?: |$)", listed, re.M)


# --- CHANGELOG.md: the files and names it announces --------------------------------------


def _expanded(path: str) -> list[str]:
    """``path`` with its ``{a,b}`` alternatives spelled out."""
    braces = re.search(r"\{([^}]*)\}", path)
    if braces is None:
        return [path]
    return [
        whole
        for part in braces.group(1).split(",")
        for whole in _expanded(path[: braces.start()] + part + path[braces.end() :])
    ]


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("CHANGELOG.md", "`benchmarks/bytecodes.py` (new) counts the Python bytecodes"),
        ("README.md", "`benchmarks/state_memory.py`"),
        ("docs/index.md", "the JSON of [Snapshots](snapshots.md)); the rest (installs"),
    ],
)
def test_every_file_the_text_names_is_in_the_project(name: str, sentence: str) -> None:
    # Every path under the project's folders that the text names (a benchmark script, an
    # example, a tool, a test file, a page) exists; a pattern names at least one file.
    says(name, sentence)
    folders = "benchmarks|examples|tools|tests|docs|src"
    named = set(re.findall(rf"(?<![\w/.-])((?:{folders})/[\w./{{}},*-]*[\w*}}/])", _text(name)))
    missing = [
        path
        for pattern in sorted(named)
        for path in _expanded(pattern)
        if not (list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists())
    ]
    assert missing == []


_SCRIPT_OPTIONS = [
    (
        "benchmarks/playouts.py",
        "`benchmarks/playouts.py --only step|rollout [--warmup W] --deals N` plays one workload",
        ["--only {rollout,step}", "--warmup", "--deals", "--compare REV", "--installed", "--runs"],
        [],
    ),
    (
        "benchmarks/playouts.py",
        "`benchmarks/playouts.py --rules NAME` measures another named profile",
        ["--rules {cardrulesplus,tunisian}", "--players"],
        [],
    ),
    (
        "benchmarks/ismcts_speed.py",
        "`benchmarks/ismcts_speed.py` takes `--players` and `--rules`.",
        ["--players", "--rules", "--positions", "--iterations"],
        [],
    ),
    (
        "benchmarks/strength.py",
        "Its old options `--ismcts-games`, `--ismcts`, `--workers` and `--skip-timing` are gone.",
        ["--pair A B", "--games", "--rules", "--players", "--log"],
        ["--ismcts-games", "--ismcts", "--workers", "--skip-timing"],
    ),
    (
        "benchmarks/perft.py",
        "`--divide` splits a count by first move",
        ["--divide", "--depth", "--only NAME"],
        [],
    ),
    (
        "benchmarks/env_steps.py",
        "counts instructions per step with `--only NAME`, and alternates runs with a "
        "revision's with `--compare REV`",
        ["--only {pettingzoo,gymnasium,openspiel}", "--compare REV"],
        [],
    ),
    (
        "benchmarks/lazy_state.py",
        "`--only prototype|engine --warmup 2000`",
        ["--check", "--only {engine,prototype}", "--warmup"],
        [],
    ),
    (
        "benchmarks/oracle_bound.py",
        "`benchmarks/oracle_bound.py --knows hands`",
        ["--knows {all,hands}", "--log"],
        [],
    ),
    ("benchmarks/estimate_ab.py", "`estimate_ab.py --log` ignored `--rev`", ["--rev", "--log"], []),
    (
        "benchmarks/same_play.py",
        "`benchmarks/same_play.py --deals 150 --check`",
        ["--check FILE", "--write FILE", "--deals"],
        [],
    ),
    ("benchmarks/soak.py", "`--only server --matches 600`", ["--only", "server", "--matches"], []),
    (
        "benchmarks/step_parts.py",
        "(`listed`: `legal_moves` on listed plays; `copy`: a new `State` copied from the old; "
        "`shell`: a new `State` of two fields)",
        ["listed", "copy", "shell"],
        [],
    ),
]


@pytest.mark.parametrize(
    ("script", "sentence", "options", "gone"),
    _SCRIPT_OPTIONS,
    ids=[f"{script}-{i}" for i, (script, *_) in enumerate(_SCRIPT_OPTIONS)],
)
def test_the_benchmark_scripts_take_the_options_the_changelog_names(
    script: str,
    sentence: str,
    options: list[str],
    gone: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    says("CHANGELOG.md", sentence)
    usage = _script_help(ROOT / script, monkeypatch, capsys)

    def offered(option: str) -> bool:  # as a whole word: --ismcts is not --ismcts-games
        return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", usage) is not None

    assert [option for option in options if not offered(option)] == []
    assert [option for option in gone if offered(option)] == []


@pytest.mark.parametrize(
    ("script", "sentence", "fragments"),
    [
        (
            "benchmarks/playouts.py",
            "`benchmarks/playouts.py`'s docstring said 0.3% for `rollout`; it now says 2%, and "
            "to compare medians over `PYTHONHASHSEED=0` to `3`.",
            ["a difference under about 2%", "``PYTHONHASHSEED=0`` to ``3``"],
        ),
        (
            "benchmarks/playouts.py",
            "plays one workload and nothing else, for callgrind (the docstring has the command)",
            ["valgrind --tool=callgrind", "--only"],
        ),
        (
            "benchmarks/bytecodes.py",
            "the page's own baseline, commit 95844c0, is named now, and "
            "`benchmarks/bytecodes.py`'s docstring says so",
            ["95844c0"],
        ),
        (
            "benchmarks/estimate_ab.py",
            "(`benchmarks/estimate_ab.py`, new: this tree's ISMCTS against a revision's, whose "
            "modules it loads from git; its docstring has the commands)",
            ["python benchmarks/estimate_ab.py", "--rev"],
        ),
    ],
)
def test_the_benchmark_docstrings_say_what_the_changelog_says_they_say(
    script: str, sentence: str, fragments: list[str]
) -> None:
    says("CHANGELOG.md", sentence)
    docstring = _script(ROOT / script).__doc__ or ""
    assert [fragment for fragment in fragments if fragment not in _flat(docstring)] == []


def test_strength_without_pair_plays_four_match_ups_of_200_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    says(
        "README.md",
        "(hours with its defaults, four match-ups of 200 matches: `--pair A B --games N` "
        "measures one;",
    )
    says("CHANGELOG.md", "`docs/strength.md` names the four match-ups `benchmarks/strength.py`")
    strength = _script(ROOT / "benchmarks" / "strength.py")

    class Parsed(Exception):
        pass

    def stop(parser: object, args: object) -> None:
        raise Parsed(args)

    monkeypatch.setattr(strength, "_check_seating", stop)
    monkeypatch.setattr(sys, "argv", ["strength.py"])
    with pytest.raises(Parsed) as parsed:
        strength.main()
    args = parsed.value.args[0]
    assert args.pair is None and args.games == 200
    assert len(strength.LADDER) == 4


# (module, name, the sentence that names it): the helpers and constants the entries name
# that no other test imports.
_NAMED = [
    (
        "chkobba._describe",
        "plain_flag",
        "The checks are shared (`chkobba._describe.plain_flag`, `reset_seed`, `reset_options`);",
    ),
    (
        "chkobba._describe",
        "reset_seed",
        "The checks are shared (`chkobba._describe.plain_flag`, `reset_seed`, `reset_options`);",
    ),
    (
        "chkobba._describe",
        "integer_count",
        "(by its dtype, one helper `_describe.integer_count` for both)",
    ),
    (
        "chkobba._describe",
        "first_unknown",
        "The first unknown name is named, then other keys (one helper, `first_unknown`,",
    ),
    (
        "chkobba._kernel",
        "kept_with_kernels",
        "They are emptied with the kernels now (`_kernel.kept_with_kernels`).",
    ),
    (
        "chkobba._kernel",
        "refill_plan",
        "one cached per-seating getter (the kernel's `refill_plan`, also `rollout`'s)",
    ),
    ("chkobba._kernel", "is_void", "(through `_kernel.is_void`, which lost its own loop"),
    (
        "chkobba.errors",
        "items_of",
        "(through one helper, `chkobba.errors.items_of`, for collection arguments)",
    ),
    (
        "chkobba.checks",
        "deal_score_problem",
        "(through `chkobba.checks.deal_score_problem`)",
    ),
    ("chkobba.bots.base", "not_a_bot", "both are right now (`bots.base.not_a_bot`)"),
    (
        "chkobba.render",
        "board_line",
        "`chkobba.render.board_line(label, text)` makes such a line.",
    ),
    ("chkobba.bots.registry", "PRESETS", "`ismcts:v1` (and `PRESETS` in `chkobba.bots.registry`)"),
]


@pytest.mark.parametrize(
    ("module", "name", "sentence"), _NAMED, ids=[f"{module}.{name}" for module, name, _ in _NAMED]
)
def test_the_helpers_the_changelog_names_are_where_it_says(
    module: str, name: str, sentence: str
) -> None:
    says("CHANGELOG.md", sentence)
    assert hasattr(importlib.import_module(module), name)


def test_the_presets_write_out_the_0_1_0_search() -> None:
    says(
        "CHANGELOG.md",
        "`ismcts:v1` (and `PRESETS` in `chkobba.bots.registry`): the 0.1.0 ISMCTS "
        "configuration written out, so comparisons with it can be rerun.",
    )
    from chkobba.bots import BotSpec
    from chkobba.bots.registry import PRESETS

    assert set(PRESETS) == {"ismcts:v1"}
    assert BotSpec.parse(PRESETS["ismcts:v1"]) == BotSpec.parse("ismcts:v1")
    assert dict(BotSpec.parse(PRESETS["ismcts:v1"]).options) == {
        "iterations": 800,
        "exploration": 0.7,
        "epsilon": 0.1,
        "horizon": 6,
    }


def test_the_bots_view_fault_is_the_views_one() -> None:
    says(
        "CHANGELOG.md",
        "(`views.view_fault`, one helper where there were three: the bots' `view_fault` is "
        "the same function)",
    )
    from chkobba.bots import base
    from chkobba.views import view_fault

    assert base.view_fault is view_fault


def test_the_random_module_is_now_the_shuffle_module() -> None:
    says(
        "CHANGELOG.md",
        "The internal module `chkobba._random` is now `chkobba._shuffle`: from inside "
        "`src/chkobba` it shadowed CPython's own `_random`, which broke `import random`.",
    )
    assert importlib.util.find_spec("chkobba._shuffle") is not None
    assert importlib.util.find_spec("chkobba._random") is None
    assert not (Path(chkobba.__file__).parent / "_random.py").exists()


# --- CHANGELOG.md: names kept, aliases and where things live -------------------------------


def test_the_categories_are_defined_in_rules_and_re_exported_unchanged() -> None:
    says(
        "CHANGELOG.md",
        "`chkobba.scoring.CATEGORIES` is now defined in `chkobba.rules` and re-exported unchanged.",
    )
    from chkobba import rules, scoring

    assert scoring.CATEGORIES is rules.CATEGORIES
    assert "CATEGORIES" in scoring.__all__  # public where 0.1.0 had it


def test_primiera_named_like_the_categories_reads_without_a_warning() -> None:
    says(
        "CHANGELOG.md",
        "now warn with a `DeprecationWarning` pointing at the caller's line (they were silent "
        "aliases); `primiera`, named like the categories, does not warn.",
    )
    half = len(DECK) // 2
    score = score_deal((DECK[:half], DECK[half:]), (0, 0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert score.primiera == score.primiera_winner
    assert [str(warning.message) for warning in caught] == []


def test_deal_score_keeps_an_instance_dict_not_slots() -> None:
    says(
        "CHANGELOG.md",
        "`DealScore` is no longer slotted, so the engine builds one by writing its instance "
        "dict at once",
    )
    from chkobba import DealScore

    half = len(DECK) // 2
    score = score_deal((DECK[:half], DECK[half:]), (1, 0))
    assert "__slots__" not in DealScore.__dict__
    assert isinstance(vars(score), dict) and vars(score)["chkobbas"] == (1, 0)


# --- CHANGELOG.md: behaviours ---------------------------------------------------------------


def test_bytes_are_illegal_moves_to_apply_and_game_but_bad_notation_to_parse_move() -> None:
    says(
        "CHANGELOG.md",
        '`apply(state, "QH")` and `Game.play(b"QH")` raising `IllegalMoveError` where '
        '`parse_move(b"QH")` raises `NotationError` (changing a class is a contract change)',
    )
    state = new_match()
    with pytest.raises(IllegalMoveError):
        apply(state, "QH")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        Game().play(b"QH")  # type: ignore[arg-type]
    with pytest.raises(NotationError) as caught:
        parse_move(b"QH")  # type: ignore[arg-type]
    assert not isinstance(caught.value, IllegalMoveError)


def test_numpy_arrays_for_a_bots_name_or_for_points_are_refused_by_name() -> None:
    np = pytest.importorskip("numpy")
    says(
        "CHANGELOG.md",
        "`Ratings.difference`/`win_probability` with a name that is not text (a numpy "
        "array) raised numpy's error;",
    )
    says("CHANGELOG.md", "`points_text` checks its value and its `sign`")
    from chkobba.bots.analysis import points_text
    from chkobba.ratings import bradley_terry

    ratings = bradley_terry(["a", "b"], [[0, 3], [1, 0]])
    for call in (
        lambda: ratings.difference(np.array(["a"]), "b"),
        lambda: ratings.win_probability("a", np.array(["b"])),
    ):
        with pytest.raises(chkobba.ChkobbaError, match=r"^a bot's name is text, not array\("):
            call()
    with pytest.raises(chkobba.ChkobbaError, match=r"^points_text: expected a number of points"):
        points_text(np.array([1.0, 2.0]))


def test_the_command_line_takes_a_bots_time_limit_as_written() -> None:
    says(
        "CHANGELOG.md",
        '`make_bot("ismcts:seconds=1e308")` searches as long as it is told, from the command '
        "line too (`play --opponent`, `simulate --bots`, `analyse --bot` take the spec as "
        "written; only `demo --delay` is capped, at 60 s).",
    )
    # iterations=1: the bot thinks at once whatever its time limit. (The text said the
    # command line capped the limit at 60 s; it never did.)
    code, out, _ = run_cli(
        "simulate", "--games", "1", "--bots", "ismcts:seconds=1e308,iterations=1", "random"
    )
    assert code == 0 and "ismcts:seconds=1e+308,iterations=1" in out
    code, _, err = run_cli("demo", "--delay", "61")
    assert code == 2 and "60" in err


def test_the_note_on_numpy_bots_says_they_are_refused_now() -> None:
    np = pytest.importorskip("numpy")
    from chkobba.arena import play_match

    with pytest.raises(chkobba.ChkobbaError, match="numpy's values have a choose method"):
        play_match([np.int64(1), "random"], seed=1)
    says("CHANGELOG.md", 'a later entry below ("numpy\'s values are no bots") refuses them')
    stale = (
        "Left alone: any object with a `choose` method passes as a bot, numpy scalars "
        "included (they have one); the failure then comes from numpy, inside `play_match`."
    )
    assert _flat(stale) not in _flat(_text("CHANGELOG.md"))


def test_the_note_on_replay_game_says_it_reads_one_record_at_a_time_now() -> None:
    says(
        "CHANGELOG.md",
        "they now read the records one at a time and stop at the one chosen",
    )
    says("CHANGELOG.md", "(it reads one record at a time since: see below)")
    stale = "`replay --game N` still reads a whole file of records at once"
    assert _flat(stale) not in _flat(_text("CHANGELOG.md"))


def test_the_note_on_numpy_arrays_for_names_and_points_says_they_are_refused_now() -> None:
    says("CHANGELOG.md", "left alone then; both refuse it by name since (below).")
    stale = (
        "a numpy array where `Ratings.difference` or `points_text` takes a scalar raises "
        "numpy's `ValueError`"
    )
    assert _flat(stale) not in _flat(_text("CHANGELOG.md"))


def test_the_schemas_bound_what_the_library_bounds() -> None:
    says(
        "CHANGELOG.md",
        "The shipped JSON schemas (state, view, record) give the same bounds as `maximum`.",
    )
    says("CHANGELOG.md", "capture values are at most 1000 (`chkobba.rules.CAPTURE_VALUE_LIMIT`,")
    from chkobba.rules import CAPTURE_VALUE_LIMIT
    from chkobba.state import HELD_SCORE_LIMIT, SCORE_LIMIT

    assert Record.json_schema()["properties"]["scores"]["items"]["maximum"] == SCORE_LIMIT
    for held in (State.json_schema(), PlayerView.json_schema(), PublicView.json_schema()):
        assert held["properties"]["scores"]["items"]["maximum"] == HELD_SCORE_LIMIT
    for schema in (State.json_schema(), PlayerView.json_schema(), Record.json_schema()):
        rules = schema.get("$defs", {}).get("rules") or schema["properties"]["rules"]
        assert rules["properties"]["capture_values"]["items"]["maximum"] == CAPTURE_VALUE_LIMIT
        assert rules["properties"]["target"]["maximum"] == 10_000
        assert rules["properties"]["name"]["maxLength"] == 60
    for schema in (State.json_schema(), PlayerView.json_schema()):
        deal_score = schema["$defs"]["deal_score"]["properties"]
        assert deal_score["chkobbas"]["items"]["maximum"] == 20  # "at most 20 chkobbas a deal"
        assert deal_score["primiera_sums"]["items"]["maximum"] == 84  # "the four sevens"


def test_the_schemas_players_is_one_of_the_seven_increasing_lists() -> None:
    says(
        "CHANGELOG.md",
        "`players`: one of the seven increasing lists",
    )
    from chkobba.rules import PLAYER_COUNTS

    every = sorted(
        ([count for i, count in enumerate(PLAYER_COUNTS) if bits >> i & 1] for bits in range(1, 8)),
        key=lambda counts: (len(counts), counts),
    )
    for schema in (State.json_schema(), PlayerView.json_schema(), Record.json_schema()):
        rules = schema.get("$defs", {}).get("rules") or schema["properties"]["rules"]
        enum = rules["properties"]["players"]["enum"]
        assert sorted(enum, key=lambda counts: (len(counts), counts)) == every


def test_the_dev_profile_suppresses_the_too_slow_health_check_as_ci_does() -> None:
    says(
        "CHANGELOG.md",
        "The `dev` profile now suppresses the too-slow health check, as `ci` does, so a "
        "loaded machine cannot fail it.",
    )
    for name in ("ci", "dev"):
        assert HealthCheck.too_slow in settings.get_profile(name).suppress_health_check


# --- pyproject.toml, setup.py, MANIFEST.in and .ci/run: what the texts say of them --------


def test_python_3_10_or_newer_with_a_classifier_for_each_python_ci_runs() -> None:
    says("README.md", "Python 3.10 or newer: CI runs the whole suite under 3.11")
    says("CHANGELOG.md", "pyproject.toml lists the versions as classifiers.")
    project = _pyproject()["project"]
    assert project["requires-python"] == ">=3.10"
    versions = [
        entry.rpartition(":: ")[2]
        for entry in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", entry)
    ]
    assert versions == ["3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]


def test_ci_runs_the_suite_without_the_extras_under_the_other_pythons_with_40_examples() -> None:
    says(
        "README.md",
        "and the suite without the optional extras (with 40 hypothesis examples a property "
        "instead of 100) under 3.10, 3.12, 3.13, 3.14 and 3.15 (a version the machine's "
        "pyenv lacks comes from Debian's packages of it: `tools/debian_python.py`).",
    )
    ci = _text(".ci/run")
    assert "for version in 3.10 3.12 3.13 3.14 3.15; do" in ci
    for version in ("3.10", "3.12", "3.13", "3.14", "3.15"):  # each is run, in a lane
        assert ci.count(f"with_python {version}") == 1
    assert """/bin/python" -m pip install --quiet -e '.[test]'""" in ci  # the test tools only
    with_python = ci.split("with_python() {")[1].split("\n}\n")[0]
    assert "HYPOTHESIS_PROFILE=dev" in with_python
    assert settings.get_profile("dev").max_examples == 40
    assert settings.get_profile("ci").max_examples == 100


def test_ci_stops_the_other_pythons_suites_at_its_deadline_unless_one_failed() -> None:
    says(
        "README.md",
        "Those five give way to CI's 20 minutes on a slow day: one still running at 18.5 "
        "minutes stops after the test under way, is named at the end of the log, and fails "
        "the run only if it had failed a test by then.",
    )
    ci = _text(".ci/run")
    assert "deadline=$(($(date +%s) + ${CI_DEADLINE_SECONDS:-1110}))" in ci  # 18.5 minutes
    with_python = ci.split("with_python() {")[1].split("\n}\n")[0]
    assert 'env CHKOBBA_TEST_DEADLINE="$deadline"' in with_python
    # Only a suite stopped by that deadline having failed nothing counts as late.
    assert 'grep -q "Interrupted: CHKOBBA_TEST_DEADLINE reached"' in with_python
    assert "echo late >" in with_python
    assert 'late) echo "$name" >>"$work/cut" ;;' in ci and "*) failed=1 ;;" in ci
    # The README's suite and the compiled wheel's run whole.
    assert "\npython -m pytest -q\n" in ci
    given = [line for line in ci.splitlines() if "CHKOBBA_TEST_DEADLINE" in line]
    assert all(line in with_python or line.lstrip().startswith("#") for line in given)
    compiled = [line for line in ci.splitlines() if line.strip().startswith("suite compiled ")]
    assert "DEADLINE" not in compiled[0]


@pytest.mark.out_of_process
@pytest.mark.parametrize("deadline", ["1", "99999999999"])
def test_past_the_test_deadline_a_run_stops_after_the_test_under_way(deadline: str) -> None:
    """conftest.py's CHKOBBA_TEST_DEADLINE, which .ci/run gives the other Pythons' suites:
    past it, pytest stops after the test under way (status 2) with its summary so far."""
    chosen = ["tests/test_engine.py", "-k", "illegal_moves_name_the_move"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *chosen],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CHKOBBA_TEST_DEADLINE": deadline},
        check=False,
    )
    if deadline == "1":  # long past: one test, then the stop
        assert done.returncode == 2, done.stdout
        assert "Interrupted: CHKOBBA_TEST_DEADLINE reached" in done.stdout
        assert re.search(r"^1 passed, \d+ deselected", done.stdout, re.MULTILINE)
    else:
        assert done.returncode == 0, done.stdout
        assert "Interrupted" not in done.stdout


def test_ci_runs_the_tests_folder_only_against_the_compiled_wheel() -> None:
    says(
        "README.md",
        "(CI runs the tests in `tests/` on both builds; the doctests of `docs/` and of the "
        "docstrings run on the pure-Python one only).",
    )
    ci = _text(".ci/run")
    assert "CHKOBBA_MYPYC=1 python -m pip wheel" in ci
    compiled = [line for line in ci.splitlines() if line.strip().startswith("suite compiled ")]
    assert len(compiled) == 1 and compiled[0].endswith("-m pytest -q -p no:cacheprovider tests")


def test_attrs_is_the_only_runtime_dependency() -> None:
    says("README.md", "The only runtime dependency is `attrs`")
    assert _requirement_names(_pyproject()["project"]["dependencies"]) == {"attrs"}


def test_all_is_every_optional_extra_of_the_library() -> None:
    says(
        "README.md",
        "Optional extras: `cli` (`rich`), `pettingzoo`, `openspiel`, `gymnasium` (a "
        "single-agent training environment), `dask` (tournaments on a cluster), and `all` for "
        "every one of them.",
    )
    extras = _extras()
    assert set(extras) == {"cli", "pettingzoo", "openspiel", "gymnasium", "dask", "all"} | {
        "test",
        "docs",
    }
    (everything,) = extras["all"]
    match = re.fullmatch(r"chkobba\[([\w,]+)\]", everything)
    assert match is not None
    assert set(match.group(1).split(",")) == {"cli", "pettingzoo", "openspiel", "gymnasium", "dask"}


def test_each_extra_brings_the_package_the_readme_names() -> None:
    says(
        "README.md",
        "(`all` installs the optional extras — the command line's `rich`, PettingZoo, "
        "OpenSpiel, Gymnasium and Dask's `distributed` — and `docs` the documentation site's "
        "tools, so their tests run too;",
    )
    extras = {name: _requirement_names(packages) for name, packages in _extras().items()}
    assert "rich" in extras["cli"]
    assert "pettingzoo" in extras["pettingzoo"]
    assert "open_spiel" in extras["openspiel"]
    assert "gymnasium" in extras["gymnasium"]
    assert "distributed" in extras["dask"]
    assert {"mkdocs", "mkdocs-material", "mkdocstrings"} <= extras["docs"]


def test_the_readme_test_command_installs_extras_that_exist_and_ci_runs_it() -> None:
    says("README.md", "python -m pip install -e '.[test,all,docs]' && python -m pytest -q")
    says(
        "CHANGELOG.md",
        "it is now `pip install -e '.[test,all,docs]'`, and the README says how long the suite "
        "takes. `.ci/run` installs the same.",
    )
    assert {"test", "all", "docs"} <= set(_extras())
    ci = _text(".ci/run")
    assert "python -m pip install --quiet -e '.[test,all,docs]'" in ci
    assert "\npython -m pytest -q\n" in ci


def test_the_test_extra_pins_ruff_and_mypy_to_one_minor_series_and_holds_build() -> None:
    says(
        "CHANGELOG.md",
        "The `test` extra pins the checkers CI runs to one minor series (`ruff>=0.17,<0.18`, "
        "`mypy>=2.4,<2.5`;",
    )
    says("CHANGELOG.md", "(`build` joins the `test` extra)")
    test = _extras()["test"]
    assert "ruff>=0.17,<0.18" in test and "mypy>=2.4,<2.5" in test
    assert {"pytest", "hypothesis", "build"} <= _requirement_names(test)


def test_the_sdist_ships_what_its_own_test_suite_needs() -> None:
    says(
        "CHANGELOG.md",
        "The source distribution runs its own tests: `MANIFEST.in` ships the test helpers "
        "(`tests/helpers.py`, `tests/strategies.py`), both `conftest.py`, `docs/`, `examples/`, "
        "`benchmarks/`, `tools/` and the files the tests read.",
    )
    manifest = _text("MANIFEST.in").split()
    for folder in ("tests", "docs", "examples", "benchmarks", "tools"):
        assert f"graft {folder}" in " ".join(manifest), folder
    # The files the tests read (tests/test_docs_site.py: the CHANGELOG, mkdocs.yml, .ci/run,
    # .gitignore) and both conftest.py; pyproject.toml and the README go in any sdist.
    for name in ("conftest.py", "src/conftest.py", "CHANGELOG.md", "mkdocs.yml", ".ci/run"):
        assert name in manifest and (ROOT / name).is_file(), name
    assert ".gitignore" in manifest


def test_the_compiled_build_compiles_the_hot_private_modules_only() -> None:
    says("README.md", "`CHKOBBA_MYPYC=1 python -m pip install .`")
    says(
        "CHANGELOG.md",
        "with `_kernel` and `bots._policy_rollout` they are the compiled modules. Public "
        "functions stay pure Python,",
    )
    setup = _text("setup.py")
    assert 'os.environ.get("CHKOBBA_MYPYC", "") != "1"' in setup
    listed = setup.split("COMPILED = [")[1].split("]")[0]
    compiled = re.findall(r'"src/(chkobba/[\w/]+)\.py"', listed)
    assert sorted(compiled) == [
        "chkobba/_kernel",
        "chkobba/_playout",
        "chkobba/_plays",
        "chkobba/_successors",
        "chkobba/bots/_policy_rollout",
    ]
    assert all(path.rpartition("/")[2].startswith("_") for path in compiled)


def test_the_schemas_and_the_type_marker_are_package_data() -> None:
    says("README.md", "states, each player's view, a spectator's view, move outcomes and")
    says("README.md", "format with a shipped schema")
    says(
        "CHANGELOG.md",
        "Both formats have strict JSON Schemas (draft 2020-12) shipped in the package,",
    )
    shipped = _pyproject()["tool"]["setuptools"]["package-data"]["chkobba"]
    assert set(shipped) == {
        "py.typed",
        "record.schema.json",
        "state.schema.json",
        "view.schema.json",
        "public_view.schema.json",
        "rules.schema.json",
        "outcome.schema.json",
        "deal_score.schema.json",
    }
    package = Path(chkobba.__file__).parent
    assert all((package / name).is_file() for name in shipped)
    for schema in (
        State.json_schema(),
        PlayerView.json_schema(),
        PublicView.json_schema(),
        Rules.json_schema(),
        MoveOutcome.json_schema(),
    ):
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_chkobba_command_is_the_cli_main() -> None:
    says("README.md", "python -m pip install -e '.[cli]' && chkobba demo --seed 1")
    scripts = _pyproject()["project"]["scripts"]
    assert scripts == {"chkobba": "chkobba.cli:main"}
    module, _, function = scripts["chkobba"].partition(":")
    assert getattr(importlib.import_module(module), function) is chkobba.cli.main


@pytest.mark.parametrize(
    ("script", "sentence", "fragments"),
    [
        (
            "examples/openspiel_ismcts.py",
            "`examples/openspiel_ismcts.py` runs OpenSpiel's `evaluate_bots` with the "
            "`restart_at` workaround for the Python ISMCTS.",
            ["from open_spiel.python.algorithms import evaluate_bots, ismcts", "def restart_at("],
        ),
        (
            "examples/train_maskable_ppo.py",
            "`examples/train_maskable_ppo.py` (MaskablePPO vs random, then greedy)",
            ["from sb3_contrib import MaskablePPO", "--random-steps", "--greedy-steps"],
        ),
    ],
)
def test_the_examples_do_what_the_changelog_says(
    script: str, sentence: str, fragments: list[str]
) -> None:
    says("CHANGELOG.md", sentence)
    source = _text(script)  # read, not run: they need their toolkits
    assert [fragment for fragment in fragments if fragment not in source] == []


# --- README.md and docs/index.md: the pages and the commands -------------------------------


def test_the_readme_lists_every_page_and_the_changelog() -> None:
    says("CHANGELOG.md", "the README and home page list every page")
    table = _text("README.md").split("| page | what it covers |")[1].split("\n\n")[0]
    linked = set(re.findall(r"https://chkobba\.readthedocs\.io/en/latest/(\w+)/\)", table))
    pages = {page.stem for page in (ROOT / "docs").glob("*.md")}
    assert linked == pages - {"index", "changelog"}  # the README is the home page's text
    assert "[CHANGELOG.md](https://github.com/chkobba/chkobba/blob/main/CHANGELOG.md)" in table


def test_the_home_page_lists_every_other_page() -> None:
    says("CHANGELOG.md", "the README and home page list every page")
    table = _text("docs/index.md").split("| page | what it covers |")[1].split("\n\n")[0]
    linked = set(re.findall(r"\]\((\w+\.md)\)", table))
    assert linked == {page.name for page in (ROOT / "docs").glob("*.md")} - {"index.md"}


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        (
            "README.md",
            "| [docs/cli.md](https://chkobba.readthedocs.io/en/latest/cli/) | the `chkobba` "
            "command: `demo`, `play`, `simulate`, `replay`, `analyse`, `rules` |",
        ),
        (
            "docs/index.md",
            "| [The chkobba command](cli.md) | `demo`, `play`, `simulate`, `replay`, "
            "`analyse`, `rules` |",
        ),
    ],
)
def test_the_command_pages_row_names_every_subcommand(name: str, sentence: str) -> None:
    says(name, sentence)
    assert re.findall(r"`(\w+)`", sentence.rpartition("command")[2]) == _commands()


def _python_blocks_without_prompts(page: Path) -> int:
    blocks = re.findall(
        r"^( *)```python\n(.*?)^\1```", page.read_text(encoding="utf-8"), re.S | re.M
    )
    return sum(">>>" not in body for _, body in blocks)


def test_the_python_blocks_that_do_not_run_are_the_ones_the_home_page_lists() -> None:
    says(
        "docs/index.md",
        "The few Python blocks without prompts are not run as doctests: the PettingZoo loop, "
        "the OpenSpiel game and the PettingZoo registry and a bot subclass in "
        "[Adapters](adapters.md), the tournament script and the Dask client in [Clusters and "
        "datasets](cluster.md), the instruction-counting script in "
        "[Performance](performance.md) and the bot protocol's signature in [Bots](bots.md).",
    )
    counts = {
        page.name: _python_blocks_without_prompts(page) for page in (ROOT / "docs").glob("*.md")
    }
    assert {name: count for name, count in counts.items() if count} == {
        "adapters.md": 4,
        "cluster.md": 2,
        "performance.md": 1,
        "bots.md": 1,
    }


def test_the_pages_examples_with_prompts_run_in_the_suite() -> None:
    says(
        "docs/index.md",
        "Every example with `>>>` prompts on these pages runs as a doctest in the project's "
        "test suite (`python -m pytest docs`)",
    )
    pytest_options = _pyproject()["tool"]["pytest"]["ini_options"]
    assert "docs" in pytest_options["testpaths"]
    assert "--doctest-glob='*.md'" in pytest_options["addopts"].split()


def test_the_home_page_clones_the_projects_source() -> None:
    says(
        "docs/index.md",
        "git clone https://github.com/chkobba/chkobba && cd chkobba   # not yet on PyPI",
    )
    assert _pyproject()["project"]["urls"]["Source"] == "https://github.com/chkobba/chkobba"


def test_the_performance_page_includes_the_readmes_figures() -> None:
    says(
        "CHANGELOG.md",
        "The README keeps the table of figures (the page includes it from there, so the "
        "figures live in one place)",
    )
    readme = _text("README.md")
    start, end = "<!-- --8<-- [start:figures] -->", "<!-- --8<-- [end:figures] -->"
    assert readme.count(start) == 1 and readme.count(end) == 1
    assert "| step API |" in readme.split(start)[1].split(end)[0]
    assert '--8<-- "README.md:figures"' in _text("docs/performance.md")


def test_the_changelog_page_is_the_changelog() -> None:
    says("CHANGELOG.md", "a changelog page and a home page;")
    assert _text("docs/changelog.md").strip() == '--8<-- "CHANGELOG.md"'


def test_the_site_does_not_publish_the_docs_conftest() -> None:
    says("CHANGELOG.md", "the site no longer publishes `docs/conftest.py`;")
    assert (ROOT / "docs" / "conftest.py").is_file()
    config = _text("mkdocs.yml")
    assert re.search(r"^exclude_docs: \|\n  conftest\.py$", config, re.M)


# --- docs/reference.md: the API reference --------------------------------------------------


def test_the_api_reference_has_an_entry_for_every_public_module() -> None:
    says("CHANGELOG.md", "the API reference lists every public module")
    names = {module.__name__ for module in public_modules()}
    assert sorted(names - set(_reference_entries())) == []


def _shown_names() -> dict[tuple[str, str], object]:
    """(module, name) of every name some entry of the API reference shows, with its value;
    the adapters' entries where their extra is installed."""
    shown: dict[tuple[str, str], object] = {}
    for module, members in _reference_entries().items():
        try:
            loaded = importlib.import_module(module)
        except ModuleNotFoundError:
            assert module in EXTRA_MODULES, f"{module} does not import"
            continue  # chkobba.gymnasium without gymnasium, and so on
        everything: list[str] = loaded.__all__
        for name in everything if members is None else members:
            shown[module, name] = getattr(loaded, name)
    return shown


_MODULES = sorted(module.__name__ for module in public_modules())


@pytest.mark.parametrize("module", _MODULES)
def test_every_public_name_has_an_entry_in_the_api_reference(module: str) -> None:
    says("README.md", "every public name, from the docstrings;")
    says(
        "docs/reference.md",
        "The bots that `chkobba.bots` exports have their entries under it, so the entries of "
        "the modules that define them (`chkobba.bots.base`, `random_bot`, `greedy`, "
        "`sampling`, `ismcts` and `expert`) list only their other names.",
    )
    # A name is shown by its module's entry, or by another entry showing the same object
    # under the same name (chkobba.bots shows GreedyBot for chkobba.bots.greedy).
    shown = _shown_names()
    loaded = importlib.import_module(module)
    missing = [
        name
        for name in loaded.__all__
        if (module, name) not in shown
        and not any(
            other == name and value is getattr(loaded, name) for (_, other), value in shown.items()
        )
    ]
    assert missing == []


def test_the_reference_pages_own_examples_import_from_the_modules_it_names() -> None:
    says(
        "docs/reference.md",
        "every other name comes from its own module, the one its heading shows: "
        "`from chkobba.arena import tournament`, `from chkobba.bots import GreedyBot`, "
        "`from chkobba.records import MOVE_LIMIT`.",
    )
    shown = _shown_names()
    for module, name in (
        ("chkobba.arena", "tournament"),
        ("chkobba.bots", "GreedyBot"),
        ("chkobba.records", "MOVE_LIMIT"),
    ):
        assert (module, name) in shown, (module, name)
        assert name not in chkobba.__all__, name  # not from the package itself


def test_the_reference_entries_of_the_bot_modules_leave_out_what_chkobba_bots_shows() -> None:
    says(
        "docs/reference.md",
        "so the entries of the modules that define them (`chkobba.bots.base`, `random_bot`, "
        "`greedy`, `sampling`, `ismcts` and `expert`) list only their other names.",
    )
    from chkobba import bots

    entries = _reference_entries()
    for module in ("base", "random_bot", "greedy", "sampling", "ismcts", "expert"):
        listed = entries[f"chkobba.bots.{module}"]
        assert listed is not None, module
        assert set(listed) & set(bots.__all__) == set(), module
