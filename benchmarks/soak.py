"""Soak: does a long-running process that uses the library keep its memory bounded?

Usage::

    python benchmarks/soak.py [--matches N] [--profiles N] [--seed S] [--only WORKLOAD]
                              [--top K] [--frames F]

Each workload runs its units the way a long-running server does, with :mod:`tracemalloc`
tracing from the workload's start, and measures the memory it retains (traced memory
after ``gc.collect()``) at three checkpoints: after a third of its units (the warm-up),
two thirds and all of them. It prints those figures, the growth per 1,000 units from the
first checkpoint to the last, the allocation sites that grew most over that span
(snapshots compared by traceback), the object types whose count grew
(``gc.get_objects()``), and the size of every module-level cache of the library at each
checkpoint, beside its bound. The workloads (``--only NAME`` runs one):

- ``server`` (unit: a match; N = ``--matches``, default 75): four tables at a time, a
  move at a time on a table picked at random. Each table is a :class:`~chkobba.Game` of
  2 or 4 seats; seat 0 is a remote client, sent its view as JSON (read back with
  ``PlayerView.from_dict``) and answering with the move's text (``game.play(text,
  seat=0)``), the other seats bots on the server (random, greedy, and now and then
  ISMCTS or expert). Every move's :func:`~chkobba.apply_with_outcome` event goes out as
  JSON and is read back; at each deal's end the state is saved as JSON and read back;
  each deal's first play is taken back (``undo``) and played again, and so is each
  match's first shuffle. A finished match's record is written as JSON and read back
  (verified), appended to a JSON Lines file that is read back every 25 matches, and
  every 10th record is saved to a file, loaded, and made a game again
  (``Game.from_record``) whose last moves are undone.
- ``bots`` (unit: a match; N): every match builds its bots from specs whose options
  change from match to match (random, greedy, ISMCTS and expert at every ``inference``
  level), plays a one-deal match with :func:`chkobba.arena.play_match` and drops them.
- ``hints`` (unit: a match; N): one ExpertBot and one ISMCTSBot, both with inference,
  live for the whole run, as a hint service's evaluators would: they are shown seat 0's
  every turn of a one-deal random match (``choose``), and every 4th turn they
  ``evaluate`` it; ``deal_estimate`` and ``side_estimates`` read the piles at the end.
- ``profiles`` (unit: a new house profile; N = ``--profiles``, default 192):
  ``attrs.evolve(TUNISIAN, ...)`` with its own name, target, capture values and
  switches, read back from JSON (an equal, distinct object), then a deal of random moves
  under it, a rollout, an ISMCTS decision, its action count, and every 8th a Gymnasium
  environment under it.
- ``seatings`` (unit: a round of every seating; 10 N): ``new_match`` for every player
  count and dealer both named profiles allow, dealt and cut both ways, resumed from
  scores, and refused seatings (5 players, ``2.0``, a dealer of ``10**30``...).
- ``cards`` (unit: 100 texts; 10 N): ``card``, ``cards`` and ``parse_move`` on texts that
  are each new (case, spaces, suit symbols, variation selectors), and texts that are no
  card or no move, each different.
- ``gymnasium``, ``pettingzoo`` (unit: an episode; 5 N) and ``openspiel`` (N): a one-deal
  episode of random legal actions after a reset with a new seed; a new environment every
  20 episodes (the old one dropped); under OpenSpiel, a ``load_game`` for every episode,
  with a target of its own (a profile of its own). Skipped when the extra is missing.

A bounded cache still fills during a run, which shows as growth: what the ``profiles``
workload keeps starts afresh every ``PROFILES_KEPT`` (64) profiles; ``captures.sum_groups``,
which greedy play calls, keeps up to 65,536 tables' values (about 22 MB), full after 200
to 400 server matches (1,000 to 1,600 of the one-deal ``bots`` matches); a kernel keeps
the table signatures play meets, a few thousand, more and more slowly. The cache sizes
tell such growth from a leak, and a longer run shows the plateau (``--only server
--matches 600``: 19.0, 25.6 and 26.0 MB after 200, 400 and 600 matches). Before each
measure CPython's type attribute cache is emptied (``sys._clear_type_cache``): it keeps
the name of each attribute looked up, and ``json.loads`` with hooks makes such names
anew at each call, which would otherwise count as growth (up to 4,096 names, not the
library's). ``--frames F`` keeps F frames per allocation (default 1; more make the run
slower) for longer tracebacks of the sites that grew.

The default run takes about a minute and a half (95 s here): tracing makes the library
about four times slower.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import importlib
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import attrs
from _args import positive

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    Game,
    Move,
    MoveOutcome,
    Phase,
    PlayerView,
    Record,
    Rules,
    State,
    apply,
    apply_with_outcome,
    card,
    cards,
    format_cards,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
)
from chkobba.actions import num_actions
from chkobba.arena import play_match
from chkobba.bots import Bot, ExpertBot, GreedyBot, ISMCTSBot, RandomBot, make_bot
from chkobba.bots.evaluation import deal_estimate, side_estimates

#: How many tables the server keeps in play at once.
TABLES = 4
#: A match of one deal (a side that scores wins; a tie plays another deal), for the
#: workloads whose bots think.
ONE_DEAL = attrs.evolve(TUNISIAN, name="one deal", target=1)
#: Empties CPython's type attribute cache (see the module's docstring).
_clear_type_cache = getattr(sys, "_clear_internal_caches", sys._clear_type_cache)


# --- the library's caches ------------------------------------------------------------------


@dataclass(frozen=True)
class Cache:
    """A cache of the library: its name, how to count its entries, its bound."""

    name: str
    size: Callable[[], int]
    bound: str


def _module(name: str) -> Any:
    return importlib.import_module(name)


def _length(module: str, attribute: str) -> Callable[[], int]:
    return lambda: len(getattr(_module(module), attribute))


def _lru(module: str, attribute: str) -> Callable[[], int]:
    return lambda: int(getattr(_module(module), attribute).cache_info().currsize)


def kernels() -> list[Any]:
    """Every live compact kernel: those the per-profile caches keep, and any other."""
    kind = _module("chkobba._kernel").Kernel
    return [each for each in gc.get_objects() if type(each) is kind]


def _kernel_entries(attribute: str) -> Callable[[], int]:
    return lambda: sum(len(getattr(each, attribute)) for each in kernels())


def library_caches() -> tuple[Cache, ...]:
    """Every module-level cache or registry of the library that fills at run time."""
    kernel = _module("chkobba._kernel")
    kept = str(kernel.PROFILES_KEPT)
    evaluation, actions = "chkobba.bots.evaluation", "chkobba.actions"
    return (
        Cache("_kernel._KERNELS (by profile)", _length("chkobba._kernel", "_KERNELS"), kept),
        Cache("_plays._LOOKUPS (by profile)", _length("chkobba._plays", "_LOOKUPS"), kept),
        Cache("_playout._SHUFFLES (by kernel)", _length("chkobba._playout", "_SHUFFLES"), kept),
        Cache(
            "_policy_rollout._TABLES (by kernel)",
            _length("chkobba.bots._policy_rollout", "_TABLES"),
            kept,
        ),
        Cache("live Kernel objects", lambda: len(kernels()), f"{kept} + 2"),
        Cache("Kernel.cache, all kernels", _kernel_entries("cache"), f"{kernel._KEPT} each"),
        Cache("Kernel._groups, all kernels", _kernel_entries("_groups"), "11 x cache + 1"),
        Cache("state._FRESH (fresh matches)", _length("chkobba.state", "_FRESH"), "64"),
        Cache("actions._max_capture_options", _lru(actions, "_max_capture_options"), "64"),
        Cache("captures.sum_groups", _lru("chkobba.captures", "sum_groups"), "65536"),
        Cache("evaluation._majority", _lru(evaluation, "_majority"), "4096"),
        Cache("evaluation._bermila", _lru(evaluation, "_bermila"), "4096"),
        Cache("evaluation._SPLITS", _length(evaluation, "_SPLITS"), "65536"),
        Cache("evaluation._BERMILAS", _length(evaluation, "_BERMILAS"), "65536"),
        Cache("evaluation._dealt_ways", _lru(evaluation, "_dealt_ways"), "41: 0-40 cards out"),
        Cache("checks._SOUND (sound scores)", _length("chkobba.checks", "_SOUND"), "scores alive"),
        Cache("_kernel._EMPTY_HANDS", _length("chkobba._kernel", "_EMPTY_HANDS"), "3"),
        Cache("_kernel._REFILLS", _length("chkobba._kernel", "_REFILLS"), "9"),
        Cache("_kernel._PLANS", _length("chkobba._kernel", "_PLANS"), "27"),
        Cache("_playout._ROUNDS", _length("chkobba._playout", "_ROUNDS"), "9"),
        Cache("_shuffle._STEPS (by length)", _length("chkobba._shuffle", "_STEPS"), "41"),
        Cache("cards._INTERNED", _length("chkobba.cards", "_INTERNED"), "40"),
        Cache("cards._BY_TEXT", _length("chkobba.cards", "_BY_TEXT"), "280"),
    )


# --- the workloads: each makes, from a seed and a scratch folder, what runs unit i ----------

Unit = Callable[[int], None]


class _Table:
    """One match of the server: its game, its seats' bots, what it does at each move."""

    def __init__(self, number: int, folder: Path) -> None:
        self.number = number
        self.folder = folder
        players = 4 if number % 3 == 2 else 2
        self.game = Game(players, dealer=number % players, seed=number)
        self.bots: list[Bot] = []
        for seat in range(players):
            seed = number * 10 + seat
            if seat == 1 and number % 10 == 3:
                inference = number % 3 if players == 2 else 0  # (it reads 2-player matches)
                self.bots.append(ISMCTSBot(iterations=4, seed=seed, inference=inference))
            elif seat == 1 and number % 10 == 7:
                self.bots.append(ExpertBot(iterations=4, budget=40, seed=seed))
            elif (seat + number) % 2:
                self.bots.append(GreedyBot(seed=seed))
            else:
                self.bots.append(RandomBot(seed=seed))
        self.dealt_again = False
        self.taken_back = -1  # the last deal whose first play was taken back

    def step(self) -> bool:
        """One move (the host's shuffle, or a seat's move); True once the match is over."""
        game = self.game
        before = game.state
        if before.is_chance:
            game.deal()
            if not self.dealt_again:  # the host takes the shuffle back and deals again
                self.dealt_again = True
                game.undo()
                game.deal()
            return False
        seat = before.current_player
        assert seat is not None
        if seat == 0:  # the remote client: its view as JSON out, the move's text back
            view = PlayerView.from_dict(json.loads(json.dumps(observe(before, 0).to_dict())))
            move = self.bots[0].choose(view, legal_moves(view))
        else:
            move = self.bots[seat].choose(observe(before, seat), legal_moves(before))
        after, outcome = apply_with_outcome(before, move)
        event = json.dumps(outcome.to_dict())  # sent to every seat
        assert MoveOutcome.from_dict(json.loads(event)) == outcome
        game.play(str(move), seat=seat)
        deals = len(before.deal_scores)
        if before.phase is Phase.PLAY and self.taken_back != deals:
            self.taken_back = deals
            game.undo()
            game.play(move)
        if len(after.deal_scores) > deals:  # a deal's end: the state saved and read back
            assert State.from_dict(json.loads(json.dumps(after.to_dict()))) == after
        return game.is_over

    def close(self, lines: Path) -> None:
        """The match is over: its record written, read back and kept in a file."""
        record = self.game.record(tags={"table": str(self.number), "server": "soak"})
        text = record.to_json(compact=True)
        assert Record.from_json(text) == record
        with lines.open("a", encoding="utf-8") as file:
            file.write(text + "\n")
        if self.number % 10 == 0:
            path = self.folder / "match.json"
            record.save(path)
            again = Game.from_record(Record.load(path), seed=self.number)
            for _ in range(5):
                again.undo()
            assert again.record().moves == record.moves[:-5]


