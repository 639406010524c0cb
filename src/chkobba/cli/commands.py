"""The words ``chkobba play`` understands besides moves, and how typed text is told apart.

A move is card text (``QH``, ``QH x 2D+6S``, ``QSxQD``, ``7♦``) or one of the cut's two
words (``keep``, ``expose``); any other word of three letters or more is a command, so a
misspelt command is answered as a command, never as a bad card, and so are two letters
that are no card and begin a command (``un``, ``bo``). A letter alone is no command
(``Q`` is a queen, not quit) but for the help's ``h`` and ``?``:

>>> from chkobba.cli.commands import command_of
>>> command_of("board"), command_of("Q"), command_of("QH"), command_of("keep")
('board', None, None, None)
>>> command_of("QSxQD"), command_of("exit"), command_of("?")
(None, 'quit', 'help')
>>> command_of("kep")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: unknown command 'kep' (did you mean keep?)
>>> command_of("bo")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: 'bo' is neither a card nor a command (did you mean board?)
>>> command_of("hint x")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: 'hint x': hint takes nothing after it
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable

from chkobba.captures import options_for_card
from chkobba.cards import Card, Rank, Suit, card
from chkobba.errors import ChkobbaError, shown
from chkobba.notation import parse_move
from chkobba.rules import TUNISIAN, Rules, not_a_profile

__all__ = ["ALIASES", "COMMANDS", "HELP", "capture_example", "command_of", "help_text"]

#: The commands and what each does, in the order ``help`` lists them.
COMMANDS = {
    "help": "this text",
    "board": "show the board and your moves again",
    "hint": "what the strongest bot would play here",
    "undo": "take back your last move and the bots' after it (not past new cards dealt)",
    "auto": "turn on or off playing your move for you when it is your only legal one",
    "quit": "stop the match; you are offered to save it first",
}
#: Other names of the commands. No rank letter is one: ``Q`` is a queen, not quit.
ALIASES = {"?": "help", "h": "help", "exit": "quit"}
#: Words that are moves, not commands.
MOVE_WORDS = ("keep", "expose")
#: A move word nobody types (the program draws the shuffle): a move, so that ``play``
#: says so, but never offered as the word a slip meant.
_DRAWN = ("shuffle",)
_SHORTEST_WORD = 3  # a card is two characters: longer letters-only text is a word


def _also(command: str) -> str:
    """The aliases of a command, as help lists them: `` (also ?, h)``."""
    aliases = [alias for alias, name in ALIASES.items() if name == command]
    return f" (also {', '.join(aliases)})" if aliases else ""


_COURTS = (Rank.QUEEN, Rank.JACK, Rank.KING)
_NUMBERS = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN)


def capture_example(rules: Rules = TUNISIAN) -> str:
    """A capture that ``rules`` allow, as ``help`` writes one: of a sum in the profile's
    own values, so that no example teaches a capture the game then refuses, or, under
    house values where no two cards make a sum, of an equal card (``QH x QS``).

    >>> from chkobba.cli.commands import capture_example
    >>> capture_example(TUNISIAN), capture_example(CARD_RULES_PLUS)   # Q=8, Q=9
    ('QH x 2D+6S', 'QH x 2D+7S')
    """
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"capture_example: {not_a_profile(rules)}")
    # Two and up first, then the lower values: the Tunisian example stays 0.1.0's.
    pairs = sorted(
        itertools.combinations(_NUMBERS, 2),
        key=lambda pair: (pair[0] is Rank.ACE, rules.value(pair[0]), rules.value(pair[1])),
    )
    for taker in (*_COURTS, *reversed(_NUMBERS)):
        played = Card(taker, Suit.HEARTS)
        for low, high in pairs:
            table = (Card(low, Suit.DIAMONDS), Card(high, Suit.SPADES))
            if frozenset(table) in options_for_card(table, played, rules):  # the engine's say
                return f"{played} x {table[0]}+{table[1]}"
    return "QH x QS"  # house values under which no two cards make a sum: an equal card


def help_text(rules: Rules = TUNISIAN) -> str:
    """What ``help`` prints during ``chkobba play`` under ``rules``: how to type a move
    (the cut's words only where the profile cuts), then every command with its aliases.

    >>> from chkobba.cli.commands import help_text
    >>> print(help_text(CARD_RULES_PLUS).split("Commands:")[0])
    Type the number of a move from the list, or the move itself:
      QH            play the queen of hearts (its one legal move)
      QH x 2D+7S    play it and take 2D and 7S (also QHx2D+7S or QH:2D 7S)
    Cards are rank then suit: ranks A 2 3 4 5 6 7 Q J K, suits S H D C (or ♠ ♥ ♦ ♣).
    <BLANKLINE>
    """
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"help_text: {not_a_profile(rules)}")
    example = capture_example(rules)
    played, written = example.split(" x ")
    taken = written.split("+")  # one card where the house values let no sum be taken
    lines = [
        "Type the number of a move from the list, or the move itself:",
        f"  {played}            play the {_named(played)} (its one legal move)",
        f"  {example:<10}    play it and take {' and '.join(taken)} "
        f"(also {played}x{written} or {played}:{' '.join(taken)})",
    ]
    if rules.cut:
        lines.append("  keep, expose  at the cut: keep the top card or show it on the table")
    lines.append("Cards are rank then suit: ranks A 2 3 4 5 6 7 Q J K, suits S H D C (or ♠ ♥ ♦ ♣).")
    lines.append("Commands:")
    lines += [f"  {name:<12}  {what}{_also(name)}" for name, what in COMMANDS.items()]
    lines.append("Ctrl-C stops the match and offers to save it; a second Ctrl-C quits.")
    return "\n".join(lines)


def _named(text: str) -> str:
    """``queen of hearts`` for ``QH``."""
    played = card(text)
    return f"{played.rank.name.lower()} of {played.suit.name.lower()}"


#: What ``help`` prints during ``chkobba play`` under the Tunisian profile
#: (:func:`help_text` gives it for any profile).
HELP = help_text()


def command_of(text: str) -> str | None:
    """The command ``text`` names, or ``None`` when it is a move (or move-like text).

    A word that is no command raises :class:`~chkobba.ChkobbaError` saying so, with the
    nearest command or move word when one is close.

    Case and surrounding spaces do not matter; a move with a capture is no command:

    >>> from chkobba.cli.commands import command_of
    >>> command_of("  Undo "), command_of("h"), command_of("QH x 2D+6S"), command_of("7♦")
    ('undo', 'help', None, None)
    >>> command_of("qiut")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: unknown command 'qiut' (did you mean quit?)
    >>> command_of("exi")  # an alias is offered too
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: unknown command 'exi' (did you mean exit?)
    """
    word = text.strip().lower()
    if word in COMMANDS:
        return word
    first, *rest = word.split(maxsplit=1) or [""]
    named = first if first in COMMANDS else ALIASES.get(first)
    if named is not None and rest:  # 'hint x' was read as a card, 'HIN'
        raise ChkobbaError(f"{shown(text.strip())}: {named} takes nothing after it")
    if word in ALIASES:
        return ALIASES[word]
    if word in MOVE_WORDS or word in _DRAWN or not (word.isascii() and word.isalpha()):
        return None
    words = [*COMMANDS, *MOVE_WORDS, *(alias for alias in ALIASES if len(alias) > 1)]
    if len(word) < _SHORTEST_WORD:
        # Two letters that are no card but begin a word ("un", "bo"): the word's start.
        # (Not a move word's start: at the cut, play says "ke" meant keep.)
        begun = [name for name in words if name.startswith(word)]
        if len(word) < 2 or not begun or _reads(card, word) or set(begun) & set(MOVE_WORDS):
            return None
        raise ChkobbaError(
            f"{shown(text.strip())} is neither a card nor a command (did you mean "
            f"{' or '.join(begun)}?)"
        )
    if _reads(parse_move, word):  # letters alone that write a move: QSxQD
        return None
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise ChkobbaError(f"unknown command {shown(text.strip())}{hint}")


def _reads(read: Callable[[str], object], word: str) -> bool:
    """Whether ``read`` (``card``, ``parse_move``) reads ``word`` without an error."""
    try:
        read(word)
    except ChkobbaError:
        return False
    return True
