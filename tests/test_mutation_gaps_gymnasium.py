"""Tests for the gaps a mutmut audit of ``gymnasium.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/gymnasium.py`` that the rest of the suite let through
(tools/mutation/README.md). They pin the full text of every refusal (the constructor's,
``step``'s, the seat option's, an opponent's illegal move with its reason and the move
quoted), the player count checked before the other arguments, a fresh environment before
its first reset, the seat option's bounds, the bots' seeds drawn from the generator, what
``copy.deepcopy`` shares and how it keeps the memo, the note on a failing bot's own
exception (and an exception without ``add_note``, as on Python 3.10), the reward of a
lost match, the ``winner`` of a single deal, the observation of a pending capture choice,
the features after an illegal action ends the episode and the deal points bound with the
primiera; one more pins ``deal_info``'s values (tuples, ``-1`` for nobody), though its
mutants were equivalent. The opponents that fail are hand-made bots, so every episode
here is a seeded one of a few steps.
"""

from __future__ import annotations

import copy
import sys
from typing import Any

import attrs
import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils import seeding  # noqa: E402

from chkobba import (  # noqa: E402
    TUNISIAN,
    Play,
    card,
    observe,
)
from chkobba.actions import KEEP, advance  # noqa: E402
from chkobba.features import feature_vector  # noqa: E402
from chkobba.gymnasium import SCORE_CAP, ChkobbaEnv, deal_info  # noqa: E402
from chkobba.observations import OBSERVATION_SIZE, observation_vector, piece  # noqa: E402
from tests.helpers import long_shuffle, refusal  # noqa: E402


