"""Run tests against mutmut's survivors applied to a copy of ``src/``, one at a time.

mutmut switches a mutant on inside its own copy and only for the tests its statistics
say reach it; this applies the mutant's diff (``mutmut show NAME``) to a fresh copy of
``src/`` instead, so it also reaches code that runs at import, and any test may be run
against it. Run from the project root after ``mutmut run``::

    python tools/mutation/apply_survivors.py $(mutmut results | grep survived | cut -d: -f1) \\
        -- tests/test_mutation_gaps_bots.py

It prints ``NAME: caught`` (a test failed), ``NAME: survived`` or ``NAME: not applied``
(the source changed since the run, so the diff no longer matches).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile


def _apply(diff: str, root: str) -> bool:
    """Apply a one-hunk ``mutmut show`` diff by text replacement (its hunks are numbered
    from the function, not the file, and a method's lines are shown dedented)."""
    lines = [line for line in diff.splitlines() if not line.startswith("#")]
    path = lines[0][4:].strip()
    body = [line for line in lines[3:] if line]
    old = "\n".join(line[1:] for line in body if line[:1] in (" ", "-"))
    new = "\n".join(line[1:] for line in body if line[:1] in (" ", "+"))
    with open(os.path.join(root, path)) as source:
        text = source.read()
    if text.count(old) == 0:  # a method: shown four spaces to the left

        def indent(block: str) -> str:
            return "\n".join("    " + line if line else line for line in block.split("\n"))

        old, new = indent(old), indent(new)
    if text.count(old) != 1:
        return False
    with open(os.path.join(root, path), "w") as source:
        source.write(text.replace(old, new))
    return True


#: What --help prints (the docstring is gone under python -OO).
USAGE = """usage: python tools/mutation/apply_survivors.py NAME [NAME ...] [-- PYTEST_ARGS ...]

Apply each of mutmut's mutants NAME (its `mutmut show NAME` diff) to a fresh copy of
src/ and run pytest with PYTEST_ARGS against it; print NAME: caught, survived or
not applied. Run from the project root after `mutmut run`."""


def main(argv: list[str]) -> int:
    split = argv.index("--") if "--" in argv else len(argv)
    names, pytest_args = argv[:split], argv[split + 1 :]
    if not names or any(name.startswith("-") for name in names):
        # No mutant's name begins with a dash: --help, or an option meant for pytest.
        asked = set(names) & {"-h", "--help"}
        print(USAGE, file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    for name in names:
        diff = subprocess.run(
            [sys.executable, "-m", "mutmut", "show", name],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        root = tempfile.mkdtemp(prefix="mutant-")
        try:
            shutil.copytree(
                "src",
                os.path.join(root, "src"),
                ignore=shutil.ignore_patterns("__pycache__", "*.so"),
            )
            if not _apply(diff, root):
                print(f"{name}: not applied", flush=True)
                continue
            env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"))
            run = [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                *pytest_args,
            ]
            failed = subprocess.run(run, env=env, capture_output=True).returncode != 0
            print(f"{name}: {'caught' if failed else 'survived'}", flush=True)
        finally:
            shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
