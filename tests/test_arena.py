"""The arena: whole matches between bots, tournaments, seats, workers and statistics."""

from __future__ import annotations

import attrs
import pytest

from chkobba import ChkobbaError, Record, Shuffle
from chkobba.arena import (
    MatchResult,
    play_match,
    seat_bots,
    subseed,
    tournament,
    wilson_interval,
)
from chkobba.bots import BotSpec, GreedyBot, ISMCTSBot, RandomBot, make_bot
from tests.helpers import refusal


def test_a_match_is_played_to_the_end_and_recorded() -> None:
    result = play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=3)
    assert isinstance(result, MatchResult)
    assert result.winner in (0, 1)
    assert max(result.scores) >= 21
    assert result.scores[result.winner] > result.scores[1 - result.winner]
    assert isinstance(result.record, Record)
    final = result.record.replay()[-1]
    assert final.is_over
    assert final.scores == result.scores
    assert len(final.deal_scores) == result.deals
    assert Record.from_json(result.record.to_json()) == result.record


def test_a_match_is_reproducible_from_its_seeds() -> None:
    def run(seed: int) -> MatchResult:
        return play_match([RandomBot(seed=4), RandomBot(seed=5)], seed=seed)

    assert run(9) == run(9)
    assert run(9).record != run(10).record


def test_four_players_seat_two_bots_as_partners() -> None:
    a, b = GreedyBot(seed=1), RandomBot(seed=2)
    assert seat_bots([a, b], 4) == (a, b, a, b)
    result = play_match([a, b], seed=1, players=4)
    assert result.record.players == 4
    assert result.record.replay()[-1].winner == result.winner


def test_seating_errors() -> None:
    with pytest.raises(ChkobbaError, match="needs 2 bots"):
        seat_bots([GreedyBot()], 2)
    with pytest.raises(ChkobbaError, match="needs 4 bots"):
        seat_bots([GreedyBot()] * 3, 4)
    with pytest.raises(ChkobbaError, match="2, 3 or 4 players"):
        seat_bots([GreedyBot()] * 5, 5)
    assert len(seat_bots([GreedyBot()] * 3, 3)) == 3  # the profile decides if it may play
    with pytest.raises(ChkobbaError, match="not a bot"):
        seat_bots([GreedyBot(), "greedy"], 2)  # type: ignore[list-item]


def test_the_first_dealer_is_drawn_by_lot_or_given() -> None:
    dealers = {play_match([RandomBot(), RandomBot()], seed=s).record.dealer for s in range(12)}
    assert dealers == {0, 1}
    assert play_match([RandomBot(), RandomBot()], seed=1, dealer=1).record.dealer == 1


