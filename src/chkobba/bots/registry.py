"""Bots by name: :class:`BotSpec` describes a bot in text and builds it anywhere.

A spec is ``name`` or ``name:key=value,key=value`` — ``random``, ``greedy``,
``ismcts:iterations=100``, ``expert`` — or a named preset: ``ismcts:v1`` is the ISMCTS
configuration of release 0.1.0 written out in full, so comparisons with it can be rerun
after the defaults change. Options after a preset override its values
(``ismcts:v1,iterations=200``). Specs are small frozen values, so they travel to worker
processes, and :meth:`BotSpec.build` makes a bot with any seed.

>>> from chkobba.bots import BotSpec
>>> spec = BotSpec.parse("ismcts:iterations=50")
>>> spec
BotSpec.parse('ismcts:iterations=50')
>>> spec.build(seed=3)
ISMCTSBot(iterations=50, ..., seed=3)
>>> BotSpec.parse("ismcts:v1")
BotSpec.parse('ismcts:iterations=800,exploration=0.7,epsilon=0.1,horizon=6')
>>> BotSpec.parse("ismcts:v1,iterations=200")
BotSpec.parse('ismcts:iterations=200,exploration=0.7,epsilon=0.1,horizon=6')
>>> BotSpec.parse("clever")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: 'clever' is not a bot: choose from expert, greedy, ismcts, random
>>> BotSpec.parse("ismcts:iters=5")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: 'ismcts:iters=5': ismcts has no option 'iters'; its options are ...
"""

from __future__ import annotations

import collections
import inspect
import math
from collections.abc import Iterable
from typing import Any

import attrs

from chkobba._describe import integer_count
from chkobba.bots.base import SeededBot
from chkobba.bots.expert import ExpertBot
from chkobba.bots.greedy import GreedyBot
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.random_bot import RandomBot
from chkobba.errors import ChkobbaError, items_of, shown

__all__ = ["BOT_TYPES", "PRESETS", "SPEC_LIMIT", "BotSpec", "bot_options", "make_bot"]

