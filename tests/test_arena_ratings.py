"""Who beats whom in a tournament: the head-to-head lines and the Bradley-Terry ratings
(:meth:`TournamentResult.head_to_head`, :meth:`TournamentResult.ratings`,
:func:`chkobba.ratings.bradley_terry`), and how ``chkobba simulate`` shows them."""

from __future__ import annotations

import functools
import itertools
import json
import math
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import CARD_RULES_PLUS, ChkobbaError, Rules
from chkobba.arena import HeadToHead, TournamentResult, tournament
from chkobba.cli import main
from chkobba.ratings import MAX_WINS, Ratings, bradley_terry
from tests.strategies import win_tables

#: Elo points per natural-log unit of odds.
SCALE = 400 / math.log(10)


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@functools.cache
def three_bots(players: int = 2) -> TournamentResult:
    rules = CARD_RULES_PLUS if players == 3 else None
    extra = {"rules": rules} if rules is not None else {}
    return tournament(["greedy", "random", "random"], games=4, seed=3, players=players, **extra)


def two_bots(wins: int, games: int, prior: float) -> Ratings:
    return bradley_terry(["a", "b"], [[0, wins], [games - wins, 0]], prior=prior)


def names_of(size: int) -> list[str]:
    return [f"bot{i}" for i in range(size)]


# --- the fit ---------------------------------------------------------------------------


@given(st.integers(2, 10_000).flatmap(lambda n: st.tuples(st.integers(1, n - 1), st.just(n))))
def test_two_bots_without_a_prior_are_the_log_odds_of_their_record_apart(
    record: tuple[int, int],
) -> None:
    wins, games = record
    ratings = two_bots(wins, games, prior=0)
    difference, error = ratings.difference("a", "b")
    assert difference == pytest.approx(400 * math.log10(wins / (games - wins)), abs=1e-6)
    assert ratings.bots[0].rating == pytest.approx(-ratings.bots[1].rating, abs=1e-6)
    rate = wins / games
    # The observed information of a log-odds from n trials is n p (1 - p).
    assert error == pytest.approx(SCALE / math.sqrt(games * rate * (1 - rate)), rel=1e-6)
    assert ratings.bots[0].std_error == pytest.approx(error / 2, rel=1e-6)
    assert ratings.win_probability("a", "b") == pytest.approx(rate, abs=1e-9)


def solve_with_prior(wins: int, games: int, prior: float) -> float:
    """The rating difference of two bots with the prior, by bisection: the virtual bot
    sits at their mean (their virtual records are the same), so the difference d (in
    natural-log odds) solves wins + prior = games * s(d) + 2 * prior * s(d / 2)."""
    low, high = -60.0, 60.0
    for _ in range(200):
        middle = (low + high) / 2
        expected = games * sigmoid(middle) + 2 * prior * sigmoid(middle / 2)
        low, high = (middle, high) if expected < wins + prior else (low, middle)
    return SCALE * (low + high) / 2


