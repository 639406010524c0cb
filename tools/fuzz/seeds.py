"""Valid inputs for the fuzz targets, made by the library itself (deterministic).

Every seed is something the library writes or reads when all is well: the text of every
move of random matches under the two named profiles and random house profiles, the
records of those matches (pretty and compact), their states and player views as JSON,
the profiles, the outcomes of moves, bot specs. The fuzzer starts from them, so it spends
its time on inputs that are *almost* right, where the readers' checks live.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator

import attrs

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Move,
    Phase,
    Record,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import Position, advance, legal_actions
from chkobba.bots.registry import BOT_TYPES, PRESETS, bot_options
from chkobba.events import apply_with_outcome

#: How many random matches the seeds come from (each profile, each player count).
MATCHES = 6


def random_rules(rng: random.Random) -> Rules:
    """A random house profile: every field drawn among the values the profile allows."""
    values = [rng.choice((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15)) for _ in range(10)]
    counts = sorted(rng.sample((2, 3, 4), rng.randint(1, 3)))
    return Rules(
        name=rng.choice(("house", "maison", "dar", "x", "H 1")),
        capture_values=tuple(values),
        target=rng.choice((1, 5, 11, 16, 21)),
        players=tuple(counts),
        cut=rng.random() < 0.5,
        void_deal=rng.choice(("three_of_a_rank", "three_kings", "never")),
        equal_single_first=rng.random() < 0.5,
        courts_capture_sums=rng.random() < 0.5,
        last_card_chkobba=rng.random() < 0.5,
        majority=rng.choice(("more_than_half", "most")),
        sevens_bermila=rng.random() < 0.5,
        seven_of_diamonds=rng.random() < 0.5,
        primiera=rng.random() < 0.5,
        ties_to_last_capturer=rng.random() < 0.5,
    )


def profiles() -> list[Rules]:
    """The two named profiles, a short Tunisian match, and some random house profiles."""
    rng = random.Random(2026)
    short = attrs.evolve(TUNISIAN, name="short", target=5)
    return [TUNISIAN, CARD_RULES_PLUS, short, *(random_rules(rng) for _ in range(6))]


def play(
    rules: Rules, players: int, rng: random.Random, limit: int = 400
) -> tuple[tuple[State, ...], tuple[Move, ...]]:
    """The states and moves of one random match (at most ``limit`` moves: a long one is
    cut)."""
    start_scores = None
    if rng.random() < 0.3:  # a match resumed from other totals
        sides = rules.sides(players)
        start_scores = [rng.randrange(max(1, rules.target)) for _ in range(sides)]
    state = new_match(players, dealer=rng.randrange(players), scores=start_scores, rules=rules)
    states: list[State] = [state]
    moves: list[Move] = []
    while not state.is_over and len(moves) < limit:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state = apply(state, move)
        states.append(state)
        moves.append(move)
    return tuple(states), tuple(moves)


@functools.cache
def matches() -> tuple[tuple[tuple[State, ...], tuple[Move, ...]], ...]:
    """Random matches: each profile, each of its player counts, :data:`MATCHES` in all
    per profile (deterministic)."""
    rng = random.Random(1)
    found = []
    for rules in profiles():
        for index in range(MATCHES):
            players = rules.players[index % len(rules.players)]
            found.append(play(rules, players, rng))
    return tuple(found)


@functools.cache
def records() -> tuple[Record, ...]:
    rng = random.Random(7)
    found = []
    for states, moves in matches():
        tags = (
            {"event": "fuzz seed", "round": str(rng.randrange(99))} if rng.random() < 0.5 else None
        )
        found.append(Record.from_moves(states[0], moves, tags=tags))
    return tuple(found)


@functools.cache
def pool() -> tuple[State, ...]:
    """256 states of every phase and profile, for the targets that judge text against a
    state (its index is the first byte of an input)."""
    rng = random.Random(3)
    every = [state for states, _ in matches() for state in states]
    picked = [s for s in every if s.phase is not Phase.PLAY]
    rng.shuffle(picked)
    picked = picked[:64]
    plays = [s for s in every if s.phase is Phase.PLAY]
    picked += rng.sample(plays, 256 - len(picked))
    return tuple(picked)


def view_pool_index(index: int) -> tuple[State, int]:
    """The state and seat that byte ``index`` names (a view of ``pool()[index]``)."""
    state = pool()[index % 256]
    return state, (index // 256) % state.players


@functools.cache
def positions() -> tuple[Position, ...]:
    """256 action-encoding positions, a pending card (between the two steps of a play)
    in some."""
    found = []
    for state in pool():
        position = Position(state)
        for action in legal_actions(position):
            after, move = advance(position, action)
            if move is None:
                position = after
                break
        found.append(position)
    return tuple(found)


def card_texts() -> Iterator[str]:
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for one in DECK:
        text = str(one)
        yield text
        yield text.lower()
        yield f"  {text} "
        yield text[0] + symbols[text[1]]
        yield text[0] + symbols[text[1]] + "\ufe0f"
    yield "2D 6S QH"
    yield "7D,QH"
    yield "2D+6S"
    yield " ".join(str(c) for c in DECK)


def move_texts() -> Iterator[str]:
    seen: set[str] = set()
    for record in records():
        for move in record.moves:
            text = str(move)
            if text not in seen:
                seen.add(text)
                yield text
    yield "QH x 2D+6S"
    yield "qh : 2d, 6s"
    yield "QH \u00d7 2D 6S"  # the multiplication sign
    yield "keep"
    yield "EXPOSE"


def json_text(data: object, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return json.dumps(data, indent=2)


def seed_inputs(target: str) -> Iterator[bytes]:
    """The seed inputs of ``target``, as bytes."""
    rng = random.Random(11)
    if target == "card":
        yield from (t.encode() for t in card_texts())
    elif target == "move":
        yield from (t.encode() for t in move_texts())
    elif target == "move_in_state":
        yield from _moves_in_states(rng)
    elif target in ("record", "replay"):
        for record in records():
            yield record.to_json().encode()
            yield record.to_json(compact=True).encode()
    elif target == "lines":
        lines = [r.to_json(compact=True) for r in records()]
        for start in range(0, len(lines), 3):
            yield ("\n".join(lines[start : start + 3]) + "\n").encode()
        yield ("\ufeff" + lines[0] + "\n\n" + lines[1]).encode()
    elif target == "state":
        for states, _ in matches():
            for state in rng.sample(states, min(8, len(states))):
                yield json_text(state.to_dict(), rng).encode()
    elif target == "view":
        for states, _ in matches():
            for state in rng.sample(states, min(8, len(states))):
                seat = rng.randrange(state.players)
                yield json_text(observe(state, seat).to_dict(), rng).encode()
    elif target == "rules":
        for rules in (*profiles(), *(random_rules(rng) for _ in range(40))):
            yield json_text(rules.to_dict(), rng).encode()
    elif target == "outcome":
        yield from _outcomes(rng)
    elif target == "actions":
        for index in range(256):
            for action in range(0, 50, 7):
                yield bytes([index, 0]) + action.to_bytes(2, "little")
    elif target == "botspec":
        yield from _bot_specs()
    else:
        raise SystemExit(f"no seeds for target {target!r}")


def _moves_in_states(rng: random.Random) -> Iterator[bytes]:
    for index, state in enumerate(pool()):
        moves = legal_moves(state) if not state.is_chance else [random_shuffle(rng)]
        for move in rng.sample(moves, min(3, len(moves))):
            text = str(move)
            if rng.random() < 0.5 and hasattr(move, "card"):
                text = str(move.card)  # the short form: a card alone
            # The second byte: 0 reads against the state, 1-4 against a seat's view.
            yield bytes([index, rng.randrange(5)]) + text.encode()


def _outcomes(rng: random.Random) -> Iterator[bytes]:
    for states, moves in matches()[:20]:
        for before, move in zip(states, moves, strict=False):
            if rng.random() < 0.15:
                _, outcome = apply_with_outcome(before, move)
                yield json_text(outcome.to_dict(), rng).encode()


def _bot_specs() -> Iterator[bytes]:
    for name in BOT_TYPES:
        yield name.encode()
        options = bot_options(name)
        if options:
            yield f"{name}:{options[0]}=2".encode()
            yield (name + ":" + ",".join(f"{o}=1" for o in options)).encode()
    for key in PRESETS:
        yield key.encode()
