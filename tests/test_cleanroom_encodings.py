"""Clean-room encoders for the game-AI interfaces, compared with the library on random play.

Written from the documentation alone, without reading ``chkobba.observations``,
``chkobba.actions``, ``chkobba.features``, ``chkobba.history`` or the adapters' code (the
core is used: ``observe`` and its ``PlayerView``, ``legal_moves``, ``apply``, ``DECK``,
``Rules.value``):

* ``model_observation``: the 313-float observation vector, from docs/adapters.md "The
  observation vector" (the table of pieces, egocentric seats and sides, the 3-player
  pieces, the scalings /3, /40, /10, /target) and ``chkobba.observations``' docstrings;
  the Gymnasium observation (scores capped at ``SCORE_CAP`` = 4, features appended) from
  docs/gymnasium.md; the bounds from ``observation_bounds``' and ``feature_bounds``'
  docstrings.
* ``model_legal_ids`` / ``model_meaning`` / ``model_move_ids``: the action encoding, from
  docs/adapters.md "The action encoding" and ``chkobba.actions``' docstrings: card ids
  ``0 … 39`` (``DECK`` index), ``KEEP`` 40, ``EXPOSE`` 41, capture ids from 42, options
  numbered by sorting each option's deck positions; a card with one option is the whole
  move, one with several only selects the card; every other id is refused.
* ``model_features``: the 141 features (``chkobba.features``, docs/adapters.md and
  docs/gymnasium.md), including "its largest" option for a card, the capture ids of a
  pending card, and the cut-off at the Tunisian 70 ids.
* ``model_history`` and the rest of the 713-float OpenSpiel information-state tensor
  (docs/adapters.md "Information-state tensor", ``chkobba.history``' docstring): the
  observation, the 320-entry history of the deal, the 40 bits of cards exposed in deals
  voided since the last scored deal, the 40 bits of the card the viewer kept at this
  deal's cut. The OpenSpiel game is driven with chosen chance outcomes (sometimes a
  shuffle that voids the deal) and mirrored move for move on a core state.

The differential tests draw a named profile (sometimes with a small target), a house
profile of ``tests.strategies.rule_profiles`` or ``tests.helpers.random_rules``, a player
count the profile allows (2, 3, 4), sometimes resumed totals at or past the target, and a
seed; random play through ``chkobba.actions.step`` visits every phase, pending captures,
voided deals and the end of the match. Every view of every seat is compared piece by
piece (bits exactly, divisions to 1e-6), and likewise the legal ids, what each id does
(``move_for``, ``step``, ``capture_choices``, ``action_ids``), the refusal of other ids,
the features, the PettingZoo and Gymnasium observations and masks, and the OpenSpiel
observation and information-state tensors of every player at every decision.

What the documents leave unspecified (the model follows the reading given, and the
library agrees with it):

* whether a card laid on an empty table "takes the whole table" (``capture_sweeps``):
  read as no, a sweep takes at least one card;
* which cards a voided deal "exposed" (docs/adapters.md says both "the cards voided deals
  exposed" and "a voided deal shows nobody its cards"): read as the cut card exposed
  (``Cut(keep=False)``) in a voided deal only, not its four table cards;
* when the deal's history starts: read as empty up to the cut (``first_table`` is the
  table when play begins, the exposed card included);
* "options sorted": read as the lexicographic order of the options' deck-position tuples
  (no option is a prefix of another, values being positive);
* ``max_capture_options(rules)`` is described too loosely to be recomputed ("each value
  at most once, except the repeats the first four table cards bring ... three
  otherwise"): only the documented values (28, 56), ``num_actions = 42 + bound`` and the
  bound holding on the tables met are checked;
* ``describe``'s texts are known from examples only (not compared, beyond one example);
* the feature bounds other than the table sum ("all bounded"): only finiteness and the
  model's features lying within them are checked;
* the information-state tensor away from decisions (chance nodes, the terminal state) is
  not compared.

Found: no disagreement between the library and the documented encodings. One
inconsistency in the prose: ``observation_bounds``' docstring says a side makes "at most
35" chkobbas a deal, docs/adapters.md "at most 18" (36 cards played, 18 by a side); both
give the same loose bound of 3.5, so nothing depends on it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Move,
    Phase,
    Play,
    PlayerView,
    Rank,
    Rules,
    Shuffle,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
)
from chkobba.actions import Position
from tests.helpers import random_rules
from tests.strategies import examples, rule_profiles

# ---------------------------------------------------------------------------------------
# The clean-room encoders (docs/adapters.md, docs/gymnasium.md and the module docstrings)
# ---------------------------------------------------------------------------------------

# docs/adapters.md, "The observation vector": the table of pieces, in order.
MODEL_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 40),
    ("table", 40),
    ("our_pile", 40),
    ("their_pile", 40),
    ("cut_card", 40),
    ("pending", 40),
    ("phase", 4),
    ("choosing_capture", 1),
    ("four_players", 1),
    ("current_player", 4),
    ("dealer", 4),
    ("last_capturer", 4),
    ("hand_sizes", 4),
    ("stock_size", 1),
    ("chkobbas", 2),
    ("scores", 2),
    ("winner", 2),
    ("three_players", 1),
    ("third_pile", 40),
    ("third_chkobbas", 1),
    ("third_score", 1),
    ("third_won", 1),
)
MODEL_SIZE = 313
# Pieces whose entries are divisions (compared to 1e-6); the others are exact.
SCALED = frozenset(
    {"hand_sizes", "stock_size", "chkobbas", "scores", "third_chkobbas", "third_score"}
)
PHASE_ORDER = (Phase.SHUFFLE, Phase.CUT, Phase.PLAY, Phase.OVER)  # "one-hot SHUFFLE CUT PLAY OVER"

# docs/adapters.md, "The action encoding".
MODEL_KEEP, MODEL_EXPOSE, MODEL_FIRST_CAPTURE = 40, 41, 42
TUNISIAN_IDS = 70  # the features cover these ids only (docs/gymnasium.md)

# chkobba.history's docstring: 8 entries per card, in deck order.
PER_CARD_MODEL = 8
HISTORY_MODEL_SIZE = 40 * PER_CARD_MODEL
INFO_STATE_SIZE = MODEL_SIZE + HISTORY_MODEL_SIZE + 40 + 40  # docs/adapters.md: 713


def side_count(players: int) -> int:
    # docs/rules.md: 2 players one per side, 3 each for himself, 4 in two partnerships.
    return 2 if players in (2, 4) else 3


def side_of(players: int, player: int) -> int:
    return player % 2 if players == 4 else player


def bits(group: Sequence[Card] | frozenset[Card]) -> list[float]:
    out = [0.0] * 40
    for c in group:
        out[DECK.index(c)] = 1.0
    return out


def seat_one_hot(seat: int | None, viewer: int, players: int) -> list[float]:
    out = [0.0] * 4
    if seat is not None:
        out[(seat - viewer) % players] = 1.0
    return out


def model_observation(view: PlayerView, pending: Card | None = None) -> dict[str, list[float]]:
    """The observation vector's pieces, by name, from the documentation's table."""
    n, me = view.players, view.player
    sides = side_count(n)
    ours = side_of(n, me)
    theirs = (ours + 1) % sides
    target = view.rules.target
    pieces: dict[str, list[float]] = {
        "hand": bits(view.hand),
        "table": bits(view.table),
        "our_pile": bits(view.captured[ours]),
        "their_pile": bits(view.captured[theirs]),
        "cut_card": bits([view.cut_card] if view.cut_card is not None else []),
        "pending": bits([pending] if pending is not None else []),
        "phase": [float(view.phase is p) for p in PHASE_ORDER],
        "choosing_capture": [float(pending is not None)],
        "four_players": [float(n == 4)],
        "current_player": seat_one_hot(view.current_player, me, n),
        "dealer": seat_one_hot(view.dealer, me, n),
        "last_capturer": seat_one_hot(view.last_capturer, me, n),
        "hand_sizes": [view.hand_sizes[(me + k) % n] / 3 if k < n else 0.0 for k in range(4)],
        "stock_size": [view.stock_size / 40],
        "chkobbas": [view.chkobbas[ours] / 10, view.chkobbas[theirs] / 10],
        "scores": [view.scores[ours] / target, view.scores[theirs] / target],
        "winner": [float(view.winner == ours), float(view.winner == theirs)],
        "three_players": [float(n == 3)],
        "third_pile": [0.0] * 40,
        "third_chkobbas": [0.0],
        "third_score": [0.0],
        "third_won": [0.0],
    }
    if sides == 3:
        third = (ours + 2) % 3
        pieces["third_pile"] = bits(view.captured[third])
        pieces["third_chkobbas"] = [view.chkobbas[third] / 10]
        pieces["third_score"] = [view.scores[third] / target]
        pieces["third_won"] = [float(view.winner == third)]
    return pieces


def flatten(pieces: dict[str, list[float]]) -> list[float]:
    return [x for name, _ in MODEL_LAYOUT for x in pieces[name]]


def split(vector: Sequence[float]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    at = 0
    for name, size in MODEL_LAYOUT:
        out[name] = [float(x) for x in vector[at : at + size]]
        at += size
    return out


def option_key(option: frozenset[Card]) -> tuple[int, ...]:
    # "Options are numbered in deck order (each option's cards read in deck order, options
    # sorted)": each option a tuple of deck positions, the tuples sorted.
    return tuple(sorted(DECK.index(c) for c in option))


def model_options(legal: Sequence[Move], played: Card) -> list[frozenset[Card]]:
    found = {m.capture for m in legal if isinstance(m, Play) and m.card == played}
    return sorted(found, key=option_key)


def model_legal_ids(state: State, pending: Card | None) -> tuple[int, ...]:
    legal = legal_moves(state)
    if pending is not None:
        count = len(model_options(legal, pending))
        return tuple(MODEL_FIRST_CAPTURE + k for k in range(count))
    ids: set[int] = set()
    for move in legal:
        if isinstance(move, Cut):
            ids.add(MODEL_KEEP if move.keep else MODEL_EXPOSE)
        elif isinstance(move, Play):
            ids.add(DECK.index(move.card))
    return tuple(sorted(ids))


def model_meaning(state: State, pending: Card | None, action: int) -> Move | Card:
    """The core move a legal id completes, or the card it selects (several options)."""
    legal = legal_moves(state)
    if pending is not None:
        return Play(pending, model_options(legal, pending)[action - MODEL_FIRST_CAPTURE])
    if action in (MODEL_KEEP, MODEL_EXPOSE):
        return Cut(keep=action == MODEL_KEEP)
    played = DECK[action]
    options = model_options(legal, played)
    return Play(played, options[0]) if len(options) == 1 else played


def model_move_ids(state: State, move: Move) -> tuple[int, ...]:
    if isinstance(move, Cut):
        return (MODEL_KEEP if move.keep else MODEL_EXPOSE,)
    assert isinstance(move, Play)
    options = model_options(legal_moves(state), move.card)
    if len(options) <= 1:
        return (DECK.index(move.card),)
    return (DECK.index(move.card), MODEL_FIRST_CAPTURE + options.index(move.capture))


def model_features(view: PlayerView, pending: Card | None, legal: Sequence[Move]) -> list[float]:
    """docs/adapters.md "Optional features" and chkobba.features' docstring."""
    counts = [0.0] * TUNISIAN_IDS
    sweeps = [0.0] * TUNISIAN_IDS
    table = frozenset(view.table)

    def put(action: int, takes: Sequence[frozenset[Card]]) -> None:
        if action >= TUNISIAN_IDS:
            return
        counts[action] = max(len(o) for o in takes) / 10
        sweeps[action] = float(any(o and o == table for o in takes))

    if pending is not None:
        for k, option in enumerate(model_options(legal, pending)):
            put(MODEL_FIRST_CAPTURE + k, [option])
    else:
        for played in {m.card for m in legal if isinstance(m, Play)}:
            put(DECK.index(played), model_options(legal, played))
    table_sum = sum(view.rules.value(c) for c in view.table) / 10
    return [table_sum, *counts, *sweeps]


