"""A griffe extension for the documentation site: doctest blocks become code blocks.

The library's docstrings hold doctests (``>>> ...`` and their output) as plain text, the
way pytest runs them. Markdown would read ``>>>`` as a quotation and ``x["a"]["b"]`` as a
link, so before mkdocstrings renders a docstring, every doctest block (from a ``>>>``
line to the next blank line) is fenced as ``pycon`` code. mkdocs.yml loads this file.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each doctest block inside a ```` ```pycon ```` fence.

    >>> fence_doctests("Example:\\n\\n>>> 1 + 1\\n2\\n\\nDone.").split("\\n")
    ['Example:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    in_fence = in_doctest = False
    for line in text.split("\n"):
        if in_doctest and not line.strip():
            out.append("```")
            in_doctest = False
        elif line.lstrip().startswith("```") and not in_doctest:
            in_fence = not in_fence
        elif line.startswith(">>>") and not in_fence and not in_doctest:
            out.append("```pycon")
            in_doctest = True
        out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