class _Server:
    def __init__(self, seed: int, folder: Path) -> None:
        self.rng = random.Random(seed)
        self.folder = folder
        self.lines = folder / "records.jsonl"
        self.tables: list[_Table] = []
        self.opened = seed * 100_000
        self.finished = 0

    def match(self, number: int) -> None:
        """Play on, a move at a time on a table picked at random, until a match ends."""
        del number
        done = self.finished + 1
        while self.finished < done:
            while len(self.tables) < TABLES:
                self.tables.append(_Table(self.opened, self.folder))
                self.opened += 1
            table = self.tables[self.rng.randrange(len(self.tables))]
            if table.step():
                table.close(self.lines)
                self.tables.remove(table)
                self.finished += 1
        if self.finished % 25 == 0:
            assert len(Record.load_lines(self.lines)) == 25
            assert sum(1 for _ in Record.iter_lines(self.lines)) == 25
            self.lines.unlink()


def server(seed: int, folder: Path) -> Unit:
    return _Server(seed, folder).match


_SPECS = (
    "random",
    "greedy",
    "ismcts:iterations={n},inference={i}",
    "expert:iterations={n},budget={b},inference={i}",
    "ismcts:iterations={n},horizon={h},epsilon=0.2",
)


def bots(seed: int, folder: Path) -> Unit:
    del folder

    def match(number: int) -> None:
        players = 4 if number % 4 == 3 else 2
        made = []
        for seat in range(players):
            spec = _SPECS[(number + seat) % len(_SPECS)]
            n, b, h = 3 + (number + seat) % 5, 30 + number % 50, number % 7
            i = number // 5 % 3 if players == 2 else 0  # inference reads 2-player matches
            bot = make_bot(spec.format(n=n, b=b, i=i, h=h), seed=seed * 1000 + number * 10 + seat)
            made.append(bot.spawn(number) if seat == 0 else bot)  # a copy, the first dropped
        result = play_match(made, seed=seed + number, players=players, rules=ONE_DEAL)
        assert result.winner is not None

    return match


