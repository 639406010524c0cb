"""Tests for the gaps a mutmut audit of stop 65's checks found (the audit of 2026-12-06,
stop 66: commit 93139b9; tools/mutation/README.md).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through. All are in
``chkobba/checks.py``. ``_plainly_won``, the fast path of the check that a deal score's
winners are those its tallies give, must never pass a score that the slow path
(``_deal_winners``) refuses: one category wrong at a time, in each way the fast path
judges it (a tie split at half, a 7♦ holder without a seven or a diamond, nobody
holding it once every card is taken, a category the profile does not play, primiera
sums given or not). The refusal names every winner the tallies allow, in order, nobody
first. The cache of deal scores found sound is keyed by the profile too, and a score met
there does not end the check of the scores after it. After a deal its piles are scored
again with the last capturer's side, which breaks a tie under
``ties_to_last_capturer``, and the primiera sums are compared too.
"""

from __future__ import annotations

import random
import re
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Cut,
    DealScore,
    Phase,
    Rules,
    State,
    apply,
    check_state,
    new_match,
    random_shuffle,
    rollout,
)
from tests.helpers import two_sided_score

_HOUSE_PRIMIERA = attrs.evolve(TUNISIAN, name="house", primiera=True)
_HOUSE_TIES = attrs.evolve(TUNISIAN, name="house", ties_to_last_capturer=True)


def _holding(rules: Rules, *scores: DealScore) -> State:
    """A new match under ``rules`` whose deal scores are ``scores`` (totals to match)."""
    totals = tuple(sum(score.points[side] for score in scores) for side in range(2))
    return attrs.evolve(new_match(rules=rules), deal_scores=scores, scores=totals)


@pytest.mark.parametrize(
    ("rules", "fields", "said"),
    [
        # Every card taken and side 0 and side 1 each hold a seven and a diamond: the 7♦
        # is one of theirs. (_plainly_won 38, 39, 40, 44; _deal_winners 56, 57, 67)
        (
            TUNISIAN,
            {"seven_of_diamonds_winner": None},
            "seven_of_diamonds_winner is None, but its tallies give side 0 or side 1",
        ),
        # Ten cards left to nobody, and side 1 took no seven: the 7♦ is side 0's or
        # nobody's, named in that order. (_plainly_won 2, 35, 36; _deal_winners 56, 57,
        # 64, 66, 67, 68, 69, 70, 72)
        (
            TUNISIAN,
            {
                "seven_of_diamonds_winner": 1,
                "bermila_winner": 0,
                "card_counts": (20, 10),
                "diamond_counts": (5, 0),
                "seven_counts": (2, 0),
            },
            "seven_of_diamonds_winner is 1, but its tallies give nobody or side 0",
        ),
        # Side 0 took sevens but no diamond. (_plainly_won 47)
        (
            TUNISIAN,
            {"diamonds_winner": 1, "diamond_counts": (0, 10)},
            "seven_of_diamonds_winner is 0, but its tallies give side 1",
        ),
        # 20-20 is half, nobody's: side 0 no more than side 1. (_plainly_won 16)
        (TUNISIAN, {"cards_winner": 0}, "cards_winner is 0, but its tallies give nobody"),
        # The diamonds alone wrong, and 5-5 split at half. (_plainly_won 17, 26)
        (
            TUNISIAN,
            {"diamond_counts": (6, 4)},
            "diamonds_winner is None, but its tallies give side 0",
        ),
        (TUNISIAN, {"diamonds_winner": 0}, "diamonds_winner is 0, but its tallies give nobody"),
        # A category the profile does not play: the bermila (_plainly_won 29), the
        # primiera with no sums (_plainly_won 50, 54; _deal_winners 40, 41).
        (
            CARD_RULES_PLUS,
            {"bermila_winner": 0, "seven_counts": (3, 1)},
            "bermila_winner is 0, but its tallies give nobody",
        ),
        (TUNISIAN, {"primiera_winner": 0}, "primiera_winner is 0, but its tallies give nobody"),
        # The primiera played, its sums given. (_plainly_won 51, 54, 55; _deal_winners 40)
        (
            _HOUSE_PRIMIERA,
            {"primiera_sums": (70, 60)},
            "primiera_winner is None, but its tallies give side 0",
        ),
    ],
)
def test_each_winner_its_tallies_deny_is_refused(
    rules: Rules, fields: dict[str, Any], said: str
) -> None:
    state = _holding(rules, two_sided_score(**fields))
    message = f"inconsistent state: deal_scores[0].{said} under the {rules.name} profile"
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}$"):
        check_state(state)


def test_a_score_found_sound_is_checked_again_under_another_profile() -> None:
    # _seats 51: a score remembered as sound for two sides under the Tunisian profile
    # was taken as sound for two sides under any profile.
    score = two_sided_score(bermila_winner=0, seven_counts=(3, 1))
    tunisian = _holding(TUNISIAN, score)
    assert check_state(tunisian) is tunisian
    message = (
        "inconsistent state: deal_scores[0].bermila_winner is 0, but its tallies give "
        "nobody under the cardrulesplus profile"
    )
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}$"):
        check_state(_holding(CARD_RULES_PLUS, score))


def test_a_score_found_sound_before_does_not_end_the_check_of_the_next() -> None:
    # _seats 55: `break` for `continue` past a remembered score left the later ones
    # unchecked.
    sound = two_sided_score()
    first = _holding(TUNISIAN, sound)
    assert check_state(first) is first
    message = (
        "inconsistent state: deal_scores[1].primiera_winner is 0, but its tallies give "
        "nobody under the tunisian profile"
    )
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}$"):
        check_state(_holding(TUNISIAN, sound, two_sided_score(primiera_winner=0)))


def _after_a_tied_deal() -> State:
    """The state after a deal whose diamonds split 5-5, under a profile that gives the
    tie to the last capturer (player 1, side 1)."""
    state = apply(new_match(rules=_HOUSE_TIES), random_shuffle(random.Random(1)))
    state = rollout(apply(state, Cut(keep=False)), random.Random(2))
    score = state.deal_scores[-1]
    assert state.phase is Phase.SHUFFLE and not state.stock and state.last_capturer == 1
    assert score.diamond_counts == (5, 5) and score.diamonds_winner == 1
    return state


def test_after_a_deal_its_piles_are_scored_with_the_last_capturers_side() -> None:
    # _last_deal 4, 6, 13: scored with no last capturer, the 5-5 diamonds were nobody's,
    # and the engine's own state was refused.
    state = _after_a_tied_deal()
    assert check_state(state) is state


def test_after_a_deal_its_primiera_sums_must_be_the_piles() -> None:
    # _last_deal 31 (the primiera sums never compared), 36 and 37 (the two values the
    # message names).
    state = _after_a_tied_deal()
    score = state.deal_scores[-1]
    assert score.primiera_sums == (74, 74)
    fields = attrs.asdict(score, recurse=False) | {"primiera_sums": (70, 74)}
    wrong = attrs.evolve(state, deal_scores=(DealScore(**fields),))
    message = (
        "inconsistent state: deal_scores[-1].primiera_sums is (70, 74), but the piles and "
        "chkobbas the deal left give (74, 74)"
    )
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}$"):
        check_state(wrong)
