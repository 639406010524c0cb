"""A docstring-contract audit of the bots, the arena and the game-AI adapters: the prose.

The sibling ``tests/test_audit_docstrings.py`` read the core modules. This one read every
public docstring of ``chkobba.bots`` and its modules (base, random_bot, greedy, ismcts,
expert, analysis, evaluation, inference, endgame, policy, registry, sampling), of
``chkobba.arena``, ``ratings``, ``actions``, ``observations``, ``features``, ``render``
and of the three adapters (``gymnasium``, ``pettingzoo``, ``openspiel``), and the
sentences of ``docs/bots.md``, ``docs/gymnasium.md`` and ``docs/adapters.md`` that a
docstring repeats. Each checkable promise ("raises ... naming ...", "returns ... the
input unchanged", "in deck order", "``-inf`` when ...", "the same seed gives the same
...", "leaves it alone", bounds and defaults) was run, with unusual arguments too
(bools for ints, negatives, zero, empty and endless sequences, ``10**5000``, NaN and
infinity); the suite already pinned most of them (the mutation-gap, hardening and
stateful tests above all). The tests here are the promises no test pinned, one test per
promise, named after it and grouped by module.

Four promises were found false and put right (CHANGELOG.md, "Hardening (#10)"):
``play_score`` read a text ``last_card`` flag (``"no"``) as true; ``tally_estimate``'s
docstring promised to refuse numbers it takes unchecked (the docstring was narrowed);
and ``python_chkobba`` (whose promise is its refusal messages and the comment "a direct
ChkobbaGame(params) is checked here") met a ``target`` too long to write and a
``max_shuffles`` whose game length OpenSpiel cannot hold with a raw ``ValueError`` /
``TypeError`` instead of a ``ChkobbaError``. Their tests state the promise as it stands.
"""

from __future__ import annotations

import itertools
import math
import pickle
import random
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Move,
    Phase,
    Play,
    PlayerView,
    Rules,
    Shuffle,
    State,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import Position, action_ids, describe, step
from chkobba.arena import play_match, wilson_interval
from chkobba.bots import (
    BOT_TYPES,
    BotSpec,
    ExpertBot,
    GreedyBot,
    ISMCTSBot,
    PolicyBot,
    RandomBot,
    determinize,
    determinizer,
    make_bot,
)
from chkobba.bots.analysis import _rechecked, rank_moves, review_record
from chkobba.bots.base import checked_choice, checked_move
from chkobba.bots.endgame import move_values
from chkobba.bots.evaluation import deal_estimate, side_estimates, tally_estimate
from chkobba.bots.greedy import play_score
from chkobba.bots.inference import OpponentModel, Suspicion
from chkobba.bots.policy import action_mask, policy_input
from chkobba.errors import shown
from chkobba.observations import OBSERVATION_SIZE, cap_scores
from chkobba.records import Record
from tests.helpers import refusal

HUGE = 10**5000


def _cut_exposed() -> State:
    """Player 1 to play the first card of a 2-player deal (three legal plays)."""
    return apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))


def _mover_view(state: State) -> tuple[PlayerView, tuple[Move, ...]]:
    player = state.current_player
    assert player is not None
    return observe(state, player), legal_moves(state)


def _position_with(players: int, rules: Rules, cards_left: int) -> State:
    """A position in play with a choice and at most ``cards_left`` cards in hands and stock."""
    for seed in range(100):
        rng = random.Random(seed)
        state = apply(new_match(players, rules=rules), random_shuffle(rng))
        while state.phase is Phase.CUT:
            state = apply(state, Cut(keep=False))
        while state.phase is Phase.PLAY and (
            sum(map(len, state.hands)) + len(state.stock) > cards_left
            or len(legal_moves(state)) < 2
        ):
            state = apply(state, legal_moves(state)[0])
        if state.phase is Phase.PLAY and len(state.deal_scores) == 0:
            return state
    raise AssertionError("no such position")  # pragma: no cover


def _last_round() -> State:
    """The last round of the seed-4 deal, played with the first legal moves (every move
    of the mover is worth the same there: 0 points)."""
    state = _cut_exposed()
    while state.stock:
        state = apply(state, legal_moves(state)[0])
    return state


def _short_record() -> Record:
    record = play_match(["random", "random"], seed=3).record
    return attrs.evolve(record, moves=record.moves[:20])


# --- chkobba.bots.base ------------------------------------------------------------------


def test_checked_choice_gives_legal_back_as_a_tuple_all_of_it_or_some() -> None:
    view, legal = _mover_view(_cut_exposed())
    bot = GreedyBot(seed=1)
    given = checked_choice(bot, view, list(legal))
    assert type(given) is tuple and given == legal
    assert checked_choice(bot, view, legal[1:]) == legal[1:]  # a caller may forbid moves