class _Hints:
    """Evaluators kept for the whole run, shown seat 0's every turn, match after match."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.expert = ExpertBot(iterations=4, budget=60, inference=2, seed=seed)
        self.search = ISMCTSBot(iterations=4, inference=1, seed=seed + 1)

    def match(self, number: int) -> None:
        turns: list[State] = []

        def keep(before: State, move: Move, after: State) -> None:
            del move
            if after.phase is Phase.PLAY and after.current_player == 0:
                turns.append(after)
            if len(after.deal_scores) > len(before.deal_scores):
                piles, chkobbas = before.captured, before.chkobbas
                estimate = deal_estimate(piles, chkobbas, before.rules)
                assert side_estimates(piles, chkobbas, before.rules)[0] == estimate

        play_match(["random", "greedy"], seed=self.seed + number, rules=ONE_DEAL, on_move=keep)
        for at, turn in enumerate(turns):
            view, legal = observe(turn, 0), legal_moves(turn)
            for bot in (self.expert, self.search):
                assert bot.choose(view, legal) in legal
                if at % 4 == 0:
                    assert set(bot.evaluate(view, legal)) == set(legal)


def hints(seed: int, folder: Path) -> Unit:
    del folder
    return _Hints(seed).match


def house_profile(number: int, rng: random.Random) -> Rules:
    """A house profile of its own: its name, target, capture values and switches."""
    values = list(TUNISIAN.capture_values)
    for _ in range(rng.randrange(3)):  # some ranks worth something else
        values[rng.randrange(10)] = rng.randint(1, 12)
    return attrs.evolve(
        TUNISIAN,
        name=f"house {number}",
        target=rng.randint(5, 41),
        capture_values=tuple(values),
        players=rng.choice([(2,), (2, 4), (2, 3, 4), (3,)]),
        cut=rng.random() < 0.7,
        void_deal=rng.choice(["three_of_a_rank", "three_kings", "never"]),
        equal_single_first=rng.random() < 0.8,
        courts_capture_sums=rng.random() < 0.8,
        majority=rng.choice(["more_than_half", "most"]),
        primiera=rng.random() < 0.3,
    )


def _played(state: State, rng: random.Random, until: Phase | None) -> State:
    """``state`` played on at random, to the given phase or (None) to the deal's end."""
    deals = len(state.deal_scores)
    while state.phase is not until and len(state.deal_scores) == deals:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state = apply(state, move)
    return state


