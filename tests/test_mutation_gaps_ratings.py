"""Tests for the gaps a mutmut audit of ``ratings.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/ratings.py`` that the rest of the suite let through
(tools/mutation/README.md). The fitted numbers are checked against closed forms worked
out for the case (two bots, idle bots, a chain of bots) or against the
maximum-likelihood condition, never against the fit's own output. A few reach what no
valid argument reaches (the guard against counts floats cannot hold, the limit of
Newton steps) or the step halving inside the fit; they patch the module with
``monkeypatch`` to say what that code does.
"""

from __future__ import annotations

import math
import types
from typing import Any

import pytest

from chkobba import ratings as ratings_module
from chkobba.arena import wilson_interval
from chkobba.ratings import MAX_WINS, bradley_terry
from tests.helpers import refusal

#: Elo points per natural-log unit of odds.
SCALE = 400 / math.log(10)


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _bounded_log_likelihood(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """Fail, instead of hanging, once the log-likelihood is asked for ``limit`` times."""
    real = ratings_module._log_likelihood
    calls = [0]

    def counted(*args: Any) -> float:
        calls[0] += 1
        assert calls[0] <= limit, "the step halving does not stop"
        return real(*args)

    monkeypatch.setattr(ratings_module, "_log_likelihood", counted)


# --- the arguments: the messages name what is wrong ------------------------------------


def test_the_names_are_checked_with_messages_that_say_what_is_wrong() -> None:
    wins = [[0, 1], [1, 0]]
    assert refusal(lambda: bradley_terry("ab", wins)) == (
        "bradley_terry: names must be a collection, not 'ab'"
    )
    assert refusal(lambda: bradley_terry([], [])) == "bradley_terry: there are no bots to rate"
    assert refusal(lambda: bradley_terry(["a", 2], wins)) == (  # type: ignore[list-item]
        "bradley_terry: a bot's name must be text, not 2"
    )
    assert refusal(lambda: bradley_terry(["a", "a"], wins)) == (
        "bradley_terry: two bots have the same name in ('a', 'a')"
    )


def test_the_wins_are_checked_with_messages_that_name_the_row_and_the_cell() -> None:
    names = ["a", "b"]
    assert refusal(lambda: bradley_terry(names, "xy")) == (  # type: ignore[arg-type]
        "bradley_terry: wins must be a collection, not 'xy'"
    )
    assert refusal(lambda: bradley_terry(names, [[0, 1], 5])) == (  # type: ignore[list-item]
        "bradley_terry: wins[1] must be a collection, not 5"
    )
    assert refusal(lambda: bradley_terry(names, [[0, 1.0], [1, 0]])) == (  # type: ignore[list-item]
        "bradley_terry: wins[0][1] must be an integer, not 1.0"
    )


class _OldNumpyBool:
    """Stands in for numpy's boolean scalar as numpy 1.x made it (numpy is not imported):
    a 0-d value of numpy's module and a boolean dtype, with an ``__index__`` that numpy
    2 took away."""

    __module__ = "numpy"
    dtype = types.SimpleNamespace(kind="b")
    ndim = 0

    def __index__(self) -> int:
        return 1

    def __repr__(self) -> str:
        return "np.True_"


def test_numpys_bool_is_refused_as_a_count_even_with_an_index() -> None:
    assert refusal(lambda: bradley_terry(["a", "b"], [[0, _OldNumpyBool()], [1, 0]])) == (
        "bradley_terry: wins[0][1] must be an integer, not np.True_"
    )
    assert refusal(lambda: wilson_interval(_OldNumpyBool(), 3)) == (
        "wilson_interval: wins must be an integer, not np.True_"
    )
    assert refusal(lambda: wilson_interval(1, _OldNumpyBool())) == (
        "wilson_interval: games must be an integer, not np.True_"
    )


def test_a_refused_prior_is_quoted() -> None:
    assert refusal(lambda: bradley_terry(["a", "b"], [[0, 1], [1, 0]], prior=-1)) == (
        "bradley_terry: prior must be 0 or a finite number >= 0.001, not -1"
    )


def test_asking_for_an_unrated_bot_lists_the_rated_ones() -> None:
    ratings = bradley_terry(["a", "b"], [[0, 1], [1, 0]])
    assert refusal(lambda: ratings.difference("a", "c")) == (
        "no bot named 'c' among the rated ones (a, b)"
    )


# --- the standard errors: closed forms -------------------------------------------------


def test_a_difference_measured_by_millions_of_matches_has_an_error_below_a_point() -> None:
    """Two bots, no prior: the difference d (natural units) has Fisher information
    n p (1 - p), with p = w / n; 3 million wins of 4 million give a standard error of
    SCALE / sqrt(750,000), about 0.2 points, and each bot is d / 2 from the mean."""
    ratings = bradley_terry(["a", "b"], [[0, 3_000_000], [1_000_000, 0]], prior=0)
    difference, error = ratings.difference("a", "b")
    assert difference == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert error == pytest.approx(SCALE / math.sqrt(4_000_000 * 0.75 * 0.25), rel=1e-6)
    assert error < 1
    assert ratings.bots[0].std_error == pytest.approx(error / 2, rel=1e-6)
    assert ratings.difference("a", "a") == (0.0, 0.0)


@pytest.mark.parametrize("prior", [1.0, 4.0])
def test_idle_bots_get_the_errors_of_their_virtual_matches_alone(prior: float) -> None:
    """A bot that never played has only the prior's ``prior`` virtual wins and losses
    against a bot rated 0, at p = 1/2: information 2 * prior / 4, variance 2 / prior.
    Two such bots: their difference has variance 4 / prior, each one's distance to the
    mean (half the difference) 1 / prior."""
    ratings = bradley_terry(["a", "b"], [[0, 0], [0, 0]], prior=prior)
    assert [bot.std_error for bot in ratings.bots] == pytest.approx(
        [SCALE / math.sqrt(prior)] * 2, rel=1e-9
    )
    assert ratings.difference("a", "b")[1] == pytest.approx(2 * SCALE / math.sqrt(prior))


# --- the fit ---------------------------------------------------------------------------


def test_a_record_that_equal_ratings_already_fit_takes_one_step() -> None:
    """The fit starts from every rating at 0: when that is the maximum (an even record,
    the prior's virtual bot also at 0) the first step finds nothing to move."""
    for wins in (
        [[0, 5], [5, 0]],
        [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
        [[0, 2, 1], [1, 0, 2], [2, 1, 0]],
    ):
        ratings = bradley_terry([f"bot{i}" for i in range(len(wins))], wins)
        assert ratings.steps == 1
        assert [bot.rating for bot in ratings.bots] == [0.0] * len(wins)


def test_a_fit_gives_up_after_exactly_200_newton_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fit that never meets its tolerance nor stalls (negative ones, by a patch) takes
    200 steps, each one moving the ratings, then says so."""
    monkeypatch.setattr(ratings_module, "_TOLERANCE", -1.0)
    monkeypatch.setattr(ratings_module, "_STALLED", -1.0)
    real = ratings_module._uphill
    moves = [0]

    def counted(*args: Any) -> list[float]:
        moves[0] += 1
        return real(*args)

    monkeypatch.setattr(ratings_module, "_uphill", counted)
    assert refusal(lambda: bradley_terry(["a", "b"], [[0, 3], [1, 0]])) == (
        "bradley_terry: the fit did not converge in 200 steps"
    )
    assert moves[0] == 200


def test_counts_floats_cannot_hold_are_refused_with_a_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:data:`MAX_WINS` keeps such counts out; lifted by a patch, 10**20 wins each way
    leave the information matrix without a usable pivot."""
    monkeypatch.setattr(ratings_module, "MAX_WINS", 10**30)
    assert refusal(lambda: bradley_terry(["a", "b"], [[0, 10**20], [10**20, 0]])) == (
        "bradley_terry: the fit did not converge: the win counts are too large to fit "
        "in floating point"
    )


def test_a_chain_of_bots_spread_beyond_what_exp_can_take_is_rated() -> None:
    """37 bots, each of which beat the next :data:`MAX_WINS` times, the last of which
    beat the first once. Without a prior the expected losses along the chain must all
    equal the last bot's expected wins against the first, about 1, so every gap is
    log(MAX_WINS - 1) natural units (3600 points): 36 gaps are about 746 units, past the
    709 beyond which ``exp`` overflows, so every sigmoid needs its stable form."""
    size = 37
    wins = [[0] * size for _ in range(size)]
    for k in range(size - 1):
        wins[k][k + 1] = MAX_WINS
    wins[size - 1][0] = 1
    ratings = bradley_terry([f"bot{i}" for i in range(size)], wins, prior=0)
    gap = 400 * math.log10(MAX_WINS - 1)
    for upper, lower in zip(ratings.bots, ratings.bots[1:], strict=False):
        assert upper.rating - lower.rating == pytest.approx(gap, abs=1e-6)
    assert ratings.bots[0].rating - ratings.bots[-1].rating > 709 * SCALE


def test_a_fit_whose_newton_steps_overshoot_still_reaches_the_maximum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lopsided counts make full Newton steps lower the log-likelihood (with these wins,
    twice): halved, they reach ratings where, without a prior, every bot won
    exactly as many matches as the model expects."""
    _bounded_log_likelihood(monkeypatch, 20_000)
    m = MAX_WINS
    wins = [[0, m, m, 0], [5, 0, 0, 2], [1, m, 0, 5], [100, m, 1, 0]]
    ratings = bradley_terry(["a", "b", "c", "d"], wins, prior=0)
    theta = [bot.rating / SCALE for bot in ratings.bots]
    for i in range(4):
        won = sum(wins[i])
        expected = math.fsum(
            (wins[i][j] + wins[j][i]) * _sigmoid(theta[i] - theta[j]) for j in range(4) if j != i
        )
        assert expected == pytest.approx(won, rel=1e-9, abs=1e-6)


def test_a_step_that_lowers_the_likelihood_is_halved_until_it_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """3 wins of 4 from ratings at 0 (log-likelihood 4 log 1/2 = -2.77) with a step of
    +-10 (a gap of 20 natural units, for an optimum at log 3 = 1.1): gaps of 20, 10, 5
    and 2.5 have log-likelihoods of about -20, -10, -5.0 and -2.82, lower; a gap of 1.25
    (a sixteenth of the step) has -2.26, higher, and stands."""
    _bounded_log_likelihood(monkeypatch, 100)
    moved = ratings_module._uphill([[0, 3], [1, 0]], 0.0, [0.0, 0.0], [10.0, -10.0])
    assert moved == [0.625, -0.625]


def test_a_step_that_every_fraction_of_makes_worse_shrinks_to_almost_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot alone with the prior: its likelihood (one virtual win and one loss against
    a bot rated 0) is highest at 0, so any step away is halved until what it loses is
    lost in rounding."""
    _bounded_log_likelihood(monkeypatch, 100)
    moved = ratings_module._uphill([[0]], 1.0, [0.0], [1.0])
    assert 0 < moved[0] < 1e-5


@pytest.mark.parametrize("prior", [0.001, 0.01])
def test_a_bot_that_won_a_billion_matches_against_a_weak_prior_is_rated(prior: float) -> None:
    """With a prior as small as allowed, rounding alone moves both ratings together
    (the prior barely holds their mean): that must not keep the fit from stopping. With
    two bots the virtual bot sits at the mean, so b = t and a = -t where the winner's
    wins equal their expectation: 10**9 * sigmoid(-2t) = prior * (sigmoid(t) -
    sigmoid(-t)), solved here by bisection."""
    ratings = bradley_terry(["a", "b"], [[0, 0], [MAX_WINS, 0]], prior=prior)
    low, high = 0.0, 100.0
    for _ in range(200):
        t = (low + high) / 2
        if MAX_WINS * _sigmoid(-2 * t) > prior * (_sigmoid(t) - _sigmoid(-t)):
            low = t
        else:
            high = t
    assert [bot.rating for bot in ratings.bots] == pytest.approx(
        [-SCALE * low, SCALE * low], abs=1e-6
    )