def test_checked_move_refuses_what_is_not_a_move_naming_the_method() -> None:
    view, legal = _mover_view(_cut_exposed())
    bot = GreedyBot(seed=1)
    checked_move(bot, view, legal[0])  # a legal move passes
    assert refusal(lambda: checked_move(bot, view, "5C")) == (
        "GreedyBot.evaluate: '5C' is not a move"
    )
    assert refusal(lambda: checked_move(bot, view, None, "value")) == (
        "GreedyBot.value: None is not a move"
    )


@pytest.mark.parametrize("bad", [True, 1.0], ids=repr)
@pytest.mark.parametrize(
    "kind", [RandomBot, GreedyBot, ISMCTSBot, ExpertBot], ids=lambda k: k.__name__
)
def test_a_seed_is_an_integer_not_a_bool_or_a_float(kind: type[Any], bad: object) -> None:
    assert refusal(lambda: kind(seed=bad)) == (
        f"{kind.__name__}: seed must be an integer, not {bad!r}"
    )


def test_the_built_in_bots_names_are_their_registry_names() -> None:
    for name, kind in BOT_TYPES.items():
        assert kind.name == name and make_bot(name).name == name


# --- chkobba.bots.greedy ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("next_hand", "last_card"), [(3, "no"), (3, 1), (True, False), (3.0, False)]
)
def test_play_score_refuses_a_flag_or_hand_size_of_the_wrong_kind(
    next_hand: Any, last_card: Any
) -> None:
    # "Arguments of the wrong kind raise ChkobbaError": last_card="no" was read for its
    # truth (the sweep scored as the deal's last card, no chkobba), next_hand=True as 1.
    taken = frozenset(cards("5C"))
    with pytest.raises(ChkobbaError, match=r"^play_score: cannot score .*last_card is True or"):
        play_score(cards("5C"), card("5S"), taken, (), next_hand, TUNISIAN, last_card)


# --- chkobba.bots.ismcts ----------------------------------------------------------------


@pytest.mark.parametrize("inference", [1, 2])
def test_evaluate_reads_the_inference_memory_and_leaves_it_alone(inference: int) -> None:
    # docs/bots.md: "Only choose adds to that memory: evaluate reads it and leaves it alone".
    state = _cut_exposed()
    view, legal = _mover_view(state)
    bot = ISMCTSBot(iterations=3, inference=inference, seed=1)
    bot.choose(view, legal)
    later = apply(apply(state, legal[0]), legal_moves(apply(state, legal[0]))[0])
    assert later.current_player == view.player and later.stock == state.stock  # same round
    hands, model = bot._hands, bot._model
    remembered = (hands.view, list(hands.suspicions), model.view, list(model.decisions))
    bot.evaluate(*_mover_view(later))
    assert (hands.view, list(hands.suspicions), model.view, list(model.decisions)) == remembered
    assert (hands.view if inference == 1 else model.view) == view


# --- chkobba.bots.expert ----------------------------------------------------------------


def test_the_expert_solves_only_two_sides_in_play_within_its_endgame() -> None:
    cut = apply(new_match(), random_shuffle(random.Random(4)))
    assert not ExpertBot(endgame=40).solves(_mover_view(cut)[0])  # the cut: searched
    open_deal = _mover_view(_cut_exposed())[0]
    left = sum(open_deal.hand_sizes) + open_deal.stock_size
    assert not ExpertBot().solves(open_deal)  # more than 6 cards left
    assert ExpertBot(endgame=left).solves(open_deal)  # at most endgame cards left
    assert not ExpertBot(endgame=left - 1).solves(open_deal)
    three = _mover_view(_position_with(3, CARD_RULES_PLUS, 6))[0]
    assert not ExpertBot(endgame=40).solves(three)  # three sides: never solved
    four = _mover_view(_position_with(4, TUNISIAN, 6))[0]
    assert ExpertBot().solves(four)  # two sides of partners


def test_the_expert_breaks_ties_in_the_order_of_legal() -> None:
    state = _last_round()
    view, legal = _mover_view(state)
    assert len(legal) > 1 and len(set(move_values(state).values())) == 1  # all tied
    assert ExpertBot(seed=1).choose(view, legal) == legal[0]
    assert ExpertBot(seed=1).choose(view, legal[::-1]) == legal[-1]


def test_the_expert_values_a_move_its_search_never_tried_at_minus_infinity() -> None:
    view, legal = _mover_view(_cut_exposed())
    values = ExpertBot(iterations=1, seed=1).evaluate(view, legal)
    assert set(values) == set(legal)
    assert sorted(math.isfinite(value) for value in values.values()) == [False, False, True]
    assert all(value == -math.inf for value in values.values() if not math.isfinite(value))


# --- chkobba.bots.analysis --------------------------------------------------------------


