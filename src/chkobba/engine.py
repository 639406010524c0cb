"""The reducer: :func:`legal_moves`, :func:`apply` and the one legality check they share.

Data flows one way: a state and a move go in, a new state comes out; nothing is mutated.
:func:`illegal_reason` decides legality (a play is legal when it is one of the state's
listed plays, which follow the capture rules :mod:`chkobba.captures` documents),
:func:`legal_moves` enumerates exactly the moves it accepts, and :func:`apply` always
runs it before touching anything.

A deal from the shuffle to the first play:

>>> import random
>>> state = apply(new_match(), random_shuffle(random.Random(1)))
>>> state.phase, state.current_player
(<Phase.CUT: 'cut'>, 1)
>>> legal_moves(state)
(Cut(keep=True), Cut(keep=False))
>>> state = apply(state, Cut(keep=False))
>>> state.phase, len(state.table), [len(hand) for hand in state.hands], len(state.stock)
(<Phase.PLAY: 'play'>, 4, [3, 3], 30)
>>> apply(state, Cut(keep=True))
Traceback (most recent call last):
...
chkobba.errors.IllegalMoveError: Cut is not allowed in phase PLAY

A profile without the cut (``cut=False``) deals at the shuffle; here 3 players:

>>> state = apply(new_match(3, rules=CARD_RULES_PLUS), random_shuffle(random.Random(1)))
>>> state.phase, state.current_player, [len(hand) for hand in state.hands], state.sides
(<Phase.PLAY: 'play'>, 1, [3, 3, 3], 3)
"""

from __future__ import annotations

from collections import Counter

from chkobba import _kernel, captures
from chkobba._describe import cut as cut_text
from chkobba._describe import one_line, wrong_type
from chkobba._plays import hand_plays
from chkobba._successors import play
from chkobba.captures import COURTS, options_for_card
from chkobba.cards import DECK, Card, format_cards
from chkobba.checks import broken_state
from chkobba.errors import ChkobbaError, IllegalMoveError, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.state import Phase, State, replaced
from chkobba.views import PlayerView, check_view, seat_state

__all__ = ["apply", "clear_caches", "illegal_reason", "is_legal", "legal_moves"]

# Enum members read from module constants: a class attribute read of an Enum is slow.
_SHUFFLE, _CUT, _PLAY, _OVER = Phase.SHUFFLE, Phase.CUT, Phase.PLAY, Phase.OVER
_CUTS = (Cut(keep=True), Cut(keep=False))
_DECK_SET = frozenset(DECK)


def legal_moves(state: State | PlayerView) -> tuple[Move, ...]:
    """Every legal move: both cuts in ``CUT``; every play in ``PLAY``; ``()`` otherwise.

    A play is a card of the mover's hand with one of its capture options, or with an
    empty capture when it captures nothing. ``SHUFFLE`` is a chance node: its move is a
    :class:`~chkobba.Shuffle` from :func:`~chkobba.random_shuffle`, not listed here.

    Given a player's :class:`~chkobba.PlayerView` (a client that holds only its view),
    the moves that player may make now: the same as the state's when it is to move,
    ``()`` when someone else is (or nobody).

    >>> import random
    >>> state = apply(new_match(), random_shuffle(random.Random(1)))
    >>> state = apply(state, Cut(keep=False))
    >>> format_cards(state.table), format_cards(state.hands[1])
    ('3H 5H 6C QH', 'AH AD JS')
    >>> [str(move) for move in legal_moves(state)]  # JS (9) must take 3H+6C
    ['AD', 'AH', 'JS x 3H+6C']
    >>> legal_moves(observe(state, 0)), legal_moves(new_match())
    ((), ())
    """
    if type(state) is not State:
        if isinstance(state, PlayerView):
            return _viewer_moves(state)
        if not isinstance(state, State):
            raise ChkobbaError(wrong_type("legal_moves", "a State or a PlayerView", state))
        return _legal_moves(state)  # a subclass: through its properties
    fields = state.__dict__
    phase = fields["phase"]
    if phase is _PLAY:
        try:  # free unless it fails: a hand-built state can be broken (see check_state)
            plays: tuple[Move, ...] | None = fields.get("_legal_plays")
            if plays is None:  # State.legal_plays, written out: it is the step API's core
                hand = fields["hands"][fields["current_player"]]
                plays = fields["_legal_plays"] = hand_plays(hand, fields["table"], fields["rules"])
            return plays
        except Exception as error:
            raise broken_state(state, error) from None
    if phase is _CUT:
        return _CUTS
    return ()


