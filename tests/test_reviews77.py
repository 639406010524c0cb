"""Findings of stop 77's reviews (docstrings and examples as living documentation; ...).

Each test pins a fix: it fails on the code before it.
"""

from __future__ import annotations

import inspect
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from chkobba import (
    PROFILES,
    ChkobbaError,
    Cut,
    Game,
    IllegalMoveError,
    Record,
    apply,
    capture_options,
    card,
    cards,
    illegal_reason,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    score_deal,
)
from chkobba.actions import num_actions
from chkobba.arena import play_match, tournament
from chkobba.bots import ISMCTSBot
from chkobba.bots.evaluation import side_estimates
from chkobba.bots.ismcts import SearchNode
from chkobba.features import feature_bounds
from chkobba.observations import observation_bounds
from chkobba.rules import not_a_profile
from tests.helpers import whole_match

# --- a profile's name where the core takes only the profile -------------------------------

NAMED: dict[str, Callable[[str], object]] = {
    "new_match": lambda rules: new_match(rules=rules),  # type: ignore[arg-type]
    "Game": lambda rules: Game(rules=rules),  # type: ignore[arg-type]
    "Record": lambda rules: Record(players=2, rules=rules),  # type: ignore[arg-type]
    "capture_options": lambda rules: capture_options(cards("2D"), card("2S"), rules),  # type: ignore[arg-type]
    "score_deal": lambda rules: score_deal(((), ()), (0, 0), rules=rules),  # type: ignore[arg-type]
    "play_match": lambda rules: play_match(["random", "random"], seed=1, rules=rules),  # type: ignore[arg-type]
    "tournament": lambda rules: tournament(["random", "random"], games=2, seed=1, rules=rules),  # type: ignore[arg-type]
    "num_actions": lambda rules: num_actions(rules),  # type: ignore[arg-type]
    "feature_bounds": lambda rules: feature_bounds(rules),  # type: ignore[arg-type]
    "observation_bounds": lambda rules: observation_bounds(rules),  # type: ignore[arg-type]
    "side_estimates": lambda rules: side_estimates(((), ()), (0, 0), rules),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", sorted(PROFILES))
@pytest.mark.parametrize("entry", sorted(NAMED))
def test_a_profiles_name_given_for_rules_is_pointed_to_the_profile(entry: str, name: str) -> None:
    # The adapters and the command line take a profile's name; the core takes the
    # profile only, and its refusal says where the profile of that name is.
    with pytest.raises(ChkobbaError) as caught:
        NAMED[entry](name)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).endswith(
        f"rules must be a Rules profile, not {name!r} (that profile is PROFILES[{name!r}])"
    )


@pytest.mark.parametrize("value", ["house", "TUNISIAN", None, 3])
def test_a_value_that_names_no_profile_gets_no_pointer(value: object) -> None:
    assert not_a_profile(value) == f"rules must be a Rules profile, not {value!r}"


# --- parse_move with a view: the engine's reason -------------------------------------------


@pytest.mark.parametrize("text", ["keep", "expose", "QH", "QH x 2D+6S"])
@pytest.mark.parametrize("when", ["shuffle", "over", "other's turn"])
def test_parse_move_with_a_view_gives_illegal_reasons_reason(when: str, text: str) -> None:
    # parse_move judged a view whose player was not to move by its own check, which
    # knew only someone else's turn: at the shuffle or after the match it said "Cut is
    # not allowed in phase SHUFFLE", where illegal_reason says nobody is to move.
    states, _ = whole_match(3)
    state = {"shuffle": states[0], "over": states[-1], "other's turn": states[1]}[when]
    player = 0 if state.current_player != 0 else 1
    view = observe(state, player)
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(text, view)
    assert str(caught.value) == illegal_reason(view, parse_move(text))


# --- what help() shows -------------------------------------------------------------------------


def test_a_records_tags_default_to_none_in_its_signature() -> None:
    # attrs' factory showed as ``tags=NOTHING`` (its placeholder) in help(Record).
    assert inspect.signature(Record).parameters["tags"].default is None
    assert Record(players=2).tags == {} and Record(players=2, tags=None).tags == {}


def test_a_search_tree_is_a_public_documented_node() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    view = observe(state, state.current_player)
    root = ISMCTSBot(iterations=30, seed=2).search(view)
    assert type(root) is SearchNode and root.side == -1
    assert sum(child.visits for child in root.children.values()) == 30
    child = next(iter(root.children.values()))
    assert repr(child) == (
        f"SearchNode(side={child.side}, visits={child.visits}, total={child.total:.3f},"
        f" avail={child.avail}, children={len(child.children)})"
    )
    assert inspect.signature(ISMCTSBot.search).return_annotation in (SearchNode, "SearchNode")