#: The built-in bots by name.
BOT_TYPES: dict[str, type[SeededBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": ISMCTSBot,
    "expert": ExpertBot,
}

Option = tuple[str, int | float]
#: The longest bot spec :meth:`BotSpec.parse` reads (a spec with every option is ~80).
SPEC_LIMIT = 1000
# The most digits of an integer option: far above any setting, and its text stays short.
_DIGITS = 18

#: Named configurations, ``name:preset``: the 0.1.0 ISMCTS defaults as ``ismcts:v1``.
PRESETS: dict[str, str] = {
    "ismcts:v1": "ismcts:iterations=800,exploration=0.7,epsilon=0.1,horizon=6",
}


def _pairs(options: Iterable[Option | list[Any]]) -> tuple[Option, ...]:
    """The options as a tuple of ``(key, value)`` pairs (a list of lists will do), an
    integer of any integral type (numpy's included) as a Python int."""
    pairs = []
    for item in items_of(options, "BotSpec: options"):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ChkobbaError(f"BotSpec: option {shown(item)} is not a (key, value) pair")
        key, value = item
        count = integer_count(value)  # numpy's integers (a sweep over np.arange) as ints
        pairs.append((key, value if count is None else count))
    return tuple(pairs)


@attrs.frozen(repr=False)
class BotSpec:
    """A built-in bot's name and keyword options (everything but the seed).

    Built directly, ``BotSpec("ismcts", (("iterations", 50),))`` is checked like
    :meth:`parse`'s text: an unknown bot or option, or a value the bot refuses, raises
    ``ChkobbaError``.

    >>> from chkobba.bots import BotSpec
    >>> spec = BotSpec("ismcts", (("iterations", 50),))
    >>> str(spec), spec == BotSpec.parse("ismcts:iterations=50")
    ('ismcts:iterations=50', True)
    >>> BotSpec("greedy").build(seed=4)
    GreedyBot(seed=4)
    >>> BotSpec("ismcts", (("iterations", 0),))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: ISMCTSBot: iterations must be a positive integer, not 0
    """

    name: str
    options: tuple[Option, ...] = attrs.field(default=(), converter=_pairs)

    def __attrs_post_init__(self) -> None:
        _check_name(self.name, self.name)
        for key, value in self.options:
            if not isinstance(key, str):
                raise ChkobbaError(f"BotSpec {self.name}: option name {shown(key)} is not text")
            if not _is_setting(value):
                raise ChkobbaError(
                    f"BotSpec {self.name}: option {shown(key)} must be a finite number with "
                    f"at most {_DIGITS} digits, not {shown(value)}"
                )
        # Only now is str(self) safe: every key is text and every value a short number.
        _check_options(str(self), self.name, [key for key, _ in self.options])
        self.build(seed=0)  # reject bad values now, with the bot's own message

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read ``name`` or ``name:key=value,...``; bad text raises ``ChkobbaError``."""
        if not isinstance(text, str):
            raise ChkobbaError(f"{shown(text)} is not a bot spec: expected text such as 'greedy'")
        if len(text) > SPEC_LIMIT:
            raise ChkobbaError(
                f"{shown(text)} is not a bot spec: it has {len(text)} characters, "
                f"at most {SPEC_LIMIT}"
            )
        name, _, rest = text.strip().partition(":")
        name = name.strip().lower()
        _check_name(text, name)
        base: dict[str, int | float] = {}  # a preset's options, which the others override
        options = []
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, equals, value = item.partition("=")
            if not equals:
                if base:
                    raise ChkobbaError(f"{shown(text)}: a spec takes one preset at most")
                base = _preset(text, name, item)
                continue
            if not key.strip():
                raise ChkobbaError(f"{shown(text)}: option {shown(item)} is not key=value")
            options.append((key.strip(), _number(text, value.strip())))
        _check_options(text, name, [key for key, _ in options])
        merged = {**base, **dict(options)}
        return cls(name, tuple(merged.items()))  # which builds one bot, to check the values

    def build(self, seed: int | None = None) -> SeededBot:
        """A new bot of this spec with the given seed; whatever the bot refuses raises
        ``ChkobbaError``."""
        try:
            return BOT_TYPES[self.name](seed=seed, **dict(self.options))
        except ChkobbaError:
            raise  # the bot's own message names the option
        except (TypeError, ValueError, ArithmeticError, LookupError) as error:
            raise ChkobbaError(f"{self}: {error}") from None

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value}" for key, value in self.options)

    def __repr__(self) -> str:
        # Code that makes this spec again: the name alone is the constructor's argument,
        # a spec with options reads back from its text.
        if not self.options:
            return f"BotSpec({self.name!r})"
        return f"BotSpec.parse({str(self)!r})"


def bot_options(name: str) -> tuple[str, ...]:
    """The keyword options a built-in bot takes in a spec (its seed is given apart).

    >>> from chkobba.bots.registry import bot_options
    >>> bot_options("ismcts")
    ('iterations', 'exploration', 'epsilon', 'horizon', 'inference', 'seconds')
    """
    _check_name(name, name)
    parameters = inspect.signature(BOT_TYPES[name].__init__).parameters.values()
    return tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY and p.name != "seed")


def _check_name(text: object, name: object) -> None:
    """Refuse a ``name`` that is not a built-in bot (``text`` is what the message quotes)."""
    if not isinstance(name, str) or name not in BOT_TYPES:
        raise ChkobbaError(
            f"{shown(text)} is not a bot: choose from {', '.join(sorted(BOT_TYPES))}"
            + (_OWN_BOTS if _names_code(text) else "")
        )


#: Said to someone who named their own bot's module or class in a spec.
_OWN_BOTS = (
    " (a spec names a built-in bot; a bot of your own plays through the Python API, "
    "given to play_match or tournament as an object: see docs/bots.md)"
)


def _names_code(text: object) -> bool:
    """Whether ``text`` looks like a module or a class (``my_bots:Mine``, ``pkg.bots``)."""
    if not isinstance(text, str):
        return False
    name, _, rest = text.partition(":")
    return "." in name or "/" in name or rest[:1].isupper()


def _preset(text: str, name: str, item: str) -> dict[str, int | float]:
    """The options of the preset ``name:item``; anything else without ``=`` is refused."""
    found = PRESETS.get(f"{name}:{item.lower()}")
    if found is None:
        presets = [key.partition(":")[2] for key in PRESETS if key.startswith(f"{name}:")]
        known = f" or a preset ({', '.join(presets)})" if presets else ""
        raise ChkobbaError(f"{shown(text)}: option {shown(item)} is not key=value{known}")
    options = found.partition(":")[2].split(",")
    return {key: _number(found, value) for key, _, value in (o.partition("=") for o in options)}


def _is_setting(value: object) -> bool:
    """Whether ``value`` can be an option's value: what :meth:`BotSpec.parse` reads back."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**_DIGITS


def _check_options(text: str, name: str, keys: list[str]) -> None:
    """Refuse an option the bot does not take, naming the ones it does."""
    valid = bot_options(name)
    for key in keys:
        if key == "seed":
            raise ChkobbaError(
                f"{shown(text)}: the seed is not a bot option; it comes from the match "
                "(the command's --seed)"
            )
        if key not in valid:
            takes = f"its options are {', '.join(valid)}" if valid else "it takes no options"
            raise ChkobbaError(f"{shown(text)}: {name} has no option {shown(key)}; {takes}")
    counts = collections.Counter(keys)  # linear: a spec may repeat a key many times
    twice = sorted(key for key, n in counts.items() if n > 1)
    if twice:
        raise ChkobbaError(f"{shown(text)}: option {shown(twice[0])} is given twice")


def _number(text: str, value: str) -> int | float:
    digits = value[1:] if value[:1] in ("+", "-") else value
    digits = digits.replace("_", "")
    if digits.isdecimal() and len(digits) > _DIGITS:  # refused before int() reads it all
        raise ChkobbaError(
            f"{shown(text)}: option value {shown(value)} has {len(digits)} digits, "
            f"at most {_DIGITS}"
        )
    try:
        return int(value)
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        raise ChkobbaError(f"{shown(text)}: option value {shown(value)} is not a number") from None
    if not math.isfinite(number):  # nan, inf and 1e400 are not settings
        raise ChkobbaError(f"{shown(text)}: option value {shown(value)} is not a finite number")
    return number


def make_bot(spec: str | BotSpec, seed: int | None = None) -> SeededBot:
    """Build a bot from a spec or its text: ``make_bot("greedy", seed=1)``.

    >>> from chkobba.bots import make_bot
    >>> make_bot("greedy", seed=1)
    GreedyBot(seed=1)
    >>> make_bot("expert:iterations=20,budget=500", seed=1)
    ExpertBot(iterations=20, ..., endgame=6, budget=500, seed=1)
    >>> make_bot("random:seed=3")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: 'random:seed=3': the seed is not a bot option; it comes from ...
    """
    if isinstance(spec, str):
        spec = BotSpec.parse(spec)
    if not isinstance(spec, BotSpec):
        raise ChkobbaError(f"{shown(spec)} is not a bot spec")
    return spec.build(seed)
