"""The documentation site (issue #11): its configuration, its build, and README links that
work on a package index page too."""

from __future__ import annotations

import doctest
import html
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import chkobba
from chkobba import Record
from tests.helpers import public_modules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n")[1].split("\n\n")[0]
    return re.findall(r"^  - [^:]+: (\S+\.md)$", nav, re.M)


def test_every_page_is_in_the_site_and_every_nav_entry_exists() -> None:
    pages = _nav_pages()
    assert sorted(pages) == sorted(p.name for p in DOCS.glob("*.md"))
    assert "reference.md" in pages and "index.md" in pages


def test_the_api_reference_is_generated_from_the_docstrings() -> None:
    reference = (DOCS / "reference.md").read_text(encoding="utf-8")
    assert "::: chkobba.records" in reference and "::: chkobba.snapshots" in reference
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "name: material" in config and "- mkdocstrings:" in config


def test_the_tools_and_the_ci_step_are_declared() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    docs_extra = re.search(r"^docs = \[(.*?)\]$", pyproject, re.M | re.S)
    assert docs_extra is not None
    for tool in ("mkdocs", "mkdocs-material", "mkdocstrings[python]", "mkdocstrings-python"):
        assert f'"{tool}>=' in docs_extra.group(1)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[docs]'" in ci and "mkdocs build --strict" in ci
    assert "site/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_the_version_is_one_and_says_it_is_unreleased() -> None:
    # Between releases the version is the next one's .dev0, so `chkobba --version` does
    # not claim to be the release whose names the CHANGELOG deprecates.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.search(r'^version = "(.+)"$', pyproject, re.M)
    assert declared is not None and declared.group(1) == chkobba.__version__
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d[^\]]*)\]", changelog, re.M)
    if "## [Unreleased]" in changelog:
        assert chkobba.__version__.endswith(".dev0") and chkobba.__version__ > released[0]
    else:
        assert chkobba.__version__ == released[0]


def test_readme_links_work_on_a_package_index_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert targets, "the README links to its documentation"
    relative = [t for t in targets if not t.startswith(("https://", "http://"))]
    assert relative == []
    assert "mkdocs serve" in readme  # how to read the site locally
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    urls = pyproject.split("[project.urls]\n")[1].split("\n\n")[0]
    for name in ("Documentation", "Source", "Changelog"):
        assert re.search(rf'^{name} = "https://', urls, re.M), name


@pytest.mark.out_of_process
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="needs chkobba[docs]")
def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "reference" / "index.html").read_text(encoding="utf-8")
    # Record.deals has its own entry, with the summary of its docstring, read from the source.
    assert 'id="chkobba.records.Record.deals"' in page
    summary = (Record.deals.__doc__ or "").strip().splitlines()[0]
    assert summary.startswith("The record deal by deal")
    assert summary in html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "&gt;&gt;&gt;" in page  # doctests shown as code
    # Sphinx roles shown as code (tools/griffe_sphinx_roles.py), and #: comments read.
    assert not re.search(r":(func|class|meth|mod|attr|data|exc|obj|const):`", page)
    assert 'id="chkobba.rollouts.rollout"' in page and 'id="chkobba.cards.DECK"' in page
    assert (tmp_path / "changelog" / "index.html").exists()
    # Only the public API: each entry a name of its module's __all__ (or a public
    # member of one), not the package's shared helpers (state.replaced, which checks
    # nothing) nor a dunder's docstring (pickling's __setstate__).
    assert _entries_outside_all(page) == []