def test_wilson_interval() -> None:
    low, high = wilson_interval(85, 100)
    assert low == pytest.approx(0.7672, abs=1e-3)
    assert high == pytest.approx(0.9069, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_subseeds_are_stable() -> None:
    # Fixed values: the same in every process and on every platform (a seed worked out
    # from Python's hash() would differ from run to run; the test once compared a value
    # with itself, which any function passes).
    assert subseed(1, 2, 3) == 733464669408481064
    assert subseed(1, 3, 2) == 3180228345967107600
    assert subseed(0) == 7210762507766007076
    assert 0 <= subseed(0) < 2**63


def test_a_tournament_alternates_seats_and_counts_everything() -> None:
    result = tournament(["greedy", "random"], games=6, seed=2)
    assert [m.entrants for m in result.matches] == [(0, 1), (1, 0)] * 3
    greedy, random_bot = result.bots
    assert greedy.name == "greedy" and random_bot.name == "random"
    assert greedy.games == random_bot.games == 6
    assert greedy.wins + random_bot.wins == 6
    assert greedy.wins == sum(m.winner == 0 for m in result.matches)
    assert greedy.deals == sum(m.deals for m in result.matches)
    assert greedy.points_per_deal == pytest.approx(greedy.points / greedy.deals)
    assert greedy.ci_low <= greedy.win_rate <= greedy.ci_high
    data = result.to_dict()
    assert data["games"] == 6 and data["bots"][0]["name"] == "greedy"


@pytest.mark.out_of_process
def test_a_tournament_gives_the_same_results_with_one_and_two_workers() -> None:
    bots = ["greedy", BotSpec.parse("random"), GreedyBot(seed=99), ISMCTSBot(iterations=4)]
    one = tournament(bots, games=2, seed=5, workers=1)
    two = tournament(bots, games=2, seed=5, workers=2)
    assert one == two
    assert [bot.name for bot in one.bots] == ["greedy", "random", "greedy#2", "ismcts"]
    assert len(one.matches) == 6 * 2


def test_a_tournament_reports_progress_and_plays_four_players() -> None:
    seen: list[tuple[int, int]] = []
    result = tournament(
        ["random", "greedy"], games=2, seed=1, players=4, progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(1, 2), (2, 2)]
    assert result.players == 4
    assert all(len(m.entrants) == 4 for m in result.matches)


def test_tournament_arguments_are_checked() -> None:
    with pytest.raises(ChkobbaError, match="games"):
        tournament(["greedy", "random"], games=0, seed=1)
    with pytest.raises(ChkobbaError, match="workers"):
        tournament(["greedy", "random"], games=1, seed=1, workers=0)
    with pytest.raises(ChkobbaError, match="at least 2 bots"):
        tournament(["greedy"], games=1, seed=1)
    with pytest.raises(ChkobbaError, match="not a bot"):
        tournament(["greedy", "deep-blue"], games=1, seed=1)


class Unpicklable:
    def __init__(self) -> None:
        self.hook = lambda: None
        self.inner = RandomBot(seed=1)

    def choose(self, view: object, legal: tuple[object, ...]) -> object:
        return self.inner.choose(view, legal)  # type: ignore[arg-type]


def test_bots_that_cannot_travel_to_workers_are_reported() -> None:
    with pytest.raises(ChkobbaError, match="cannot be sent to worker processes"):
        tournament([Unpicklable(), "random"], games=2, seed=1, workers=2)
    # With one worker they need not travel (a deep copy per match is enough).
    assert len(tournament([Unpicklable(), "random"], games=2, seed=1).matches) == 2


@pytest.mark.parametrize(
    ("wins", "games", "message"),
    [
        (5, 3, "wins must be between 0 and games"),
        (-1, 10, "wins must be between 0 and games"),
        (1, -1, "games must be >= 0, not -1"),
        ("a", 1, "wins must be an integer, not 'a'"),
        (1, 2.0, "games must be an integer, not 2.0"),
        (True, True, "wins must be an integer, not True"),
    ],
)
def test_wilson_interval_refuses_what_is_not_a_count(
    wins: object, games: object, message: str
) -> None:
    with pytest.raises(ChkobbaError, match=message):
        wilson_interval(wins, games)  # type: ignore[arg-type]


def test_wilson_interval_checks_z_and_takes_huge_counts() -> None:
    for z in ("1.96", -1.0, float("nan"), 10**400, True):
        with pytest.raises(ChkobbaError, match="z must be a finite number >= 0"):
            wilson_interval(1, 2, z=z)  # type: ignore[arg-type]
    assert wilson_interval(10**5000, 10**5000) == (1.0, 1.0)
    assert wilson_interval(10**4999, 10**5000) == pytest.approx((0.1, 0.1))
    # Past a float's range the interval is still the Wilson one, not a point.
    low, high = wilson_interval(1, 10**200)
    assert low == pytest.approx(1.7652e-201, rel=1e-4) and high == pytest.approx(
        5.6651e-200, rel=1e-4
    )


@pytest.mark.parametrize("seed", [None, "x", [1], 1.0, True])
def test_a_match_and_a_tournament_need_an_integer_seed(seed: object) -> None:
    with pytest.raises(ChkobbaError, match="play_match: seed must be an integer"):
        play_match([RandomBot(), RandomBot()], seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="tournament: seed must be an integer"):
        tournament(["random", "random"], games=1, seed=seed)  # type: ignore[arg-type]


def test_a_tournament_refuses_a_seed_too_large_to_derive_from() -> None:
    with pytest.raises(ChkobbaError, match="seed an integer of about 5001 digits is too large"):
        tournament(["random", "random"], games=1, seed=10**5000)


def test_callbacks_and_records_are_checked_before_any_match() -> None:
    with pytest.raises(ChkobbaError, match="on_move must be a function or None, not 5"):
        play_match([RandomBot(), RandomBot()], seed=1, on_move=5)  # type: ignore[arg-type]
    for name in ("progress", "on_match"):
        with pytest.raises(ChkobbaError, match=f"{name} must be a function or None, not 5"):
            tournament(["random", "random"], games=1, seed=1, **{name: 5})  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="records must be True, False or 'stream', not 'no'"):
        tournament(["random", "random"], games=1, seed=1, records="no")  # type: ignore[arg-type]


