"""``python -m chkobba``: the same as the ``chkobba`` command."""

from chkobba.cli import main

raise SystemExit(main())