@attrs.frozen
class ModelDeal:
    """What the history encoding needs of the current deal, recorded while playing."""

    first_table: tuple[Card, ...] = ()
    exposed: Card | None = None
    plays: tuple[tuple[int, Card, frozenset[Card]], ...] = ()


def model_history(deal: ModelDeal, viewer: int, players: int) -> list[float]:
    out = [0.0] * HISTORY_MODEL_SIZE
    for n, (player, played, capture) in enumerate(deal.plays):
        at = DECK.index(played) * PER_CARD_MODEL
        out[at + (player - viewer) % players] = 1.0
        out[at + 4] = (n + 1) / 40
        for taken in capture:
            out[DECK.index(taken) * PER_CARD_MODEL + 5] = (n + 1) / 40
    for c in deal.first_table:
        out[DECK.index(c) * PER_CARD_MODEL + 6] = 1.0
    if deal.exposed is not None:
        out[DECK.index(deal.exposed) * PER_CARD_MODEL + 7] = 1.0
    return out


# ---------------------------------------------------------------------------------------
# Random play
# ---------------------------------------------------------------------------------------


def void_order(rng: random.Random, rules: Rules, players: int, often: float = 0.15) -> list[Card]:
    """A shuffled order; sometimes one that voids the deal (three of a rank on the table).

    Order positions 3n+1 … 3n+3 reach the table whatever the cut (docs/rules.md)."""
    order = list(DECK)
    rng.shuffle(order)
    if rules.void_deal != "never" and rng.random() < often:
        rank = Rank.KING if rules.void_deal == "three_kings" else rng.choice(list(Rank))
        three = rng.sample([c for c in DECK if c.rank is rank], 3)
        rest = [c for c in order if c not in three]
        at = 3 * players + 1
        order = rest[:at] + three + rest[at:]
    return order


