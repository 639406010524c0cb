"""``chkobba rules``: a rule profile as JSON, the file ``--rules FILE`` reads.

A house profile starts from a named one: ``chkobba rules tunisian > house.json``, then
edit the fields that differ (and the name). Given a file, the command checks it and
prints it back, so a house file can be tested before a match.
"""

from __future__ import annotations

from chkobba.cli.output import Output
from chkobba.rules import Rules

__all__ = ["profile_json", "run_rules"]


def run_rules(out: Output, rules: Rules) -> int:
    """Print ``rules`` as the JSON object :meth:`Rules.load <chkobba.Rules.load>` reads."""
    out.line(profile_json(rules))
    return 0


def profile_json(rules: Rules) -> str:
    """The profile as JSON text, one field per line (lists on theirs), to read and edit:
    :meth:`Rules.to_json <chkobba.Rules.to_json>`.

    >>> from chkobba import TUNISIAN
    >>> from chkobba.cli.rules import profile_json
    >>> print(profile_json(TUNISIAN).splitlines()[2])
      "capture_values": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    """
    return rules.to_json()
