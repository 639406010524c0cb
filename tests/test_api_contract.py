"""The public API's contract with the 0.1.0 release, checked by griffe.

Public names are a contract: a name or a signature that must change keeps the old one as
a documented alias for one release (CHANGELOG.md). griffe, the tool the documentation
site reads the docstrings with, compares the public API of two trees statically and
lists every change that can break a caller: a name removed, a parameter removed,
renamed, moved, made keyword-only or given another default, an attribute's type
changed. Against 0.1.0 (commit 3ecc727) it finds exactly the three changes below, each
announced in CHANGELOG.md and still working the 0.1.0 way for this release, which the
tests after it check. A change it finds that is not among them fails the first test:
either it is a mistake, or it needs its alias, its CHANGELOG entry and its place here.

The tests need git history (a clone, not the sdist) and griffe (the ``docs`` extra); they
skip without them.
"""

from __future__ import annotations

import random
import subprocess
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pytest

from chkobba import apply, new_match, random_shuffle, render

ROOT = Path(__file__).resolve().parent.parent
RELEASE = "3ecc727"  # 0.1.0, 2026-11-29

#: Every change griffe finds against 0.1.0, by (kind, object, parameter), with where the
#: CHANGELOG announces it.
ANNOUNCED = {
    ("PARAMETER_CHANGED_KIND", "chkobba.render.render", "position"): (
        "render's first parameter is `state`; 0.1.0's keyword `position=` still works for "
        "this release, with a DeprecationWarning"
    ),
    ("OBJECT_REMOVED", "chkobba.state.SIDES", None): (
        "deprecated: still importable for this release, with a DeprecationWarning, "
        "and out of the module's __all__"
    ),
    ("PARAMETER_CHANGED_DEFAULT", "chkobba.bots.ismcts.ISMCTSBot.__init__", "iterations"): (
        "None stands for DEFAULT_ITERATIONS (800, as in 0.1.0) unless `seconds` is given"
    ),
}


def _release_is_here() -> bool:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{RELEASE}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return found.returncode == 0


def _griffe_version() -> tuple[int, ...]:
    """The installed griffe's version (griffelib's since griffe 2 split in two)."""
    for distribution in ("griffelib", "griffe"):
        try:
            return tuple(int(part) for part in version(distribution).split(".")[:2])
        except (PackageNotFoundError, ValueError):
            continue
    return (0,)


def _changes_since_the_release() -> dict[tuple[str, str, str | None], Any]:
    griffe = pytest.importorskip("griffe")
    if _griffe_version() < (2, 4):
        # Older griffe also reports the attrs fields whose declaration changed (24 of
        # them, converters and checks: Rules.target, Record.players...) as changed values.
        pytest.skip("needs griffe 2.4 or later (the newest under Python 3.10 is 2.3)")
    if not (ROOT / ".git").exists() or not _release_is_here():
        pytest.skip("no git history of 0.1.0 here (an sdist, or a shallow clone)")
    old = griffe.load_git("chkobba", ref=RELEASE, repo=ROOT, search_paths=["src"])
    new = griffe.load("chkobba", search_paths=[str(ROOT / "src")])
    changes = {}
    for change in griffe.find_breaking_changes(old, new):
        parameter = (
            getattr(change.old_value, "name", None) if "PARAMETER" in change.kind.name else None
        )
        changes[(change.kind.name, change.obj.path, parameter)] = change
    return changes


def test_every_change_that_can_break_a_0_1_0_caller_is_announced() -> None:
    changes = _changes_since_the_release()
    griffe = pytest.importorskip("griffe")
    unannounced = {
        key: change.explain(style=griffe.ExplanationStyle.MARKDOWN)
        for key, change in changes.items()
        if key not in ANNOUNCED
    }
    assert unannounced == {}
    assert set(changes) == set(ANNOUNCED)  # an entry no longer needed goes too


def test_render_still_takes_its_0_1_0_keyword() -> None:
    state = apply(new_match(), random_shuffle(random.Random(1)))
    with pytest.warns(DeprecationWarning, match="position"):
        board = render(position=state)
    assert board == render(state)


def test_the_0_1_0_constant_sides_is_still_there() -> None:
    import chkobba.state

    with pytest.warns(DeprecationWarning, match="SIDES is deprecated"):
        assert chkobba.state.SIDES == 2
    assert "SIDES" not in chkobba.state.__all__


def test_an_ismcts_bot_without_iterations_runs_0_1_0s_count() -> None:
    from chkobba.bots import ISMCTSBot
    from chkobba.bots.ismcts import DEFAULT_ITERATIONS

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ISMCTSBot().iterations == DEFAULT_ITERATIONS == 800