def start(rng: random.Random, rules: Rules, players: int) -> State:
    dealer = rng.randrange(players)
    if rng.random() < 0.3:  # resume past the target: equal totals play on
        high = rules.target + rng.randint(0, 5)
        scores = [high] * side_count(players)
        scores[rng.randrange(len(scores))] -= rng.randint(0, 1)
        try:
            return new_match(players, dealer=dealer, scores=scores, rules=rules)
        except ChkobbaError:
            pass
    return new_match(players, dealer=dealer, rules=rules)


def walk(
    rules: Rules, players: int, seed: int, limit: int = 160
) -> Iterator[tuple[State, Card | None]]:
    """Positions of random play (every phase, pending captures included), via actions.step."""
    from chkobba.actions import legal_actions, step

    rng = random.Random(seed)
    state, pending = start(rng, rules, players), None
    for _ in range(limit):
        yield state, pending
        if state.phase is Phase.OVER:
            return
        if state.phase is Phase.SHUFFLE:
            state = apply(state, Shuffle(tuple(void_order(rng, rules, players))))
            continue
        position = step(
            Position(state, pending), rng.choice(legal_actions(Position(state, pending)))
        )
        state, pending = position.state, position.pending


@st.composite
def setups(draw: st.DrawFn) -> tuple[Rules, int]:
    """A named profile (sometimes with a small target), a house profile of
    ``tests.strategies.rule_profiles`` or of ``tests.helpers.random_rules``; a player count."""
    kind = draw(st.sampled_from(("named", "named", "house", "helper")))
    if kind == "named":
        rules = draw(st.sampled_from((TUNISIAN, CARD_RULES_PLUS)))
        target = draw(st.sampled_from((rules.target, 1, 3, 6)))
        rules = attrs.evolve(rules, target=target)
    elif kind == "house":
        rules = draw(rule_profiles())
    else:
        rules = random_rules(random.Random(draw(st.integers(0, 2**32 - 1))))
    return rules, draw(st.sampled_from(rules.players))


