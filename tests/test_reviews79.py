"""Findings of the stop-79 reviews, each pinned by a test that fails without its fix."""

from __future__ import annotations

import random

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    PROFILES,
    TUNISIAN,
    ChkobbaError,
    Rules,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.bots.endgame import deal_difference
from chkobba.bots.inference import OpponentModel
from chkobba.captures import options_for_card
from chkobba.cli.commands import HELP, capture_example, help_text
from tests.helpers import run_cli

#: House values under which the queen takes no sum of two number cards (8 + 1 is too much
#: for a queen worth 2), and profiles whose courts take no sums at all.
HOUSES = (
    attrs.evolve(TUNISIAN, name="courts alone", courts_capture_sums=False),
    attrs.evolve(CARD_RULES_PLUS, name="courts alone", courts_capture_sums=False),
    attrs.evolve(TUNISIAN, name="low queen", capture_values=(1, 2, 3, 4, 5, 6, 7, 2, 9, 10)),
)


@pytest.mark.parametrize("rules", [*PROFILES.values(), *HOUSES], ids=lambda rules: rules.name)
def test_the_help_s_capture_is_one_the_profile_allows(rules: Rules) -> None:
    # play's help taught "QH x 2D+6S" under CardRulesPlus, whose queen is worth 9: the
    # game then refused it (review 79A). The example is built from the profile's values.
    played, taken = capture_example(rules).split(" x ")
    table = cards(taken.replace("+", " "))
    assert frozenset(table) in options_for_card(table, card(played), rules)
    assert len(table) == 2


def test_the_help_shows_the_cut_only_where_the_profile_cuts() -> None:
    assert help_text(TUNISIAN) == HELP  # the Tunisian text of 0.1.0, word for word
    assert "QH x 2D+6S" in HELP and "keep, expose" in HELP
    plus = help_text(CARD_RULES_PLUS)
    assert "QH x 2D+7S    play it and take 2D and 7S (also QHx2D+7S or QH:2D 7S)" in plus
    assert "keep" not in plus


def test_a_slip_is_answered_with_a_capture_the_player_can_make() -> None:
    # The player holds 6C 7D QS before 6D 4D AD 5D (cardrulesplus, seed 4): the notation's
    # "write a capture as QH x 2D+6S" showed a capture a queen cannot make there.
    _, out, _ = run_cli(
        "play", "--rules", "cardrulesplus", "--seed", "4", "--no-colour",
        stdin="help\nQH 2D\nquit\nn\n",
    )  # fmt: skip
    assert "QH x 2D+7S    play it and take 2D and 7S" in out
    assert "keep, expose" not in out
    assert (
        "'QH 2D' is not a move: type a card (QH), a capture (7D x AD+6D) or a move number "
        "(1 to 3); write a capture as 7D x AD+6D; type help for help"
    ) in out


def _three_players_dealt() -> object:
    state = apply(new_match(3, rules=CARD_RULES_PLUS, dealer=1), random_shuffle(random.Random(1)))
    return apply(state, legal_moves(state)[0])


def test_the_opponent_model_refuses_a_view_of_more_than_two_players() -> None:
    # At 3 players it read the viewer's own hand size as "the opponent's" and returned
    # 528 hands of 2 cards (review 79A).
    state = _three_players_dealt()
    with pytest.raises(ChkobbaError, match="a 2-player view only, not one of 3"):
        OpponentModel(temperature=0.3, noise=0.1).posterior(observe(state, 2))  # type: ignore[arg-type]


def test_the_deal_difference_refuses_three_sides() -> None:
    state = _three_players_dealt()
    with pytest.raises(ChkobbaError, match="need two sides, not 3"):
        deal_difference(state, 0)  # type: ignore[arg-type]


def test_the_gymnasium_space_bounds_a_house_rule_s_chkobbas_as_pettingzoo_does() -> None:
    pytest.importorskip("gymnasium")
    pettingzoo = pytest.importorskip("chkobba.pettingzoo")
    from chkobba.gymnasium import ChkobbaEnv

    house = attrs.evolve(TUNISIAN, name="last sweep", last_card_chkobba=True)
    single = ChkobbaEnv("random", rules=house).observation_space
    several = pettingzoo.raw_env(rules=house).observation_space("player_0")["observation"]
    finite = several.high < float("inf")  # the scores: Gymnasium caps them, PettingZoo not
    assert (single.high[finite] == several.high[finite]).all()
    assert (single.low == several.low).all()
    assert single.high[finite].max() == pytest.approx(3.6)  # the chkobbas' bound, as docs say


def test_apply_survivors_helps_and_refuses_an_option_for_a_mutant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It took --help for a mutant's name and ended in a CalledProcessError traceback
    # (`mutmut show --help`), with or without -OO (review 79C).
    from pathlib import Path

    from tests.helpers import load_script

    script = Path(__file__).resolve().parent.parent / "tools" / "mutation" / "apply_survivors.py"
    module = load_script(script, "_reviews79_apply_survivors")
    module.__doc__ = None  # as under python -OO
    assert module.main(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: python tools/mutation/apply_survivors.py")
    assert module.main([]) == 2
    assert module.main(["-x", "--", "tests"]) == 2  # a pytest option before the --
    assert capsys.readouterr().err.count("usage:") == 2


def test_a_scheduler_client_made_after_simulate_gave_up_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A peer that answered only after the 10 s: the client was made later still, never
    # closed, and Dask warned of a dangling stream long after main returned (review 79B).
    import threading
    from types import SimpleNamespace

    from chkobba.cli import simulate
    from chkobba.cli.simulate import CommandError

    answer, closed = threading.Event(), threading.Event()

    class SlowClient:
        def __init__(self, address: str, timeout: str) -> None:
            answer.wait(30)

        def close(self) -> None:
            closed.set()

    monkeypatch.setattr(simulate, "CONNECT_SECONDS", 0)
    distributed = SimpleNamespace(Client=SlowClient)
    with pytest.raises(CommandError, match="no answer in 0 s"):
        simulate._connect(distributed, "tcp://127.0.0.1:9")
    answer.set()  # the peer answers at last
    assert closed.wait(30)


def test_greedy_counts_a_last_card_sweep_where_the_profile_does() -> None:
    # GreedyBot gave no chkobba bonus to a sweep with the deal's last card even under
    # last_card_chkobba=True, where the engine scores it (review 79A).
    from chkobba import DECK
    from chkobba.bots.greedy import CHKOBBA, play_score

    table, hand = cards("3S 4H"), cards("7C")
    unseen = [c for c in DECK if c not in table + hand]
    house = attrs.evolve(TUNISIAN, name="last sweep", last_card_chkobba=True)

    def score(rules: Rules) -> float:
        return play_score(table, card("7C"), frozenset(table), unseen, 0, rules, True)

    assert score(house) == pytest.approx(score(TUNISIAN) + CHKOBBA)
