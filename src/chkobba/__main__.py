"""``python -m chkobba``: the same as the ``chkobba`` command."""

from chkobba.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
