"""Tests for what a review from a bot author's side found (stop 72).

The reviewer wrote bots of their own and ran them everywhere the docs say a bot can
go. Each test fails on the code before its fix:

- ``BotActions`` (a bot driven through action ids) mapped a move that is not legal to a
  legal move's id: ``4C`` laid where it must capture came back as ``4C x AS+AC+2D``'s id;
  a card with several captures was refused one call later, naming no bot; a bot's own
  error named no bot;
- a bot whose class was defined in an interactive session (or a script read from
  standard input) pickled in the parent, so the tournament took it, and every worker
  died unpickling it (``BrokenProcessPool``);
- a Gymnasium opponent whose ``spawn`` returned no bot failed with a raw
  ``AttributeError``, and an opponent's answer that is no move was refused without the
  reason the arena gives.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

from chkobba import DECK, ChkobbaError, Cut, IllegalMoveError, Play, Shuffle, apply, new_match
from chkobba.actions import Position, step
from chkobba.arena import tournament
from chkobba.bots import BotActions, GreedyBot
from chkobba.cards import card, cards
from chkobba.state import State
from tests.helpers import as_in_a_session


def _bots_md_position() -> State:
    """docs/bots.md's position: player 1 holds 4C 5C QH; the table is 2D 6S AS AC."""
    top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
    shuffle = Shuffle(top + tuple(c for c in DECK if c not in top))
    return apply(apply(new_match(), shuffle), Cut(keep=False))


class _Answers:
    """A bot of the author's that answers ``answer`` whatever it is asked."""

    name = "mine"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, view: Any, legal: Any) -> Any:
        return self.answer


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (Play(card("4C")), "4C must capture: it can take AS+AC+2D"),
        (Play(card("4C"), cards("AS")), "4C cannot take AS: AS is worth 1, 4C 4"),
        (Play(card("QH")), "QH must capture: it can take 2D+6S or AS+AC+6S"),
        (None, "None is not a move (expected Shuffle, Cut or Play)"),
        ("5C", "'5C' is not a move (expected Shuffle, Cut or Play)"),
    ],
)
def test_bot_actions_refuses_a_move_that_is_not_legal_naming_the_bot(
    answer: object, reason: str
) -> None:
    position = Position(_bots_md_position())
    actor = BotActions(_Answers(answer))
    with pytest.raises(IllegalMoveError) as caught:
        actor(position)
    chosen = repr(str(answer)) if isinstance(answer, Play) else repr(answer)
    assert str(caught.value) == f"bot mine at seat 1 chose {chosen}, which is not legal: {reason}"


def test_bot_actions_refuses_another_card_while_one_waits_for_its_capture() -> None:
    position = Position(_bots_md_position())
    position = step(position, BotActions(GreedyBot(seed=0))(position))  # QH, two captures
    assert str(position.pending) == "QH"
    with pytest.raises(IllegalMoveError) as caught:
        BotActions(_Answers(Play(card("5C"))))(position)
    assert str(caught.value) == (
        "bot mine at seat 1 chose '5C', which is not legal: QH is played already and waits "
        "for one of its captures"
    )


def test_bot_actions_notes_which_bot_raised() -> None:
    class Raises:
        def choose(self, view: Any, legal: Any) -> Any:
            raise RuntimeError("the author's bug")

    with pytest.raises(RuntimeError) as caught:
        BotActions(Raises())(Position(_bots_md_position()))
    assert caught.value.__notes__ == [
        "raised by bot Raises at seat 1, choosing an action for BotActions"
    ]


def test_bot_actions_still_gives_a_legal_moves_ids() -> None:
    position = Position(_bots_md_position())
    actor = BotActions(_Answers(Play(card("QH"), cards("2D 6S"))))
    first = actor(position)
    assert actor(step(position, first)) == 43  # the capture's id, queued


# --- a bot of an interactive session cannot reach spawned workers -----------------------


@pytest.fixture
def interactive_main(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``__main__`` as in an interactive session, holding a bot class ``Repl``."""
    return as_in_a_session(monkeypatch)


def test_a_bot_of_an_interactive_session_is_refused_by_name_before_workers_start(
    interactive_main: Any,
) -> None:
    with pytest.raises(ChkobbaError) as caught:
        tournament([interactive_main(), "greedy"], games=2, seed=1, workers=2)
    assert str(caught.value) == (
        "bot 'replbot' (entrant 0) cannot be sent to worker processes (Repl is defined in an "
        "interactive session): use a bot spec, or a bot that pickles (its class defined at "
        "the top level of a module, not in a function or an interactive session)"
    )


@pytest.mark.parametrize("name", ["__main__", "mpkg.__main__"])
def test_a_bot_of_a_packages_main_is_refused_with_workers(
    interactive_main: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Found by the diff's review: ``python -m mpkg`` (its ``__main__.py``), ``python
    dir/`` and ``python app.zip`` name a main module the workers leave alone."""
    main = sys.modules["__main__"]
    monkeypatch.setattr(main, "__spec__", type("Spec", (), {"name": name})(), raising=False)
    with pytest.raises(ChkobbaError) as caught:
        tournament([interactive_main(), "greedy"], games=2, seed=1, workers=2)
    assert f"(Repl is defined in {name}, which the workers do not run again)" in str(caught.value)


def test_a_bot_of_an_interactive_session_still_plays_in_process(interactive_main: Any) -> None:
    result = tournament([interactive_main(), "greedy"], games=2, seed=1)
    assert [bot.games for bot in result.bots] == [2, 2]


@pytest.mark.out_of_process
def test_a_script_read_from_standard_input_is_refused_with_workers() -> None:
    script = textwrap.dedent(
        """
        from chkobba.arena import tournament
        class Repl:
            name = "replbot"
            def choose(self, view, legal):
                return legal[0]
        try:
            tournament([Repl(), "greedy"], games=2, seed=1, workers=2)
        except Exception as error:
            print(type(error).__name__, error)
        """
    )
    done = subprocess.run(
        [sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120
    )
    assert done.stdout == (
        "ChkobbaError worker processes cannot start: each would run the main module again "
        "from '<stdin>', which is no file (a script read from standard input): run the "
        "script from a file, or play with workers=1\n"
    ), done.stderr
    assert "Traceback" not in done.stderr  # no worker started (a spec's workers died too)


# --- the Gymnasium environment's opponents ----------------------------------------------


class _SpawnsNothing:
    name = "badspawn"

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]

    def spawn(self, seed: int) -> Any:
        return None


def test_a_gymnasium_opponent_whose_spawn_gives_no_bot_is_named() -> None:
    gymnasium = pytest.importorskip("chkobba.gymnasium")
    env = gymnasium.ChkobbaEnv(opponent=_SpawnsNothing(), seat=0)
    with pytest.raises(ChkobbaError) as caught:
        env.reset(seed=1, options={"dealer": 0})
    assert str(caught.value).startswith("badspawn.spawn(")
    assert str(caught.value).endswith(
        ") returned None, which is not a bot: it has no choose(view, legal) method"
    )


def test_a_gymnasium_opponent_answering_no_move_is_told_why() -> None:
    gymnasium = pytest.importorskip("chkobba.gymnasium")
    env = gymnasium.ChkobbaEnv(opponent=_Answers(None), seat=0)
    with pytest.raises(ChkobbaError) as caught:  # dealer 0: the opponent cuts first
        env.reset(seed=1, options={"dealer": 0})
    assert str(caught.value) == (
        "the opponent mine at seat 1 chose None, which is not legal: None is not a move "
        "(expected Shuffle, Cut or Play)"
    )