SEEDS = st.integers(0, 2**32 - 1)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-6)


def compare_observation(mine: dict[str, list[float]], theirs: Sequence[float]) -> list[str]:
    """The names of the pieces that differ (exactly for bits, to 1e-6 for divisions)."""
    got = split(theirs)
    wrong = []
    for name, _ in MODEL_LAYOUT:
        if name in SCALED:
            same = all(close(a, b) for a, b in zip(mine[name], got[name], strict=True))
        else:
            same = mine[name] == got[name]
        if not same:
            wrong.append(name)
    return wrong


# ---------------------------------------------------------------------------------------
# The observation vector
# ---------------------------------------------------------------------------------------


def test_the_layout_and_constants_are_the_documented_ones() -> None:
    from chkobba import actions, features, history, observations

    assert observations.LAYOUT == MODEL_LAYOUT
    assert observations.OBSERVATION_SIZE == MODEL_SIZE == sum(s for _, s in MODEL_LAYOUT)
    assert (actions.NUM_ACTIONS, actions.KEEP, actions.EXPOSE) == (70, 40, 41)
    assert actions.FIRST_CAPTURE == MODEL_FIRST_CAPTURE
    assert actions.MAX_CAPTURE_OPTIONS == 28
    assert actions.num_actions(TUNISIAN) == 70
    assert actions.num_actions(CARD_RULES_PLUS) == 98
    assert actions.max_capture_options(TUNISIAN) == 28
    assert actions.max_capture_options(CARD_RULES_PLUS) == 56
    assert features.FEATURE_SIZE == 141
    assert features.FEATURE_LAYOUT == (
        ("table_sum", 1),
        ("capture_counts", 70),
        ("capture_sweeps", 70),
    )
    assert (history.PER_CARD, history.HISTORY_SIZE) == (PER_CARD_MODEL, HISTORY_MODEL_SIZE)
    assert observations.SCORE_CAP == 4.0