def _viewer_moves(view: PlayerView) -> tuple[Move, ...]:
    check_view(view)  # a hand-built view is named for what is wrong with it
    if view.current_player != view.player:
        return ()
    return _legal_moves(seat_state(view))


def _not_to_move(view: PlayerView) -> str:
    """Why the viewer may not move now (it is someone else's turn, or nobody's)."""
    if view.current_player is not None:
        return f"it is player {view.current_player}'s turn, not player {view.player}'s"
    if view.phase is _SHUFFLE:
        return (
            f"player {view.player} is not to move: the next move is the shuffle, drawn by "
            "whoever runs the match"
        )
    return f"player {view.player} is not to move: the match is over"


def _legal_moves(state: State) -> tuple[Move, ...]:
    phase = state.phase
    if phase is _PLAY:
        try:  # free unless it fails: a hand-built state can be broken (see check_state)
            return state.legal_plays
        except Exception as error:
            raise broken_state(state, error) from None
    if phase is _CUT:
        return _CUTS
    return ()


def is_legal(state: State | PlayerView, move: Move) -> bool:
    """Whether ``apply(state, move)`` would accept the move; given a player's
    :class:`~chkobba.PlayerView`, whether that player may make it now.

    >>> import random
    >>> state = apply(new_match(), random_shuffle(random.Random(1)))  # player 1 cuts
    >>> is_legal(state, Cut(keep=True)), is_legal(state, Play("7D"))
    (True, False)
    >>> is_legal(observe(state, 1), Cut(keep=True)), is_legal(observe(state, 0), Cut(keep=True))
    (True, False)
    """
    return _reason("is_legal", state, move) is None


def illegal_reason(state: State | PlayerView, move: Move) -> str | None:
    """Why ``move`` is not legal in ``state``, or ``None`` when it is.

    Given a player's :class:`~chkobba.PlayerView`, why that player may not make it now:
    the same reason as the state gives when the player is to move (a reason speaks only
    of the player's own hand and the table), else whose turn it is.

    >>> illegal_reason(new_match(), Cut(keep=True))
    'Cut is not allowed in phase SHUFFLE'
    """
    return _reason("illegal_reason", state, move)


def _reason(function: str, state: object, move: Move) -> str | None:
    if isinstance(state, State):
        return _illegal_reason(state, move)
    if isinstance(state, PlayerView):
        check_view(state)  # a hand-built view is named for what is wrong with it
        if state.current_player != state.player:
            return _not_to_move(state)
        return _illegal_reason(seat_state(state), move)
    raise ChkobbaError(wrong_type(function, "a State or a PlayerView", state))


def _illegal_reason(state: State, move: Move) -> str | None:
    """:func:`illegal_reason` once ``state`` is known to be a State."""
    if type(move) not in _LISTED_KINDS and isinstance(move, _LISTED_KINDS):
        return subclass_problem(move)
    try:  # free unless it fails: a hand-built state can be broken (see check_state)
        phase = state.phase
        if phase is _PLAY:
            if isinstance(move, Play):
                if move in state.legal_plays:
                    return None
                return _play_problem(state, move)
        elif phase is _CUT:
            if isinstance(move, Cut):
                return None if move.keep is True or move.keep is False else _bad_cut(move)
        elif phase is _SHUFFLE and isinstance(move, Shuffle):
            return _shuffle_problem(move)
        if not isinstance(move, (Shuffle, Cut, Play)):
            return f"{shown(move)} is not a move (expected Shuffle, Cut or Play)"
        if isinstance(move, Cut) and not state.rules.cut:  # never, not just not now
            return f"Cut is not allowed: the {state.rules.name} profile deals without a cut"
        return f"{type(move).__name__} is not allowed in phase {phase.name}"
    except Exception as error:
        raise broken_state(state, error) from None


#: The classes of the moves legal_moves lists: an instance of a subclass is refused, as it
#: equals no listed move. (A shuffle is chance, never listed: a subclass's plays, as in 0.1.0.)
_LISTED_KINDS = (Cut, Play)