def _entries_outside_all(page: str) -> list[str]:
    outside = []
    for entry in sorted(set(re.findall(r'id="(chkobba(?:\.\w+)+)"', page))):
        parts = entry.split(".")
        at = max(n for n in range(1, len(parts) + 1) if _is_module(".".join(parts[:n])))
        module, rest = importlib.import_module(".".join(parts[:at])), parts[at:]
        if rest and (rest[0] not in module.__all__ or any(p.startswith("_") for p in rest)):
            outside.append(entry)
    return outside


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _docs_extension(name: str) -> Any:
    """The module of ``tools/NAME.py``, a griffe extension mkdocs.yml loads by path."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(importlib.util.find_spec("griffe") is None, reason="needs chkobba[docs]")
def test_doctests_in_docstrings_become_code_blocks() -> None:
    module = _docs_extension("griffe_doctests")
    text = 'Some text.\n\n>>> x["a"]["b"]\n1\n\n```text\n>>> not a doctest\n```\n'
    fenced = module.fence_doctests(text)
    assert fenced.count("```pycon") == 1
    assert fenced.split("```pycon\n")[1].startswith('>>> x["a"]["b"]\n1\n```')
    assert "```text\n>>> not a doctest\n```" in fenced


@pytest.mark.skipif(importlib.util.find_spec("griffe") is None, reason="needs chkobba[docs]")
def test_sphinx_roles_become_code_spans_and_comments_document_constants() -> None:
    module = _docs_extension("griffe_sphinx_roles")
    text = (
        "See :func:`~chkobba.rollouts.rollout`, :class:`chkobba.Record` and\n"
        ":meth:`Record.deals\n<chkobba.Record.deals>`.\n\n"
        ">>> ':func:`x`'\n\"':func:`x`'\"\n\n```text\n:class:`Kept`\n```\n"
    )
    rewritten = module.rewrite_roles(text)
    assert rewritten.startswith("See `rollout`, `chkobba.Record` and\n`Record.deals`.\n\n")
    assert ">>> ':func:`x`'\n\"':func:`x`'\"\n" in rewritten  # a doctest is left alone
    assert "```text\n:class:`Kept`\n```" in rewritten  # and so is a code fence
    lines = ["X = 1", "#: The answer,", "#: as a number.", "ANSWER = 42"]
    assert module.comment_docstring(lines, 4) == "The answer,\nas a number."
    assert module.comment_docstring(lines, 1) is None


@pytest.mark.skipif(importlib.util.find_spec("griffe") is None, reason="needs chkobba[docs]")
@pytest.mark.parametrize("name", ["griffe_doctests", "griffe_sphinx_roles"])
def test_the_docs_extensions_own_examples_hold(name: str) -> None:
    # tools/ is outside the doctest paths: its examples would go stale unseen.
    module = _docs_extension(name)
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert (failed, tried > 0) == (0, True)


def _public_definitions() -> list[tuple[str, Any]]:
    """Every public function and class, by the module that defines it (the adapters'
    only where their toolkit is installed); the command line's runners are left out:
    ``chkobba.cli.main`` is their way in, and its docstring shows it."""
    import inspect

    found = []
    for module in public_modules():
        name = module.__name__
        if name.startswith("chkobba.cli.") and name != "chkobba.cli.narrate":
            continue
        for public in getattr(module, "__all__", ()):
            value = getattr(module, public)
            if getattr(value, "__module__", None) == name and (
                inspect.isfunction(value) or inspect.isclass(value)
            ):
                found.append((f"{name}.{public}", value))
    return found


def test_every_public_function_and_class_shows_its_use_in_a_doctest() -> None:
    # What help(name) and the API reference show: a runnable example in its own docstring
    # (run by the doctests of src/), not only in its module's.
    import inspect

    definitions = _public_definitions()
    assert len(definitions) > 100
    without = [name for name, value in definitions if ">>>" not in (inspect.getdoc(value) or "")]
    assert without == []


def test_every_docstring_example_runs_as_a_user_would_paste_it() -> None:
    # pytest runs a docstring's examples among its module's own names, so an example
    # could use a name its reader never imported (``tournament`` in chkobba.arena, say).
    # A reader of help() has only what ``from chkobba import *`` gives and what the
    # example imports itself: each example runs so here, its output checked as pytest does.
    import io

    public = {name: getattr(chkobba, name) for name in chkobba.__all__}
    finder = doctest.DocTestFinder()
    tried, failed = 0, {}
    for module in public_modules():
        for test in finder.find(module, globs={}):
            # A private helper's examples are for its module's maintainers (its names at
            # hand): no reader of the public API sees them.
            private = any(part.startswith("_") for part in test.name.split("."))
            if not test.examples or private:
                continue
            test.globs = dict(public)
            report = io.StringIO()
            runner = doctest.DocTestRunner(
                optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
            )
            result = runner.run(test, out=report.write, clear_globs=True)
            tried += 1
            if result.failed:
                failed[test.name] = report.getvalue()[-600:]
    assert tried > 200
    assert failed == {}
