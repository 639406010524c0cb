"""No module reaches into another's internals.

A module of the package imports no underscore-prefixed name from another module, and
reads none as an attribute of a module it imported (``argparse._SubParsersAction``).
Underscore-prefixed *modules* (``chkobba._kernel``) are the package's shared internal
code: importing them is fine, and so are their names without an underscore. Tests may
test internals: only ``src/chkobba`` is checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

import chkobba

PACKAGE = Path(chkobba.__file__).parent


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str, root: Path) -> bool:
    """Whether dotted ``name`` is a module or package of the package under ``root``."""
    base = root.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def reaches(root: Path) -> list[str]:
    """Every place under ``root`` where a module uses another module's private name."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        here = _module_name(path, root)
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        modules: set[str] = set()  # the local names bound to imported modules
        where = path.relative_to(root.parent).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules.update((a.asname or a.name).partition(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
                source = node.module or ""
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0]
                    source = f"{base}.{source}" if source else base
                for alias in node.names:
                    if _is_module(f"{source}.{alias.name}", root):
                        modules.add(alias.asname or alias.name)
                    elif _is_private(alias.name):
                        found.append(f"{where}:{node.lineno} imports {source}.{alias.name}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and _is_private(node.attr)
            ):
                found.append(f"{where}:{node.lineno} reads {node.value.id}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    assert reaches(PACKAGE) == []


def test_the_check_sees_a_private_import_and_a_private_module_attribute(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "_shared.py").write_text("def helper(): ...\ndef _hidden(): ...\n")
    (root / "one.py").write_text("def _private(): ...\n")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "two.py").write_text(
        "from __future__ import annotations\n"
        "import argparse\n"
        "from pkg import _shared\n"
        "from pkg._shared import helper\n"
        "from pkg.one import (\n    _private,\n)\n"
        "from ..one import _private as again\n"
        "argparse._SubParsersAction\n"
        "_shared.helper, _shared._hidden, helper.__name__\n"
    )
    assert reaches(root) == [
        "pkg/sub/two.py:5 imports pkg.one._private",
        "pkg/sub/two.py:8 imports pkg.one._private",
        "pkg/sub/two.py:9 reads argparse._SubParsersAction",
        "pkg/sub/two.py:10 reads _shared._hidden",
    ]
