"""Bots, the arena and the ``chkobba`` command under every profile (the profiles issue, #9)."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from chkobba import CARD_RULES_PLUS, TUNISIAN, ChkobbaError, Phase, Record
from chkobba.arena import play_match, tournament
from chkobba.bots import GreedyBot, ISMCTSBot, RandomBot
from tests.helpers import run_cli as run

HOUSE = attrs.evolve(
    CARD_RULES_PLUS,
    name="house",
    cut=True,
    void_deal="never",
    equal_single_first=False,
    courts_capture_sums=False,
    last_card_chkobba=True,
    primiera=True,
    ties_to_last_capturer=True,
    target=6,
)


@pytest.mark.parametrize("rules", [CARD_RULES_PLUS, HOUSE])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_every_profile(rules: Any, players: int) -> None:
    bots = [GreedyBot(seed=1), ISMCTSBot(seed=2, iterations=8), RandomBot(seed=3)][:players]
    if players == 4:
        bots = [GreedyBot(seed=1), RandomBot(seed=3)]
    result = play_match(bots, seed=players, players=players, rules=rules)
    final = result.record.final()
    assert final.is_over and final.rules == rules
    assert result.scores == final.scores and len(result.scores) == final.sides
    assert result.winner == final.winner


def test_a_three_player_tournament_counts_each_side_of_a_bot() -> None:
    result = tournament(["greedy", "random"], games=2, seed=5, players=3, rules=CARD_RULES_PLUS)
    assert [len(m.entrants) for m in result.matches] == [3, 3]
    assert result.matches[0].entrants == (0, 1, 0) and result.matches[1].entrants == (1, 0, 1)
    greedy = result.bots[0]
    held = [
        sum(m.scores[seat] for seat, e in enumerate(m.entrants) if e == 0) for m in result.matches
    ]
    assert greedy.points == sum(held)
    assert sum(bot.wins for bot in result.bots) == 2
    assert result.to_dict()["rules"] == "cardrulesplus"


def test_the_arena_refuses_a_player_count_the_profile_lacks() -> None:
    with pytest.raises(ChkobbaError, match="2 or 4 players, not 3"):
        tournament(["greedy", "random"], games=1, seed=1, players=3)
    with pytest.raises(ChkobbaError, match="2 or 4 players, not 3"):
        play_match([RandomBot(), RandomBot(), RandomBot()], seed=1, players=3)


def test_demo_takes_rules_and_target() -> None:
    code, text, _ = run("demo", "--players", "3", "--rules", "cardrulesplus", "--target", "4")
    assert code == 0
    assert "rules: cardrulesplus, match to 4" in text
    assert "cuts and" not in text  # no cut card in this profile
    assert "  bermila" not in text and "  7♦         -> " in text  # its categories only
    assert "wins the match" in text


def test_simulate_takes_rules_and_target() -> None:
    code, text, _ = run(
        "simulate", "--games", "2", "--bots", "greedy", "random", "--players", "3",
        "--rules", "cardrulesplus", "--target", "5", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(text)
    assert data["players"] == 3 and data["rules"] == "cardrulesplus"
    assert data["target"] == 5  # the profile's target, not only its name


def test_play_takes_rules_and_records_the_profile(tmp_path: Any) -> None:
    path = tmp_path / "match.json"
    code, text, _ = run(
        "play", "--players", "3", "--rules", "cardrulesplus", "--target", "3", "--seed", "4",
        stdin=f"quit\ny\n{path}\n",
    )  # fmt: skip
    assert code == 0, text
    assert "cardrulesplus rules, match to 3" in text
    record = Record.load(path)
    assert record.players == 3
    assert record.rules == attrs.evolve(CARD_RULES_PLUS, target=3)
    assert record.final().phase is Phase.PLAY


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("demo", "--players", "3"), "a match has 2 or 4 players, not 3 (the tunisian profile)"),
        (("demo", "--rules", "house"), "'house' is neither a rule profile"),
        (("simulate", "--games", "1", "--bots", "random", "random", "--target", "0"), "at least 1"),
    ],
)
def test_bad_rules_options_are_one_line_errors(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_the_default_is_still_tunisian() -> None:
    code, text, _ = run("simulate", "--games", "2", "--bots", "greedy", "random", "--json")
    assert code == 0 and json.loads(text)["rules"] == TUNISIAN.name