def test_piece_slices_the_layout() -> None:
    from chkobba.observations import piece

    at = 0
    for name, size in MODEL_LAYOUT:
        assert piece(range(MODEL_SIZE), name) == list(range(at, at + size))
        at += size


@given(setup=setups(), seed=SEEDS)
@settings(max_examples=examples(60), deadline=None)
def test_observation_vectors_agree(setup: tuple[Rules, int], seed: int) -> None:
    from chkobba.observations import observation_vector

    rules, players = setup
    for state, pending in walk(rules, players, seed):
        for viewer in range(players):
            view = observe(state, viewer)
            vector = observation_vector(view, pending)
            assert len(vector) == MODEL_SIZE
            mine = model_observation(view, pending)
            wrong = compare_observation(mine, vector)
            assert not wrong, (wrong, state.phase, viewer, pending)
            # the cut card, independently of the view: the cutter's, in phase CUT only
            cutter = (state.dealer + 1) % players
            shown = state.phase is Phase.CUT and viewer == cutter
            assert mine["cut_card"] == bits([state.stock[0]] if shown else [])


def test_the_documented_observation_examples() -> None:
    from chkobba import random_shuffle
    from chkobba.observations import observation_vector, piece

    state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    vector = observation_vector(observe(state, 0))
    assert [DECK[i] for i, bit in enumerate(piece(vector, "hand")) if bit] == sorted(state.hands[0])
    assert piece(vector, "phase") == [0.0, 0.0, 1.0, 0.0]
    assert piece(vector, "current_player") == [0.0, 1.0, 0.0, 0.0]
    assert piece(vector, "hand_sizes") == [1.0, 1.0, 0.0, 0.0]
    assert piece(vector, "stock_size") == [0.75]


@given(setup=setups(), seed=SEEDS)
@settings(max_examples=examples(20), deadline=None)
def test_observation_and_feature_bounds_are_the_documented_ones(
    setup: tuple[Rules, int], seed: int
) -> None:
    from chkobba.features import feature_bounds
    from chkobba.observations import observation_bounds

    rules, players = setup
    low, high = observation_bounds(rules)
    chkobbas = 3.6 if rules.last_card_chkobba else 3.5
    expected: dict[str, float] = {"scores": math.inf, "third_score": math.inf}
    expected.update(chkobbas=chkobbas, third_chkobbas=chkobbas)
    assert low == [0.0] * MODEL_SIZE
    for name, size in MODEL_LAYOUT:
        assert split(high)[name] == [expected.get(name, 1.0)] * size, name
    f_low, f_high = feature_bounds(rules)
    assert f_low == [0.0] * 141
    assert f_high[0] == max(22.0, 4 * sum(rules.capture_values) / 10)
    assert all(math.isfinite(x) for x in f_high)
    for state, pending in walk(rules, players, seed, limit=60):
        for viewer in range(players):
            vector = flatten(model_observation(observe(state, viewer), pending))
            assert all(lo <= x <= hi for lo, x, hi in zip(low, vector, high, strict=True))
        if state.current_player is not None:
            values = model_features(
                observe(state, state.current_player), pending, legal_moves(state)
            )
            assert all(lo <= x <= hi for lo, x, hi in zip(f_low, values, f_high, strict=True))


