"""House profiles through every feature (the house-rules user study): the corners where a
profile made with ``attrs.evolve`` or ``Rules(...)`` used to go wrong."""

from __future__ import annotations

import attrs
import pytest

from chkobba import TUNISIAN, ChkobbaError

HOUSE = attrs.evolve(TUNISIAN, name="house", target=16)


def test_open_spiel_refuses_a_profile_object_with_a_chkobba_error() -> None:
    # A Rules object as the "rules" parameter used to escape as a raw TypeError
    # ("'Rules' object is not iterable") from OpenSpiel's own parameter handling.
    # (pyspiel.load_game converts its parameters before the game sees them, so there
    # the TypeError is OpenSpiel's own.)
    pytest.importorskip("pyspiel")
    import chkobba.openspiel

    with pytest.raises(ChkobbaError, match=r"rules must be a profile name .*the house profile"):
        chkobba.openspiel.ChkobbaGame({"rules": HOUSE})