def test_a_match_takes_specs_and_bots_mixed_like_a_tournament() -> None:
    # A spec is built for its seat with a seed derived from the match's seed and the seat.
    built = [make_bot("greedy", seed=subseed(5, 0)), make_bot("random", seed=subseed(5, 1))]
    by_spec = play_match(["greedy", BotSpec.parse("random")], seed=5)
    # (The same match: only the tags differ, a spec's naming the seed it was built with.)
    assert _untagged(by_spec) == _untagged(play_match(built, seed=5))
    assert by_spec == play_match(["greedy", "random"], seed=5)  # reproducible from the seed
    mixed = play_match([GreedyBot(seed=1), "random"], seed=5)
    assert _untagged(mixed) == _untagged(
        play_match([GreedyBot(seed=1), make_bot("random", seed=subseed(5, 1))], seed=5)
    )
    # Two specs as partners: one bot per seat, each with its seat's seed.
    four = play_match(["greedy", "ismcts:iterations=5"], seed=3, players=4)
    assert four.record.players == 4
    seats = [
        make_bot(s, seed=subseed(3, i)) for i, s in enumerate(["greedy", "ismcts:iterations=5"] * 2)
    ]
    assert _untagged(four) == _untagged(play_match(seats, seed=3, players=4))


@pytest.mark.parametrize("bad", ["deep-blue", "greedy:depth=3", 5, None, BotSpec])
def test_a_match_refuses_a_seat_as_a_tournament_refuses_an_entry(bad: object) -> None:
    in_match = refusal(lambda: play_match([GreedyBot(), bad], seed=1))  # type: ignore[list-item]
    in_tournament = refusal(lambda: tournament([GreedyBot(), bad], games=1, seed=1))  # type: ignore[list-item]
    assert in_match == in_tournament
    assert "not a bot" in in_match or "no option" in in_match


def test_a_match_with_specs_refuses_a_seed_too_large_to_derive_from() -> None:
    with pytest.raises(
        ChkobbaError, match="play_match: seed an integer of about 5001 digits is too large"
    ):
        play_match(["random", RandomBot(seed=1)], seed=10**5000)
    # Bot objects need no derived seed: the shuffles take any integer, as before.
    huge = play_match([RandomBot(seed=1), RandomBot(seed=2)], seed=10**5000)
    assert huge.winner in (0, 1)
    assert "seed" not in huge.record.tags  # more digits than Python writes as text


@pytest.mark.parametrize("games", [2, 3, 5])
def test_a_pairs_matches_2k_and_2k_plus_1_share_their_shuffles_whatever_games(games: int) -> None:
    # With an odd number of games a pair could start at an odd game: halving the game
    # number paired its first match with nothing and its second with its third.
    result = tournament(["greedy", "random", "greedy"], games=games, seed=5, records=True)
    by_pair: dict[frozenset[int], list[tuple[int, ...]]] = {}
    for match in result.matches:
        assert match.record is not None
        first_deal = next(m for m in match.record.moves if isinstance(m, Shuffle))
        by_pair.setdefault(frozenset(match.entrants), []).append(first_deal.order)
    assert len(by_pair) == 3
    for orders in by_pair.values():
        assert len(orders) == games
        for k in range(0, games - 1, 2):
            assert orders[k] == orders[k + 1]  # the same cards, seats swapped
        assert len(set(orders[::2])) == len(orders[::2])  # and new ones for the next two


def _untagged(result: MatchResult) -> MatchResult:
    return attrs.evolve(result, record=attrs.evolve(result.record, tags={}))


def test_a_match_record_says_how_to_play_the_match_again() -> None:
    # The tags name the seed and each seat's bot (a spec as text, with the seed it was
    # built from): play_match with them gives the same match.
    result = play_match(["greedy", RandomBot(seed=5)], seed=11)
    tags = result.record.tags
    assert tags["seed"] == "11"
    assert (tags["player0"], tags["player1"]) == ("greedy", "random")  # RandomBot's name
    assert tags["player0_seed"] == str(subseed(11, 0))
    assert "player1_seed" not in tags  # a bot given as it is was built by the caller
    again = play_match([BotSpec.parse(tags["player0"]), RandomBot(seed=5)], seed=int(tags["seed"]))
    assert again.record == result.record
    # The seat's seed builds that seat's bot as the match did.
    bot = BotSpec.parse(tags["player0"]).build(int(tags["player0_seed"]))
    assert repr(bot) == repr(make_bot("greedy", seed=subseed(11, 0)))


def test_a_bot_name_no_record_can_hold_is_tagged_by_its_escape() -> None:
    # A lone surrogate cannot be written in UTF-8, so no Record holds it: the match (and a
    # tournament's, kept with records=True) tags the bot by its escape, and saves.
    class Odd(RandomBot):
        name = "odd\udc80bot"

    record = play_match([Odd(seed=1), "greedy"], seed=3).record
    assert record.tags["player0"] == "odd\\udc80bot"
    assert Record.from_json(record.to_json()) == record
    table = tournament([Odd(seed=1), "greedy"], games=2, seed=1, records=True)
    assert [match.record.tags["player0"] for match in table.matches] == [  # type: ignore[union-attr]
        "odd\\udc80bot",
        "greedy",
    ]