def profiles(seed: int, folder: Path) -> Unit:
    del folder
    rng = random.Random(seed)
    gymnasium = _module("chkobba.gymnasium") if _installed("gymnasium") else None

    def profile(number: int) -> None:
        made = house_profile(seed * 1_000_003 + number, rng)
        read = Rules.from_dict(json.loads(json.dumps(made.to_dict())))  # equal, not the same
        assert read == made and read is not made
        players = made.players[number % len(made.players)]
        _played(new_match(players, dealer=number % players, rules=read), rng, None)
        rollout(new_match(players, rules=made), rng, until="deal")
        state = _played(new_match(players, rules=made), rng, Phase.PLAY)
        if state.phase is Phase.PLAY:
            seat = state.current_player
            assert seat is not None
            ISMCTSBot(iterations=2, seed=number).choose(observe(state, seat), legal_moves(state))
        assert num_actions(read) == num_actions(made)
        if number % 8 == 0 and gymnasium is not None:
            environment = gymnasium.ChkobbaEnv("random", players=players, rules=made)
            environment.reset(seed=number)
            environment.close()

    return profile


#: Seatings no profile deals: players and dealer.
_REFUSED: tuple[tuple[Any, Any], ...] = (
    (5, 0),
    (1, 0),
    (2.0, 0),
    (True, 0),
    (10**30, 0),
    (2, 7),
    (2, -1),
    (2, 10**30),
    (4, 2.0),
    (3, None),
)


