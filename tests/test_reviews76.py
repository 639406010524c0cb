"""Fixes from the reviews of stop 76 (packaging, dependency bounds, what the suite never ran)."""

from __future__ import annotations

import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


# === setup.py: the compiled build never quietly becomes the pure one ======================


def _compiled_build() -> Callable[[], dict[str, Any]]:
    if not (ROOT / "setup.py").is_file():
        pytest.skip("no setup.py in this copy of the tree (mutmut's copies src, tests, docs)")
    # Not run as __main__, so setup() is not called: only the function is wanted.
    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")
    build: Callable[[], dict[str, Any]] = namespace["compiled_build"]
    return build


@pytest.mark.parametrize("command", ["bdist_wheel", "editable_wheel", "build_ext", "install"])
def test_a_compiled_build_without_mypyc_stops_with_what_to_install(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # Without build isolation setuptools ignores setup_requires, so a build asked for with
    # CHKOBBA_MYPYC=1 and no mypy installed made the pure package and said nothing.
    compiled_build = _compiled_build()
    monkeypatch.setenv("CHKOBBA_MYPYC", "1")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # importing it raises ImportError
    monkeypatch.setattr(sys, "argv", ["setup.py", command, "--dist-dir", "x"])
    with pytest.raises(SystemExit) as stopped:
        compiled_build()
    message = str(stopped.value)
    assert message.startswith("CHKOBBA_MYPYC=1 asks for the compiled build, which needs mypy")
    assert "with --no-build-isolation, install mypy>=1.8 first" in message


@pytest.mark.parametrize("command", ["egg_info", "dist_info", "sdist"])
def test_asked_what_the_compiled_build_needs_it_names_mypy(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # pip's isolated build first runs setup.py to ask for the build's requirements (the
    # egg_info command), installs them, then builds: that first question must not stop.
    compiled_build = _compiled_build()
    monkeypatch.setenv("CHKOBBA_MYPYC", "1")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    monkeypatch.setattr(sys, "argv", ["setup.py", command])
    assert compiled_build() == {"setup_requires": ["mypy>=1.8", "attrs>=23.1"]}


@pytest.mark.parametrize("value", [None, "", "0", "yes"])
def test_the_default_build_is_pure_python_whatever_is_installed(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    compiled_build = _compiled_build()
    if value is None:
        monkeypatch.delenv("CHKOBBA_MYPYC", raising=False)
    else:
        monkeypatch.setenv("CHKOBBA_MYPYC", value)
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    assert compiled_build() == {}