def subclass_problem(move: Move) -> str | None:
    """Why ``move``, an instance of a subclass of ``Cut`` or ``Play``, is no move, or
    ``None`` for another (also for a ``Shuffle``'s subclass: chance, never listed)."""
    # Moves compare by exact class (attrs' eq, Play's own), so a subclass's move is never
    # among legal_moves: refused as such, so that apply and is_legal agree with the list.
    kind = type(move)
    if kind in _LISTED_KINDS or not isinstance(move, _LISTED_KINDS):
        return None
    base = Cut if isinstance(move, Cut) else Play
    name, module = (cut_text(one_line(str(text))) for text in (kind.__name__, kind.__module__))
    return (
        f"a {name} of {module} is a subclass of {base.__name__}, not a move: give a "
        f"{base.__name__} itself, as legal_moves lists them"
    )


def _bad_cut(move: Cut) -> str:
    return f"Cut(keep={shown(move.keep)}): keep must be True or False"


def _shuffle_problem(move: Shuffle) -> str | None:
    order = move.order
    try:  # the common case first: the 40 cards once each
        if len(order) == len(DECK) and frozenset(order) == _DECK_SET:
            return None
    except TypeError:  # an unhashable item (a Shuffle built around its converter)
        pass
    strangers = [c for c in order if not isinstance(c, Card)]
    if strangers:
        return f"shuffle: {shown(strangers[0])} is not a card"
    repeated = sorted(c for c, n in Counter(order).items() if n > 1)
    missing = sorted(_DECK_SET.difference(order))
    details = []
    if repeated:
        details.append("repeats " + format_cards(repeated))
    if missing:
        details.append("lacks " + format_cards(missing))
    return f"shuffle must order each of the 40 cards once; it {' and '.join(details)}"


def _play_problem(state: State, move: Play) -> str:
    played, capture = move.card, move.capture
    if not isinstance(played, Card):
        return f"{shown(played)} is not a card"
    player: int = state.current_player  # type: ignore[assignment]
    if played not in state.hands[player]:
        return f"{played} is not in player {player}'s hand"
    options = options_for_card(state.table, played, state.rules)
    return _capture_problem(state, played, capture, options)


def _capture_problem(
    state: State, played: Card, capture: frozenset[Card], options: tuple[frozenset[Card], ...]
) -> str:
    choices = " or ".join(format_cards(option, "+") for option in options)
    if not capture:
        return f"{played} must capture: it can take {choices}"
    strangers = [c for c in capture if not isinstance(c, Card)]
    if strangers:
        return f"{played} cannot take {shown(strangers[0])}: it is not a card"
    taken = format_cards(capture, "+")
    absent = sorted(c for c in capture if c not in state.table)
    if absent:
        verb = "is" if len(absent) == 1 else "are"
        return f"{played} cannot take {taken}: {format_cards(absent)} {verb} not on the table"
    rules = state.rules
    value = rules.card_values[played.index]
    if len(capture) > 1 and not rules.courts_capture_sums and played.rank in COURTS:
        return f"{played} cannot take {taken}: a court takes only an equal card (no sums)"
    if not options:
        return f"{played} cannot take {taken}: it captures nothing here"
    values = rules.card_values
    equal_first = rules.equal_single_first and len(options[0]) == 1
    # A group holding an equal card means "take the equal card": say how. Otherwise the
    # arithmetic first: a group that does not add up is wrong whatever the table holds.
    if equal_first and len(capture) > 1 and any(values[c.index] == value for c in capture):
        return f"{played} cannot take {taken}: an equal card is taken alone, take {choices}"
    total = sum(values[c.index] for c in capture)
    if len(capture) == 1 and total != value:
        return f"{played} cannot take {taken}: {taken} is worth {total}, {played} {value}"
    if total != value:
        return f"{played} cannot take {taken}: the values sum to {total}, not {value}"
    if equal_first:
        return f"{played} cannot take {taken}: an equal card comes first, take {choices}"
    return f"{played} cannot take {taken}: it can take {choices}"


