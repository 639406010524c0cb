"""Tests for what an audit from a bot author's side found (stop 54).

A bot author writes a class with ``choose(view, legal)`` and plays it through the arena
and the Gymnasium environment. Each test fails on the code before its fix:

- a bot's class given where an instance belongs was taken for a bot (the class has a
  ``choose``) and failed inside the match with a raw ``TypeError`` naming no seat;
- an answer whose ``==`` gives an array (numpy's) made the arena's legality check raise
  numpy's own ``ValueError`` instead of the arena's ``IllegalMoveError``;
- a blank ``name``, or one that is no text, named the bot by its class in messages but by
  that value in tables and records;
- a bot that cannot pickle, given to a ``ProcessPoolExecutor``, failed with the pickling
  error and a note saying how to replay a match that never ran; with ``workers`` the
  refusal did not say which bot;
- a ``spawn(seed)`` that returned no bot was reported as if the tournament had been given
  that value;
- a bot's own error named the tournament's match but not the seat that raised it (and
  nothing at all in ``play_match``);
- the tournament's note said a deep-copied bot was "built with seed N", a seed it never saw;
- a spec naming one's own module or class (``chkobba simulate --bots my_bots:Mine``) was
  told only the built-in names, not that such a bot plays through the Python API;
- ``chkobba replay`` and ``analyse`` never showed a record's tags (who sat where).
"""

from __future__ import annotations

import json
import pickle
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import ChkobbaError, IllegalMoveError
from chkobba.arena import play_match, seat_bots, subseed, tournament
from chkobba.bots import BotSpec, GreedyBot
from chkobba.bots.base import is_bot
from tests.helpers import run_cli


class Sevens:
    """A bot of the author's: the first legal move."""

    name = "sevens"

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


class _Array:
    """What numpy's arrays do with ``==``: an answer that is no bool."""

    def __eq__(self, other: object) -> Any:
        return self

    def __bool__(self) -> bool:
        raise ValueError("The truth value of an array with more than one element is ambiguous")

    __hash__ = None  # type: ignore[assignment]


class _AnswersAnArray:
    name = "arrays"

    def choose(self, view: Any, legal: Any) -> Any:
        return _Array()


# --- a class is not a bot ---------------------------------------------------------------

CLASS_REFUSAL = "it is a class, not a bot: pass an instance such as Sevens()"


def test_a_bots_class_is_refused_by_play_match_before_any_move() -> None:
    with pytest.raises(ChkobbaError) as caught:
        play_match([Sevens, "greedy"], seed=1)  # type: ignore[list-item]
    assert str(caught.value) == f"{Sevens!r} is not a bot or a bot spec: {CLASS_REFUSAL}"


def test_a_bots_class_is_refused_by_tournament_and_seat_bots() -> None:
    with pytest.raises(ChkobbaError, match=re.escape(CLASS_REFUSAL) + "$"):
        tournament([Sevens, "greedy"], games=2, seed=1)  # type: ignore[list-item]
    with pytest.raises(ChkobbaError, match=re.escape(f"is not a bot: {CLASS_REFUSAL}")):
        seat_bots([Sevens, GreedyBot()], 2)  # type: ignore[list-item]
    assert not is_bot(Sevens) and is_bot(Sevens())


def test_a_bots_class_is_refused_as_a_gymnasium_opponent() -> None:
    gymnasium = pytest.importorskip("chkobba.gymnasium")
    with pytest.raises(ChkobbaError) as caught:
        gymnasium.ChkobbaEnv(opponent=Sevens)
    assert str(caught.value) == f"opponent {Sevens!r} is not a bot: {CLASS_REFUSAL}"


# --- an answer that is no move ----------------------------------------------------------


def test_an_answer_whose_equality_is_an_array_is_an_illegal_move() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        play_match([_AnswersAnArray(), "greedy"], seed=1, dealer=1)  # seat 0 cuts first
    message = str(caught.value)  # (the answer's repr is cut: it names this file's path)
    assert message.startswith("bot arrays at seat 0 chose <")
    assert "._Array object>, which is not legal: <" in message  # named, without an address
    assert message.endswith("is not a move (expected Shuffle, Cut or Play)")


