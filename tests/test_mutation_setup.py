"""The mutation audit's configuration stays whole as the suite grows (tools/mutation/).

mutmut runs only the test files that ``[tool.mutmut]`` selects; a new in-process test
file left out of the list would go unseen by every later audit, its mutants reported as
survivors although a test catches them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the check needs one version only

_ROOT = Path(__file__).resolve().parent.parent

# The test files that see no mutant, each with the reason.
_OUT_OF_PROCESS = {
    "tests/test_benchmarks.py": "runs the benchmark scripts in subprocesses",
    "tests/test_cli.py": "runs the command in subprocesses",
    "tests/test_cli_people.py": "runs the command in subprocesses",
    "tests/test_distributed.py": "starts Dask workers in other processes",
    "tests/test_docs_site.py": "builds the documentation site",
    "tests/test_examples.py": "runs the examples in subprocesses",
    "tests/test_hardening_cli.py": "runs the command in subprocesses",
    "tests/test_mutation_setup.py": "reads pyproject.toml, which mutmut's copy lacks",
    "tests/test_readme.py": "runs the README's commands in subprocesses",
    "tests/test_record_lines.py": "runs the command in subprocesses",
    "tests/test_tournament_study.py": "runs the command in subprocesses",
    "tests/test_typing_clients.py": "type-checks client code with mypy",
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
