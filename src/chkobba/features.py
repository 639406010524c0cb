"""Optional observation features a human player uses: the table's sum and what each action takes.

The observation vector of :mod:`chkobba.observations` holds the raw facts (card bits,
counts). A person also sees at a glance whether the table can be swept and what each
card in hand would capture; a learner can be handed the same with these features,
computed from what the player may know (its view, the pending card and the legal moves):

- ``table_sum``: the sum of the table cards' values / 10 (a table worth 10 or less can
  be swept by one card);
- ``capture_counts``: per action id (:data:`~chkobba.actions.NUM_ACTIONS` entries), the
  number of table cards the action takes / 10: for a card with several capture options,
  its largest; for a capture-choice id, that option's. Zero for an action that takes
  nothing or is not legal;
- ``capture_sweeps``: per action id, 1 when the action (or one of its options) takes
  the whole table.

>>> import random
>>> from chkobba.actions import Position
>>> from chkobba.features import FEATURE_SIZE, feature_vector
>>> state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))
>>> position = Position(state)
>>> values = feature_vector(observe(state, 1), position.pending, legal_moves(state))
>>> len(values) == FEATURE_SIZE
True
>>> round(values[0] * 10)  == sum(state.rules.value(c) for c in state.table)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from chkobba._describe import wrong_type
from chkobba.actions import FIRST_CAPTURE, NUM_ACTIONS
from chkobba.cards import Card
from chkobba.errors import ChkobbaError, items_of, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.observations import broken_view, check_pending
from chkobba.rules import TUNISIAN, Rules, not_a_profile
from chkobba.views import PlayerView

__all__ = [
    "FEATURE_LAYOUT",
    "FEATURE_SIZE",
    "feature_bounds",
    "feature_vector",
    "options_by_card",
]

#: Table sums and capture counts are divided by this.
SCALE = 10.0
#: The pieces of the feature vector, in order: ``(name, size)``.
FEATURE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("table_sum", 1),
    ("capture_counts", NUM_ACTIONS),
    ("capture_sweeps", NUM_ACTIONS),
)
#: The length of every feature vector.
FEATURE_SIZE = sum(size for _, size in FEATURE_LAYOUT)
# The most a table can hold is 40 cards, worth all the deck's values: 4 * 55 = 220 under
# both named profiles. A house profile's values can add up to more (they are any
# positive integers); its bound is then its own sum, and never less than 220, so the
# named profiles' bounds (and a saved model's observation space) stay as they were.
_MAX_TABLE_SUM = 220 / SCALE
_MAX_TAKEN = 40 / SCALE


def feature_bounds(rules: Rules = TUNISIAN) -> tuple[list[float], list[float]]:
    """Per-entry lower and upper bounds of :func:`feature_vector` under ``rules`` (all
    finite; the table sum's is 22 unless the profile's 40 values add up to more).

    >>> import attrs
    >>> from chkobba.features import feature_bounds
    >>> feature_bounds()[1][0], feature_bounds(attrs.evolve(TUNISIAN, capture_values=(
    ...     1, 2, 3, 4, 5, 6, 7, 10, 10, 10)))[1][0]
    (22.0, 23.2)
    """
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"feature_bounds: {not_a_profile(rules)}")
    table_sum = max(_MAX_TABLE_SUM, sum(rules.card_values) / SCALE)
    high = [table_sum] + [_MAX_TAKEN] * NUM_ACTIONS + [1.0] * NUM_ACTIONS
    return [0.0] * FEATURE_SIZE, high


def options_by_card(legal: Sequence[Move]) -> dict[Card, list[frozenset[Card]]]:
    """Each playable card's capture options among ``legal``, in the action encoding's order.

    The order is :func:`~chkobba.actions.capture_choices`' (deck order), so option ``k``
    here is capture id ``FIRST_CAPTURE + k``.

    Player 1 to play on a table of AD 4D 5D 6D (a card laid has one option, empty):

    >>> import random
    >>> from chkobba.features import options_by_card
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> options = options_by_card(legal_moves(state))
    >>> {str(c): [format_cards(o, "+") for o in found] for c, found in options.items()}
    {'QS': [''], '7C': ['AD+6D'], 'KC': ['AD+4D+5D', '4D+6D']}
    """
    return _options_by_card(_moves(legal, "options_by_card"))


def _moves(legal: object, function: str) -> tuple[Move, ...]:
    moves = items_of(legal, f"{function}: legal")
    for move in moves:
        if not isinstance(move, (Shuffle, Cut, Play)):
            raise ChkobbaError(f"{function}: legal must hold moves only, not {shown(move)}")
    return moves


def _options_by_card(legal: Sequence[Move]) -> dict[Card, list[frozenset[Card]]]:
    found: dict[Card, list[frozenset[Card]]] = {}
    for move in legal:
        if isinstance(move, Play):
            found.setdefault(move.card, []).append(move.capture)
    for options in found.values():
        options.sort(key=lambda option: sorted(c.index for c in option))
    return found


def feature_vector(view: PlayerView, pending: Card | None, legal: Sequence[Move]) -> list[float]:
    """The features of :data:`FEATURE_LAYOUT` for ``view`` with ``legal`` core moves.

    ``legal`` are the core moves of the position (``legal_moves``); while ``pending``
    waits for its capture, its options are the legal moves with that card.

    Entry ``1 + id`` is the capture count of action ``id``; KC has two options:

    >>> import random
    >>> from chkobba.actions import FIRST_CAPTURE
    >>> from chkobba.features import feature_vector
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> format_cards(state.table), format_cards(state.hands[1])
    ('AD 4D 5D 6D', '7C QS KC')
    >>> values = feature_vector(observe(state, 1), None, legal_moves(state))
    >>> values[0], values[1 + card("7C").index], values[1 + card("KC").index]  # KC: its largest
    (1.6, 0.2, 0.3)
    >>> values = feature_vector(observe(state, 1), card("KC"), legal_moves(state))  # pending
    >>> values[1 + FIRST_CAPTURE], values[1 + FIRST_CAPTURE + 1]  # AD+4D+5D, 4D+6D
    (0.3, 0.2)
    """
    if not isinstance(view, PlayerView):
        raise ChkobbaError(wrong_type("feature_vector", "a PlayerView", view))
    if pending is not None and not isinstance(pending, Card):
        raise ChkobbaError(f"feature_vector: pending must be a Card or None, not {shown(pending)}")
    check_pending("feature_vector", view, pending)
    moves = _moves(legal, "feature_vector")
    try:
        return _feature_vector(view, pending, moves)
    except (AttributeError, TypeError, IndexError, KeyError, ValueError) as error:
        raise broken_view("feature_vector", view, error) from None


def _feature_vector(view: PlayerView, pending: Card | None, legal: Sequence[Move]) -> list[float]:
    table = frozenset(view.table)
    values = view.rules.card_values
    counts = [0.0] * NUM_ACTIONS
    sweeps = [0.0] * NUM_ACTIONS
    for played, options in _options_by_card(legal).items():
        if pending is not None and played != pending:
            continue
        for k, option in enumerate(options):
            action = FIRST_CAPTURE + k if pending is not None else played.index
            if action >= NUM_ACTIONS:
                # The layout is the Tunisian action space; the further capture ids of
                # another profile (see actions.num_actions) have no entry.
                continue
            counts[action] = max(counts[action], len(option) / SCALE)
            if option and option == table:
                sweeps[action] = 1.0
    return [sum(values[c.index] for c in view.table) / SCALE, *counts, *sweeps]
