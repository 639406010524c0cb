"""Bad arguments to the bots and their public helpers raise ChkobbaError (a ValueError)
naming the input, never a raw TypeError/AttributeError/IndexError/KeyError."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Play,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import Position
from chkobba.bots import BotActions, ExpertBot, GreedyBot, ISMCTSBot, PolicyBot, RandomBot
from chkobba.bots.base import OPTION_LIMIT
from chkobba.bots.endgame import deal_difference, solve
from chkobba.bots.evaluation import deal_estimate, tally_estimate
from chkobba.bots.greedy import play_score
from chkobba.bots.inference import HandInference, OpponentModel
from chkobba.bots.ismcts import rollout
from chkobba.bots.policy import action_mask, policy_input
from chkobba.bots.sampling import determinize, determinizer
from chkobba.errors import shown

HUGE = 10**5000
STATE = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))
VIEW = observe(STATE, STATE.current_player)  # type: ignore[arg-type]
LEGAL = legal_moves(STATE)


def bots() -> list[Any]:
    return [
        RandomBot(seed=1),
        GreedyBot(seed=1),
        ISMCTSBot(iterations=5, seed=1),
        ExpertBot(iterations=5, seed=1),
        PolicyBot(lambda o, m: max(range(len(m)), key=lambda i: m[i])),
    ]


@pytest.mark.parametrize("bot", bots(), ids=lambda bot: type(bot).__name__)
def test_choose_refuses_what_is_not_a_view(bot: Any) -> None:
    with pytest.raises(ChkobbaError, match=r"choose: expected a PlayerView, got a State \(obs"):
        bot.choose(STATE, LEGAL)
    with pytest.raises(ChkobbaError, match="expected a PlayerView, got None"):
        bot.choose(None, LEGAL)


@pytest.mark.parametrize("bot", bots(), ids=lambda bot: type(bot).__name__)
@pytest.mark.parametrize(
    ("legal", "message"),
    [
        (5, r"expected a tuple of legal moves, got 5 \(int\)"),
        ("QH", "expected a tuple of legal moves, got 'QH'"),
        (None, "expected a tuple of legal moves, got None"),
        ([1, 2], r"move 1 \(index 0\) of legal is 1 \(int\), not a move"),
        ((*LEGAL, "QH"), "of legal is 'QH' \\(str\\), not a move"),
        ((), "no legal moves"),
    ],
    ids=shown,
)
def test_choose_refuses_what_are_not_moves(bot: Any, legal: object, message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        bot.choose(VIEW, legal)


def test_a_list_of_moves_plays_like_the_tuple() -> None:
    assert RandomBot(seed=4).choose(VIEW, list(LEGAL)) == RandomBot(seed=4).choose(VIEW, LEGAL)


def last_round() -> Any:
    """A position of the last round with a full hand to move (where GreedyBot's threat
    once divided by zero for a view of the other seat)."""
    state = STATE
    while state.stock or len(state.hands[state.current_player]) < 3:
        state = apply(state, legal_moves(state)[0])
    return state


@pytest.mark.parametrize("bot", bots(), ids=lambda bot: type(bot).__name__)
def test_choose_refuses_a_view_with_no_choice_to_make(bot: Any) -> None:
    end = last_round()
    other = 1 - end.current_player
    wrong_seat = f"player {other}'s view has no choice: it is player {1 - other}'s turn"
    for state in (STATE, end):
        with pytest.raises(ChkobbaError, match=f"choose: {wrong_seat}"):
            bot.choose(observe(state, 1 - state.current_player), legal_moves(state))
    shuffle = new_match()
    with pytest.raises(ChkobbaError, match=r"view has no choice: .* the next move is the shuffle"):
        bot.choose(observe(shuffle, 0), LEGAL)


@pytest.mark.parametrize("bot", bots(), ids=lambda bot: type(bot).__name__)
def test_choose_refuses_a_move_the_view_does_not_allow(bot: Any) -> None:
    stranger = STATE.stock[0]  # in no hand
    cut = r"move 2 \(index 1\) of legal, Cut\(keep=True\), is not legal"
    with pytest.raises(ChkobbaError, match=cut):
        bot.choose(VIEW, (LEGAL[0], Cut(keep=True)))
    with pytest.raises(ChkobbaError, match=f"is not legal in player 1's view: {stranger} is not"):
        bot.choose(VIEW, (*LEGAL, Play(stranger, frozenset())))


@pytest.mark.parametrize("bot", bots(), ids=lambda bot: type(bot).__name__)
def test_choose_takes_a_subset_of_the_legal_moves(bot: Any) -> None:
    end = last_round()
    for state in (STATE, end):
        view, legal = observe(state, state.current_player), legal_moves(state)
        assert len(legal) >= 3
        for subset in (legal[1:], legal[:1], legal[::2]):
            assert bot.choose(view, subset) in subset


@pytest.mark.parametrize("bot", [ISMCTSBot(iterations=5, seed=1), ExpertBot(iterations=5)])
def test_evaluate_refuses_bad_arguments(bot: ISMCTSBot) -> None:
    with pytest.raises(ChkobbaError, match="evaluate: expected a PlayerView, got a State"):
        bot.evaluate(STATE, LEGAL)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="asked to evaluate among no legal moves"):
        bot.evaluate(VIEW, ())
    with pytest.raises(ChkobbaError, match="evaluate: player 0's view has no choice"):
        bot.evaluate(observe(STATE, 0), LEGAL)


def test_inference_does_not_take_in_a_bad_view() -> None:
    bot = ISMCTSBot(iterations=5, inference=1, seed=1)
    with pytest.raises(ChkobbaError, match="expected a PlayerView"):
        bot.choose(STATE, LEGAL)  # type: ignore[arg-type]
    assert bot._hands.view is None  # nothing changed


def test_bot_actions_refuses_what_is_not_a_position() -> None:
    with pytest.raises(ChkobbaError, match="BotActions: expected a Position, got None"):
        BotActions(RandomBot())(None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="expected a Position, got a State"):
        BotActions(RandomBot())(STATE)  # type: ignore[arg-type]
    assert BotActions(RandomBot(seed=1))(Position(STATE)) >= 0


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (float("inf"), "the policy returned inf, not an action id"),
        (float("nan"), "the policy returned nan, not an action id"),
        (1.9, r"PolicyBot\(<lambda>\): the policy returned 1.9, not an action id \(an integer\)"),
        (2.0, "the policy returned 2.0, not an action id"),
        (True, "the policy returned True, not an action id"),
        ("2", "the policy returned '2', not an action id"),
        (HUGE, "chose action an integer of about 5001 digits, which is masked"),
        (-1, "chose action -1, which is masked"),
    ],
    ids=shown,
)
def test_a_policy_answer_that_is_no_action_is_an_illegal_move(answer: Any, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        PolicyBot(lambda o, m: answer).choose(VIEW, LEGAL)


def test_a_policy_may_answer_with_any_integer_type() -> None:
    class Index:  # numpy's integers (np.int64 from argmax) are integers the same way
        def __index__(self) -> int:
            return LEGAL[-1].card.index  # type: ignore[union-attr]

    assert PolicyBot(lambda o, m: Index()).choose(VIEW, LEGAL) == LEGAL[-1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"endgame": -HUGE}, "ExpertBot: endgame must be an integer >= 0, not a negative integer"),
        ({"budget": -HUGE}, "ExpertBot: budget must be a positive integer, not a negative integer"),
        ({"endgame": HUGE}, f"endgame must be at most {OPTION_LIMIT}, not an integer of about"),
        ({"budget": OPTION_LIMIT + 1}, f"budget must be at most {OPTION_LIMIT}, not 10000001"),
        ({"iterations": HUGE}, f"ExpertBot: iterations must be at most {OPTION_LIMIT}"),
        ({"endgame": True}, "endgame must be an integer >= 0, not True"),
    ],
    ids=shown,
)
def test_expert_options_are_bounded(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        ExpertBot(**options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": HUGE}, f"iterations must be at most {OPTION_LIMIT}, not an integer of"),
        ({"iterations": OPTION_LIMIT + 1}, f"iterations must be at most {OPTION_LIMIT}"),
        ({"horizon": HUGE}, f"horizon must be at most {OPTION_LIMIT}"),
        ({"exploration": True}, "exploration must be a finite number >= 0, not True"),
        ({"exploration": False}, "exploration must be a finite number >= 0, not False"),
        ({"epsilon": True}, "epsilon must be between 0 and 1, not True"),
        ({"epsilon": False}, "epsilon must be between 0 and 1, not False"),
        ({"epsilon": float("nan")}, "epsilon must be between 0 and 1, not nan"),
        ({"inference": 1.0}, "inference must be 0, 1 or 2, not 1.0"),
        ({"horizon": True}, "horizon must be an integer >= 0, not True"),
    ],
    ids=shown,
)
def test_ismcts_options_are_bounded_and_refuse_bools(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ChkobbaError, match="ISMCTSBot: " + message):
        ISMCTSBot(**options)


def test_the_largest_options_are_accepted_and_print() -> None:
    bot = ExpertBot(iterations=OPTION_LIMIT, horizon=OPTION_LIMIT, budget=OPTION_LIMIT)
    assert f"iterations={OPTION_LIMIT}" in repr(bot)
    assert ISMCTSBot(exploration=2, epsilon=1).options()["exploration"] == 2.0


def test_a_huge_seed_prints() -> None:
    assert repr(RandomBot(seed=HUGE)) == "RandomBot(seed=an integer of about 5001 digits)"
    assert repr(GreedyBot(seed=2**100)) == f"GreedyBot(seed={2**100})"


def test_the_solver_names_a_huge_int_without_writing_it() -> None:
    with pytest.raises(ChkobbaError, match="needs a State, not an integer of about 5001 digits"):
        solve(HUGE)  # type: ignore[arg-type]


def test_deal_difference_checks_its_arguments() -> None:
    with pytest.raises(ChkobbaError, match=r"deals must be a count of deals .* not -5"):
        deal_difference(STATE, -5)
    with pytest.raises(ChkobbaError, match="not True"):
        deal_difference(STATE, True)
    with pytest.raises(ChkobbaError, match="deal_difference: expected a State, got None"):
        deal_difference(None, 0)  # type: ignore[arg-type]
    assert deal_difference(STATE, 5) == 0


def test_determinize_checks_its_arguments() -> None:
    with pytest.raises(ChkobbaError, match="the view's player 5 has no seat among 2 players"):
        determinize(attrs.evolve(VIEW, player=5), random.Random())
    with pytest.raises(ChkobbaError, match="player -1 has no seat"):
        determinizer(attrs.evolve(VIEW, player=-1))
    with pytest.raises(ChkobbaError, match="determinize: expected a PlayerView, got None"):
        determinize(None, random.Random())  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"expected a random\.Random, got None"):
        determinize(VIEW, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("captured", "chkobbas", "message"),
    [
        (([1], [2]), (0, 0), "the piles hold 1, not a card"),
        (((), ()), (), "needs two sides' piles and chkobbas, got 2 and 0"),
        (None, (0, 0), "captured must be a collection, not None"),
        (([card("7D")], [card("7D")]), (0, 0), "the piles hold 7D twice"),
        (([[1]], ()), (0, 0), r"the piles hold \[1\], not a card"),
        (((), ()), (HUGE, 0), "a chkobba count must be an integer from 0 to 40, not an integer"),
        (((), ()), (True, 0), "a chkobba count .* not True"),
    ],
    ids=shown,
)
def test_deal_estimate_checks_its_arguments(captured: Any, chkobbas: Any, message: str) -> None:
    with pytest.raises(ChkobbaError, match="deal_estimate: " + message):
        deal_estimate(captured, chkobbas)


def test_tally_estimate_turns_a_failure_into_a_chkobba_error() -> None:
    with pytest.raises(ChkobbaError, match="tally_estimate: no pair of piles has tallies 'x'"):
        tally_estimate("x", 0, 0, 0, (0, 0))  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"and chkobbas \(\)"):
        tally_estimate(0, 0, 0, 0, ())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((LEGAL, None, -1), "size must be the action space's size, an integer from 43 to"),
        ((LEGAL, None, "x"), "size must be .* not 'x'"),
        ((LEGAL, None, True), "size must be .* not True"),
        ((LEGAL, None, HUGE), "size must be .* not an integer of about 5001 digits"),
        ((None,), "action_mask: expected a tuple of legal moves, got None"),
        (("QH",), "expected a tuple of legal moves, got 'QH'"),
        (([1],), r"move 1 \(index 0\) of legal is 1 \(int\), not a move"),
        ((LEGAL, "QH"), "pending: expected a Card or None, got 'QH'"),
    ],
    ids=shown,
)
def test_action_mask_checks_its_arguments(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        action_mask(*args)


def test_action_mask_needs_room_for_the_capture_options() -> None:
    legal = (Play("7D", "7S"), Play("7D", "AS 6S"))
    with pytest.raises(ChkobbaError, match="size 43 has no room for the 2 capture options of 7D"):
        action_mask(legal, card("7D"), 43)
    assert action_mask(legal, card("7D"), 44)[-2:] == [1, 1]


def test_policy_input_checks_the_legal_moves() -> None:
    with pytest.raises(ChkobbaError, match="action_mask: expected a tuple of legal moves"):
        policy_input(VIEW, 5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: OpponentModel(temperature=True, noise=0.1), "temperature must be a number > 0"),
        (
            lambda: OpponentModel(temperature=0.1, noise=True),
            "noise must be between 0 and 1, not T",
        ),
        (lambda: HandInference(sweep="x", capture=0.1), "sweep must be between 0 and 1, not 'x'"),
        (lambda: HandInference(sweep=0.1, capture=2), "capture must be between 0 and 1, not 2"),
        (lambda: PolicyBot(lambda o, m: 0, name=5), "PolicyBot: name must be text, not 5"),
    ],
)
def test_components_refuse_bad_options(build: Any, message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        build()


def test_the_inference_components_check_their_arguments() -> None:
    hands = HandInference(sweep=0.1, capture=0.3)
    with pytest.raises(ChkobbaError, match=r"HandInference\.observe: expected a PlayerView"):
        hands.observe(None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"HandInference\.weight: None is not a hand"):
        hands.weight(None)  # type: ignore[arg-type]
    model = OpponentModel(temperature=0.1, noise=0.3)
    with pytest.raises(ChkobbaError, match=r"OpponentModel\.observe: expected a PlayerView"):
        model.observe(STATE)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"OpponentModel\.weight: 5 is not a hand"):
        model.weight(5)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"OpponentModel\.posterior: expected a PlayerView"):
        model.posterior(None)  # type: ignore[arg-type]
    assert hands.view is None and model.view is None


def test_the_search_methods_check_the_view() -> None:
    with pytest.raises(ChkobbaError, match=r"ISMCTSBot\.search: expected a PlayerView, got None"):
        ISMCTSBot(iterations=5).search(None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"ExpertBot\.sampler: expected a PlayerView, got a"):
        ExpertBot(iterations=5).sampler(STATE)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"ExpertBot\.solves: expected a PlayerView"):
        ExpertBot().solves(None)  # type: ignore[arg-type]


def test_rollout_checks_its_arguments() -> None:
    with pytest.raises(ChkobbaError, match="rollout: expected a State, got None"):
        rollout(None, random.Random())  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"rollout: expected a random\.Random, got None"):
        rollout(STATE, None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="epsilon must be a finite number, not True"):
        rollout(STATE, random.Random(), epsilon=True)
    # A chance, as ISMCTSBot's own option: -0.5 played like 0 and 2 like 1 (it took any number).
    for chance in (-0.5, 2, 1.0000001):
        with pytest.raises(ChkobbaError, match=f"epsilon must be between 0 and 1, not {chance}$"):
            rollout(STATE, random.Random(), epsilon=chance)
    assert rollout(STATE, random.Random(3), epsilon=1) == rollout(STATE, random.Random(3), 1.0)
    with pytest.raises(ChkobbaError, match=r"horizon must be an integer, not 1\.5"):
        rollout(STATE, random.Random(), horizon=1.5)  # type: ignore[arg-type]
    end = rollout(STATE, random.Random(2), horizon=-1)  # (0 or less: to the deal's end)
    assert end.phase is not STATE.phase


def test_greedy_helpers_check_their_arguments() -> None:
    with pytest.raises(ChkobbaError, match=r"GreedyBot\.worth: expected a Card, got '7D'"):
        GreedyBot.worth("7D")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"GreedyBot\.evaluate: expected a PlayerView"):
        GreedyBot().evaluate(None, LEGAL[0])  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"GreedyBot\.evaluate: expected a move, got 'QH'"):
        GreedyBot().evaluate(VIEW, "QH")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="play_score: cannot score None"):
        play_score(None, None, None, None, 3, None)  # type: ignore[arg-type]
    # Four cards in the next hand, three unseen: no hand to draw (it divided by zero).
    with pytest.raises(ChkobbaError, match="a hand size of at most the unseen cards"):
        play_score(cards("2D"), card("5S"), frozenset(), cards("2S 4S 6S"), 4, TUNISIAN)
    # A sound call values the moves: the capture of 3H+6C above either ace laid (the
    # only capture on this table), and it is the move choose plays.
    assert [str(move) for move in LEGAL] == ["AD", "AH", "JS x 3H+6C"]
    values = [GreedyBot().evaluate(VIEW, move) for move in LEGAL]
    assert values[2] > 0 > max(values[:2])
    assert GreedyBot(seed=3).choose(VIEW, LEGAL) == LEGAL[2]


def test_inference_still_takes_a_bool_for_0_or_1() -> None:
    # Kept for compatibility: inference was once an on/off switch.
    assert ISMCTSBot(inference=True).inference == 1
    assert ISMCTSBot(inference=False).inference == 0