def seatings(seed: int, folder: Path) -> Unit:
    del folder
    rng = random.Random(seed)

    def round_of_seatings(number: int) -> None:
        for rules in (TUNISIAN, CARD_RULES_PLUS):
            for players in rules.players:
                for dealer in range(players):
                    match = new_match(players, dealer=dealer, rules=rules)
                    state = apply(match, random_shuffle(rng))
                    if state.phase is Phase.CUT:
                        state = apply(state, Cut(keep=(number + dealer) % 2 == 0))
                    for seat in range(players):
                        observe(state, seat)
                    scores = [number % rules.target] * rules.sides(players)
                    resumed = new_match(players, dealer=dealer, scores=scores, rules=rules)
                    assert resumed.scores == tuple(scores)
        for players, dealer in _REFUSED:
            with contextlib.suppress(ChkobbaError):
                new_match(players, dealer=dealer)
                raise AssertionError(f"new_match({players!r}, dealer={dealer!r}) was accepted")
        for players in (5 + number % 1000, 10**30 + number):  # built by hand: refused as dealt
            with contextlib.suppress(ChkobbaError):
                apply(attrs.evolve(new_match(), players=players), random_shuffle(rng))
                raise AssertionError(f"a state of {players} players was dealt")

    return round_of_seatings


_SYMBOLS = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}


def _spelling(text: str, rng: random.Random, spaces: int) -> str:
    """``text`` (a card such as ``7D``) written another way, with ``spaces`` spaces around
    it: each spelling of the run is new."""
    rank: str = rng.choice([text[0], text[0].lower()])
    suit: str = rng.choice([text[1], text[1].lower(), *_SYMBOLS[text[1]]])
    if not suit.isascii() and rng.random() < 0.3:
        suit += rng.choice(["\ufe0f", "\ufe0e"])
    left = rng.randrange(spaces + 1)
    return " " * left + rank + suit + " " * (spaces - left)


def cards_texts(seed: int, folder: Path) -> Unit:
    del folder
    rng = random.Random(seed)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=seed % 2 == 0))
    legal = legal_moves(state)

    def hundred_texts(number: int) -> None:
        for at in range(40):
            each = DECK[(number + at) % 40]
            assert card(_spelling(str(each), rng, (number * 40 + at) % 50)) is each
        for at in range(20):
            with contextlib.suppress(ChkobbaError):
                card(f"{number}x{at}")
                raise AssertionError("a text that is no card was read")
        chosen = rng.sample(DECK, 5)
        written = " ".join(_spelling(str(c), rng, number % 7) for c in chosen)
        assert cards(written) == tuple(chosen) and format_cards(chosen)
        for at in range(20):
            move = legal[(number + at) % len(legal)]
            spaced = " " * (at % 7) + str(move).lower() + " " * (number % 7)
            assert parse_move(spaced, state) == move
        for at in range(19):
            with contextlib.suppress(ChkobbaError):
                parse_move(f"{DECK[at]} x {DECK[(number + at) % 40]}+{number}", state)
        shuffle = random_shuffle(rng)
        assert parse_move(str(shuffle), new_match()) == shuffle

    return hundred_texts


