"""A typed user's code passes ``mypy --strict``: the client programs in typing_clients/.

The package ships ``py.typed``, so the types of its public names are part of the contract:
a user who type-checks their own code (a game server, a bot, an analysis script) must not
need a ``cast`` or a ``type: ignore`` for what the documentation shows. Each client under
``typing_clients/`` uses one slice of the public API the way the docs do, with
``assert_type`` on the results; a line the library must reject carries a
``# type: ignore[code]``, which ``--strict`` (``--warn-unused-ignores``) reports when the
library's types stop rejecting it. The clients are only type-checked, never run.

mypy runs as a user's would: on the installed package (or ``src`` on ``PYTHONPATH``),
with ``--strict`` alone and not the project's own configuration. The last test keeps the
bots' attributes declared, which pyright's ``--verifytypes`` asks of a typed library.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import chkobba.bots

CLIENTS = Path(__file__).resolve().parent / "typing_clients"
BOTS = Path(chkobba.bots.__file__).parent


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One cache for every client: the package is analysed once, not once per client.
    return tmp_path_factory.mktemp("mypy_cache")


@pytest.fixture(scope="module")
def no_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # An empty configuration, so the project's [tool.mypy] (read from the working
    # directory) does not apply: the clients are checked with --strict alone.
    path = tmp_path_factory.mktemp("mypy_config") / "mypy.ini"
    path.write_text("[mypy]\n", encoding="utf-8")
    return path


def test_the_clients_are_there() -> None:
    # (An empty folder would make the test below pass by checking nothing.)
    assert "step_api.py" in [path.name for path in CLIENTS.glob("*.py")]


# mypy reads the library without running it: a mutant, switched on at run time, is not seen.
@pytest.mark.out_of_process
@pytest.mark.parametrize("client", sorted(p.name for p in CLIENTS.glob("*.py")))
def test_a_typed_client_passes_mypy_strict(client: str, mypy_cache: Path, no_config: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api", reason="needs mypy (pip install 'chkobba[test]')")
    if client.startswith("gymnasium_"):
        pytest.importorskip("gymnasium", reason="needs chkobba[gymnasium]")
    stdout, stderr, status = mypy_api.run(
        [
            "--strict",
            "--python-version",
            "3.10",
            "--config-file",
            str(no_config),
            "--cache-dir",
            str(mypy_cache),
            "--no-error-summary",
            str(CLIENTS / client),
        ]
    )
    report = stdout + stderr
    assert status == 0 and not report, report


def _on_self(target: ast.expr) -> str | None:
    """The attribute name when ``target`` is ``self.<public name>``."""
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
        return None
    public = target.value.id == "self" and not target.attr.startswith("_")
    return target.attr if public else None


def _undeclared(cls: ast.ClassDef) -> list[str]:
    """The public attributes a method sets on ``self`` from an expression (not a bare
    name, such as a parameter) whose type the class declares nowhere."""
    declared = {
        t.target.id
        for t in cls.body
        if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)
    }
    inferred: list[str] = []
    for node in ast.walk(cls):
        if isinstance(node, ast.AnnAssign) and (name := _on_self(node.target)):
            declared.add(name)
        elif isinstance(node, ast.Assign) and not isinstance(node.value, ast.Name):
            inferred += [name for target in node.targets if (name := _on_self(target))]
    return [f"{cls.name}.{name}" for name in dict.fromkeys(inferred) if name not in declared]


def test_the_bots_attributes_have_declared_types() -> None:
    # pyright --verifytypes counts an attribute whose type is inferred from an expression
    # (self.rng = random.Random(seed)) as ambiguous, "could be inferred differently by type
    # checkers", and so every class and function that uses the class, make_bot included.
    modules = [path for path in sorted(BOTS.glob("*.py")) if not path.name.startswith("_")]
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in modules]
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    assert [name for cls in classes for name in _undeclared(cls)] == []
