"""The mutation audit's configuration stays whole as the suite grows (tools/mutation/).

mutmut runs only the test files that ``[tool.mutmut]`` selects; a new in-process test
file left out of the list would go unseen by every later audit, its mutants reported as
survivors although a test catches them. A test that runs the library in another process
carries the ``out_of_process`` marker (tools/mutation/mutclear.py deselects it there); a
file of such tests alone is left out of the list, and must say so with a module-level
``pytestmark``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the check needs one version only

_ROOT = Path(__file__).resolve().parent.parent

# The test files that see no mutant, each with the reason: every test of the file is
# marked out_of_process, but this one's.
_OUT_OF_PROCESS = {
    "tests/test_examples.py": "runs the examples in subprocesses",
    "tests/test_mutation_setup.py": "reads pyproject.toml, which mutmut's copy lacks",
    "tests/test_readme.py": "runs the README's example in a subprocess",
}


def _config() -> dict[str, object]:
    with open(_ROOT / "pyproject.toml", "rb") as file:
        config: dict[str, object] = tomllib.load(file)["tool"]["mutmut"]
    return config


def test_every_in_process_test_file_is_in_the_mutation_selection() -> None:
    selected = _config()["pytest_add_cli_args_test_selection"]
    assert isinstance(selected, list)
    files = {f"tests/{path.name}" for path in (_ROOT / "tests").glob("test_*.py")}
    assert sorted(files - set(selected) - set(_OUT_OF_PROCESS)) == []
    assert sorted(set(selected) & set(_OUT_OF_PROCESS)) == []
    assert sorted(set(selected) - files) == []
    assert sorted(set(_OUT_OF_PROCESS) - files) == []


def test_every_module_the_audit_mutates_exists() -> None:
    modules = _config()["only_mutate"]
    assert isinstance(modules, list) and modules
    assert [name for name in modules if not (_ROOT / name).is_file()] == []


def _marks_the_whole_module(path: Path) -> bool:
    """Whether the file sets a module-level ``pytestmark`` holding ``out_of_process``
    (``pytest.mark.out_of_process``, alone or in a list), read without importing it."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == "pytestmark" for target in targets):
            marks = ast.walk(value)
            return any(isinstance(m, ast.Attribute) and m.attr == "out_of_process" for m in marks)
    return False


def test_the_files_left_out_are_marked_out_of_process_and_the_selected_ones_are_not() -> None:
    # The list above and the markers say the same: a file left out runs no test in
    # process, and a selected file that mutclear would deselect whole is a wasted place.
    left_out = [name for name in _OUT_OF_PROCESS if name != "tests/test_mutation_setup.py"]
    assert [name for name in left_out if not _marks_the_whole_module(_ROOT / name)] == []
    selected = _config()["pytest_add_cli_args_test_selection"]
    assert isinstance(selected, list)
    assert [name for name in selected if _marks_the_whole_module(_ROOT / name)] == []


def test_the_audits_plugin_empties_every_cache_it_names() -> None:
    # mutclear.py names the library's caches by their private names, which no other code
    # reads: one renamed (evaluation._ways, now _dealt_ways) stopped every audit at its
    # first test with an AttributeError.
    import importlib.util

    import chkobba.actions
    import chkobba.bots._policy_rollout
    import chkobba.bots.evaluation
    import chkobba.captures

    spec = importlib.util.spec_from_file_location(
        "mutclear", _ROOT / "tools" / "mutation" / "mutclear.py"
    )
    assert spec is not None and spec.loader is not None
    plugin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plugin)
    chkobba.captures.capture_options(chkobba.cards("2D 6S"), chkobba.card("QH"))
    plugin.pytest_runtest_setup(None)  # (the item is not read)
    assert chkobba.captures.sum_groups.cache_info().currsize == 0
    assert chkobba.bots.evaluation._dealt_ways.cache_info().currsize == 0