# ---------------------------------------------------------------------------------------
# The action encoding
# ---------------------------------------------------------------------------------------


@given(setup=setups(), seed=SEEDS)
@settings(max_examples=examples(60), deadline=None)
def test_action_encodings_agree(setup: tuple[Rules, int], seed: int) -> None:
    from chkobba.actions import (
        action_ids,
        capture_choices,
        legal_actions,
        max_capture_options,
        move_for,
        num_actions,
        step,
    )

    rules, players = setup
    size = num_actions(rules)
    assert size == MODEL_FIRST_CAPTURE + max_capture_options(rules)
    probe = random.Random(seed ^ 0x5EED)
    for state, pending in walk(rules, players, seed):
        position = Position(state, pending)
        ids = model_legal_ids(state, pending)
        assert legal_actions(position) == ids, (state.phase, pending)
        assert all(0 <= a < size for a in ids)
        legal = legal_moves(state)
        for action in ids:
            meaning = model_meaning(state, pending, action)
            after = step(position, action)
            if isinstance(meaning, Card):  # selects a card with several options
                assert move_for(position, action) is None
                assert (after.state, after.pending) == (state, meaning)
                choices = model_options(legal, meaning)
                assert list(capture_choices(state, meaning)) == choices
                assert len(choices) <= max_capture_options(rules)
            else:
                assert move_for(position, action) == meaning, action
                assert (after.state, after.pending) == (apply(state, meaning), None)
        if pending is None:
            for move in legal:
                assert action_ids(position, move) == model_move_ids(state, move), move
        # every other id is refused, never mapped to some other move
        others = [a for a in range(size + 2) if a not in ids]
        for action in probe.sample(others, min(4, len(others))):
            with pytest.raises(IllegalMoveError):
                step(position, action)


def test_the_documented_action_examples() -> None:
    from chkobba import cards
    from chkobba.actions import EXPOSE, FIRST_CAPTURE, action_ids, capture_choices, describe

    state = attrs.evolve(new_match(), table=cards("6S 2D 3C 5H"))
    choices = capture_choices(state, cards("QH")[0])
    assert choices == (frozenset(cards("2D 6S")), frozenset(cards("3C 5H")))
    assert action_ids(Position(state), Play(cards("QH")[0], frozenset(cards("3C 5H")))) == (
        DECK.index(cards("QH")[0]),
        FIRST_CAPTURE + 1,
    )
    assert describe(Position(new_match()), EXPOSE) == "expose"


# ---------------------------------------------------------------------------------------
# The features
# ---------------------------------------------------------------------------------------


@given(setup=setups(), seed=SEEDS)
@settings(max_examples=examples(60), deadline=None)
def test_feature_vectors_agree(setup: tuple[Rules, int], seed: int) -> None:
    from chkobba.features import feature_vector

    rules, players = setup
    for state, pending in walk(rules, players, seed):
        legal = legal_moves(state) if state.current_player is not None else ()
        mover = state.current_player if state.current_player is not None else 0
        view = observe(state, mover)
        got = feature_vector(view, pending, legal)
        mine = model_features(view, pending, legal)
        assert len(got) == len(mine) == 141
        wrong = [i for i, (a, b) in enumerate(zip(mine, got, strict=True)) if not close(a, b)]
        assert not wrong, (wrong, [got[i] for i in wrong], [mine[i] for i in wrong])


# ---------------------------------------------------------------------------------------
# The OpenSpiel information-state tensor
# ---------------------------------------------------------------------------------------


