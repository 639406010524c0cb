"""Fixed-size observation vectors for learning agents, built from a :class:`~chkobba.PlayerView`.

The vector only ever holds what the viewer may know: it is computed from
:func:`~chkobba.observe` (plus the pending card of a two-step play, which is face up).
It is *egocentric*: seats are counted from the viewer (offset 0 is the viewer, 1 the
player at their right, …) and sides as "ours" and "theirs", so one policy can play any
seat. Every entry is a float; card sets are 40 bits in deck order (``card.index``).

>>> import random
>>> state = apply(new_match(), random_shuffle(random.Random(1)))
>>> vector = observation_vector(observe(state, 1))
>>> len(vector) == OBSERVATION_SIZE
True
>>> [name for name, _ in LAYOUT][:6]
['hand', 'table', 'our_pile', 'their_pile', 'cut_card', 'pending']
>>> piece(vector, "cut_card").index(1.0) == state.stock[0].index  # the cutter sees it
True
>>> sum(piece(observation_vector(observe(state, 0)), "cut_card"))  # the dealer does not
0.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chkobba.cards import DECK, Card
from chkobba.errors import ChkobbaError, shown
from chkobba.state import Phase
from chkobba.views import PlayerView

__all__ = [
    "LAYOUT",
    "OBSERVATION_SIZE",
    "observation_bounds",
    "observation_vector",
    "piece",
]

_CARDS = len(DECK)
_SEATS = 4  # room for the largest table; unused seats stay 0 with two players
_PHASES = tuple(Phase)
#: Chkobba counts are divided by this (a deal has at most 35 chkobbas: 36 plays, the
#: last never sweeps).
CHKOBBA_SCALE = 10.0
_MAX_CHKOBBAS = 35
_HAND_SIZE = 3

#: The pieces of the vector, in order: ``(name, size)``.
#:
#: - ``hand``, ``table``, ``our_pile``, ``their_pile``: card sets (the piles of this deal,
#:   or of the last deal between deals);
#: - ``cut_card``: the card the cutter looks at (the cutter's own view only);
#: - ``pending``: a card played whose capture is still being chosen;
#: - ``phase``: one-hot over ``SHUFFLE CUT PLAY OVER``; ``choosing_capture``: 1 while a
#:   card is pending; ``four_players``: 1 in a partnership match;
#: - ``current_player``, ``dealer``, ``last_capturer``: one-hot seat offsets from the
#:   viewer (all zero when nobody);
#: - ``hand_sizes``: cards in each seat's hand / 3; ``stock_size``: cards in the stock / 40;
#: - ``chkobbas``: ours, theirs this deal / 10; ``scores``: ours, theirs / the target;
#: - ``winner``: (we won, they won).
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", _CARDS),
    ("table", _CARDS),
    ("our_pile", _CARDS),
    ("their_pile", _CARDS),
    ("cut_card", _CARDS),
    ("pending", _CARDS),
    ("phase", len(_PHASES)),
    ("choosing_capture", 1),
    ("four_players", 1),
    ("current_player", _SEATS),
    ("dealer", _SEATS),
    ("last_capturer", _SEATS),
    ("hand_sizes", _SEATS),
    ("stock_size", 1),
    ("chkobbas", 2),
    ("scores", 2),
    ("winner", 2),
)
#: The length of every observation vector.
OBSERVATION_SIZE = sum(size for _, size in LAYOUT)
_OFFSETS: dict[str, tuple[int, int]] = {}
_start = 0
for _name, _size in LAYOUT:
    _OFFSETS[_name] = (_start, _start + _size)
    _start += _size
del _start, _name, _size


def piece(vector: Sequence[float], name: str) -> list[float]:
    """The slice of ``vector`` holding the piece ``name`` of :data:`LAYOUT`."""
    if name not in _OFFSETS:
        raise ChkobbaError(f"{shown(name)} is not an observation piece: {', '.join(_OFFSETS)}")
    start, end = _OFFSETS[name]
    return list(vector[start:end])


def observation_bounds() -> tuple[list[float], list[float]]:
    """Per-entry lower and upper bounds of :func:`observation_vector`.

    Every entry is at least 0. Scores have no upper bound (``inf``): with equal totals at
    or past the target the match goes on. Everything else is at most 1, except chkobbas
    (at most 35 a deal, so 3.5).
    """
    high = [1.0] * OBSERVATION_SIZE
    for name in ("chkobbas", "scores"):
        start, end = _OFFSETS[name]
        bound = _MAX_CHKOBBAS / CHKOBBA_SCALE if name == "chkobbas" else float("inf")
        high[start:end] = [bound] * (end - start)
    return [0.0] * OBSERVATION_SIZE, high


def observation_vector(view: PlayerView, pending: Card | None = None) -> list[float]:
    """The observation of ``view`` (plus a ``pending`` card) as :data:`OBSERVATION_SIZE` floats."""
    if not isinstance(view, PlayerView):
        raise ChkobbaError(f"observation_vector: {shown(view)} is not a PlayerView")
    if pending is not None and not isinstance(pending, Card):
        raise ChkobbaError(
            f"observation_vector: pending must be a Card or None, not {shown(pending)}"
        )
    vector = [0.0] * OBSERVATION_SIZE
    me, players, side = view.player, view.players, view.side

    def put(name: str, values: Iterable[float]) -> None:
        start, end = _OFFSETS[name]
        vector[start:end] = values

    def bits(name: str, group: Iterable[Card]) -> None:
        start = _OFFSETS[name][0]
        for c in group:
            vector[start + c.index] = 1.0

    def seat(name: str, player: int | None) -> None:
        if player is not None:
            vector[_OFFSETS[name][0] + (player - me) % players] = 1.0

    bits("hand", view.hand)
    bits("table", view.table)
    bits("our_pile", view.captured[side])
    bits("their_pile", view.captured[1 - side])
    bits("cut_card", () if view.cut_card is None else (view.cut_card,))
    bits("pending", () if pending is None else (pending,))
    vector[_OFFSETS["phase"][0] + _PHASES.index(view.phase)] = 1.0
    if view.phase is Phase.PLAY and pending is not None:
        put("choosing_capture", [1.0])
    put("four_players", [1.0 if players == 4 else 0.0])
    seat("current_player", view.current_player)
    seat("dealer", view.dealer)
    seat("last_capturer", view.last_capturer)
    sizes = [0.0] * _SEATS
    for player, size in enumerate(view.hand_sizes):
        sizes[(player - me) % players] = size / _HAND_SIZE
    put("hand_sizes", sizes)
    put("stock_size", [view.stock_size / _CARDS])
    put("chkobbas", [view.chkobbas[side] / CHKOBBA_SCALE, view.chkobbas[1 - side] / CHKOBBA_SCALE])
    target = view.rules.target
    put("scores", [view.scores[side] / target, view.scores[1 - side] / target])
    if view.winner is not None:
        put("winner", [1.0, 0.0] if view.winner == side else [0.0, 1.0])
    return vector
