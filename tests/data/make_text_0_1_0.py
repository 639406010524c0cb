"""Write ``text_0_1_0/``: the text and JSON that chkobba 0.1.0 wrote, which
``tests/test_data_0_1_0.py`` reads with this version. Run with 0.1.0's sources first on
the path (a worktree of the release's commit) and the ``openspiel`` extra installed,
from the project's root:

    git worktree add --detach /tmp/v010 3ecc727
    PYTHONPATH=/tmp/v010/src python tests/data/make_text_0_1_0.py

What 0.1.0 wrote as text, each kind here (0.1.0 had no JSON form of a state or a view,
no JSON Lines reader and no ``simulate --records``):

- ``records/*.json``: game records (format ``chkobba-record`` version 1) written by
  ``Record.save`` (one field and one move a line; CR LF on Windows),
  ``Record.to_json(compact=True)``, ``json.dumps(Record.to_dict())``, by the arena
  (``play_match(...).record``), by ``Game.record()`` and by ``chkobba play``'s save
  (finished, and quit in a deal); 2 and 4 players, finished and unfinished matches,
  cuts kept and exposed, voided deals, a resumed match, a house profile (the only rules
  0.1.0 records could vary: ``name``, ``capture_values``, ``target``), an empty record,
  tags beyond ASCII, and profiles at the edges of what 0.1.0 accepted;
- ``records.jsonl``: compact records, one a line, as a 0.1.0 program appended them;
- ``expected.json``: what 0.1.0 replayed from each record (states at every deal's end
  and at the end, deal scores, views, ``render`` boards), the oracle of the tests;
- ``notation.json``: card and move text (``str``, ``repr``, ``symbol``,
  ``format_cards``), the forgiving move forms 0.1.0 read, short forms resolved in
  positions, bot specs;
- ``encoding.json``: the action ids, their texts and the observation vectors of
  positions of the records (the adapters' shared encoding);
- ``openspiel.json``: OpenSpiel's game strings, serialized states, information-state
  and observation strings, action strings and boards, a voided deal's included (a
  serialized state holds a pickle whose bytes 0.1.0 made differently in each process:
  its sets of cards went in the order of their addresses);
- ``simulate_2p.json``, ``simulate_4p.json``: ``chkobba simulate --json``'s output.

It is kept to say how the files were made; the tests never run it.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("text_0_1_0")


def _jsonable(value: Any) -> Any:
    """A value of the library as plain JSON data: cards as text, enums by name, attrs
    classes as objects of their fields."""
    import enum

    import attrs

    from chkobba import Card

    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if attrs.has(type(value)):
        return {f.name: _jsonable(getattr(value, f.name)) for f in attrs.fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    return value


def _state(state: Any) -> dict[str, Any]:
    data: dict[str, Any] = _jsonable(state)
    data["rules"] = state.rules.name
    return data


def _random_moves(seed: int, start: Any, stop: int | None = None) -> list[Any]:
    """The moves of a match of random moves from ``start``, as docs/records.md draws
    them: a shuffle from the generator, else a choice among the legal moves."""
    from chkobba import apply, legal_moves, random_shuffle

    rng = random.Random(seed)
    state, moves = start, list[Any]()
    while not state.is_over and (stop is None or len(moves) < stop):
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        moves.append(move)
        state = apply(state, move)
    return moves


def _voiding_shuffle(players: int, seed: int) -> Any:
    """A shuffle whose table holds three kings, whether the cut is kept or exposed."""
    from chkobba import DECK, Rank, Shuffle

    rng = random.Random(seed)
    kings = [c for c in DECK if c.rank is Rank.KING]
    others = [c for c in DECK if c.rank is not Rank.KING]
    rng.shuffle(others)
    dealt = 1 + 3 * players
    return Shuffle([*others[:dealt], *kings[:3], *others[dealt:], kings[3]])


class _Script(io.StringIO):
    """``chkobba play``'s standard input: answers each prompt (the text after the last
    newline written to ``screen``) as a person would."""

    def __init__(self, screen: io.StringIO, moves: int | None, path: Path) -> None:
        super().__init__()
        self.screen, self.moves, self.path = screen, moves, path

    def readline(self, size: int = -1, /) -> str:
        prompt = self.screen.getvalue().rsplit("\n", 1)[-1]
        if prompt.startswith("Save"):
            return "y\n"
        if prompt.startswith("File name"):
            return f"{self.path}\n"
        if self.moves is not None:
            if self.moves == 0:
                return "quit\n"
            self.moves -= 1
        return "1\n"


def _play_saved(name: str, seed: int, players: int, moves: int | None) -> str:
    from chkobba.bots.registry import BotSpec
    from chkobba.cli.output import Output
    from chkobba.cli.play import run_play

    path = OUT / "records" / name
    screen = io.StringIO()
    stdin = _Script(screen, moves, path)
    run_play(Output(screen), stdin, players=players, opponent=BotSpec.parse("greedy"), seed=seed)
    assert path.is_file(), screen.getvalue()[-500:]
    return screen.getvalue()


def _records() -> dict[str, tuple[str, Any]]:
    """Each record file's name, its text as 0.1.0 wrote it, and the record."""
    import attrs

    from chkobba import DECK, TUNISIAN, Cut, Game, Record, Rules, Shuffle, apply, cards, new_match
    from chkobba.arena import play_match
    from chkobba.bots import GreedyBot, RandomBot

    made: dict[str, Any] = {}
    start = new_match(2)
    made["random_2p_finished.json"] = Record.from_moves(start, _random_moves(2026, start))
    start = new_match(4, dealer=1)
    made["random_4p_unfinished.json"] = Record.from_moves(
        start,
        _random_moves(7, start, stop=100),
        tags={"player0": "Amira ♥", "player1": "Ben", "site": "Tunis — café", "date": "2026-11-29"},
    )
    start = new_match(2, dealer=1, scores=(12, 18))
    made["resumed_2p.json"] = Record.from_moves(start, _random_moves(99, start))
    house = Rules(name="house", capture_values=(1, 2, 3, 4, 5, 6, 7, 9, 8, 10), target=11)
    start = new_match(2, rules=house)
    made["house_rules_2p.json"] = Record.from_moves(start, _random_moves(11, start))
    # Voided deals: three kings on the table, cut kept then exposed, then play goes on.
    state = new_match(2)
    moves: list[Any] = []
    for move in (_voiding_shuffle(2, 1), Cut(keep=True), _voiding_shuffle(2, 2), Cut(False)):
        moves.append(move)
        state = apply(state, move)
    moves += _random_moves(5, state, stop=30)
    made["void_deals_2p.json"] = Record(players=2, moves=moves, tags={"note": "two void deals"})
    state = new_match(4, dealer=3)
    moves = [_voiding_shuffle(4, 3), Cut(keep=False)]
    state = apply(apply(state, moves[0]), moves[1])
    moves += _random_moves(6, state, stop=12)
    made["void_deal_4p.json"] = Record(players=4, dealer=3, moves=moves)
    result = play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=3, players=4)
    made["arena_4p.json"] = result.record
    result = play_match([RandomBot(seed=5), GreedyBot(seed=6)], seed=8)
    made["arena_2p.json"] = result.record
    game = Game(players=2, dealer=0, seed=11)
    game.deal()
    game.play("keep")
    for text in ("1", "2"):
        legal = game.legal_moves
        game.play(legal[int(text) % len(legal)])
    made["game_2p.json"] = game.record(tags={"event": "docs"})
    made["empty_4p.json"] = Record(players=4, dealer=3)
    # docs/notation.md's position: player 1 holds Q♥ 4♣ 5♣, the table 2♦ 6♠ A♠ A♣.
    top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
    order = Shuffle(top + tuple(c for c in DECK if c not in top))
    made["notation_position_2p.json"] = Record(players=2, moves=[order, Cut(keep=False)])
    # Profiles 0.1.0 accepted at the edges (no bound on target, values or name).
    edges = {
        "edge_rules_big_target.json": attrs.evolve(TUNISIAN, name="marathon", target=50_000),
        "edge_rules_big_value.json": attrs.evolve(
            TUNISIAN, name="kings high", capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 9, 2000)
        ),
        "edge_rules_empty_name.json": attrs.evolve(TUNISIAN, name=""),
        "edge_rules_long_name.json": attrs.evolve(TUNISIAN, name="The Sidi Bou Said club " * 3),
        "edge_rules_tab_in_name.json": attrs.evolve(TUNISIAN, name="club\trules"),
    }
    for name, rules in edges.items():
        start = new_match(2, rules=rules)
        made[name] = Record.from_moves(start, _random_moves(3, start, stop=12))
    written: dict[str, tuple[str, Any]] = {}
    for name, record in made.items():
        written[name] = (record.to_json(), record)
    # The other ways 0.1.0 wrote a record's JSON.
    record = made["random_2p_finished.json"]
    written["compact_2p.json"] = (record.to_json(compact=True), record)
    text = json.dumps(made["random_4p_unfinished.json"].to_dict(), indent=2, sort_keys=True)
    written["to_dict_sorted_4p.json"] = (text, made["random_4p_unfinished.json"])
    text = json.dumps(made["random_4p_unfinished.json"].to_dict())  # ASCII escapes
    written["to_dict_ascii_4p.json"] = (text, made["random_4p_unfinished.json"])
    # Record.save on Windows: text mode wrote every newline as CR LF.
    text = made["void_deals_2p.json"].to_json().replace("\n", "\r\n")
    written["saved_on_windows_2p.json"] = (text, made["void_deals_2p.json"])
    tags = {"control": "line\nbreak\ttab\x00nul", "emoji": "🂡", " ": "a blank name"}
    start = new_match(2)
    record = Record.from_moves(start, _random_moves(12, start, stop=5), tags=tags)
    written["odd_tags_2p.json"] = (record.to_json(), record)
    return written


