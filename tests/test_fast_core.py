"""The fast core (issue #8): its kernel agrees with the straightforward rules.

The scorer used at the end of every deal (:func:`chkobba._kernel.score`) must equal
:func:`~chkobba.score_deal` for every profile and side count.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import DECK, score_deal
from chkobba._kernel import score
from tests.helpers import random_rules
from tests.strategies import seeds


@settings(max_examples=300, deadline=None)
@given(seeds(), st.sampled_from([2, 3]))
def test_the_fast_scorer_is_score_deal(seed: int, sides: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    # Sometimes a few leftovers belong to nobody (a deal without any capture).
    choices = [*range(sides), *([None] if rng.random() < 0.3 else [])]
    owners = [rng.choice(choices) for _ in DECK]
    order = list(DECK)
    rng.shuffle(order)
    piles = tuple(
        tuple(c for c, o in zip(order, owners, strict=True) if o == side) for side in range(sides)
    )
    sweeps = tuple(rng.randint(0, 5) for _ in range(sides))
    last = rng.choice([None, *range(sides)])
    expected = score_deal(piles, sweeps, rules, last_capturer_side=last)
    assert score(piles, sweeps, rules, last) == expected