@given(
    st.integers(0, 2_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.sampled_from([0.25, 1.0, 3.0]),
)
def test_the_prior_has_its_known_effect_on_two_bots(record: tuple[int, int], prior: float) -> None:
    wins, games = record
    difference, _ = two_bots(wins, games, prior).difference("a", "b")
    assert difference == pytest.approx(solve_with_prior(wins, games, prior), abs=1e-6)


def test_the_prior_pulls_a_bot_that_won_everything_back_more_the_stronger_it_is() -> None:
    gaps = [two_bots(10, 10, prior).difference("a", "b")[0] for prior in (0.25, 1, 4)]
    assert gaps[0] > gaps[1] > gaps[2] > 0
    assert gaps[1] == pytest.approx(478.80, abs=0.01)  # 10 of 10: the docs' example


def test_a_transitive_record_that_fits_the_model_exactly_gives_its_ratings() -> None:
    # Odds 3:1 for a over b and for b over c, so 9:1 for a over c: observed wins equal
    # the expected ones, and the maximum-likelihood ratings are exactly these.
    ratings = bradley_terry(["a", "b", "c"], [[0, 30, 36], [10, 0, 30], [4, 10, 0]], prior=0)
    assert ratings.difference("a", "b")[0] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ratings.difference("b", "c")[0] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ratings.difference("a", "c")[0] == pytest.approx(400 * math.log10(9), abs=1e-6)
    assert ratings.bots[1].rating == pytest.approx(0, abs=1e-6)  # the mean is 0
    with_prior = bradley_terry(["a", "b", "c"], [[0, 30, 36], [10, 0, 30], [4, 10, 0]])
    assert [bot.name for bot in sorted(with_prior.bots, key=lambda bot: -bot.rating)] == [
        "a",
        "b",
        "c",
    ]
    assert 0 < with_prior.difference("a", "c")[0] < ratings.difference("a", "c")[0]


@given(win_tables(min_wins=1))
def test_without_a_prior_every_bot_wins_as_often_as_the_model_expects(
    wins: list[list[int]],
) -> None:
    ratings = bradley_terry(names_of(len(wins)), wins, prior=0)
    theta = [bot.rating / SCALE for bot in ratings.bots]
    for i, row in enumerate(wins):
        expected = sum(
            (row[j] + wins[j][i]) * sigmoid(theta[i] - theta[j]) for j in range(len(wins))
        )
        assert sum(row) == pytest.approx(expected, abs=1e-6)


@given(win_tables(), st.randoms(use_true_random=False))
def test_the_order_of_the_bots_does_not_change_the_ratings(
    wins: list[list[int]], rng: random.Random
) -> None:
    names = names_of(len(wins))
    order = list(range(len(wins)))
    rng.shuffle(order)
    shuffled = bradley_terry(
        [names[i] for i in order], [[wins[i][j] for j in order] for i in order]
    )
    original = {bot.name: bot for bot in bradley_terry(names, wins).bots}
    for bot in shuffled.bots:
        assert bot.rating == pytest.approx(original[bot.name].rating, abs=1e-6)
        assert bot.std_error == pytest.approx(original[bot.name].std_error, rel=1e-6)


@given(win_tables(), st.sampled_from([0.5, 1.0]))
def test_ratings_have_mean_zero_and_a_centred_covariance(
    wins: list[list[int]], prior: float
) -> None:
    ratings = bradley_terry(names_of(len(wins)), wins, prior=prior)
    assert math.fsum(bot.rating for bot in ratings.bots) == pytest.approx(0, abs=1e-6)
    for bot, row in zip(ratings.bots, ratings.covariance, strict=True):
        assert math.fsum(row) == pytest.approx(0, abs=1e-6)
        assert bot.std_error > 0 and math.isfinite(bot.rating)
    assert ratings.prior == prior and 1 <= ratings.steps <= 50


def test_a_bot_that_never_wins_is_rated_last_with_a_prior_and_refused_without() -> None:
    wins = [[0, 3, 4], [1, 0, 3], [0, 0, 0]]  # c never won
    ratings = bradley_terry(["a", "b", "c"], wins)
    assert min(ratings.bots, key=lambda bot: bot.rating).name == "c"
    assert math.isfinite(ratings.bots[2].rating)
    # Its error is the largest: only the prior bounds it from below.
    assert ratings.bots[2].std_error == max(bot.std_error for bot in ratings.bots)
    with pytest.raises(ChkobbaError, match=r"'a', 'b' never lost to 'c'.*prior > 0"):
        bradley_terry(["a", "b", "c"], wins, prior=0)
    with pytest.raises(ChkobbaError, match="'a' never lost to 'b'"):
        two_bots(5, 5, prior=0)
    with pytest.raises(ChkobbaError, match="'a', 'c' never beat 'b'"):
        bradley_terry(["a", "b", "c"], [[0, 0, 3], [3, 0, 1], [0, 0, 0]], prior=0)


def test_one_bot_and_bots_that_never_played() -> None:
    alone = bradley_terry(["a"], [[0]])
    assert alone.bots[0].rating == 0 and alone.bots[0].std_error == 0
    idle = bradley_terry(["a", "b"], [[0, 0], [0, 0]])
    assert [bot.rating for bot in idle.bots] == [0, 0]


@pytest.mark.parametrize("prior", [0, 0.001, 1.0, 1e6])
def test_the_largest_counts_still_fit(prior: float) -> None:
    # Counts up to MAX_WINS, even or lopsided, give ratings (10**15 used to divide by 0).
    even = bradley_terry(["a", "b"], [[0, MAX_WINS], [MAX_WINS, 0]], prior=prior)
    assert [round(bot.rating, 6) for bot in even.bots] == [0, 0]
    chain = [[0, MAX_WINS, 0], [0, 0, MAX_WINS], [1, 0, 0]]
    rated = bradley_terry(["a", "b", "c"], chain, prior=prior)
    assert rated.bots[0].rating > rated.bots[1].rating > rated.bots[2].rating


@pytest.mark.parametrize(
    ("names", "wins", "prior", "message"),
    [
        ([], [], 1, "no bots"),
        (["a", "a"], [[0, 1], [1, 0]], 1, "same name"),
        (["a", 2], [[0, 1], [1, 0]], 1, "must be text"),
        ("ab", [[0, 1], [1, 0]], 1, "must be a collection"),
        (["a", "b"], [[0, 1]], 1, "a row per bot"),
        (["a", "b"], [[0, 1], [1]], 1, "a count per bot"),
        (["a", "b"], [[0, -1], [1, 0]], 1, "must be from 0 to 1,000,000,000, not -1"),
        (["a", "b", "c"], [[0, 10**15, 0], [1, 0, 0], [0, 0, 0]], 1, "from 0 to 1,000,000,000"),
        (["a", "b"], [[0, 1.0], [1, 0]], 1, "must be an integer"),
        (["a", "b"], [[0, True], [1, 0]], 1, "must be an integer"),
        (["a", "b"], [[1, 1], [1, 0]], 1, "cannot beat itself"),
        (["a", "b"], [[0, 1], [1, 0]], -1, "prior must be"),
        (["a", "b"], [[0, 1], [1, 0]], math.nan, "prior must be"),
        (["a", "b"], [[0, 1], [1, 0]], 1e-4, "prior must be 0 or a finite number >= 0.001"),
        (["a", "b"], [[0, 1], [1, 0]], math.inf, "prior must be"),
        (["a", "b"], [[0, 1], [1, 0]], True, "prior must be"),
        (["a", "b"], [[0, 1], [1, 0]], "1", "prior must be"),
    ],
)
def test_bradley_terry_checks_its_arguments(
    names: object, wins: object, prior: object, message: str
) -> None:
    with pytest.raises(ChkobbaError, match=message):
        bradley_terry(names, wins, prior=prior)  # type: ignore[arg-type]


def test_a_difference_names_rated_bots() -> None:
    with pytest.raises(ChkobbaError, match="no bot named 'c' among the rated ones"):
        two_bots(1, 2, prior=1).difference("a", "c")


# --- from a tournament -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_head_to_head_lines_add_up_to_each_bots_line(players: int) -> None:
    result = three_bots(players)
    lines = result.head_to_head()
    assert [(line.bot, line.opponent) for line in lines] == [
        ("greedy", "random"),
        ("greedy", "random#2"),
        ("random", "greedy"),
        ("random", "random#2"),
        ("random#2", "greedy"),
        ("random#2", "random"),
    ]
    for bot in result.bots:
        mine = [line for line in lines if line.bot == bot.name]
        for field in ("games", "wins", "points", "deals"):
            assert sum(getattr(line, field) for line in mine) == getattr(bot, field), field


def test_head_to_head_lines_mirror_each_other() -> None:
    lines = {(line.bot, line.opponent): line for line in three_bots().head_to_head()}
    for (bot, opponent), line in lines.items():
        mirror = lines[opponent, bot]
        assert line.games == mirror.games == 4
        assert line.wins + mirror.wins == line.games
        assert (line.points, line.deals) == (mirror.opponent_points, mirror.deals)
        assert line.points_per_deal == mirror.opponent_points_per_deal
        assert line.ci_low <= line.win_rate <= line.ci_high
        assert line.win_rate == line.wins / line.games


def test_a_tournaments_ratings_are_fitted_to_its_head_to_head_wins() -> None:
    result = three_bots()
    names = [bot.name for bot in result.bots]
    wins = {(line.bot, line.opponent): line.wins for line in result.head_to_head()}
    table = [[wins.get((a, b), 0) for b in names] for a in names]
    assert result.ratings() == bradley_terry(names, table)
    assert result.ratings(prior=3) == bradley_terry(names, table, prior=3)


def reordered(result: TournamentResult, order: list[int]) -> TournamentResult:
    """The same tournament with the bots listed in ``order`` and the matches reversed."""
    where = {old: new for new, old in enumerate(order)}
    matches = tuple(
        attrs.evolve(
            match,
            entrants=tuple(where[e] for e in match.entrants),
            winner=where[match.winner],
        )
        for match in reversed(result.matches)
    )
    bots = tuple(result.bots[old] for old in order)
    return attrs.evolve(result, bots=bots, matches=matches)


def test_the_order_of_bots_and_matches_changes_no_line_and_no_rating() -> None:
    result = three_bots()
    other = reordered(result, [2, 0, 1])
    assert set(other.head_to_head()) == set(result.head_to_head())
    ratings = {bot.name: bot for bot in result.ratings().bots}
    for bot in other.ratings().bots:
        assert bot.rating == pytest.approx(ratings[bot.name].rating, abs=1e-9)
        assert bot.std_error == pytest.approx(ratings[bot.name].std_error, rel=1e-9)


def test_a_match_not_between_two_entrants_cannot_be_rated() -> None:
    result = three_bots()
    broken = attrs.evolve(result.matches[0], entrants=(0, 0), winner=0)
    with pytest.raises(ChkobbaError, match="match 0 is not between two entrants"):
        attrs.evolve(result, matches=(broken, *result.matches[1:])).ratings()


def test_the_json_gains_head_to_head_and_ratings_and_keeps_its_keys() -> None:
    result = three_bots()
    data = json.loads(json.dumps(result.to_dict()))
    assert list(data) == [
        "players",
        "rules",
        "target",
        "seed",
        "games",
        "bots",
        "head_to_head",
        "ratings",
        "profile",
    ]
    assert Rules.from_dict(data["profile"]) == result.rules
    assert [HeadToHead(**line) for line in data["head_to_head"]] == list(result.head_to_head())
    ratings = result.ratings()
    assert data["ratings"] == ratings.to_dict()
    assert [bot["name"] for bot in data["ratings"]["bots"]] == [bot.name for bot in result.bots]
    assert data["ratings"]["prior"] == 1.0
    assert len(data["ratings"]["covariance"]) == 3


# --- chkobba simulate ------------------------------------------------------------------


def test_simulate_prints_the_cross_table_and_the_ratings_with_three_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "--games", "4", "--bots", "greedy", "random", "random", "--seed", "3"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    result = three_bots()
    cross = lines.index("head to head: the row's wins against the column, of their matches")
    assert lines[cross + 1].split() == ["bot", "greedy", "random", "random#2"]
    lines_of = {(line.bot, line.opponent): line for line in result.head_to_head()}
    greedy = lines_of["greedy", "random"]
    assert lines[cross + 2].split()[:4] == [
        "greedy",
        "-",
        f"{greedy.wins}/4",
        f"({greedy.win_rate:.0%})",
    ]
    heading = next(i for i, line in enumerate(lines) if line.startswith("Bradley-Terry"))
    assert lines[heading + 1].split() == ["bot", "rating", "std", "error"]
    ranked = sorted(result.ratings().bots, key=lambda bot: -bot.rating)
    rows = [line.split() for line in lines[heading + 2 : heading + 5]]
    assert [row[0] for row in rows] == [bot.name for bot in ranked]
    assert [int(row[1]) for row in rows] == [round(bot.rating) for bot in ranked]


def test_simulate_with_two_bots_prints_only_the_results_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--games", "2", "--bots", "greedy", "random"]) == 0
    out = capsys.readouterr().out
    assert "head to head" not in out and "Bradley-Terry" not in out
    assert len(out.splitlines()) == 4


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_a_badly_conditioned_fit_converges_whatever_the_order_of_the_bots(
    order: tuple[int, ...],
) -> None:
    # A hundred million wins of one bot over another, a third idle, a tiny prior: rounding
    # kept Newton's step at 1.6e-9 Elo points, above the tolerance, and the fit gave up
    # ("did not converge") in one order of the bots of six (found by the statistics audit).
    table = [[0, 0, 0], [0, 0, 0], [10**8, 0, 0]]
    wins = [[table[order[i]][order[j]] for j in range(3)] for i in range(3)]
    names = ["a", "b", "c"]
    ratings = bradley_terry([names[k] for k in order], wins, prior=0.001)
    by_name = {bot.name: bot.rating for bot in ratings.bots}
    assert by_name["c"] == pytest.approx(2200.0005, abs=1e-3)
    assert by_name["a"] == pytest.approx(-2200.0005, abs=1e-3)
    assert by_name["b"] == pytest.approx(0.0, abs=1e-6)
