"""A griffe extension for the documentation site: Sphinx markup becomes Markdown.

The library's docstrings name other objects the way Sphinx does, with roles such as
``:func:`~chkobba.rollouts.rollout``` or ``:class:`Record```, and document module
constants with ``#:`` comments above them. mkdocstrings reads neither: a role would show
as raw text and a constant documented by a comment would have no entry. So, before
mkdocstrings renders a docstring, each role becomes a Markdown code span (a leading
``~`` keeps the last dotted part, as in Sphinx; an explicit title, ``title <target>``,
keeps the title), and an attribute with no docstring takes its ``#:`` comment as one.
Code fences and doctest blocks (from a ``>>>`` line to the next blank line) are left as
they are, so this runs before tools/griffe_doctests.py fences them. mkdocs.yml loads it.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

# A role, with Sphinx's optional ``py`` domain; its text may run over a line break.
_ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):`([^`]+)`",
)
_TITLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


def _code_span(match: re.Match[str]) -> str:
    text = " ".join(match.group(1).split())
    titled = _TITLED.match(text)
    if titled:
        text = titled.group(1)
    else:
        text = text.lstrip("!")
        if text.startswith("~"):
            text = text[1:].rsplit(".", 1)[-1]
    return f"`{text}`"


def rewrite_roles(text: str) -> str:
    """``text`` with each Sphinx role as a Markdown code span, outside code blocks.

    >>> print(rewrite_roles("See :func:`~chkobba.rollouts.rollout` and :class:`a.B`."))
    See `rollout` and `a.B`.
    >>> print(rewrite_roles(":meth:`Record.deals <chkobba.Record.deals>`"))
    `Record.deals`
    """
    out: list[str] = []
    prose: list[str] = []
    in_fence = in_doctest = False

    def flush() -> None:
        if prose:
            out.append(_ROLE.sub(_code_span, "\n".join(prose)))
            prose.clear()

    for line in text.split("\n"):
        if in_doctest and not line.strip():
            in_doctest = False
        elif line.lstrip().startswith("```") and not in_doctest:
            flush()
            in_fence = not in_fence
            out.append(line)
            continue
        elif line.startswith(">>>") and not in_fence and not in_doctest:
            flush()
            in_doctest = True
        if in_fence or in_doctest:
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "\n".join(out)


def comment_docstring(lines: list[str], lineno: int) -> str | None:
    """The ``#:`` comment right above line ``lineno`` (counted from 1), or None.

    >>> comment_docstring(["#: The answer,", "#: as a number.", "ANSWER = 42"], 3)
    'The answer,\\nas a number.'
    """
    found: list[str] = []
    index = lineno - 2
    while index >= 0 and lines[index].lstrip().startswith("#:"):
        found.append(lines[index].lstrip()[2:].removeprefix(" "))
        index -= 1
    return "\n".join(reversed(found)) if found else None


class SphinxRoles(griffe.Extension):
    """Read ``#:`` comments as docstrings and rewrite roles in every docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None and obj.is_attribute and obj.lineno and obj.filepath:
            try:
                lines = obj.lines_collection[obj.filepath]  # type: ignore[index]
            except KeyError:
                lines = []
            text = comment_docstring(lines, obj.lineno)
            if text is not None:
                start = obj.lineno - text.count("\n") - 1
                obj.docstring = griffe.Docstring(
                    text, lineno=start, endlineno=obj.lineno - 1, parent=obj
                )
        if obj.docstring is not None:
            obj.docstring.value = rewrite_roles(obj.docstring.value)