def open_spiel_walk(
    pyspiel: Any, rules: Rules, players: int, seed: int, limit: int = 400
) -> Iterator[tuple[Any, State, Card | None, ModelDeal, list[Card], list[Card | None]]]:
    """Random play of ``python_chkobba``, mirrored on a core state by the clean-room model.

    Yields at every decision: the OpenSpiel state, the core state, the pending card, this
    deal's public events, the cards exposed at the cut in deals voided since the last
    scored deal, and each player's card kept at the cut in this deal."""
    rng = random.Random(seed)
    game = pyspiel.load_game(
        "python_chkobba", {"players": players, "rules": rules.name, "target": rules.target}
    )
    spiel = game.new_initial_state()
    outcomes = [o for o, _ in spiel.chance_outcomes()]
    dealer = rng.choice(outcomes)
    spiel.apply_action(dealer)
    state = new_match(players, dealer=dealer, rules=rules)
    pending: Card | None = None
    deal = ModelDeal()
    voided: list[Card] = []
    kept: list[Card | None] = [None] * players
    for _ in range(limit):
        if spiel.is_terminal():
            return
        if state.phase is Phase.SHUFFLE:
            order = void_order(rng, rules, players, often=0.3)
            for c in order:
                assert spiel.is_chance_node()
                spiel.apply_action(DECK.index(c))
            state = apply(state, Shuffle(tuple(order)))
            deal, kept = ModelDeal(first_table=state.table), [None] * players
            continue
        assert spiel.current_player() == state.current_player
        yield spiel, state, pending, deal, voided, kept
        action = rng.choice(model_legal_ids(state, pending))
        meaning = model_meaning(state, pending, action)
        spiel.apply_action(action)
        if isinstance(meaning, Card):
            pending = meaning
            continue
        pending = None
        mover = state.current_player
        assert mover is not None
        scored = len(state.deal_scores)
        if isinstance(meaning, Cut):
            top = state.stock[0]
            state = apply(state, meaning)
            if meaning.keep:
                kept[mover] = top
            if state.phase is Phase.SHUFFLE:  # voided: "the cards exposed" in it
                if not meaning.keep:
                    voided = [*voided, top]
            else:
                exposed = None if meaning.keep else top
                deal = ModelDeal(first_table=state.table, exposed=exposed)
            continue
        assert isinstance(meaning, Play)
        deal = attrs.evolve(deal, plays=(*deal.plays, (mover, meaning.card, meaning.capture)))
        state = apply(state, meaning)
        if len(state.deal_scores) > scored:
            voided = []


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (TUNISIAN, 2),
        (TUNISIAN, 4),
        (CARD_RULES_PLUS, 2),
        (CARD_RULES_PLUS, 3),
        (CARD_RULES_PLUS, 4),
    ],
)
@given(seed=SEEDS, target=st.sampled_from((1, 2, 4, 6)))
@settings(max_examples=examples(10), deadline=None)
def test_information_state_tensors_agree(
    rules: Rules, players: int, seed: int, target: int
) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("chkobba.openspiel")
    rules = attrs.evolve(rules, target=target)
    for spiel, state, pending, deal, voided, kept in open_spiel_walk(pyspiel, rules, players, seed):
        for viewer in range(players):
            tensor = list(spiel.information_state_tensor(viewer))
            assert len(tensor) == INFO_STATE_SIZE
            mine = model_observation(observe(state, viewer), pending)
            assert not compare_observation(mine, tensor[:MODEL_SIZE])
            assert not compare_observation(mine, list(spiel.observation_tensor(viewer)))
            history = model_history(deal, viewer, players)
            got = tensor[MODEL_SIZE : MODEL_SIZE + HISTORY_MODEL_SIZE]
            wrong = [
                i for i, (a, b) in enumerate(zip(history, got, strict=True)) if not close(a, b)
            ]
            assert not wrong, ("history", [(DECK[i // 8], i % 8, got[i]) for i in wrong])
            at = MODEL_SIZE + HISTORY_MODEL_SIZE
            assert tensor[at : at + 40] == bits(voided), "voided"
            mine_kept = kept[viewer]
            assert tensor[at + 40 :] == bits([mine_kept] if mine_kept else []), "kept"


# ---------------------------------------------------------------------------------------
# The environments: Gymnasium (scores capped, features appended) and PettingZoo
# ---------------------------------------------------------------------------------------


def capped(vector: list[float]) -> list[float]:
    # docs/gymnasium.md: "with the scores capped at SCORE_CAP = 4 targets"
    pieces = split(vector)
    for name in ("scores", "third_score"):
        pieces[name] = [min(x, 4.0) for x in pieces[name]]
    return flatten(pieces)


@given(setup=setups(), seed=st.integers(0, 2**31 - 1), features=st.booleans())
@settings(max_examples=examples(15), deadline=None)
def test_gymnasium_observations_and_masks_agree(
    setup: tuple[Rules, int], seed: int, features: bool
) -> None:
    pytest.importorskip("numpy")
    gym = pytest.importorskip("chkobba.gymnasium")
    rules, players = setup
    env = gym.ChkobbaEnv("random", players=players, rules=rules, features=features)
    observation, info = env.reset(seed=seed)
    rng = random.Random(seed)
    done = False
    for _ in range(60):
        position = env.unwrapped.position
        state, pending, seat = position.state, position.pending, int(info["seat"])
        view = observe(state, seat)
        mine = capped(flatten(model_observation(view, pending)))
        # the last observation too (its scores may pass 4 targets); its features and mask
        # are those of no decision
        got = [float(x) for x in observation[:MODEL_SIZE]]
        assert not compare_observation(split(mine), got)
        if done:
            assert not any(info["action_mask"])
            break
        if features:
            mine += model_features(view, pending, legal_moves(state))
        assert len(observation) == len(mine)
        wrong = [
            i
            for i, (a, b) in enumerate(zip(mine, observation, strict=True))
            if not close(a, float(b))
        ]
        assert not wrong, wrong
        ids = model_legal_ids(state, pending)
        assert [i for i, m in enumerate(info["action_mask"]) if m] == list(ids)
        observation, _, done, _, info = env.step(rng.choice(ids))


@given(setup=setups(), seed=st.integers(0, 2**31 - 1))
@settings(max_examples=examples(15), deadline=None)
def test_pettingzoo_observations_and_masks_agree(setup: tuple[Rules, int], seed: int) -> None:
    pytest.importorskip("numpy")
    pz = pytest.importorskip("chkobba.pettingzoo")
    rules, players = setup
    env = pz.raw_env(players=players, rules=rules)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(80):
        if not env.agents:
            break
        position = env.position
        state, pending = position.state, position.pending
        for agent in env.agents:
            seat = int(agent.rsplit("_", 1)[1])
            observed = env.observe(agent)
            mine = flatten(model_observation(observe(state, seat), pending))
            got = [float(x) for x in observed["observation"]]
            assert not compare_observation(split(mine), got), agent
            ids = model_legal_ids(state, pending) if seat == state.current_player else ()
            assert [i for i, m in enumerate(observed["action_mask"]) if m] == list(ids)
        _, _, terminated, truncated, _ = env.last()
        ids = model_legal_ids(state, pending)
        env.step(None if terminated or truncated else rng.choice(ids))


def test_gymnasium_caps_the_scores_at_four_targets() -> None:
    pytest.importorskip("numpy")
    gym = pytest.importorskip("chkobba.gymnasium")
    rules = attrs.evolve(TUNISIAN, target=1)
    past_the_cap = 0
    for seed in range(12):
        env = gym.ChkobbaEnv("random", rules=rules)
        observation, info = env.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            ids = [i for i, m in enumerate(info["action_mask"]) if m]
            observation, _, done, _, info = env.step(rng.choice(ids))
        position, seat = env.unwrapped.position, int(info["seat"])
        raw = flatten(model_observation(observe(position.state, seat), position.pending))
        past_the_cap += max(split(raw)["scores"]) > 4.0
        got = [float(x) for x in observation[:MODEL_SIZE]]
        assert not compare_observation(split(capped(raw)), got)
    assert past_the_cap  # the cap was put to the test