def test_a_records_json_ends_with_a_newline_as_its_file_does(tmp_path: Path) -> None:
    # As Record.to_json's docstring says; docs/records.md's example prints it.
    record = Record(players=2, tags={"event": "x"})
    path = tmp_path / "r.json"
    record.save(path)
    assert path.read_text(encoding="utf-8") == record.to_json()
    assert record.to_json().endswith("\n}\n") and not new_match().to_json().endswith("\n")
    assert not record.to_json(compact=True).endswith("\n")


# --- the lowest versions the extras allow ------------------------------------------------


def test_rich_is_told_not_to_read_no_color_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    # Output decides NO_COLOR (set and not empty, as no-color.org says); rich before 14
    # also took an empty NO_COLOR for "no colour", so chkobba's console tells it no.
    import io

    console = pytest.importorskip("rich.console")
    from chkobba.cli.output import Output

    given: list[dict[str, object]] = []
    made = console.Console.__init__

    def spy(self: object, *args: object, **options: object) -> None:
        given.append(options)
        made(self, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(console.Console, "__init__", spy)
    monkeypatch.setenv("NO_COLOR", "")
    assert Output(io.StringIO(), colour=True).rich is not None
    assert given and given[-1]["no_color"] is False


# --- worker processes whose pool stops feeding them -----------------------------------------

_FEEDER_REFUSED = """
import multiprocessing.queues, sys

def refuse(self):
    raise RuntimeError("can't start new thread")

if __name__ == "__main__":
    # The pool's thread starts its queue's thread when it first feeds the workers:
    # a machine out of threads refuses it there, after the matches were handed over.
    multiprocessing.queues.Queue._start_thread = refuse
    import chkobba.arena
    # Idle workers nothing can tell to exit are killed at once: no grace to wait out.
    chkobba.arena._STOP_SECONDS = 600.0
    from chkobba.cli import main
    sys.exit(main(["simulate", "--games", "2", "--bots", "greedy", "random", "--workers", "2"]))
"""


@pytest.mark.out_of_process
def test_a_pool_whose_thread_dies_is_refused_in_one_line_not_waited_for(tmp_path: Path) -> None:
    # docs/cluster.md: where worker processes cannot start, simulate says so in one line.
    # The pool's feeding thread died and its matches waited for ever (CPython fails
    # none of them); the tournament watches the thread. (With a grace of 600 s given to
    # the workers, as the script does, a run that waited for them would time out here.)
    script = tmp_path / "refused.py"
    script.write_text(_FEEDER_REFUSED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    # Python 3.12 and later break the pool themselves (BrokenProcessPool), and the
    # command says so in its own line for a broken pool; 3.10 and 3.11 waited for ever.
    assert done.stderr.splitlines()[-1] in {
        "chkobba simulate: error: worker processes cannot start: the process pool stopped"
        " before its workers took the matches (a thread it needed could not start)"
        " (--workers 1 plays without them)",
        "chkobba simulate: error: a worker process stopped unexpectedly (killed? out of memory?)",
    }


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX symbolic link")
def test_simulate_refuses_a_link_into_no_folder_without_asking_for_force(tmp_path: Path) -> None:
    # It said "'dangling' exists: give --force", and --force then failed: no such folder.
    from tests.helpers import run_cli

    (tmp_path / "dangling").symlink_to(tmp_path / "missing" / "x.jsonl")
    (tmp_path / "new").symlink_to(tmp_path / "made.jsonl")  # a link --force writes through
    args = ("simulate", "--games", "2", "--bots", "greedy", "random", "--records")
    code, _, err = run_cli(*args, str(tmp_path / "dangling"))
    assert code == 1 and "--force" not in err
    assert err.endswith(
        f"No such file or directory (a symbolic link into {str(tmp_path / 'missing')!r},"
        " which is no folder)\n"
    )
    code, _, forced = run_cli(*args, str(tmp_path / "dangling"), "--force")
    assert code == 1 and forced == err  # --force, told the same
    (tmp_path / "a file").touch()
    (tmp_path / "through").symlink_to(tmp_path / "a file" / "x.jsonl")  # through a file
    for force in ((), ("--force",)):
        code, _, err = run_cli(*args, str(tmp_path / "through"), *force)
        assert (code, err.endswith(": Not a directory\n"), "give --force" in err) == (
            1,
            True,
            False,
        )
    assert run_cli(*args, str(tmp_path / "new"))[0] == 2  # exists: --force asked for
    assert run_cli(*args, str(tmp_path / "new"), "--force")[0] == 0
    assert (tmp_path / "made.jsonl").read_text(encoding="utf-8").count("\n") == 2
