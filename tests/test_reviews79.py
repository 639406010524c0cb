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
    attrs.evolve(TUNISIAN, name="fives", capture_values=(5, 5, 5, 5, 5, 5, 5, 10, 10, 10)),
    attrs.evolve(TUNISIAN, name="no sums", capture_values=(1, 2, 4, 8, 16, 32, 64, 1, 2, 4)),
)
#: The example each profile's help shows: from the highest card that takes a sum, its two
#: lowest summands from 2 up.
EXAMPLES = [
    "QH x 2D+6S",
    "QH x 2D+7S",
    "7H x 2D+5S",
    "7H x 2D+5S",
    "JH x 2D+7S",
    "QH x 2D+3S",
    "QH x QS",
]


@pytest.mark.parametrize("rules", [*PROFILES.values(), *HOUSES], ids=lambda rules: rules.name)
def test_the_help_s_capture_is_one_the_profile_allows(rules: Rules) -> None:
    # play's help taught "QH x 2D+6S" under CardRulesPlus, whose queen is worth 9: the
    # game then refused it (review 79A). The example is built from the profile's values.
    played, taken = capture_example(rules).split(" x ")
    table = cards(taken.replace("+", " "))
    assert frozenset(table) in options_for_card(table, card(played), rules)
    # A sum where the values allow one (none under "no sums": an equal card instead).
    assert len(table) == (1 if rules.name == "no sums" else 2)


def test_the_help_s_examples_word_for_word() -> None:
    profiles = [*PROFILES.values(), *HOUSES]
    assert [capture_example(rules) for rules in profiles] == EXAMPLES
    # The help of house values that take no sum: it crashed splitting "QH x QS" at "+".
    assert "  QH x QS       play it and take QS (also QHxQS or QH:QS)\n" in help_text(HOUSES[-1])
    # (Equal values make a sum too: 2D+3S is 5+5 for the queen of "fives", review 79M.)


def test_the_help_refuses_a_profile_s_name_by_name() -> None:
    for function in (capture_example, help_text):
        with pytest.raises(ChkobbaError, match=r"that profile is PROFILES\['cardrulesplus'\]"):
            function("cardrulesplus")  # type: ignore[arg-type]


def test_the_help_shows_the_cut_only_where_the_profile_cuts() -> None:
    assert help_text(TUNISIAN) == HELP  # and HELP is pinned word for word: test_reviews80
    assert "QH x 2D+6S" in HELP and "keep, expose" in HELP
    plus = help_text(CARD_RULES_PLUS)
    assert "QH x 2D+7S    play it and take 2D and 7S (also QHx2D+7S or QH:2D 7S)" in plus
    assert "keep" not in plus


