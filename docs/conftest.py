"""Doctest collection over docs/: skip the pages whose optional extra is missing."""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "gymnasium.md": ("gymnasium", "numpy"),
}

collect_ignore = [
    page
    for page, modules in _NEEDS.items()
    if any(importlib.util.find_spec(name) is None for name in modules)
]
