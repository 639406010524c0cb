"""Terminal output with optional colour: ``rich`` when it is installed and the stream is a
terminal, plain text otherwise (pipes, logs, tests, or no ``cli`` extra installed).

Only the command line imports this module; the library itself never imports ``rich``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

__all__ = ["Output", "is_terminal"]


def _rich_console(stream: TextIO) -> Any:
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(file=stream, highlight=False, soft_wrap=True)


class Output:
    """Lines, tables and progress bars on one stream, coloured only on a terminal."""

    def __init__(self, stream: TextIO, *, colour: bool | None = None) -> None:
        self.stream = stream
        if colour is None:
            colour = is_terminal(stream) and "NO_COLOR" not in os.environ
        self.rich = _rich_console(stream) if colour else None

    def line(self, text: str = "", style: str | None = None) -> None:
        """Write one line (``style`` is a rich style, ignored without colour)."""
        if self.rich is not None and style:
            self.rich.print(text, style=style, markup=False, highlight=False)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def prompt(self, text: str) -> None:
        """Write a prompt without a newline."""
        self.stream.write(text)
        self.stream.flush()

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """A table: rich's on a terminal, aligned plain text otherwise."""
        if self.rich is not None:
            from rich.table import Table

            table = Table(*headers)
            for row in rows:
                table.add_row(*row)
            self.rich.print(table)
            return
        widths = [
            max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)
        ]
        for row in (headers, *rows):
            cells = (str(cell).ljust(width) for cell, width in zip(row, widths, strict=False))
            self.line("  ".join(cells).rstrip())

    @contextlib.contextmanager
    def progress(self, total: int, description: str) -> Iterator[Any]:
        """A progress bar on a terminal; yields ``advance(done, total)``."""
        if self.rich is None:
            yield lambda done, total: None
            return
        from rich.progress import Progress

        with Progress(console=self.rich, transient=True) as bar:
            task = bar.add_task(description, total=total)
            yield lambda done, total: bar.update(task, completed=done)


def is_terminal(stream: TextIO | None) -> bool:
    """True when ``stream`` is an interactive terminal (not a pipe, a file or a test)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
