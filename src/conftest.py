"""Doctest collection over src/: skip the adapter modules whose optional extra is missing.

``chkobba.pettingzoo`` and ``chkobba.openspiel`` import their toolkits at module level, so
``--doctest-modules`` cannot even import them without ``chkobba[pettingzoo]`` or
``chkobba[openspiel]``. (This file lies outside the package and is not installed.)
"""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "chkobba/pettingzoo.py": ("pettingzoo", "gymnasium", "numpy"),
    "chkobba/openspiel.py": ("pyspiel", "numpy"),
    "chkobba/gymnasium.py": ("gymnasium", "numpy"),
}

collect_ignore = [
    path
    for path, modules in _NEEDS.items()
    if any(importlib.util.find_spec(name) is None for name in modules)
]