class _Counting:
    """An evaluator without spawn: the review must ask this very object."""

    def __init__(self) -> None:
        self.calls = 0

    def evaluate(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, float]:
        self.calls += 1
        return {move: -float(i) for i, move in enumerate(legal)}


def test_a_review_asks_an_evaluator_without_spawn_as_it_is() -> None:
    evaluator = _Counting()
    reviews = review_record(_short_record(), evaluator=evaluator)
    assert reviews and evaluator.calls == len(reviews)


def test_a_review_spawns_a_seeded_evaluator_from_its_own_seed_plus_the_index() -> None:
    record = _short_record()
    states = record.replay()
    reviews = review_record(record, evaluator=ISMCTSBot(iterations=3, seed=10))
    assert reviews
    for review in reviews:
        before = states[review.index]
        bot = ISMCTSBot(iterations=3, seed=10 + review.index)
        view, legal = _mover_view(before)
        # What that bot ranks, and (a play it puts far below the best) rechecks.
        assert review.ranked == _rechecked(bot, view, review.played, rank_moves(view, legal, bot))


# --- chkobba.bots.evaluation ------------------------------------------------------------

_PLAIN = [c for c in DECK if c.suit.value != "D"]  # neither a diamond nor the 7D


def test_side_estimates_of_two_sides_are_the_deal_estimate_and_its_negation() -> None:
    piles = (cards("7D 7S 2H"), cards("6S 6H KC QC"))
    estimate = deal_estimate(piles, (1, 2))
    assert side_estimates(piles, (1, 2)) == (estimate, -estimate)


def test_chkobbas_already_made_count_exactly() -> None:
    piles = (cards("7S 2H"), cards("6H KC"))
    assert deal_estimate(piles, (3, 1)) - deal_estimate(piles, (0, 0)) == pytest.approx(2.0)


def test_a_decided_category_counts_fully() -> None:
    # 21 cards, and neither a diamond nor the 7D taken (the other categories even).
    assert deal_estimate((_PLAIN[:21], ()), (0, 0), CARD_RULES_PLUS) == 1.0


def test_a_lead_of_a_few_cards_is_worth_more_the_fewer_cards_remain() -> None:
    leads = [
        deal_estimate((_PLAIN[:n], _PLAIN[n : 2 * n - 3]), (0, 0), CARD_RULES_PLUS)
        for n in (4, 8, 12, 16)
    ]
    assert leads == sorted(leads) and len(set(leads)) == 4


def test_tally_estimate_takes_numbers_of_the_right_kind_unchecked() -> None:
    # Its docstring: the wrong kind raises, numbers of the right kind are taken as they
    # come (the search calls it at the end of every rollout).
    assert math.isfinite(tally_estimate(0, 0, -5, 0, (0, 0)))
    assert math.isnan(tally_estimate(0, 0, 0, 0, (0, math.nan)))  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="tally_estimate"):
        tally_estimate(0, 0, 0, 0, (0,))


# --- chkobba.bots.inference -------------------------------------------------------------


def test_the_posterior_lists_the_hands_in_deck_order() -> None:
    view, _ = _mover_view(_cut_exposed())
    hands, cumulative = OpponentModel(temperature=0.3, noise=0.1).posterior(view)
    size = view.hand_sizes[1 - view.player]
    index = [c.index for c in view.unseen()]
    assert index == sorted(index)
    assert hands == list(itertools.combinations(view.unseen(), size))
    assert len(cumulative) == len(hands)


def test_a_suspicion_pickles_its_cards_in_deck_order() -> None:
    one = Suspicion(frozenset(cards("7S 7D 2C")), 0.5)
    other = Suspicion(frozenset(reversed(cards("7S 7D 2C"))), 0.5)
    assert b"frozenset" not in pickle.dumps(one)  # a tuple in deck order instead
    assert pickle.dumps(one) == pickle.dumps(other)


# --- chkobba.bots.sampling --------------------------------------------------------------


def test_a_determinizer_draws_exactly_what_determinize_draws() -> None:
    view, _ = _mover_view(_cut_exposed())
    first, second = random.Random(7), random.Random(7)
    assert determinizer(view)(first) == determinize(view, second)
    assert first.getstate() == second.getstate()


def test_determinize_refuses_a_finished_match() -> None:
    final = play_match(["random", "random"], seed=5).record.final()
    assert final.phase is Phase.OVER
    assert refusal(lambda: determinize(observe(final, 0), random.Random(1))) == (
        "determinize: nothing to sample in phase OVER"
    )


# --- chkobba.bots.policy ----------------------------------------------------------------


def _first_legal(observation: Any, mask: Any) -> int:
    return max(range(len(mask)), key=lambda i: mask[i])


def test_a_policy_bot_spawns_itself() -> None:
    bot = PolicyBot(_first_legal)
    assert bot.spawn(3) is bot and bot.spawn(None) is bot