#: The records whose views and boards at the end are kept too.
VIEWED = (
    "random_2p_finished.json",
    "random_4p_unfinished.json",
    "void_deals_2p.json",
    "void_deal_4p.json",
)


def _expected(name: str, record: Any) -> dict[str, Any]:
    """What 0.1.0 replayed: the state after every deal's end and void deal (its public
    part), the whole state at the end, and for some records every view and board."""
    from chkobba import Cut, Phase, observe, render

    states = record.replay()
    deals: dict[str, Any] = {}
    public = ("phase", "dealer", "current_player", "table", "chkobbas", "scores", "winner")
    for index in range(1, len(states)):
        before, state = states[index - 1], states[index]
        scored = len(state.deal_scores) != len(before.deal_scores)
        voided = isinstance(record.moves[index - 1], Cut) and state.phase is Phase.SHUFFLE
        if scored or voided:
            entry = {key: _jsonable(getattr(state, key)) for key in public}
            entry["deal_scores"] = len(state.deal_scores)
            entry["stock_size"] = len(state.stock)
            deals[str(index)] = entry
    final = states[-1]
    found = {"states": len(states), "deals": deals, "final": _state(final)}
    found["render"] = render(final)
    if name in VIEWED:
        views = {str(p): _jsonable(observe(final, p)) for p in range(final.players)}
        for view in views.values():  # the state's deal scores and profile, said once
            view["rules"] = final.rules.name
            view["deal_scores"] = len(final.deal_scores)
        found["views"] = views
        found["boards"] = {str(p): render(final, p) for p in range(final.players)}
    return found


