"""Build script. The package is pure Python (everything else is in pyproject.toml).

``CHKOBBA_MYPYC=1`` selects the optional compiled build: mypyc compiles the hot private
modules listed below into C extensions, which Python imports instead of their sources.
Every public function stays pure Python, so a compiled install behaves exactly as the
default one (the same errors for bad input); CI runs the whole test suite on both.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

# Private modules only, whose functions are always called with the types they declare:
# a compiled function checks its arguments' types and raises TypeError, where the public
# API promises ChkobbaError.
COMPILED = [
    "src/chkobba/_kernel.py",
    "src/chkobba/_playout.py",
    "src/chkobba/_plays.py",
    "src/chkobba/_successors.py",
    "src/chkobba/bots/_policy_rollout.py",
]


# The setuptools commands that build the package's modules (a wheel, an install, an
# editable install), as against those that only describe it (egg_info, dist_info, sdist).
BUILDS = {"bdist_wheel", "bdist_egg", "build", "build_ext", "install", "develop", "editable_wheel"}
WITHOUT_MYPYC = (
    "CHKOBBA_MYPYC=1 asks for the compiled build, which needs mypy (its mypyc) where the "
    "package is built: pip and `python -m build` fetch it in an isolated build; with "
    "--no-build-isolation, install mypy>=1.8 first"
)


def compiled_build() -> dict[str, Any]:
    """setup()'s arguments for the compiled build, or none for the default one."""
    if os.environ.get("CHKOBBA_MYPYC", "") != "1":
        return {}
    try:
        from mypyc.build import mypycify
    except ImportError:
        # A build without mypyc would quietly make the pure-Python package (setuptools
        # ignores setup_requires while it builds): a packager who asked for the compiled
        # one must learn it is not what they got.
        if BUILDS.intersection(sys.argv[1:]):
            raise SystemExit(WITHOUT_MYPYC) from None
        # pip's isolated build first asks which packages the build needs (mypy compiles,
        # and type-checks against attrs), installs them, then builds.
        return {"setup_requires": ["mypy>=1.8", "attrs>=23.1"]}
    return {"ext_modules": mypycify(COMPILED, opt_level="3")}


if __name__ == "__main__":  # as setuptools runs it; tests import compiled_build alone
    setup(**compiled_build())
