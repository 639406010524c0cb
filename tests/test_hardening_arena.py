"""Bad input to the bot registry and the move reviews: a ChkobbaError naming it."""

from __future__ import annotations

from typing import Any

import pytest

from chkobba import ChkobbaError
from chkobba.bots import BotSpec, GreedyBot
from chkobba.bots.registry import BOT_TYPES, bot_options

NOT_A_BOT = "is not a bot: choose from expert, greedy, ismcts, random"


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("nope", (), f"'nope' {NOT_A_BOT}"),
        (None, (), f"None {NOT_A_BOT}"),
        (["greedy"], (), f"\\['greedy'\\] {NOT_A_BOT}"),
        ("ismcts", "iterations", "options must be a collection, not 'iterations'"),
        ("ismcts", 5, "options must be a collection, not 5"),
        ("ismcts", [("iterations",)], r"option \('iterations',\) is not a \(key, value\) pair"),
        ("ismcts", [(5, 1)], "option name 5 is not text"),
        ("ismcts", [("iterations", "5")], "option 'iterations' must be a finite number"),
        ("ismcts", [("iterations", 10**5000)], "not an integer of about 5001 digits"),
        ("ismcts", [("exploration", float("inf"))], "must be a finite number"),
        ("ismcts", [("iters", 5)], "'ismcts:iters=5': ismcts has no option 'iters'"),
        ("ismcts", [("seed", 5)], "the seed is not a bot option"),
        ("ismcts", [("horizon", 1), ("horizon", 2)], "option 'horizon' is given twice"),
        ("ismcts", [("iterations", 0)], "iterations must be a positive integer, not 0"),
    ],
)
def test_a_spec_built_directly_is_checked_like_parsed_text(
    name: Any, options: Any, message: str
) -> None:
    with pytest.raises(ChkobbaError, match=message):
        BotSpec(name, options)


def test_a_spec_built_directly_that_is_valid_is_unchanged() -> None:
    spec = BotSpec("ismcts", [["iterations", 5]])  # type: ignore[list-item]
    assert spec == BotSpec.parse("ismcts:iterations=5")
    assert str(spec) == "ismcts:iterations=5"
    assert spec.build(seed=2).iterations == 5  # type: ignore[attr-defined]


def test_bot_options_of_an_unknown_bot() -> None:
    with pytest.raises(ChkobbaError, match=f"'nope' {NOT_A_BOT}"):
        bot_options("nope")
    with pytest.raises(ChkobbaError, match=f"None {NOT_A_BOT}"):
        bot_options(None)  # type: ignore[arg-type]


def test_a_spec_refuses_integers_with_absurd_digit_counts() -> None:
    with pytest.raises(ChkobbaError, match="has 900 digits, at most 18"):
        BotSpec.parse("ismcts:iterations=" + "9" * 900)
    with pytest.raises(ChkobbaError, match="has 19 digits, at most 18"):
        BotSpec.parse("ismcts:iterations=-" + "1_" * 18 + "1")
    assert BotSpec.parse("ismcts:iterations=1_000").options == (("iterations", 1000),)


def test_whatever_the_bot_refuses_is_a_chkobba_error(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = BotSpec.parse("greedy")

    def fragile(**options: Any) -> GreedyBot:
        raise OverflowError("too big")

    monkeypatch.setitem(BOT_TYPES, "greedy", fragile)
    with pytest.raises(ChkobbaError, match="greedy: too big"):
        spec.build(seed=1)
    with pytest.raises(ChkobbaError, match="greedy: too big"):
        BotSpec.parse("greedy")