def test_a_slip_is_answered_with_a_capture_the_player_can_make() -> None:
    # The player holds 6C 7D QS before 6D 4D AD 5D (cardrulesplus, seed 4): the notation's
    # "write a capture as QH x 2D+6S" showed a capture a queen cannot make there.
    _, out, _ = run_cli(
        "play", "--rules", "cardrulesplus", "--seed", "4", "--no-colour",
        stdin="help\nQH 2D\nQH x 2D x 7S\nquit\nn\n",
    )  # fmt: skip
    assert "QH x 2D+7S    play it and take 2D and 7S" in out
    assert "keep, expose" not in out
    assert (
        "'QH 2D' is not a move: type a card (QH), a capture (7D x AD+6D) or a move number "
        "(1 to 3); write a capture as 7D x AD+6D; type help for help"
    ) in out
    assert (
        "'QH x 2D x 7S' is not a move: it has more than one capture mark; write one, as in "
        "7D x AD+6D; type help for help"
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


def test_the_documented_orders_of_a_state_s_cards() -> None:
    # docs/snapshots.md now says what an implementer had to guess (review 79L): a pile
    # holds the played card, then the cards taken in deck order, then at the deal's end
    # the table's leftovers in table order; the stock is the deck in deck order before the
    # first shuffle and after a void deal, and empty after a scored deal.
    from chkobba import DECK, Phase, Play

    rng = random.Random(3)
    state = new_match()
    assert state.stock == DECK
    voided = scored = captures = 0
    while voided == 0 or scored == 0 or captures < 50:
        before = state
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state = apply(state, move)
        if isinstance(move, Play) and move.capture:
            side = before.side_of(before.mover)
            added = state.captured[side][len(before.captured[side]) :]
            taken = tuple(sorted(move.capture, key=DECK.index))
            leftovers = ()
            if state.deal_scores != before.deal_scores:  # the deal's last play
                leftovers = tuple(c for c in before.table if c not in move.capture)
            assert added == (move.card, *taken, *leftovers)
            captures += 1
        if state.phase is Phase.SHUFFLE and before.phase is not Phase.SHUFFLE:
            if state.deal_scores == before.deal_scores:
                voided += 1
                assert state.stock == DECK
            else:
                scored += 1
                assert state.stock == ()
        if state.phase is Phase.OVER:
            rng, state = random.Random(rng.random()), new_match()


def test_a_start_with_its_stock_in_another_order_is_named_for_it() -> None:
    # The message said the state was not "in phase SHUFFLE after 0 deals", which it was.
    from chkobba import Record, RecordError

    start = new_match()
    shuffled = attrs.evolve(start, stock=start.stock[::-1])
    with pytest.raises(RecordError, match=r"its stock must hold the 40 cards in deck order"):
        Record.from_moves(shuffled, [])
    with pytest.raises(RecordError, match=r"its stock must hold the 40 cards in deck order"):
        Record.from_states([attrs.evolve(start, dealer=0, stock=start.stock[1:] + start.stock[:1])])


def test_a_keyword_is_read_in_ascii_letters_only() -> None:
    # "\u212aEEP" (a Kelvin sign) lowered to "keep" and was read as the cut (review 79L);
    # cards were already read in ASCII letters only.
    from chkobba import Cut, NotationError, parse_move

    assert parse_move("KEEP") == Cut(keep=True)
    with pytest.raises(NotationError):
        parse_move("\u212aEEP")


def test_the_odd_games_note_at_four_players_is_the_two_player_one() -> None:
    # Only 2 and 3 players were tried: a 4-player match (two partnerships) gets the note
    # of seat 0, not the 3-player one of two seats in three (review 79G).
    code, _, err = run_cli(
        "simulate", "--games", "1", "--bots", "random", "random", "--players", "4",
        "--target", "1",
    )  # fmt: skip
    assert code == 0
    assert "the first bot of each pair holds seat 0, and deals first" in err
    assert "two of the three seats" not in err


def test_the_opponent_model_refuses_a_four_player_view() -> None:
    state = apply(new_match(4), random_shuffle(random.Random(2)))
    state = apply(state, legal_moves(state)[0])
    with pytest.raises(ChkobbaError, match="a 2-player view only, not one of 4"):
        OpponentModel(temperature=0.3, noise=0.1).posterior(observe(state, state.mover))


def test_a_scheduler_that_refuses_ends_the_connecting_thread_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The thread records Dask's error and returns: nothing may reach threading's
    # excepthook (an UnboundLocalError there printed a traceback before the one-line
    # error, and pytest only warns of it).
    import threading
    from types import SimpleNamespace

    from chkobba.cli import simulate
    from chkobba.cli.simulate import CommandError

    raised: list[object] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)

    def refuse(address: str, timeout: str) -> object:
        raise OSError("connection refused")

    with pytest.raises(
        CommandError, match=r"cannot reach the Dask scheduler at .*: connection refused"
    ):
        simulate._connect(SimpleNamespace(Client=refuse), "tcp://127.0.0.1:1")
    assert raised == []


def test_a_class_of_one_s_own_named_state_is_named_for_its_module() -> None:
    # "legal_moves: expected a State or a PlayerView, got a State" (review 79G).
    class State:
        pass

    with pytest.raises(ChkobbaError) as refused:
        legal_moves(State())  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"legal_moves: expected a State or a PlayerView, got a State of {__name__}, not of chkobba"
    )