def _notation(records: dict[str, Any]) -> dict[str, Any]:
    from chkobba import DECK, Record, cards, format_cards, legal_moves, observe, parse_move
    from chkobba.bots.registry import BotSpec
    from chkobba.errors import ChkobbaError

    found: dict[str, Any] = {
        "cards": [{"str": str(c), "symbol": c.symbol, "repr": repr(c)} for c in DECK],
        "format_cards": [
            {"cards": [str(c) for c in group], "separator": sep, "text": format_cards(group, sep)}
            for group in (cards("KD 2S AS 7D"), cards("QH"), ())
            for sep in (" ", "+", ", ")
        ],
    }
    moves: dict[str, str] = {}
    record: Record = records["random_2p_finished.json"]
    for state in record.replay()[:60]:
        for move in legal_moves(state):
            moves[str(move)] = repr(move)
    for move in record.moves[:3]:
        moves[str(move)] = repr(move)
    found["moves"] = [{"str": text, "repr": shown} for text, shown in sorted(moves.items())]
    forgiving = [
        "qh x 2d+6s",
        "KEEP",
        "Expose",
        " q♥ : 6♠, 2♦ ",
        "QH:2D+6S",
        "QHx2D+6S",
        "QH \u00d7 6S 2D",
        "QH X 2D,6S",
        "q♤ x a♡",
        "7d",
        "7♢",
        "  kd   x  as+2s+3s+4s ",
        "SHUFFLE " + ",".join(str(c) for c in reversed(DECK)),
        "shuffle\n" + "\t".join(str(c).lower() for c in DECK),
    ]
    found["forgiving"] = [{"text": text, "move": str(parse_move(text))} for text in forgiving]
    short: list[dict[str, Any]] = []
    for name in ("random_2p_finished.json", "random_4p_unfinished.json"):
        states = records[name].replay()
        for index in range(2, len(states), 29):
            state = states[index]
            if state.current_player is None or not state.hands[state.current_player]:
                continue
            for held in state.hands[state.current_player]:
                try:
                    answer = {"move": str(parse_move(str(held), state))}
                except ChkobbaError as error:
                    answer = {"error": type(error).__name__, "message": str(error)}
                short.append({"record": name, "index": index, "text": str(held), **answer})
            for seat in range(state.players):
                text = str(legal_moves(state)[0])
                try:
                    answer = {"move": str(parse_move(text, observe(state, seat)))}
                except ChkobbaError as error:
                    answer = {"error": type(error).__name__, "message": str(error)}
                short.append({"record": name, "index": index, "seat": seat, "text": text, **answer})
    name = "notation_position_2p.json"
    state = records[name].final()
    for text in ("QH", "4C", "5C", "7C", "QH x 2D", "QH x 2D+6S", "4c x as+ac+2d", "keep"):
        for viewer in (None, 0, 1):
            try:
                where = state if viewer is None else observe(state, viewer)
                answer = {"move": str(parse_move(text, where))}
            except ChkobbaError as error:
                answer = {"error": type(error).__name__, "message": str(error)}
            short.append({"record": name, "index": 2, "seat": viewer, "text": text, **answer})
    found["short_forms"] = short
    specs = [
        "random",
        "greedy",
        "ismcts",
        "ismcts:iterations=50",
        "ISMCTS: iterations = 200, exploration = 0.5, epsilon=0.25, horizon=3",
        "ismcts:exploration=1e-05",
    ]
    found["bot_specs"] = [
        {
            "text": text,
            "str": str(BotSpec.parse(text)),
            "repr": repr(BotSpec.parse(text)),
            "options": dict(BotSpec.parse(text).build(seed=1).options()),
        }
        for text in specs
    ]
    return found


