"""Words for what happens in a match: plays, captures, chkobbas, deal scores, the winner.

Narration only tells what every player at the table sees: a shuffle's order and a kept
cut card stay hidden.

>>> from chkobba.cli.narrate import describe
>>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
>>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
>>> after = apply(state, Cut(keep=False))
>>> print("\\n".join(describe(state, Cut(keep=False), after)))
player 1 cuts and exposes 2♦
table: 2♦ 6♠ A♠ A♣
>>> play = Play(card("QH"), cards("2D 6S"))
>>> print("\\n".join(describe(after, play, apply(after, play))))
player 1 plays Q♥ and takes 2♦ 6♠

Told to a player at the table (``you``), the same moves read in the second person:

>>> print("\\n".join(describe(after, play, apply(after, play), you=1)))
you play Q♥ and take 2♦ 6♠
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from chkobba.cards import Card, Rank
from chkobba.events import apply_with_outcome
from chkobba.moves import Cut, Move, Play
from chkobba.scoring import DealScore
from chkobba.state import Phase, State

__all__ = ["counted", "deal_summary", "describe", "side_name", "symbols"]

PARTNERSHIP = 4  # players in a match of two partnerships


def symbols(group: Iterable[Card]) -> str:
    """Cards with suit symbols, in deck order: ``2♦ 6♠``.

    >>> from chkobba.cli.narrate import symbols
    >>> symbols(cards("QH 6S 2D")), symbols([])
    ('2♦ 6♠ Q♥', '(empty)')
    """
    return " ".join(c.symbol for c in sorted(group)) or "(empty)"


def side_name(side: int, players: int, you: int | None = None) -> str:
    """``player 1``, or ``side 1 (players 1 and 3)`` in a 4-player match; told to the
    player ``you``, their own side is ``you`` or ``your side (you and player 2)``.

    >>> from chkobba.cli.narrate import side_name
    >>> side_name(1, 2), side_name(1, 2, you=1)
    ('player 1', 'you')
    >>> side_name(1, 4), side_name(0, 4, you=2)
    ('side 1 (players 1 and 3)', 'your side (you and player 0)')
    """
    if players != PARTNERSHIP:  # every player is a side
        return "you" if side == you else f"player {side}"
    sides = players // 2  # two partnerships: players p and p + 2 sit together
    if you is not None and side == you % sides:
        return f"your side (you and player {(you + sides) % players})"
    return f"side {side} (players {side} and {side + sides})"


def _player(player: int | None, you: int | None) -> str:
    return "you" if player == you else f"player {player}"


def _form(subject: str, verb: str) -> str:
    """The verb as it agrees with its subject: ``play`` for you, ``plays`` for others."""
    return verb if subject == "you" else verb + "s"


def _verb(subject: str, verb: str) -> str:
    """``you play``, ``player 1 plays``."""
    return f"{subject} {_form(subject, verb)}"


def describe(
    before: State, move: Move, after: State, you: int | None = None, deal: int | None = None
) -> list[str]:
    """The lines that narrate ``move`` from ``before`` to ``after`` (to player ``you``,
    in the second person, when given).

    ``deal`` is the number of the deal the move belongs to, from 1, counting void deals
    as ``replay --deal`` does: the number of shuffles of the match so far, the move's
    included. A state does not know how many deals were void, so without it the deals
    are counted from the scored ones, which is right only when none was void.

    A shuffle names the dealer; under a profile without a cut (``cardrulesplus``) the deal
    is complete at once, and the table is told too:

    >>> import random
    >>> from chkobba.cli.narrate import describe
    >>> before = new_match(2, dealer=0, rules=PROFILES["cardrulesplus"])
    >>> shuffle = random_shuffle(random.Random(2))
    >>> print("\\n".join(describe(before, shuffle, apply(before, shuffle), you=0, deal=3)))
    deal 3: you deal (scores 0-0)
    table: Q♥ 3♥ J♣ Q♣
    """
    if before.phase is Phase.SHUFFLE:
        number = deal or len(before.deal_scores) + 1
        dealer = _verb(_player(before.dealer, you), "deal")
        lines = [f"deal {number}: {dealer} (scores {_pair(before.scores)})"]
        if not before.rules.cut:  # no cut card: the deal is complete already
            lines += _table_or_void(before, move, after, you)
        return lines
    if isinstance(move, Cut):
        return _cut(before, move, after, you)
    if isinstance(move, Play):
        return _play(before, move, after, you, deal)
    return []


def _cut(before: State, move: Cut, after: State, you: int | None) -> list[str]:
    cutter = _player(before.current_player, you)
    action = _form(cutter, "keep" if move.keep else "expose")
    shown = "the top card" if move.keep else before.stock[0].symbol
    return [
        f"{_verb(cutter, 'cut')} and {action} {shown}",
        *_table_or_void(before, move, after, you),
    ]


#: Ranks as a void deal names them: ``four queens``.
_RANK_NAMES = {
    Rank.ACE: "aces",
    Rank.TWO: "twos",
    Rank.THREE: "threes",
    Rank.FOUR: "fours",
    Rank.FIVE: "fives",
    Rank.SIX: "sixes",
    Rank.SEVEN: "sevens",
    Rank.QUEEN: "queens",
    Rank.JACK: "jacks",
    Rank.KING: "kings",
}
_HOW_MANY = {3: "three", 4: "four"}


def _table_or_void(before: State, move: Move, after: State, you: int | None) -> list[str]:
    if after.phase is not Phase.SHUFFLE:
        return ["table: " + " ".join(c.symbol for c in after.table)]
    # The engine gathers a void deal's cards at once: the outcome tells the table every
    # player saw.
    table = apply_with_outcome(before, move)[1].dealt_table
    counts = Counter(c.rank for c in table)
    if after.rules.void_deal == "three_kings":
        rank, rule = Rank.KING, "three or more kings void it"
    else:
        rank, rule = max(counts, key=counts.__getitem__), "three or more of a rank void it"
    many = _HOW_MANY.get(counts[rank], str(counts[rank]))
    again = _verb(_player(after.dealer, you), "shuffle")
    return [
        "table: " + " ".join(c.symbol for c in table),
        f"{many} {_RANK_NAMES[rank]} on the table: the deal is void ({rule}); {again} again",
    ]


def _play(before: State, move: Play, after: State, you: int | None, deal: int | None) -> list[str]:
    player = before.mover
    who = _player(player, you)
    side = after.side_of(player)
    text = f"{_verb(who, 'play')} {move.card.symbol}"
    ends_deal = len(after.deal_scores) > len(before.deal_scores)
    if move.capture:
        text += f" and {_form(who, 'take')} {symbols(move.capture)}"
        if after.chkobbas[side] > before.chkobbas[side]:
            text += " - chkobba!"
        elif ends_deal and len(move.capture) == len(before.table):
            # A learner sees every other sweep called a chkobba: say why this one is not.
            text += " (the deal's last card: no chkobba)"
    lines = [text]
    if ends_deal:
        lines.extend(_deal_end(before, move, after, you, deal))
    elif sum(map(len, after.hands)) > sum(map(len, before.hands)) - 1:
        lines.append(f"new hands are dealt; {len(after.stock)} cards left in the stock")
    return lines


def _deal_end(
    before: State, move: Play, after: State, you: int | None, deal: int | None
) -> list[str]:
    left = [c for c in before.table if c not in move.capture]
    if not move.capture:
        left.append(move.card)
    lines = []
    if left and after.last_capturer is not None:
        taker = side_name(after.side_of(after.last_capturer), after.players, you)
        lines.append(f"{_verb(taker, 'take')} the last cards: {symbols(left)}")
    elif left:
        lines.append(f"nobody captured: {symbols(left)} go to no side")
    number = deal or len(after.deal_scores)
    lines.extend(deal_summary(after.deal_scores[-1], number, after, you))
    return lines


def deal_summary(score: DealScore, number: int, after: State, you: int | None = None) -> list[str]:
    """The score breakdown of deal ``number`` (void deals counted) and the match totals
    after it; after the last deal, the one line that tells who won the match, and after a
    deal that left the leaders level at or past the target, the line that says another
    deal is played.

    >>> import random
    >>> from chkobba.cli.narrate import deal_summary
    >>> moves = []
    >>> end = rollout(new_match(2, dealer=0), random.Random(1), until="match", moves=moves)
    >>> deals = sum(isinstance(move, Shuffle) for move in moves)  # void deals included
    >>> print("\\n".join(deal_summary(end.deal_scores[-1], deals, end)))
    deal 9 score:
      cards      19-21  -> player 1
      diamonds   3-7  -> player 1
      bermila    sevens 1-3, sixes 3-1  -> player 1
      7♦         -> player 1
      chkobbas   0-0
      points     0-4; match 17-22
    player 1 wins the match 17-22 after 9 deals
    """
    players = after.players

    def won(side: int | None) -> str:
        return "nobody" if side is None else side_name(side, players, you)

    def majority(counts: tuple[int, ...], side: int | None) -> str:
        # Only the house rule ties_to_last_capturer gives a tied count a winner: say so.
        if side is not None and counts.count(counts[side]) > 1:
            return f"{won(side)} (the tie goes to the last capturer)"
        return won(side)

    rules = after.rules
    lines = [
        f"deal {number} score:",
        f"  cards      {_pair(score.card_counts)}  -> "
        f"{majority(score.card_counts, score.cards_winner)}",
        f"  diamonds   {_pair(score.diamond_counts)}  -> "
        f"{majority(score.diamond_counts, score.diamonds_winner)}",
    ]
    # Only the categories the profile plays.
    if rules.sevens_bermila:
        lines.append(
            f"  bermila    sevens {_pair(score.seven_counts)}, sixes {_pair(score.six_counts)}"
            f"  -> {won(score.bermila_winner)}"
        )
    if rules.seven_of_diamonds:
        lines.append(f"  7♦         -> {won(score.seven_of_diamonds_winner)}")
    if rules.primiera:
        lines.append(f"  primiera   {_pair(score.primiera_sums)}  -> {won(score.primiera_winner)}")
    lines += [
        f"  chkobbas   {_pair(score.chkobbas)}",
        f"  points     {_pair(score.points)}; match {_pair(after.scores)}",
    ]
    if after.phase is Phase.OVER and after.winner is not None:
        winner = _verb(side_name(after.winner, players, you), "win")
        lines.append(f"{winner} the match {_pair(after.scores)} after {_deals(number, after)}")
    elif max(after.scores) >= rules.target:  # the leaders are level past the target
        lines.append(
            f"no winner yet: the leaders are level at {max(after.scores)}, the target of "
            f"{rules.target} reached, so another deal is played"
        )
    return lines


def _deals(number: int, after: State) -> str:
    """``9 deals``, ``1 deal``, ``13 deals (1 void)``."""
    void = number - len(after.deal_scores)
    text = counted(number, "deal")
    return f"{text} ({void} void)" if void > 0 else text


def counted(number: int, noun: str) -> str:
    """``1 deal``, ``2 deals``: a count and its noun, singular for one.

    >>> from chkobba.cli.narrate import counted
    >>> counted(1, "match"), counted(3, "match"), counted(0, "move")
    ('1 match', '3 matches', '0 moves')
    """
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}{'es' if noun.endswith(('s', 'ch')) else 's'}"


def _pair(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)
