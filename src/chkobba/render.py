"""A readable text board: :func:`render` for a :class:`~chkobba.State`, a player's view
or a spectator's (:class:`~chkobba.PublicView`).

The board is plain text (card symbols, no colour codes), so it reads well in a terminal,
a log or a test failure. It is deterministic: the same position always gives the same text.

>>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
>>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
>>> state = apply(state, Cut(keep=False))
>>> print(render(state))
Chkobba: 2 players, tunisian rules, match to 21
Scores     player 0: 0   player 1: 0
Dealer     player 0
Turn       player 1 to play
Table      2♦ 6♠ A♠ A♣
Hands      player 0: 3♣ 6♣ 7♣
           player 1: 4♣ 5♣ Q♥
Stock      30 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas

A player's view shows that player's hand and only the size of the others:

>>> print(render(observe(state, 0)))
Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)
Scores     player 0: 0   player 1: 0
Dealer     player 0 (you)
Turn       player 1 to play
Table      2♦ 6♠ A♠ A♣
Hands      player 0 (you): 3♣ 6♣ 7♣
           player 1: 3 cards
Stock      30 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas

A spectator's board shows the size of every hand:

>>> print(render(public_view(state)))
Chkobba: 2 players, tunisian rules, match to 21 (public view)
Scores     player 0: 0   player 1: 0
Dealer     player 0
Turn       player 1 to play
Table      2♦ 6♠ A♠ A♣
Hands      player 0: 3 cards
           player 1: 3 cards
Stock      30 cards
Piles      player 0: 0 cards, 0 chkobbas
           player 1: 0 cards, 0 chkobbas
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import overload

from chkobba._describe import integer_count
from chkobba.cards import Card, Rank, Suit
from chkobba.checks import broken_state
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import Rules
from chkobba.scoring import DealScore
from chkobba.state import Phase, State
from chkobba.views import PlayerView, PublicView, observe

__all__ = ["board_line", "render"]

_LABEL_WIDTH = 11


@overload
def render(
    state: State | PlayerView | PublicView, player: int | None = None, *, deal: int | None = None
) -> str: ...


@overload  # 0.1.0's name of the first parameter, deprecated
def render(
    *,
    position: State | PlayerView | PublicView,
    player: int | None = None,
    deal: int | None = None,
) -> str: ...


def render(
    state: State | PlayerView | PublicView | None = None,
    player: int | None = None,
    *,
    position: State | PlayerView | PublicView | None = None,
    deal: int | None = None,
) -> str:
    """The board of a state, or of what one player sees, as text.

    ``render(state)`` shows everything: every hand (and, while the cutter decides, the
    cut card). ``render(state, player)`` is the board from ``player``'s seat, the same as
    ``render(observe(state, player))``: that player's hand and the sizes of the others.
    A view never shows a card its player may not see, and a :class:`~chkobba.PublicView`
    (:func:`~chkobba.public_view`, a spectator's) shows no hand at all.

    Once a deal is scored, the board's "Last deal" line gives its points and categories
    and numbers it ``deal``: a state counts its scored deals, not the void ones, so by
    default the number is that count; give ``deal`` (from 1) to number it as dealt, void
    deals included, as ``chkobba replay`` does.

    ``state`` is the name issue #3 gave the first parameter; 0.1.0 called it
    ``position``, which still works as a keyword, with a :class:`DeprecationWarning`,
    for this release.

    The cutter's board shows the card only the cutter sees:

    >>> import random
    >>> state = apply(new_match(), random_shuffle(random.Random(3)))
    >>> print(render(state, 1))
    Chkobba: 2 players, tunisian rules, match to 21 (seen by player 1)
    Scores     player 0: 0   player 1: 0
    Dealer     player 0
    Turn       player 1 (you) to cut: keep or expose
    Cut card   2♥ (you alone see it)
    Table      (empty)
    Stock      40 cards
    Piles      player 0: 0 cards, 0 chkobbas
               player 1: 0 cards, 0 chkobbas
    >>> render(observe(state, 0), 1)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: render: this view belongs to player 0, not 1
    """
    board = _position(state, position)
    number = _deal_number(deal)
    if isinstance(board, (PlayerView, PublicView)):
        if isinstance(board, PublicView) and player is not None:
            raise ChkobbaError(
                f"render: a PublicView is no player's view, not player {shown(player)}'s"
            )
        if isinstance(board, PlayerView) and player is not None and player != board.player:
            raise ChkobbaError(
                f"render: this view belongs to player {shown(board.player)}, not {shown(player)}"
            )
        try:
            return _render_view(board, number)
        except Exception as error:  # a hand-built view can be broken
            raise ChkobbaError(
                f"render: this {type(board).__name__} is not consistent "
                f"({type(error).__name__}: {shown(str(error))})"
            ) from None
    if not isinstance(board, State):
        raise ChkobbaError(f"render: {shown(board)} is not a State, a PlayerView or a PublicView")
    try:  # a hand-built state can be broken (see check_state)
        if player is not None:
            return _render_view(observe(board, player), number)
        return _render_state(board, number)
    except ChkobbaError:
        raise
    except Exception as error:
        raise broken_state(board, error) from None


def _position(state: object, position: object) -> object:
    """The board's subject, given as ``state`` or as 0.1.0's keyword ``position``."""
    if position is None:
        return state
    if state is not None:
        raise ChkobbaError("render: give the board's state once, as state= (not position= too)")
    warnings.warn(
        "render(position=...) is deprecated: the parameter is now state, render(state=...)",
        DeprecationWarning,
        stacklevel=3,
    )
    return position


#: The largest deal number a board writes (a match has far fewer deals).
_DEAL_LIMIT = 10**9


def _deal_number(deal: object) -> int | None:
    number = integer_count(deal)
    if deal is not None and (number is None or not 1 <= number <= _DEAL_LIMIT):
        raise ChkobbaError(
            f"render: deal must be a number from 1 to {_DEAL_LIMIT}, or None, not {shown(deal)}"
        )
    return number


def _render_state(state: State, deal: int | None) -> str:
    lines = _header(state.players, state.rules.name, state.rules.target, None)
    lines += _common(
        state.players, state.phase, state.scores, state.dealer, state.current_player, None
    )
    if state.phase is Phase.CUT:
        lines.append(board_line("Cut card", _card_text(state.stock[0])))
    lines.append(board_line("Table", _cards_text(state.table)))
    if state.phase is Phase.PLAY:
        hands = [f"{_who(p)}: {_hand_text(h)}" for p, h in enumerate(state.hands)]
        lines += _block("Hands", hands)
    lines += _stock(state.phase, len(state.stock))
    lines += _last_take(state.phase, state.last_capturer, None)
    lines += _piles(state.players, state.rules, state.captured, state.chkobbas)
    lines += _tail(state, state.deal_scores, deal)
    return "\n".join(lines)


def _render_view(view: PlayerView | PublicView, deal: int | None = None) -> str:
    viewer = view.player if isinstance(view, PlayerView) else None
    lines = _header(view.players, view.rules.name, view.rules.target, viewer)
    if viewer is None:
        lines[0] += " (public view)"
    lines += _common(
        view.players, view.phase, view.scores, view.dealer, view.current_player, viewer
    )
    if isinstance(view, PlayerView) and view.cut_card is not None:
        lines.append(board_line("Cut card", f"{_card_text(view.cut_card)} (you alone see it)"))
    lines.append(board_line("Table", _cards_text(view.table)))
    if view.phase is Phase.PLAY:
        hands = []
        for p, size in enumerate(view.hand_sizes):
            if isinstance(view, PlayerView) and p == viewer:
                hands.append(f"{_who(p, p)}: {_hand_text(view.hand)}")
            else:
                hands.append(f"{_who(p)}: {_count(size, 'card')}")
        lines += _block("Hands", hands)
    lines += _stock(view.phase, view.stock_size)
    lines += _last_take(view.phase, view.last_capturer, viewer)
    lines += _piles(view.players, view.rules, view.captured, view.chkobbas)
    lines += _tail(view, view.deal_scores, deal)
    return "\n".join(lines)


def _header(players: int, rules: str, target: int, viewer: int | None) -> list[str]:
    seen = "" if viewer is None else f" (seen by {_who(viewer)})"
    return [f"Chkobba: {players} players, {rules} rules, match to {target}{seen}"]


def _common(
    players: int,
    phase: Phase,
    scores: Sequence[int],
    dealer: int,
    current: int | None,
    viewer: int | None,
) -> list[str]:
    totals = "   ".join(f"{_side(s, players)}: {_number(total)}" for s, total in enumerate(scores))
    return [
        board_line("Scores", totals),
        board_line("Dealer", _who(dealer, viewer)),
        board_line("Turn", _turn(phase, dealer, current, viewer)),
    ]


def _turn(phase: Phase, dealer: int, current: int | None, viewer: int | None) -> str:
    if phase is Phase.SHUFFLE:
        return f"{_who(dealer, viewer)}, the dealer, to shuffle"
    if phase is Phase.CUT:
        return f"{_who(current, viewer)} to cut: keep or expose"
    if phase is Phase.PLAY:
        return f"{_who(current, viewer)} to play"
    return "the match is over"


def _stock(phase: Phase, size: int) -> list[str]:
    if phase is Phase.PLAY or size:
        return [board_line("Stock", _count(size, "card"))]
    return []


def _last_take(phase: Phase, last_capturer: int | None, viewer: int | None) -> list[str]:
    # Who took last matters: that side gets the cards left on the table at the end.
    if phase is Phase.PLAY and last_capturer is not None:
        return [board_line("Last take", _who(last_capturer, viewer))]
    return []


def _piles(
    players: int, rules: Rules, captured: Sequence[Sequence[Card]], chkobbas: Sequence[int]
) -> list[str]:
    # What each pile holds of the categories the profile scores, and nothing else.
    rows = []
    for side, pile in enumerate(captured):
        details = [_count(len(pile), "card")]
        if pile:
            details.append(_count(sum(c.suit is Suit.DIAMONDS for c in pile), "diamond"))
            if rules.sevens_bermila:
                details.append(_count(sum(c.rank is Rank.SEVEN for c in pile), "seven"))
                details.append(_count(sum(c.rank is Rank.SIX for c in pile), "six", "sixes"))
            if rules.seven_of_diamonds and any(
                c.rank is Rank.SEVEN and c.suit is Suit.DIAMONDS for c in pile
            ):
                details.append("the 7♦")
        details.append(_count(chkobbas[side], "chkobba"))
        rows.append(f"{_side(side, players)}: {', '.join(details)}")
    return _block("Piles", rows)


def _tail(
    position: State | PlayerView | PublicView, deal_scores: Sequence[DealScore], deal: int | None
) -> list[str]:
    lines: list[str] = []
    players = position.players
    if deal_scores and position.phase in (Phase.SHUFFLE, Phase.OVER):
        number = len(deal_scores) if deal is None else deal
        lines += _last_deal(players, position.rules, deal_scores[-1], number)
    if position.winner is not None:
        result = _tally(position.scores)
        lines.append(board_line("Winner", f"{_side(position.winner, players)}, {result}"))
    return lines


def _last_deal(players: int, rules: Rules, score: DealScore, number: int) -> list[str]:
    points = ", ".join(
        f"{_side(s, players, short=True)} +{_number(p)}" for s, p in enumerate(score.points)
    )
    # Only the categories the profile plays.
    rows = [
        f"cards {_tally(score.card_counts)}: {_won(score.cards_winner, players)}",
        f"diamonds {_tally(score.diamond_counts)}: {_won(score.diamonds_winner, players)}",
    ]
    if rules.sevens_bermila:
        rows.append(
            f"bermila (sevens {_tally(score.seven_counts)}, sixes {_tally(score.six_counts)}): "
            f"{_won(score.bermila_winner, players)}"
        )
    if rules.seven_of_diamonds:
        rows.append(f"7♦: {_won(score.seven_of_diamonds_winner, players)}")
    if rules.primiera:
        sums = _tally(score.primiera_sums)
        rows.append(f"primiera {sums}: {_won(score.primiera_winner, players)}")
    rows.append(f"chkobbas {_tally(score.chkobbas)}")
    return [
        board_line("Last deal", f"deal {number}: {points}"),
        *(" " * _LABEL_WIDTH + row for row in rows),
    ]


def _number(value: object) -> str:
    """A number as text; one too long for Python to write (a hand-built state may hold
    one: check_state puts no bound on a total) is described instead."""
    try:
        return str(value)
    except ValueError:
        return shown(value)


def _tally(counts: Sequence[int]) -> str:
    return "-".join(map(_number, counts))


def _won(side: int | None, players: int) -> str:
    return "nobody" if side is None else _side(side, players, short=True)


def _who(player: int | None, viewer: int | None = None) -> str:
    return f"player {player} (you)" if player == viewer else f"player {player}"


def _side(side: int, players: int, *, short: bool = False) -> str:
    if players != 4:  # each player is a side
        return f"player {side}"
    return f"side {side}" if short else f"side {side} (players {side}+{side + 2})"


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{_number(n)} {word if n == 1 else plural or word + 's'}"


def _card_text(c: Card) -> str:
    return c.symbol


def _cards_text(group: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in group) if group else "(empty)"


def _hand_text(hand: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in sorted(hand)) if hand else "(empty)"


def board_line(label: str, text: str) -> str:
    """A line of a board, its ``text`` aligned with those of :func:`render`: for the
    boards that add lines of their own (the pending card of
    :func:`chkobba.actions.render_position`, the shuffle of an OpenSpiel state).

    >>> from chkobba.render import board_line
    >>> print(render(new_match()).splitlines()[-1]); print(board_line("Pending", "K♣"))
               player 1: 0 cards, 0 chkobbas
    Pending    K♣
    """
    return f"{label:<{_LABEL_WIDTH}}{text}"


def _block(label: str, rows: Sequence[str]) -> list[str]:
    return [board_line(label if i == 0 else "", row) for i, row in enumerate(rows)]
