"""Found by an outside test suite written from the issue texts alone (stop 52): the names
an issue gives are a contract that other programs call by keyword too."""

from __future__ import annotations

import warnings

import pytest

from chkobba import ChkobbaError, new_match, observe, render
from chkobba.views import PlayerView


def test_render_takes_the_state_by_the_name_issue_3_gave_it() -> None:
    # Issue #3: "render(state, player=None) -> str".
    state = new_match()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert render(state=state) == render(state)
        assert render(state=state, player=1) == render(state, 1) == render(observe(state, 1))


def test_render_still_takes_its_0_1_0_keyword_with_a_deprecation_warning() -> None:
    state = new_match()
    with pytest.warns(DeprecationWarning) as warned:
        assert render(position=state, player=0) == render(state, 0)
    assert [str(w.message) for w in warned] == [
        "render(position=...) is deprecated: the parameter is now state, render(state=...)"
    ]
    assert warned[0].filename == __file__  # it points at the caller's line
    view: PlayerView = observe(state, 0)
    with pytest.warns(DeprecationWarning):
        assert render(position=view) == render(view)


def test_render_refuses_the_board_given_twice() -> None:
    state = new_match()
    with pytest.raises(ChkobbaError, match=r"^render: give the board's state once, as state="):
        render(state, position=state)  # type: ignore[call-overload]
    not_a_board = r"^render: None is not a State, a PlayerView or a PublicView$"
    with pytest.raises(ChkobbaError, match=not_a_board):
        render()  # type: ignore[call-overload]