def test_policy_input_gives_float32_observations_and_an_int8_mask() -> None:
    np = pytest.importorskip("numpy")
    observation, mask = policy_input(*_mover_view(_cut_exposed()))
    assert observation.dtype == np.float32 and observation.shape == (OBSERVATION_SIZE,)
    assert mask.dtype == np.int8 and mask.shape == (70,)


def test_action_mask_takes_every_size_up_to_100000() -> None:
    _, legal = _mover_view(_cut_exposed())
    assert len(action_mask(legal, size=100_000)) == 100_000
    assert refusal(lambda: action_mask(legal, size=100_001)) == (
        "action_mask: size must be the action space's size, an integer from 43 to 100000 "
        "(num_actions(rules)), not 100001"
    )


# --- chkobba.bots.registry --------------------------------------------------------------


def test_make_bot_takes_a_spec_or_its_text_and_nothing_else() -> None:
    spec = BotSpec.parse("ismcts:iterations=7")
    assert repr(make_bot(spec, seed=3)) == repr(make_bot("ismcts:iterations=7", seed=3))
    assert refusal(lambda: make_bot(5)) == "5 is not a bot spec"  # type: ignore[arg-type]


# --- chkobba.arena ----------------------------------------------------------------------


def test_on_move_sees_every_move_shuffles_included_with_the_states_around_it() -> None:
    seen: list[tuple[State, Move, State]] = []
    result = play_match(["random", "random"], seed=4, on_move=lambda *call: seen.append(call))
    states = result.record.replay()
    assert [move for _, move, _ in seen] == list(result.record.moves)
    assert [before for before, _, _ in seen] == list(states[:-1])
    assert [after for _, _, after in seen] == list(states[1:])
    assert any(isinstance(move, Shuffle) for _, move, _ in seen)


def test_a_match_counts_the_deals_scored_not_the_voided_ones() -> None:
    result = play_match(["random", "random"], seed=5)
    shuffles = sum(isinstance(move, Shuffle) for move in result.record.moves)
    assert shuffles > result.deals  # a deal of this match was voided
    assert result.deals == len(result.record.final().deal_scores)


def test_wilson_takes_numpys_counts_and_z_and_gives_python_floats() -> None:
    np = pytest.importorskip("numpy")
    bounds = wilson_interval(np.int64(3), np.int64(5), z=np.float64(1.96))
    assert bounds == wilson_interval(3, 5)
    assert [type(bound) for bound in bounds] == [float, float]


# --- chkobba.actions --------------------------------------------------------------------


def test_describe_never_raises_for_an_id_too_long_to_write() -> None:
    assert describe(Position(new_match()), HUGE) == f"action {shown(HUGE)}"


def test_action_ids_only_computes_the_ids_and_step_decides() -> None:
    state = _cut_exposed()
    stranger = state.stock[0]  # in nobody's hand
    position = Position(state)
    assert action_ids(position, Play(stranger)) == (stranger.index,)
    with pytest.raises(IllegalMoveError):
        step(position, stranger.index)


# --- chkobba.observations ---------------------------------------------------------------


def test_cap_scores_changes_the_list_in_place_and_returns_it() -> None:
    vector = [9.0] * OBSERVATION_SIZE
    assert cap_scores(vector) is vector and max(vector) == 9.0 and 4.0 in vector


# --- chkobba.pettingzoo -----------------------------------------------------------------


def test_a_pettingzoo_reset_ignores_option_keys_it_does_not_know() -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import raw_env

    plain, other = raw_env(), raw_env()
    plain.reset(seed=1)
    other.reset(seed=1, options={"foo": 1, "single_deal": False})
    assert other.position == plain.position and other.agent_selection == plain.agent_selection


# --- chkobba.openspiel ------------------------------------------------------------------


def test_a_game_refuses_a_target_too_long_to_write_with_a_chkobba_error() -> None:
    pytest.importorskip("pyspiel")
    from chkobba.openspiel import ChkobbaGame

    with pytest.raises(ChkobbaError, match=r"target must be 0 \(the profile's\) or 1 to 10000"):
        ChkobbaGame({"target": HUGE})


def test_a_game_length_openspiel_cannot_hold_is_refused_by_name() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401  (registers python_chkobba)

    # From 19,004,281 shuffles on, pyspiel.GameInfo raised its TypeError (the game's length
    # past a C int); a million is the most now, far past any match.
    with pytest.raises(ChkobbaError, match="max_shuffles must be from 1 to 1,000,000, not"):
        pyspiel.load_game("python_chkobba", {"max_shuffles": 20_000_000})
    game = pyspiel.load_game("python_chkobba", {"max_shuffles": 1_000_000})
    assert game.max_game_length() > 100_000_000  # (113 actions a shuffle, at most)