def test_a_numpy_array_answer_is_an_illegal_move() -> None:
    np = pytest.importorskip("numpy")

    class Numpy:
        def choose(self, view: Any, legal: Any) -> Any:
            return np.array([1, 2])

    with pytest.raises(IllegalMoveError, match=r"^bot Numpy at seat [01] chose array\(\[1, 2\]\)"):
        play_match([Numpy(), "greedy"], seed=1)


def test_a_gymnasium_opponent_answering_an_array_is_named() -> None:
    gymnasium = pytest.importorskip("chkobba.gymnasium")
    env = gymnasium.ChkobbaEnv(opponent=_AnswersAnArray(), seat=0)
    # Dealer 0: seat 1, the opponent, cuts, so the reset asks it first.
    with pytest.raises(ChkobbaError, match=r"^the opponent arrays at seat 1 chose <\S*_Array"):
        env.reset(seed=1, options={"dealer": 0})


# --- one name everywhere ----------------------------------------------------------------


class _Named(Sevens):
    def __init__(self, name: object) -> None:
        self.name = name  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("name", "shown"), [(None, "_Named"), ("   ", "_Named"), (7, "_Named"), (" x ", "x")]
)
def test_a_bot_is_named_alike_in_tables_records_and_messages(name: object, shown: str) -> None:
    table = tournament([_Named(name), "greedy"], games=2, seed=1, records=True)
    assert table.bots[0].name == shown
    assert table.ratings().bots[0].name == shown
    assert {match.record.tags["player0"] for match in table.matches if match.record} >= {shown}


# --- bots that cannot travel ------------------------------------------------------------


class _StaysHome(Sevens):
    name = "home"

    def __reduce__(self) -> Any:
        raise pickle.PicklingError("this bot stays in its process")


REFUSAL = (
    "bot 'home' (entrant 1) cannot be sent to worker processes (this bot stays in its "
    "process): use a bot spec, or a bot that pickles (its class defined at the top level "
    "of a module, not in a function or an interactive session)"
)


def test_a_process_pool_executor_refuses_a_bot_that_cannot_pickle_by_its_name() -> None:
    seen: list[object] = []
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(ChkobbaError) as caught:
        tournament(["greedy", _StaysHome()], games=2, seed=1, executor=pool, on_match=seen.append)
    assert str(caught.value) == REFUSAL
    assert not getattr(caught.value, "__notes__", None)  # no match to replay
    assert seen == []


# --- spawn that returns no bot ----------------------------------------------------------


class _SpawnsNothing(Sevens):
    name = "nothing"

    def spawn(self, seed: int) -> Any:
        return None


class _SpawnsANumber(Sevens):
    name = "number"

    def spawn(self, seed: int) -> Any:
        return 5