def _installed(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def gymnasium_episodes(seed: int, folder: Path) -> Unit:
    del folder
    chkobba_gymnasium = _module("chkobba.gymnasium")
    rng = random.Random(seed)
    made: list[Any] = []

    def episode(number: int) -> None:
        if number % 20 == 0:
            if made:
                made.pop().close()
            players = (2, 4)[number // 20 % 2]
            opponent = ("random", "greedy", f"ismcts:iterations={2 + number % 3}")[number // 20 % 3]
            features = number % 40 == 0
            made.append(
                chkobba_gymnasium.ChkobbaEnv(  # raise: a mask that let an illegal id by fails
                    opponent,
                    players=players,
                    single_deal=True,
                    features=features,
                    illegal_action="raise",
                )
            )
        environment = made[0]
        _, info = environment.reset(seed=seed * 1_000_003 + number)
        done = False
        while not done:
            mask = info["action_mask"]
            action = rng.choice([at for at in range(len(mask)) if mask[at]])
            _, _, terminated, truncated, info = environment.step(action)
            done = terminated or truncated

    return episode


def pettingzoo_episodes(seed: int, folder: Path) -> Unit:
    del folder
    chkobba_pettingzoo = _module("chkobba.pettingzoo")
    rng = random.Random(seed)
    made: list[Any] = []

    def episode(number: int) -> None:
        if number % 20 == 0:
            made.clear()
            players = (2, 3, 4)[number // 20 % 3]
            rules = CARD_RULES_PLUS if players == 3 else TUNISIAN
            made.append(chkobba_pettingzoo.env(players=players, single_deal=True, rules=rules))
        environment = made[0]
        environment.reset(seed=seed * 1_000_003 + number)
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                mask = observation["action_mask"]
                environment.step(rng.choice([at for at in range(len(mask)) if mask[at]]))

    return episode


def openspiel_episodes(seed: int, folder: Path) -> Unit:
    del folder
    _module("chkobba.openspiel")  # registers python_chkobba
    pyspiel = _module("pyspiel")
    rng = random.Random(seed)

    def episode(number: int) -> None:
        players = (2, 3, 4)[number % 3]
        parameters = {
            "players": players,
            "rules": "cardrulesplus" if players == 3 else "tunisian",
            "target": 5 + number % 200,  # a profile of its own for each target
            "single_deal": True,
        }
        game = pyspiel.load_game("python_chkobba", parameters)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if rng.random() < 0.1:
                state.observation_tensor(state.current_player())
                state.information_state_string(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
        assert len(state.returns()) == players

    return episode


@dataclass(frozen=True)
class Workload:
    name: str
    unit: str
    units: str  # the plural
    make: Callable[[int, Path], Unit]
    needs: str = ""  # the optional module it needs
    scale: int = 1  # units per --matches (the cheap workloads run more)


WORKLOADS = (
    Workload("server", "match", "matches", server),
    Workload("bots", "match", "matches", bots),
    Workload("hints", "match", "matches", hints),
    Workload("profiles", "profile", "profiles", profiles),
    Workload("seatings", "round", "rounds", seatings, scale=10),
    Workload("cards", "batch of 100 texts", "batches", cards_texts, scale=10),
    Workload("gymnasium", "episode", "episodes", gymnasium_episodes, "gymnasium", scale=5),
    Workload("pettingzoo", "episode", "episodes", pettingzoo_episodes, "pettingzoo", scale=5),
    Workload("openspiel", "episode", "episodes", openspiel_episodes, "pyspiel"),
)


# --- measuring -----------------------------------------------------------------------------


@dataclass
class Checkpoint:
    units: int
    retained: int
    seconds: float
    types: collections.Counter[str]
    caches: dict[str, int]


#: The measurement's own objects, left out of the type counts.
_OWN_TYPES = ("Checkpoint", "Counter", "Snapshot", "_Traces", "Trace", "Traceback", "Frame")


def _type_counts() -> collections.Counter[str]:
    found = collections.Counter(type(each).__qualname__ for each in gc.get_objects())
    for name in _OWN_TYPES:
        del found[name]
    return found


def retained() -> int:
    """The memory traced now, after a full collection."""
    _clear_type_cache()
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def _snapshot() -> tracemalloc.Snapshot:
    own = (tracemalloc.__file__, "<frozen importlib._bootstrap*>")
    return tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, f) for f in own])


def measure(
    workload: Workload, units: int, seed: int, frames: int
) -> tuple[list[Checkpoint], list[tracemalloc.StatisticDiff]]:
    """Run ``units`` of ``workload`` under tracemalloc: the checkpoints after a third,
    two thirds and all of them, and the allocation sites that grew from the first to
    the last (the largest growth first)."""
    marks = sorted({max(1, units // 3), max(1, 2 * units // 3), units})
    checkpoints: list[Checkpoint] = []
    first: tracemalloc.Snapshot | None = None
    with tempfile.TemporaryDirectory() as folder:
        tracemalloc.start(frames)
        try:
            run = workload.make(seed, Path(folder))
            done, start = 0, time.perf_counter()
            for mark in marks:
                while done < mark:
                    run(done)
                    done += 1
                memory, seconds = retained(), time.perf_counter() - start
                caches = {cache.name: cache.size() for cache in library_caches()}
                checkpoints.append(Checkpoint(mark, memory, seconds, _type_counts(), caches))
                if first is None:
                    first = _snapshot()
            last = _snapshot()
        finally:
            tracemalloc.stop()
    assert first is not None
    grew = [stat for stat in last.compare_to(first, "traceback") if stat.size_diff > 0]
    return checkpoints, grew


def growth_per_thousand(checkpoints: list[Checkpoint]) -> float:
    """Bytes retained per 1,000 units from the first checkpoint to the last."""
    first, last = checkpoints[0], checkpoints[-1]
    span = last.units - first.units
    return (last.retained - first.retained) / span * 1000 if span else 0.0


def _where(stat: tracemalloc.StatisticDiff) -> str:
    """The innermost frames of a site, ``file:line``, the allocation's own first."""
    frames = [f"{Path(frame.filename).name}:{frame.lineno}" for frame in stat.traceback]
    return " < ".join(frames[:4])


def report(workload: Workload, units: int, seed: int, top: int, frames: int) -> None:
    print(f"== {workload.name} (unit: {workload.unit}) ==")
    if workload.needs and not _installed(workload.needs):
        print(f"  skipped: {workload.needs} is not installed\n")
        return
    checkpoints, grew = measure(workload, units, seed, frames)
    for point in checkpoints:
        print(
            f"  after {point.units:>6} {workload.units}: {point.retained / 1e6:8.2f} MB retained"
            f" ({point.seconds:6.1f} s)"
        )
    per = growth_per_thousand(checkpoints)
    span = checkpoints[-1].units - checkpoints[0].units
    print(
        f"  growth after the warm-up: {per / 1e6:+.2f} MB per 1,000 {workload.units}"
        f" ({per / 1000:+,.0f} bytes each, over the last {span})"
    )
    print("  allocation sites that grew most (bytes, blocks):")
    for stat in grew[:top]:
        print(f"    {stat.size_diff:+12,} {stat.count_diff:+8,}  {_where(stat)}")
    first, last = checkpoints[0], checkpoints[-1]
    types = sorted((last.types[name] - first.types[name], name) for name in last.types)
    shown = [f"{name} {count:+,}" for count, name in reversed(types[-top:]) if count > 0]
    print(f"  object types that grew: {', '.join(shown) or 'none'}")
    print("  caches filled (entries at the checkpoints; bound):")
    for cache in library_caches():
        sizes = [point.caches[cache.name] for point in checkpoints]
        if any(sizes):
            counts = " -> ".join(f"{size:,}" for size in sizes)
            print(f"    {cache.name:<36} {counts:<26} ({cache.bound})")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--matches", type=positive, default=75, help="units of the workloads")
    parser.add_argument("--profiles", type=positive, default=192, help="profiles made")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=[workload.name for workload in WORKLOADS])
    parser.add_argument("--top", type=positive, default=5, help="sites and types shown")
    parser.add_argument("--frames", type=positive, default=1, help="frames per allocation")
    args = parser.parse_args()
    started = time.perf_counter()
    for workload in WORKLOADS:
        if args.only in (None, workload.name):
            units = args.profiles if workload.name == "profiles" else args.matches * workload.scale
            report(workload, units, args.seed, args.top, args.frames)
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