def _encoding(records: dict[str, Any]) -> list[dict[str, Any]]:
    from chkobba import observe
    from chkobba.actions import Position, advance, capture_choices, describe, legal_actions
    from chkobba.observations import observation_vector

    def vector(view: Any, pending: Any = None) -> list[float | int]:
        return [int(x) if x == int(x) else x for x in observation_vector(view, pending)]

    found: list[dict[str, Any]] = []
    pending_found = 0
    for name in ("random_2p_finished.json", "random_4p_unfinished.json", "void_deals_2p.json"):
        states = records[name].replay()
        for index in [*range(1, len(states), 71), len(states) - 1]:
            state = states[index]
            position = Position(state)
            entry: dict[str, Any] = {"record": name, "index": index}
            entry["actions"] = {str(a): describe(position, a) for a in legal_actions(position)}
            seats = range(state.players) if index == len(states) - 1 else [0]
            entry["vectors"] = {str(p): vector(observe(state, p)) for p in seats}
            found.append(entry)
        for index, state in enumerate(states):
            if pending_found >= 3 or state.current_player is None:
                continue
            for held in state.hands[state.current_player]:
                if len(capture_choices(state, held)) > 1:
                    position, _ = advance(Position(state), held.index)
                    actions = {str(a): describe(position, a) for a in legal_actions(position)}
                    player = state.current_player
                    found.append(
                        {
                            "record": name,
                            "index": index,
                            "pending": str(held),
                            "actions": actions,
                            "vectors": {str(player): vector(observe(state, player), held)},
                        }
                    )
                    pending_found += 1
                    break
    return found