def _first_legal(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def _play_out(env: ChkobbaEnv, info: dict[str, Any]) -> list[tuple[float, dict[str, Any]]]:
    """The rest of the episode with the first legal action: every (reward, info)."""
    steps, done = [], False
    while not done:
        _, reward, done, _, info = env.step(_first_legal(info))
        steps.append((reward, info))
    return steps


class _Answering:
    """A bot that answers every choice with ``answer`` (a move or anything else)."""

    name = "liar"

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def choose(self, view: Any, legal: Any) -> Any:
        return self.answer


class _Crashing:
    """A bot whose ``choose`` raises ``error`` (its own bug, not a ChkobbaError)."""

    name = "crashing"

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def choose(self, view: Any, legal: Any) -> Any:
        raise self.error


class _Recording:
    """Plays the first legal move and counts its choices; ``spawn`` records each seed."""

    name = "recording"

    def __init__(self) -> None:
        self.choices = 0
        self.seeds: list[int] = []

    def choose(self, view: Any, legal: Any) -> Any:
        self.choices += 1
        return legal[0]


class _Spawning(_Recording):
    def spawn(self, seed: int) -> _Spawning:
        self.seeds.append(seed)
        return self


def _opponent_cuts_first(opponent: Any) -> ChkobbaEnv:
    """The learner at seat 0; a reset with dealer 0 makes the opponent (seat 1) cut."""
    return ChkobbaEnv(opponent, seat=0)


# --- the constructor's refusals --------------------------------------------------------


def test_the_constructors_refusals_quote_the_value_and_the_allowed_ones() -> None:
    assert refusal(lambda: ChkobbaEnv("random", seat=2)) == (
        "seat must be 'alternate' or 0 to 1, not 2"
    )
    assert refusal(lambda: ChkobbaEnv("random", players=4, seat="left")) == (
        "seat must be 'alternate' or 0 to 3, not 'left'"
    )
    assert refusal(lambda: ChkobbaEnv("random", illegal_action="ignore")) == (
        "illegal_action must be 'raise' or 'terminate', not 'ignore'"
    )
    assert refusal(lambda: ChkobbaEnv("random", render_mode="rgb_array")) == (
        "render_mode must be None, 'ansi' or 'human', not 'rgb_array'"
    )
    assert refusal(lambda: ChkobbaEnv(42)) == (  # type: ignore[arg-type]
        "opponent 42 is not a bot, a bot spec or a policy fn(observation, mask)"
    )


def test_the_player_count_is_checked_before_the_arguments_that_depend_on_it() -> None:
    # A seat refused against 5 players would offer seats of a match that cannot exist.
    refused = "a match has 2 or 4 players, not {} (the tunisian profile)"
    assert refusal(lambda: ChkobbaEnv("random", players=5, seat=7)) == refused.format(5)
    assert refusal(lambda: ChkobbaEnv("random", players="4", seat=0)) == (  # type: ignore[arg-type]
        "players must be an int, not '4' (str)"
    )
    assert refusal(lambda: ChkobbaEnv("random", players=3, illegal_action="x")) == (
        refused.format(3)
    )
    assert refusal(lambda: ChkobbaEnv(42, players=5)) == refused.format(5)  # type: ignore[arg-type]


# --- before the first reset ------------------------------------------------------------


def test_a_fresh_environment_has_no_episode_under_way() -> None:
    env = ChkobbaEnv("random", seat=1)
    assert env.learner == 0  # until a reset seats the learner
    assert refusal(env.action_masks) == (
        "no episode has started: call reset() before action_masks()"
    )
    assert refusal(lambda: env.step(0)) == "no episode has started: call reset() before step()"
    assert refusal(lambda: env.step(KEEP)) == "no episode has started: call reset() before step()"


def test_the_first_reset_without_a_seed_seats_the_learner_at_seat_0() -> None:
    env = ChkobbaEnv("random", players=4)
    assert [env.reset()[1]["seat"] for _ in range(5)] == [0, 1, 2, 3, 0]


def test_the_action_mask_is_boolean_and_the_info_mask_int8() -> None:
    env = ChkobbaEnv("random")
    _, info = env.reset(seed=1)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and info["action_mask"].dtype == np.int8
    assert mask.tolist() == info["action_mask"].astype(bool).tolist() and mask.any()


def test_an_action_that_is_no_integer_is_quoted_with_the_range_of_ids() -> None:
    env = ChkobbaEnv("random")
    env.reset(seed=1)
    assert refusal(lambda: env.step(2.5)) == "step: action 2.5 is not an integer id (0 to 69)"
    assert refusal(lambda: env.step("3")) == "step: action '3' is not an integer id (0 to 69)"


# --- the seat option -------------------------------------------------------------------


def test_the_seat_option_takes_every_seat_from_0_to_players_minus_1() -> None:
    env = ChkobbaEnv("random", players=4)
    for seat in range(4):
        assert env.reset(seed=1, options={"seat": seat})[1]["seat"] == seat
    assert refusal(lambda: env.reset(options={"seat": 4})) == (
        "the seat option must be 0 to 3, not 4"
    )
    assert refusal(lambda: env.reset(options={"seat": -1})) == (
        "the seat option must be 0 to 3, not -1"
    )
    two = ChkobbaEnv("random")
    assert two.reset(seed=1, options={"seat": 0})[1]["seat"] == 0
    assert refusal(lambda: two.reset(options={"seat": 2})) == (
        "the seat option must be 0 to 1, not 2"
    )


# --- the bots' seeds -------------------------------------------------------------------


def test_every_seat_gets_a_bot_of_its_own_seed_drawn_from_the_generator() -> None:
    bot = _Spawning()
    env = ChkobbaEnv(bot, players=4, seat=0)
    for seed in range(5):
        env.reset(seed=seed, options={"dealer": 0})
    assert len(bot.seeds) == 20 and len(set(bot.seeds)) == 20
    assert all(type(seed) is int and 0 <= seed < 2**62 for seed in bot.seeds)
    assert max(bot.seeds) > 2**60  # drawn from the whole range, not a handful of values


def test_the_bots_seeds_are_the_generators_draws_after_the_lot() -> None:
    # What a seeded reset replays: the generator seeded as Gymnasium seeds it, the lot of
    # the dealer (here given, so not drawn), then one seed per seat below 2**62.
    bot = _Spawning()
    env = ChkobbaEnv(bot, seat=0)
    env.reset(seed=7, options={"dealer": 1})
    generator = seeding.np_random(7)[0]
    assert bot.seeds == generator.integers(2**62, size=2).tolist()
    bot.seeds.clear()
    env.reset(seed=7)
    generator = seeding.np_random(7)[0]
    generator.integers(2)  # the lot
    assert bot.seeds == generator.integers(2**62, size=2).tolist()


# --- copies ----------------------------------------------------------------------------


def test_a_deep_copy_shares_the_position_and_copies_the_opponent() -> None:
    bot = _Recording()  # no spawn: the same object at every seat and in every episode
    env = ChkobbaEnv(bot, seat=0)
    _, info = env.reset(seed=1, options={"dealer": 1})
    env.step(_first_legal(info))
    clone = copy.deepcopy(env)
    assert clone.position is env.position  # immutable: shared, as docs/gymnasium.md says
    assert clone.opponent is not env.opponent and clone.np_random is not env.np_random
    # The clone's seats and its next episodes play one copy of the bot, not the original
    # (until stop 55 the clone's next episode played the original's bot).
    copied = clone.opponent(0)
    assert isinstance(copied, _Recording) and clone._bots[1] is copied is not bot
    before = bot.choices
    clone.reset(seed=2, options={"dealer": 0})  # the clone's next episode: its own bot
    assert bot.choices == before and copied.choices > before


def test_a_deep_copy_keeps_the_memo_of_the_enclosing_copy() -> None:
    env = ChkobbaEnv("random")
    env.reset(seed=3)
    twin, generator = copy.deepcopy((env, env.np_random))
    assert generator is twin.np_random and generator is not env.np_random


#: The environments a :class:`_HoldingEnv` bot saw itself held by when it chose (outside
#: the bot: a deep copy of the env copies the bot and anything it holds).
_SEEN: list[Any] = []


class _HoldingEnv(_Recording):
    """A bot that holds the environment it plays in, as a search bot over env copies may."""

    env: Any = None

    def choose(self, view: Any, legal: Any) -> Any:
        _SEEN.append(self.env)
        return super().choose(view, legal)


def test_a_deep_copy_gives_a_bot_that_holds_the_env_the_clone() -> None:
    """Found by the audit: the copy was not entered in the memo before its attributes
    were copied, so a copied bot held a second, hidden copy of the env."""
    bot = _HoldingEnv()
    env = ChkobbaEnv(bot, seat=0)
    bot.env = env
    _, info = env.reset(seed=1, options={"dealer": 1})
    clone = copy.deepcopy(env)
    _SEEN.clear()
    while not _SEEN:  # the learner cuts and leads: the bot chooses after the clone's steps
        _, _, _, _, info = clone.step(_first_legal(info))
    assert all(held is clone for held in _SEEN)


# --- an opponent that fails ------------------------------------------------------------


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exceptions take notes from 3.11")
def test_a_bots_own_exception_gets_a_note_naming_it_and_its_seat() -> None:
    env = _opponent_cuts_first(_Crashing(RuntimeError("the bot crashed")))
    with pytest.raises(RuntimeError) as raised:
        env.reset(seed=2, options={"dealer": 0})
    assert str(raised.value) == "the bot crashed"
    assert getattr(raised.value, "__notes__", None) == [
        "raised by the opponent crashing at seat 1; the environment was left as before the call"
    ]


class _WithoutNotes(RuntimeError):
    """An exception without ``add_note``, as every exception was before Python 3.11."""

    @property
    def add_note(self) -> Any:
        raise AttributeError("add_note")


def test_a_bots_exception_without_add_note_gets_the_note_in_its_notes() -> None:
    env = _opponent_cuts_first(_Crashing(_WithoutNotes("old Python")))
    with pytest.raises(_WithoutNotes) as raised:
        env.reset(seed=2, options={"dealer": 0})
    assert str(raised.value) == "old Python"
    assert getattr(raised.value, "__notes__", None) == [
        "raised by the opponent crashing at seat 1; the environment was left as before the call"
    ]


def test_an_opponents_illegal_move_is_quoted_with_the_reason() -> None:
    env = _opponent_cuts_first(_Answering(Play(card("7D"))))
    assert refusal(lambda: env.reset(seed=2, options={"dealer": 0})) == (
        "the opponent liar at seat 1 chose '7D', which is not legal:"
        " Play is not allowed in phase CUT"
    )


@pytest.mark.parametrize(("answer", "quoted"), [(5, "5"), (None, "None"), ("7D", "'7D'")])
def test_an_opponents_answer_that_is_no_move_is_quoted_with_why(answer: Any, quoted: str) -> None:
    # (Without the reason until stop 72, which gave the arena's: a review found it.)
    env = _opponent_cuts_first(_Answering(answer))
    assert refusal(lambda: env.reset(seed=2, options={"dealer": 0})) == (
        f"the opponent liar at seat 1 chose {quoted}, which is not legal: {quoted} is not a "
        "move (expected Shuffle, Cut or Play)"
    )


@pytest.mark.parametrize(("cards", "whole"), [(63, True), (64, False), (65, False)])
def test_an_opponents_long_move_is_quoted_up_to_200_characters(cards: int, whole: bool) -> None:
    move, quoted = long_shuffle(cards)
    assert quoted.endswith("'") == whole
    env = _opponent_cuts_first(_Answering(move))
    assert refusal(lambda: env.reset(seed=2, options={"dealer": 0})) == (
        f"the opponent liar at seat 1 chose {quoted}, which is not legal:"
        " Shuffle is not allowed in phase CUT"
    )


# --- rewards and the end of an episode -------------------------------------------------


def test_a_lost_match_ends_with_a_reward_of_exactly_minus_1() -> None:
    # A match to 1 point is one deal; greedy beats the first legal card (seed 0: 4-0).
    env = ChkobbaEnv("greedy", seat=0, rules=attrs.evolve(TUNISIAN, target=1))
    _, info = env.reset(seed=0)
    steps = _play_out(env, info)
    assert env.match_state.winner == 1 and env.match_state.scores == (0, 4)
    reward, final = steps[-1]
    assert type(reward) is float and reward == -1.0
    assert [r for r, _ in steps[:-1]] == [0.0] * (len(steps) - 1)
    assert final["winner"] == 1 and final["scores"].tolist() == [0, 4]


def test_a_single_deal_ends_with_nobody_the_winner() -> None:
    env = ChkobbaEnv("random", single_deal=True)
    _, info = env.reset(seed=1)
    final = _play_out(env, info)[-1][1]
    assert final["winner"] == -1 and type(final["winner"]) is int
    assert tuple(final["scores"].tolist()) == env.match_state.scores


def test_deal_info_gives_every_field_as_numbers_that_stack() -> None:
    env = ChkobbaEnv("random", single_deal=True)
    _, info = env.reset(seed=1)
    final = _play_out(env, info)[-1][1]
    score = env.match_state.deal_scores[-1]
    expected = {
        field.name: -1 if getattr(score, field.name) is None else getattr(score, field.name)
        for field in attrs.fields(type(score))
    }
    assert _plain(final["deal"]) == _plain(deal_info(score)) == expected
    for name, value in deal_info(score).items():
        if isinstance(value, np.ndarray):  # a per-side tuple: one int64 entry per side
            assert value.dtype == np.int64 and value.shape == (2,), name
        else:
            assert type(value) is int, name
    # Seed 1: sevens 2-2 and sixes 2-2, so nobody has the bermila; no primiera point.
    assert deal_info(score)["bermila_winner"] == deal_info(score)["primiera_winner"] == -1
    assert deal_info(score)["points"].tolist() == [2, 1]


def _plain(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` with its arrays as tuples, to compare with ``==``."""
    return {k: tuple(v.tolist()) if isinstance(v, np.ndarray) else v for k, v in info.items()}


def test_the_deal_points_bound_counts_the_primiera_point() -> None:
    # Five categories (cards, diamonds, bermila, 7 of diamonds, primiera) and 18 chkobbas.
    primiera = attrs.evolve(TUNISIAN, name="primiera", primiera=True)
    assert ChkobbaEnv("random", single_deal=True, rules=primiera).reward_range == (-23.0, 23.0)
    shaped = ChkobbaEnv("random", rules=primiera, deal_reward=1.0)
    assert shaped.reward_range == (-24.0, 24.0)


# --- observations ----------------------------------------------------------------------


def test_the_observation_shows_the_card_whose_capture_is_to_choose() -> None:
    # Seed 0, dealer 0: the learner holds K♣ over 2♠ 5♠ Q♠ Q♦ J♥ (several ways to take
    # 10); playing it leaves the card pending, the learner to choose the capture.
    env = ChkobbaEnv("random", seat=0)
    _, info = env.reset(seed=0, options={"dealer": 0})
    king = card("KC").index
    assert info["action_mask"][king] and advance(env.position, king)[0].pending is not None
    observation, reward, done, _, _ = env.step(king)
    assert (reward, done) == (0.0, False)
    pending = env.position.pending
    assert pending == card("KC")
    view = observe(env.match_state, 0)
    assert observation.tolist() == pytest.approx(observation_vector(view, pending))
    assert observation_vector(view, pending) != observation_vector(view, None)


def test_the_features_show_no_capture_once_an_illegal_action_ends_the_episode() -> None:
    env = ChkobbaEnv("random", seat=0, features=True, illegal_action="terminate")
    observation, info = env.reset(seed=0, options={"dealer": 0})
    captures = slice(OBSERVATION_SIZE + 1, None)
    assert observation[captures].any()  # K♣ and the sixes take something
    table_sum = observation[OBSERVATION_SIZE]
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    observation, _, done, _, info = env.step(illegal)
    assert done and info["illegal_action"] == illegal
    assert not observation[captures].any()
    assert observation[OBSERVATION_SIZE] == table_sum
    view = observe(env.match_state, 0)
    assert observation.tolist() == pytest.approx(
        observation_vector(view, None) + feature_vector(view, None, ())
    )


def test_scores_past_the_cap_are_capped_in_the_observation() -> None:
    # A house profile to 1 point: a deal's points, divided by the target, pass SCORE_CAP
    # (4 targets); the observation stays inside its space.
    quick = attrs.evolve(TUNISIAN, name="quick", target=1)
    env = ChkobbaEnv("greedy", rules=quick)
    _, info = env.reset(seed=9)  # ends 1-5: theirs past the cap, ours not
    terminated = False
    while not terminated:
        action = int(info["action_mask"].nonzero()[0][0])
        observation, _, terminated, _, info = env.step(action)
    scores = env.position.state.scores
    assert max(scores) > SCORE_CAP
    # Ours, theirs: the learner's side first.
    ours, theirs = scores if env.learner % 2 == 0 else scores[::-1]
    assert piece(observation.tolist(), "scores") == [min(ours, SCORE_CAP), min(theirs, SCORE_CAP)]
    assert env.observation_space.contains(observation)