@pytest.mark.parametrize(("maker", "shown"), [(_SpawnsNothing(), "None"), (_SpawnsANumber(), "5")])
def test_a_spawn_that_returns_no_bot_is_named_with_what_it_returned(maker: Any, shown: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        tournament([maker, "greedy"], games=1, seed=1)
    assert re.fullmatch(
        rf"{maker.name}\.spawn\(\d+\) returned {shown}, which is not a bot: it has no "
        r"choose\(view, legal\) method",
        str(caught.value),
    )


# --- a bot's own error says where it came from ------------------------------------------


class _Raises(Sevens):
    name = "raiser"

    def choose(self, view: Any, legal: Any) -> Any:
        if view.player == 1:
            raise RuntimeError("the author's bug")
        return legal[0]


def test_play_match_notes_which_bot_and_seat_raised() -> None:
    with pytest.raises(RuntimeError) as caught:
        play_match([GreedyBot(seed=1), _Raises()], seed=3, dealer=0)
    assert str(caught.value) == "the author's bug"  # its type and text unchanged
    # Dealer 0: seat 1 cuts, the match's second move (after the shuffle).
    assert getattr(caught.value, "__notes__", None) == [
        "raised by bot raiser at seat 1, choosing the match's move 2 (phase CUT)"
    ]


def test_a_tournament_names_the_seat_that_raised_and_a_copied_bot_as_a_copy() -> None:
    with pytest.raises(RuntimeError) as caught:
        tournament([_Raises(), "greedy"], games=2, seed=1)
    seat_note, match_note = getattr(caught.value, "__notes__", None) or ("", "")
    assert seat_note.startswith("raised by bot raiser at seat 1, ")
    # Game 0 seats the raiser at seat 0 (it does not raise there) and game 1 at seat 1.
    assert "in tournament match 1 " in match_note
    assert "'raiser' (entrant 0) a copy of the bot given" in match_note
    assert re.search(r"'greedy' \(entrant 1\) built with seed \d+", match_note)


# --- the command line points a bot's module at the Python API ---------------------------


@pytest.mark.parametrize(
    "text", ["my_bots:SevenDiamondBot", "mypkg.bots", "./bots.py", "bots/mine"]
)
def test_a_spec_naming_ones_own_code_points_to_the_python_api(text: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        BotSpec.parse(text)
    assert str(caught.value) == (
        f"{text!r} is not a bot: choose from expert, greedy, ismcts, random (a spec names a "
        "built-in bot; a bot of your own plays through the Python API, given to play_match "
        "or tournament as an object: see docs/bots.md)"
    )


@pytest.mark.parametrize("text", ["clever", "gredy:seed=1", "ismct:v1"])
def test_a_mistyped_builtin_name_gets_the_list_alone(text: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        BotSpec.parse(text)
    assert str(caught.value).endswith("choose from expert, greedy, ismcts, random")


# --- replay and analyse show who sat where ----------------------------------------------


#: Match 0 of a tournament of two entrants with seed 2: its shuffles' seed, and the seed
#: of the bot at seat 1 (both derived as the tournament derives them).
MATCH_SEED = subseed(2, 0, 1, 0)
GREEDY_SEED = subseed(subseed(2, 0, 1, 0), 1)


def _tagged_record(tmp_path: Path) -> str:
    table = tournament([Sevens(), "greedy"], games=1, seed=2, records=True)
    record = table.matches[0].record
    assert record is not None
    record = attrs.evolve(record, tags={**record.tags, "event": "club\x1b[2J night"})
    path = tmp_path / "match.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return str(path)


def test_replay_shows_the_records_tags_under_its_first_line(tmp_path: Path) -> None:
    path = _tagged_record(tmp_path)
    code, text, _ = run_cli("replay", path, "--no-boards")
    assert code == 0
    # Sorted by name, as a record keeps them; a terminal's escape code written as text.
    # The copied bot of one's own has no seed; greedy, built from one, has its seed.
    assert text.splitlines()[1] == (
        "tags: event club\\x1b[2J night, game 0, player0 sevens, player1 greedy, "
        f"player1_seed {GREEDY_SEED}, seed {MATCH_SEED}"
    )


def test_analyse_shows_the_records_tags_and_gives_them_in_json(tmp_path: Path) -> None:
    path = _tagged_record(tmp_path)
    code, text, _ = run_cli("analyse", path, "--seat", "0", "--bot", "ismcts:iterations=5")
    assert code == 0
    assert text.splitlines()[1].startswith("tags: event club")
    code, text, _ = run_cli(
        "analyse", path, "--seat", "0", "--bot", "ismcts:iterations=5", "--json"
    )
    assert code == 0
    assert json.loads(text)["tags"] == {
        "event": "club\x1b[2J night",
        "game": "0",
        "player0": "sevens",
        "player1": "greedy",
        "player1_seed": str(GREEDY_SEED),
        "seed": str(MATCH_SEED),
    }


def test_a_record_without_tags_shows_no_tag_line(tmp_path: Path) -> None:
    # (play_match tags its records: this one's are taken off.)
    record = attrs.evolve(play_match(["greedy", "random"], seed=1).record, tags={})
    path = tmp_path / "plain.json"
    path.write_text(record.to_json(), encoding="utf-8")
    code, text, _ = run_cli("replay", str(path), "--no-boards")
    assert code == 0 and not text.splitlines()[1].startswith("tags:")


def test_a_long_tag_is_cut_as_messages_quote_text(tmp_path: Path) -> None:
    record = attrs.evolve(play_match(["greedy", "random"], seed=1).record, tags={"note": "x" * 100})
    path = tmp_path / "long.json"
    path.write_text(record.to_json(), encoding="utf-8")
    code, text, _ = run_cli("replay", str(path), "--no-boards")
    assert code == 0 and text.splitlines()[1] == "tags: note " + "x" * 59 + "…"


def test_a_spec_whose_name_is_no_text_gets_the_list_alone() -> None:
    with pytest.raises(ChkobbaError) as caught:
        BotSpec(name=5, options=())  # type: ignore[arg-type]
    assert str(caught.value) == "5 is not a bot: choose from expert, greedy, ismcts, random"
