"""The README's example must run exactly as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.out_of_process

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_ten_line_example_plays_a_deal() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    code = blocks[0]
    assert len([line for line in code.splitlines() if line.strip()]) <= 10
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    # It prints the first deal's points and the match totals, which are the same numbers.
    points, totals = re.fullmatch(r"(\(\d+, \d+\)) (\(\d+, \d+\))\n", result.stdout).groups()
    assert points == totals