def _openspiel() -> list[dict[str, Any]]:
    import pyspiel

    import chkobba.openspiel  # noqa: F401 (registers python_chkobba)

    found: list[dict[str, Any]] = []
    # A first deal voided at an exposed cut: the lot, a voiding shuffle card by card, expose.
    voided = [0, *(c.index for c in _voiding_shuffle(2, 4).order), 41]
    plans = [  # the game, the seed of its actions, the steps written out, the first actions
        ("python_chkobba(max_shuffles=2)", 1, (1, 43, 60, 120), []),
        ("python_chkobba(players=4,single_deal=True)", 2, (42, 70), []),
        ("python_chkobba(single_deal=True)", 3, (42, 77), []),
        ("python_chkobba(max_shuffles=3)", 4, (42, 85), voided),
    ]
    for text, seed, steps, first in plans:
        game = pyspiel.load_game(text)
        state = game.new_initial_state()
        rng = random.Random(seed)
        actions: list[int] = []
        points: list[dict[str, Any]] = []
        while True:
            step = len(actions)
            if step in steps or state.is_terminal():
                players = range(game.num_players())
                current = state.current_player()
                point: dict[str, Any] = {
                    "step": step,
                    "current_player": current,
                    "terminal": state.is_terminal(),
                    "returns": state.returns(),
                }
                if step == steps[-1]:
                    point["board"] = str(state)
                    point["game_and_state"] = pyspiel.serialize_game_and_state(game, state)
                if not state.is_chance_node() and not state.is_terminal():
                    point["information_states"] = [
                        state.information_state_string(p) for p in players
                    ]
                    point["observations"] = [state.observation_string(p) for p in players]
                if not state.is_terminal():
                    point["action_texts"] = {
                        str(a): state.action_to_string(current, a) for a in state.legal_actions()
                    }
                points.append(point)
            if state.is_terminal():
                break
            if step < len(first):
                action = first[step]
            elif state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
            actions.append(action)
            state.apply_action(action)
        found.append({"game": text, "game_string": str(game), "actions": actions, "points": points})
    return found


def _simulate(arguments: list[str]) -> str:
    from chkobba.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(arguments) == 0
    return out.getvalue()


def main() -> None:
    from chkobba import __version__

    if __version__ != "0.1.0":
        raise SystemExit(f"run with 0.1.0's sources first on the path, not {__version__}'s")
    (OUT / "records").mkdir(parents=True, exist_ok=True)
    written = _records()
    records: dict[str, Any] = {}
    for name, (text, record) in written.items():
        (OUT / "records" / name).write_text(text, encoding="utf-8", newline="")
        records[name] = record
    # chkobba play's save: a finished match, and one quit in its second deal.
    _play_saved("play_saved_finished.json", seed=5, players=2, moves=None)
    _play_saved("play_saved_quit_4p.json", seed=6, players=4, moves=12)
    from chkobba import Record

    for name in ("play_saved_finished.json", "play_saved_quit_4p.json"):
        records[name] = Record.load(OUT / "records" / name)
    in_lines = ["game_2p.json", "void_deal_4p.json", "resumed_2p.json", "empty_4p.json"]
    lines = [records[name].to_json(compact=True) for name in in_lines]
    (OUT / "records.jsonl").write_text("".join(f"{line}\n" for line in lines), "utf-8")
    # A record written in several ways is replayed once, from the file made first.
    sources: dict[str, str] = {}
    for name, record in sorted(records.items()):
        sources[name] = next(n for n in records if records[n] == record)
    expected = {
        "version": __version__,
        "jsonl": in_lines,
        "sources": sources,
        "records": {n: _expected(n, records[n]) for n in sorted(set(sources.values()))},
    }
    _write(OUT / "expected.json", expected)
    _write(OUT / "notation.json", _notation(records))
    _write(OUT / "encoding.json", _encoding(records))
    _write(OUT / "openspiel.json", _openspiel())
    arguments = ["simulate", "--games", "2", "--bots", "greedy", "random", "--json"]
    (OUT / "simulate_2p.json").write_text(_simulate([*arguments, "--seed", "4"]), "utf-8")
    arguments += ["--players", "4", "--seed", "9"]
    (OUT / "simulate_4p.json").write_text(_simulate(arguments), "utf-8")


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")


if __name__ == "__main__":  # (the suite imports this file for its doctests: nothing runs)
    main()