def apply(state: State, move: Move) -> State:
    """The state after ``move``; raises :class:`~chkobba.IllegalMoveError` if illegal.

    Pure: the input state is never changed. Applying a play also does everything the
    rules do after it: refills empty hands, awards chkobbas, gives the leftovers to the
    last capturer, scores the deal, passes the deal to the right and ends the match.

    >>> import random
    >>> state = apply(new_match(), random_shuffle(random.Random(1)))
    >>> state = apply(state, Cut(keep=False))
    >>> after = apply(state, Play("JS", "3H 6C"))
    >>> format_cards(after.captured[1]), format_cards(after.table), after.current_player
    ('3H 6C JS', '5H QH', 0)
    >>> len(state.table)  # the state given is unchanged
    4
    >>> apply(state, Play("JS"))
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: JS must capture: it can take 3H+6C
    """
    try:  # free unless it fails: a hand-built state can be broken (see check_state)
        # The common case first: a listed play needs no other check. One that came from
        # legal_moves is found by identity; ``move in plays`` would call Play.__eq__ (a
        # Python method) on every play listed before it, so it only finds the others.
        if type(move) is Play and type(state) is State:
            fields = state.__dict__
            if fields["phase"] is _PLAY:
                plays = fields.get("_legal_plays") or state.legal_plays
                for listed in plays:
                    if listed is move:
                        return play(state, move.card, move.capture)
                if move in plays:
                    return play(state, move.card, move.capture)
    except Exception as error:
        raise broken_state(state, error) from None
    if not isinstance(state, State):  # on the slow path only: the common case is a State
        raise ChkobbaError(wrong_type("apply", "a State", state))
    reason = _illegal_reason(state, move)
    if reason is not None:
        raise IllegalMoveError(reason)
    try:  # free unless it fails: a hand-built state can be broken (see check_state)
        if isinstance(move, Play):
            return play(state, move.card, move.capture)
        if isinstance(move, Cut):
            return _cut(state, move.keep)
        return _shuffle(state, move.order)
    except Exception as error:
        raise broken_state(state, error) from None


def _shuffle(state: State, order: tuple[Card, ...]) -> State:
    # replaced, not State(): the engine's own values need no checks (as in _successors.play).
    shuffled = replaced(
        state,
        phase=_CUT,
        current_player=state.cutter,
        hands=_kernel.empty_hands(state.players),  # first: it refuses a count no deal seats
        table=(),
        stock=order,
        captured=((),) * state.sides,
        chkobbas=(0,) * state.sides,
        last_capturer=None,
        winner=None,
    )
    # Without a cut the dealer deals at once: the CUT state above is never seen.
    return shuffled if state.rules.cut else _deal(shuffled, kept=None)


def _cut(state: State, keep: bool) -> State:
    return _deal(state, kept=keep)


def _deal(state: State, kept: bool | None) -> State:
    """Deal the shuffled stock: its first card is the cut card (kept or exposed), unless
    ``kept`` is None (no cut: every card is dealt in turn)."""
    order, players, cutter = state.stock, state.players, state.cutter
    # One card at a time in playing order from the cutter, passing over full hands, then
    # four to the table (the positions are worked out once per seating, see deal_hands).
    hands, table, position = _kernel.deal_hands(order, players, cutter, kept)
    if _kernel.is_void([c.index for c in table], state.rules):  # the profile's void_deal
        # The same dealer gathers the cards and shuffles again; no deal is scored.
        return _between_deals(state, state.dealer, _kernel.empty_hands(players), (), DECK)
    return replaced(
        state,
        phase=_PLAY,
        current_player=cutter,
        hands=hands,
        table=table,
        stock=order[position:],
        last_capturer=None,
        winner=None,
    )


def _between_deals(
    state: State,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    table: tuple[Card, ...],
    stock: tuple[Card, ...],
) -> State:
    return State(
        rules=state.rules,
        phase=_SHUFFLE,
        players=state.players,
        dealer=dealer,
        current_player=None,
        hands=hands,
        table=table,
        stock=stock,
        captured=state.captured,
        chkobbas=state.chkobbas,
        scores=state.scores,
        last_capturer=state.last_capturer,
        winner=None,
        deal_scores=state.deal_scores,
    )


def clear_caches() -> None:
    """Empty the engine's caches (for benchmarks that want a cold start).

    The caches only save time: the same moves give the same states after it.

    >>> import random
    >>> from chkobba.engine import clear_caches
    >>> end = rollout(new_match(), random.Random(5))
    >>> clear_caches()
    >>> rollout(new_match(), random.Random(5)) == end
    True
    """
    captures.clear_caches()
    _kernel.clear_caches()
