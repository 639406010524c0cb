"""A statistical audit of every source of chance in the library.

A biased sampler is a silent bug: nothing crashes, a search bot just plays worse or the
game is no longer the game. This file finds every place the library draws at random,
reads what the docs promise about the distribution, and tests the promise with
chi-square goodness-of-fit tests (the p-value is computed here, no scipy), each from a
FIXED seed so every run draws the same numbers and the suite is deterministic. A test
passes when its p-value is above ``ALPHA`` (1e-4), strict enough that a fair sampler
essentially never fails, loose enough that the sample sizes below still catch a bias of
a few percentage points in one cell (each test's comment gives its rough power: the
smallest shift of one cell's probability it catches nine times in ten).

The sources of chance, and what each promises:

* ``random_shuffle(rng)`` (moves.py, via ``_shuffle.shuffle``, Fisher-Yates as
  ``random.Random.shuffle``): "a uniformly random Shuffle". Tested: the card at every
  position (the whole 40 x 40 table), the top card (the cut card), the number of cards
  left in place (Sattolo's cycle shuffle leaves none), pairs of positions, and the
  relative order of four cards.
* ``rollout(state, rng)`` (rollouts.py, ``_playout``: its own inside-out Fisher-Yates on
  the kernel's card codes, three places per draw): shuffles drawn from ``rng``, the
  cutter keeps or exposes with probability 1/2, each play uniform among the legal moves.
  The cut's 1/2 and plays from hands of 2 and 4 cards are tested in test_rollout.py and
  test_mutation_gaps.py (loosely); here: the shuffle it draws (2 and 4 players, and the
  CardRulesPlus profile, whose kernel orders the codes otherwise), the cut with 4
  players and independent of the cut card, and plays from a 3-card hand (the kernel's
  own code path for three cards).
* ``chkobba.bots.sampling.determinize`` / ``determinizer``: "deals the cards the viewer
  cannot see at random", "every state it returns could be the real one"; the docs call
  the unweighted samples *uniform* (``ISMCTSBot.sampler``). Tested: every consistent
  assignment enumerated and counted (2 players, 3 players under CardRulesPlus, 4
  players), and where there are too many to enumerate, where each unseen card goes (a
  hand or a place in the stock) and which hand the opponent gets; phase ``CUT`` (the
  cutter's card stays on top) and a kept cut card.
* ``weighted_determinizer``: the opponent's hand drawn with the given weights, the rest of
  the stock "in a random order"; "with equal weights the samples are determinize's in
  distribution". Tested on every assignment.
* ``RandomBot``: "a uniformly random legal move". Tested at a play with 12 legal moves and
  at a cut.
* ``chkobba.bots.ismcts.rollout(state, rng, epsilon, horizon)``: "epsilon ... the chance of
  a uniformly random legal move instead of the policy's"; at a cut the policy has "no
  opinion" (uniform). Tested through one-move rollouts (``horizon=1``). The search's own
  kernel policy rollout (``_policy_rollout._choose``), the untried-move pick and the
  ``inference=1`` rejection sampler (capped at 30 draws, so not exactly the weighted
  law by design) are internal and not tested here.
* The first dealer "by lot": ``play_match`` (``random.Random(seed).randrange(players)``),
  the Gymnasium env (``reset(seed=...)`` and plain resets, from ``np_random``), the
  PettingZoo env (the same), OpenSpiel's first chance node. ``tournament`` draws no lot:
  every match is dealt first by seat 0 and the two bots swap seats, so each deals first
  equally often, as its docs say; that is checked exactly.
* The environments' shuffles (``np_random.permutation``; PettingZoo's first deal tested),
  ``Game.deal`` (one ``random_shuffle`` per deal from the game's own generator; a
  repeated order is drawn again, which never happens by chance).
* OpenSpiel: ``chance_outcomes()`` uniform over the cards left and summing to 1 at every
  node of a shuffle, 1/n for the lot; ``resample_from_infostate`` deals the hidden cards
  "again uniformly into the same places". Tested with a uniform sampler.
* Not promised (so not tested as a distribution): GreedyBot's "seeded tie-breaks" say
  nothing about the odds of tied moves; ExpertBot and ISMCTS only consume determinizations.
  Out of scope: ``complete_state``, the CLI's seeds.

What was found: no bias. Every promise above holds at these sample sizes (the lowest
p-value, 0.005, is numpy's lot over seeds 0 to 3999, at p = 0.3 over 100000 seeds).
GreedyBot's tie-breaks and tournaments' first dealer promise no distribution (see
above). Each test was run against a scratch copy of the library with a planted fault,
and every fault turned at least one test red: Sattolo's shuffle in random_shuffle; its
last swap skipped; an off-by-one in the kernel's inside-out shuffle; a cut kept 17/32
(and 33/64) of the time; a determinizer dealing the first unseen card to the first other
hand 10% more often; RandomBot never playing the last move; play_match's first dealer
always 0; cumulative weights read as weights; epsilon halved; the rollout policy always
cutting the same way; Sattolo in OpenSpiel's resampling; the environments' lots biased;
a kernel 3-card play 1/16 more likely; OpenSpiel chance probabilities of 1/40 for every
card left; PettingZoo's shuffle fixing the last card; Game.deal dealing a Sattolo order.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    Card,
    Cut,
    Move,
    Phase,
    PlayerView,
    Shuffle,
    State,
    apply,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    rollout,
)
from chkobba.arena import play_match, tournament
from chkobba.bots import RandomBot
from chkobba.bots.ismcts import rollout as policy_rollout
from chkobba.bots.sampling import determinizer, weighted_determinizer
from chkobba.game import Game
from tests.helpers import arranged

#: A test passes when its p-value is above this.
ALPHA = 1e-4

# --- the chi-square p-value --------------------------------------------------------------


def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom: the regularized upper
    incomplete gamma Q(df/2, x/2), by its series below a + 1 and Lentz's continued
    fraction above (Numerical Recipes' gser/gcf), in floating point to ~1e-14."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    log_front = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1.0:  # P by its series; Q = 1 - P is not small here
        term = total = 1.0 / a
        n = a
        for _ in range(100_000):
            n += 1.0
            term *= z / n
            total += term
            if term < total * 1e-16:
                break
        return min(1.0, max(0.0, 1.0 - total * math.exp(log_front)))
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


def fit(counts: Sequence[int], probabilities: Sequence[float]) -> float:
    """The p-value of Pearson's goodness-of-fit test of ``counts`` (one multinomial
    sample) against ``probabilities``; a count in a cell of probability 0 gives 0."""
    assert len(counts) == len(probabilities)
    assert math.isclose(sum(probabilities), 1.0, abs_tol=1e-9), sum(probabilities)
    total = sum(counts)
    statistic, cells = 0.0, 0
    for count, p in zip(counts, probabilities, strict=True):
        if p == 0:
            if count:
                return 0.0
            continue
        expected = total * p
        statistic += (count - expected) ** 2 / expected
        cells += 1
    return chi2_sf(statistic, cells - 1)


def uniform_fit(counts: Counter[object], cells: int) -> float:
    """``fit`` against the uniform law on ``cells`` outcomes, of which ``counts`` names
    the ones seen (the others were seen 0 times)."""
    assert len(counts) <= cells, (len(counts), cells)
    seen = list(counts.values()) + [0] * (cells - len(counts))
    return fit(seen, [1.0 / cells] * cells)


def assignment_fit(table: Sequence[Sequence[int]], sizes: Sequence[int]) -> float:
    """The p-value that ``u`` items were dealt by uniform random assignments into groups
    of places of ``sizes`` (summing to ``u``): ``table[i][g]`` counts the draws that put
    item ``i`` in group ``g``. A shuffle's position x card table is the case of groups of
    one place each.

    Each draw is a permutation, so the rows are not independent: for a uniform
    permutation the centred indicators have covariance P / (u - 1), P the projection
    onto tables with zero row and column sums, so Pearson's statistic is u / (u - 1)
    times a chi-square with (u - 1)(G - 1) degrees of freedom; it is scaled back here.
    """
    u, groups = len(table), len(sizes)
    assert sum(sizes) == u and u >= 2 and groups >= 2
    draws = sum(table[0])
    assert all(sum(row) == draws for row in table)
    statistic = 0.0
    for row in table:
        for count, size in zip(row, sizes, strict=True):
            expected = draws * size / u
            statistic += (count - expected) ** 2 / expected
    return chi2_sf(statistic * (u - 1) / u, (u - 1) * (groups - 1))


def passes(p: float, what: str) -> None:
    assert p > ALPHA, f"{what}: p = {p:.3g}, a bias at the {ALPHA:g} level"


def test_the_chi_square_tail_is_right() -> None:
    # Reference values of scipy.stats.chi2.sf, spanning both branches and large df.
    cases = [
        (3.841458820694124, 1, 0.05),
        (15.136705226623606, 1, 1e-4),
        (0.5, 3, 0.9188914116546758),
        (18.307038053275146, 10, 0.05),
        (80.6, 39, 1.0129971298428784e-4),
        (1500.0, 1521, 0.6444632432900694),
        (1734.7, 1521, 1.0015147188937852e-4),
        (200.0, 10, 1.6139305336977317e-37),
    ]
    for x, df, expected in cases:
        assert chi2_sf(x, df) == pytest.approx(expected, rel=1e-9), (x, df)
    assert chi2_sf(0.0, 4) == 1.0
    assert fit([10, 0], [0.5, 0.5]) < 1e-2 and fit([0, 5], [1.0, 0.0]) == 0.0


# --- random_shuffle ----------------------------------------------------------------------

_SHUFFLES = 60_000  # 0.2 s of shuffles; ~4 us each


@pytest.fixture(scope="module")
def shuffled_orders() -> list[tuple[int, ...]]:
    """``_SHUFFLES`` orders from random_shuffle, as deck indices, top first."""
    rng = random.Random(20240601)
    return [tuple(c.index for c in random_shuffle(rng).order) for _ in range(_SHUFFLES)]


def position_table(orders: Iterable[Sequence[int]], cards_: int = 40) -> list[list[int]]:
    """``table[card][position]``: how often each card lay at each position."""
    table = [[0] * cards_ for _ in range(cards_)]
    for order in orders:
        for position, card in enumerate(order):
            table[card][position] += 1
    return table


def test_every_card_is_equally_likely_at_every_position(
    shuffled_orders: list[tuple[int, ...]],
) -> None:
    # The 40 x 40 table (1521 df, 1500 draws a cell): catches a bias of noncentrality
    # ~300 spread anywhere over the table, e.g. Sattolo's shuffle (40 empty cells:
    # ~60000) or one card 45% more likely at one position (the targeted tests below are
    # far more sensitive to biases at the top, in place, or between positions).
    passes(assignment_fit(position_table(shuffled_orders), [1] * 40), "position x card")


def test_the_top_card_is_uniform(shuffled_orders: list[tuple[int, ...]]) -> None:
    # The cut card alone (39 df, 1500 a cell): catches one card off by 0.0052 (a fifth
    # of its 1/40) at the top.
    counts = Counter(order[0] for order in shuffled_orders)
    passes(fit([counts[i] for i in range(40)], [1 / 40] * 40), "top card")


def test_the_number_of_cards_left_in_place_is_that_of_a_uniform_permutation(
    shuffled_orders: list[tuple[int, ...]],
) -> None:
    # Fixed points of a uniform permutation of 40: D(40, k) / 40!, ~Poisson(1). Sattolo's
    # cycle (randrange(i) instead of randrange(i + 1)) never leaves a card in place.
    # Cells 0, 1, 2, 3, 4+ (4 df): catches a shift of 0.015 in P(no fixed point).
    def derangements(n: int) -> int:
        d = [1, 0]
        for m in range(2, n + 1):
            d.append((m - 1) * (d[-1] + d[-2]))
        return d[n]

    exact = [math.comb(40, k) * derangements(40 - k) / math.factorial(40) for k in range(4)]
    probabilities = [*exact, 1.0 - sum(exact)]
    counts = Counter(
        min(4, sum(card == position for position, card in enumerate(order)))
        for order in shuffled_orders
    )
    passes(fit([counts[k] for k in range(5)], probabilities), "fixed points")


@pytest.mark.parametrize(("a", "b"), [(0, 1), (0, 39), (38, 39), (3, 20)])
def test_two_positions_hold_independent_suits(
    shuffled_orders: list[tuple[int, ...]], a: int, b: int
) -> None:
    # The suits at two positions (16 cells, 15 df): same suit 9/156, else 10/156 each.
    # Catches a shift of 0.007 in one cell (about a ninth of it).
    counts = Counter((DECK[o[a]].suit, DECK[o[b]].suit) for o in shuffled_orders)
    suits = sorted({c.suit for c in DECK}, key=lambda s: s.value)
    keys = list(itertools.product(suits, suits))
    probabilities = [(9 if s == t else 10) / 156 for s, t in keys]
    passes(fit([counts[k] for k in keys], probabilities), f"suits at {a} and {b}")


@pytest.mark.parametrize("chosen", [(0, 1, 2, 3), (0, 1, 38, 39), (5, 17, 26, 33)])
def test_four_cards_come_in_every_relative_order_equally(
    shuffled_orders: list[tuple[int, ...]], chosen: tuple[int, ...]
) -> None:
    # The order four given cards come in (24 cells, 23 df, 2500 a cell): catches one
    # order off by 0.006 (a seventh of its 1/24).
    counts: Counter[object] = Counter(
        tuple(c for c in order if c in chosen) for order in shuffled_orders
    )
    passes(uniform_fit(counts, 24), f"relative order of {chosen}")


def test_where_two_cards_lie_is_independent(shuffled_orders: list[tuple[int, ...]]) -> None:
    # The places of the first and the last card of the deck, in 8 bins of 5 positions
    # each (64 cells, 63 df): 25/1560 per cell off the diagonal, 20/1560 on it; catches
    # one cell off by 0.0045.
    counts = Counter((o.index(0) // 5, o.index(39) // 5) for o in shuffled_orders)
    keys = list(itertools.product(range(8), range(8)))
    probabilities = [(20 if i == j else 25) / 1560 for i, j in keys]
    passes(fit([counts[k] for k in keys], probabilities), "bins of cards 0 and 39")


def test_games_deal_uniformly_from_their_own_generator() -> None:
    # Game.deal draws one random_shuffle from the game's generator: the cut card of the
    # first deal over 8000 seeds (39 df, 200 a cell: catches one card off by ~0.014).
    counts: Counter[object] = Counter()
    for seed in range(8000):
        game = Game(seed=seed)
        counts[game.deal().stock[0]] += 1
    passes(uniform_fit(counts, 40), "Game.deal's top card")


# --- rollout -------------------------------------------------------------------------------


def first_deals(
    players: int, count: int, seed: int, rules: object = None
) -> list[tuple[Shuffle, Cut | None]]:
    """The first shuffle (and cut) of ``count`` rollouts of new matches."""
    rng = random.Random(seed)
    start = new_match(players) if rules is None else new_match(players, rules=rules)  # type: ignore[arg-type]
    found: list[tuple[Shuffle, Cut | None]] = []
    for _ in range(count):
        played: list[Move] = []
        rollout(start, rng, moves=played)
        shuffle, cut = played[0], played[1]
        assert isinstance(shuffle, Shuffle)
        found.append((shuffle, cut if isinstance(cut, Cut) else None))
    return found


@pytest.fixture(scope="module")
def rollout_deals() -> list[tuple[Shuffle, Cut | None]]:
    return first_deals(2, 20_000, seed=77)  # ~2 s


def test_rollouts_shuffle_uniformly(rollout_deals: list[tuple[Shuffle, Cut | None]]) -> None:
    # The kernel's inside-out shuffle, position x card (1521 df, 500 a cell): an
    # off-by-one that keeps one card from one place empties a cell (noncentrality 500),
    # a whole Sattolo-type error 40 of them.
    orders = [[c.index for c in shuffle.order] for shuffle, _ in rollout_deals]
    passes(assignment_fit(position_table(orders), [1] * 40), "rollout position x card")
    top = Counter(order[0] for order in orders)
    passes(fit([top[i] for i in range(40)], [1 / 40] * 40), "rollout top card")


def test_rollouts_cut_independently_of_the_cut_card(
    rollout_deals: list[tuple[Shuffle, Cut | None]],
) -> None:
    # Keep or expose x the cut card's suit (8 cells, 7 df, 1/8 each): catches a keep
    # rate off by 0.022 overall (a planted 33/64 was caught at these seeds) or by 0.045
    # for one suit. test_rollout.py checks the 1/2 alone within 5%.
    counts = Counter((cut, shuffle.order[0].suit) for shuffle, cut in rollout_deals)
    keys = [(cut, suit) for cut in (Cut(keep=True), Cut(keep=False)) for suit in _SUITS]
    passes(fit([counts[k] for k in keys], [1 / 8] * 8), "cut x suit of the cut card")


_SUITS = sorted({c.suit for c in DECK}, key=lambda s: s.value)


def test_four_player_rollouts_shuffle_and_cut_fairly() -> None:
    # 8000 deals of 4 players: position x card (1521 df, 200 a cell) and the cut
    # (1 df: catches a keep rate off by 0.029).
    deals = first_deals(4, 8000, seed=78)
    orders = [[c.index for c in shuffle.order] for shuffle, _ in deals]
    passes(assignment_fit(position_table(orders), [1] * 40), "4 players: position x card")
    keeps = sum(cut == Cut(keep=True) for _, cut in deals)
    passes(fit([keeps, len(deals) - keeps], [0.5, 0.5]), "4 players: keep")


def test_rollouts_without_a_cut_shuffle_uniformly() -> None:
    # CardRulesPlus numbers its cards otherwise (J and Q swap values), so its kernel
    # shuffles another code order; no cut is drawn. Position x card, 200 a cell.
    deals = first_deals(2, 8000, seed=79, rules=CARD_RULES_PLUS)
    assert all(cut is None for _, cut in deals)
    orders = [[c.index for c in shuffle.order] for shuffle, _ in deals]
    passes(assignment_fit(position_table(orders), [1] * 40), "CardRulesPlus position x card")


def _many_plays() -> State:
    """A position whose player to move has 3 cards and 12 legal plays (5D: 2, KC: 6,
    7S: 4), and a deal that ends after six plays (no stock)."""
    return arranged(
        dealer=1,
        hands=[cards("5D KC 7S"), cards("2C 3C 4C")],
        table=cards("AS 4S 2H 3H 5C 5H"),
        stock=[],
    )


def test_rollouts_play_uniformly_from_a_hand_of_three() -> None:
    # The kernel's 3-card path (hands of 2 and 4 are tested elsewhere): 12 plays, uneven
    # per card (2, 6, 4), so choosing a card first would give 5D 1/3 instead of 1/6.
    # 24000 rollouts, 2000 a cell (11 df): catches one play off by 0.012.
    state = _many_plays()
    legal = legal_moves(state)
    assert len(legal) == 12
    rng = random.Random(5)
    counts: Counter[object] = Counter()
    for _ in range(24_000):
        played: list[Move] = []
        rollout(state, rng, moves=played)
        counts[played[0]] += 1
    assert set(counts) <= set(legal)
    passes(uniform_fit(counts, len(legal)), "first play from three cards")


# --- determinize ---------------------------------------------------------------------------


#: What a determinization decides: the other hands (as sets) and the stock's order.
_Key = tuple[tuple[frozenset[Card], ...], tuple[Card, ...]]


def assignment_key(state: State, viewer: int) -> _Key:
    """The key of ``state``'s assignment of the cards ``viewer`` cannot see."""
    hands = tuple(frozenset(hand) for p, hand in enumerate(state.hands) if p != viewer)
    return hands, state.stock


def assignments(view: PlayerView) -> int:
    """How many ways the view's unseen cards can fill the other hands and the stock."""
    sizes = [size for p, size in enumerate(view.hand_sizes) if p != view.player]
    count = math.factorial(len(view.unseen()))
    for size in sizes:
        count //= math.factorial(size)
    return count


def enumerated_fit(view: PlayerView, draw: Callable[[random.Random], State], n: int) -> float:
    """Draw ``n`` samples and test them against the uniform law on every assignment
    consistent with ``view`` (each sample is checked to be one)."""
    rng = random.Random(n)
    unseen = set(view.unseen())
    counts: Counter[object] = Counter()
    for i in range(n):
        sample = draw(rng)
        if i < 50:
            assert observe(sample, view.player) == view
        key = assignment_key(sample, view.player)
        hidden = [c for hand in key[0] for c in hand] + list(key[1])
        assert len(hidden) == len(unseen) and set(hidden) == unseen
        counts[key] += 1
    return uniform_fit(counts, assignments(view))


def _two_players_few_unseen() -> PlayerView:
    """Player 0's view: the opponent holds 2 cards, the stock 3 (a hand-built puzzle,
    which determinize accepts): 5!/2! = 60 assignments."""
    state = arranged(
        dealer=1,
        hands=[cards("5D KC"), cards("2C 3C")],
        table=cards("AS 4S 2H"),
        stock=cards("QD JD KD"),
    )
    return observe(state, 0)


def test_two_player_determinizations_are_uniform_over_every_assignment() -> None:
    # 60 assignments, 24000 draws, 400 a cell (59 df): catches one off by 0.0072 (43% of
    # its 1/60); a sampler that deals the first unseen card to the opponent 10% more
    # often (a planted fault) fails by far.
    view = _two_players_few_unseen()
    assert assignments(view) == 60
    passes(enumerated_fit(view, determinizer(view), 24_000), "2 players, all assignments")


def test_three_player_determinizations_are_uniform_over_every_assignment() -> None:
    # CardRulesPlus, 3 players each for himself: player 1 sees hands of 2 and 2 and a stock
    # of 2: 6!/(2!2!) = 180 assignments, 36000 draws, 200 a cell (179 df).
    state = arranged(
        3,
        dealer=2,
        current=1,
        hands=[cards("2C 3C"), cards("5D KC"), cards("4C 6C")],
        table=cards("AS 4S 2H"),
        stock=cards("QD JD"),
        captured=((), (), ()),
        chkobbas=(0, 0, 0),
        scores=(0, 0, 0),
        rules=CARD_RULES_PLUS,
    )
    view = observe(state, 1)
    assert assignments(view) == 180
    passes(enumerated_fit(view, determinizer(view), 36_000), "3 players, all assignments")


def test_four_player_determinizations_are_uniform_over_every_assignment() -> None:
    # 4 players in the last round, each has played once (reachable): player 0 sees three
    # hands of 2, no stock: 6!/(2!2!2!) = 90 assignments, 27000 draws, 300 a cell (89
    # df): catches one off by 0.006.
    state = arranged(
        4,
        dealer=3,
        current=0,
        hands=[cards("5D KC"), cards("2C 3C"), cards("4C 6C"), cards("QD JD")],
        table=cards("AS 4S 2H"),
        stock=[],
    )
    view = observe(state, 0)
    assert assignments(view) == 90
    passes(enumerated_fit(view, determinizer(view), 27_000), "4 players, all assignments")


def played_to(state: State, rng: random.Random, stop: Callable[[State], bool]) -> State:
    """``state`` played with random shuffles and random legal moves until ``stop``."""
    for _ in range(500):
        if stop(state):
            return state
        if state.is_chance:
            state = apply(state, random_shuffle(rng))
        else:
            state = apply(state, rng.choice(legal_moves(state)))
    raise AssertionError("the position was never reached")


def location_fit(
    view: PlayerView, draw: Callable[[random.Random], State], n: int, seed: int
) -> tuple[float, float]:
    """Where each unseen card goes (each other hand a group, each stock place one), as
    :func:`assignment_fit`, and which hand the first other player gets (uniform over the
    hands of its size), over ``n`` samples."""
    rng = random.Random(seed)
    unseen = list(view.unseen())
    row = {c: i for i, c in enumerate(unseen)}
    others = [p for p in range(view.players) if p != view.player]
    top = 1 if view.phase is Phase.CUT and view.cut_card is not None else 0
    sizes = [view.hand_sizes[p] for p in others if view.hand_sizes[p]]
    stock_places = view.stock_size - top
    groups = len(sizes) + stock_places
    table = [[0] * groups for _ in unseen]
    first = others[0]
    hands: Counter[object] = Counter()
    for _ in range(n):
        sample = draw(rng)
        if top:
            assert sample.stock[0] == view.cut_card
        g = 0
        for p in others:
            if view.hand_sizes[p]:
                for c in sample.hands[p]:
                    table[row[c]][g] += 1
                g += 1
        for place, c in enumerate(sample.stock[top:]):
            table[row[c]][g + place] += 1
        hands[frozenset(sample.hands[first])] += 1
    placed = assignment_fit(table, [*sizes, *[1] * stock_places])
    possible = math.comb(len(unseen), view.hand_sizes[first])
    held = uniform_fit(hands, possible) if possible > 1 else 1.0  # (an empty hand: one)
    return placed, held


def test_determinizations_of_a_real_two_player_position() -> None:
    # The fifth round of a random deal, the cutter to lead: 9 unseen cards (3 in the
    # opponent's hand, 6 in the stock). Card x place (48 df, 20000 draws): catches one
    # card 3.4 points more likely in the opponent's hand than its 1/3; the opponent's hand
    # over its 84 possible (83 df, 238 a cell: catches one hand off by 0.005).
    start = apply(new_match(), random_shuffle(random.Random(3)))
    state = played_to(
        start,
        random.Random(4),
        lambda s: s.phase is Phase.PLAY and len(s.stock) == 6 and sum(map(len, s.hands)) == 6,
    )
    viewer: int = state.current_player  # type: ignore[assignment]
    view = observe(state, viewer)
    assert len(view.unseen()) == 9
    placed, held = location_fit(view, determinizer(view), 20_000, seed=1)
    passes(placed, "2 players: card x place")
    passes(held, "2 players: the opponent's hand")


def test_determinizations_of_a_real_four_player_position() -> None:
    # 4 players at the start of the second round: 21 unseen cards, three hands of 3 and a
    # stock of 12 (15 groups, 280 df), 10000 draws.
    start = apply(new_match(4), random_shuffle(random.Random(5)))
    state = played_to(
        start,
        random.Random(6),
        lambda s: s.phase is Phase.PLAY and len(s.stock) == 12 and sum(map(len, s.hands)) == 12,
    )
    view = observe(state, 2)
    assert len(view.unseen()) == 21
    placed, held = location_fit(view, determinizer(view), 10_000, seed=2)
    passes(placed, "4 players: card x place")
    passes(held, "4 players: player 1's hand (1330 hands, a check of no gross bias)")


@pytest.mark.parametrize("viewer", [0, 1])
def test_determinizations_at_the_cut(viewer: int) -> None:
    # Phase CUT: the cutter (player 1 here) has seen the top card, which stays on top;
    # the other 39 (or all 40) are a uniform order: position x card, 8000 draws, ~200 a
    # cell (1444 or 1521 df).
    state = apply(new_match(), random_shuffle(random.Random(7)))
    assert state.phase is Phase.CUT and state.current_player == 1
    view = observe(state, viewer)
    placed, _ = location_fit(view, determinizer(view), 8000, seed=3)
    passes(placed, f"cut, viewer {viewer}")


def test_determinizations_after_a_kept_cut_card() -> None:
    # The dealer's view after the cutter kept the cut card: the cutter's 3 cards (the
    # kept one among them) and the stock of 30 are 33 unseen cards (31 groups, 960 df).
    state = apply(apply(new_match(), random_shuffle(random.Random(9))), Cut(keep=True))
    assert state.phase is Phase.PLAY
    view = observe(state, 0)
    assert len(view.unseen()) == 33
    placed, _ = location_fit(view, determinizer(view), 8000, seed=4)
    passes(placed, "kept cut card: card x place")


def test_weighted_determinizations_follow_the_weights() -> None:
    # The opponent's 10 possible hands weighted 1 to 10, the stock of 3 in every order:
    # 60 assignments of probability w/55/6 (59 df, 30000 draws): catches the heaviest
    # hand's 10/55 off by 0.021 (cumulative weights read as weights shift it by ~0.1).
    view = _two_players_few_unseen()
    hands: list[tuple[Card, ...]] = list(itertools.combinations(view.unseen(), 2))
    weights = list(range(1, len(hands) + 1))
    cumulative = list(itertools.accumulate(map(float, weights)))
    sample = weighted_determinizer(view, hands, cumulative)
    rng = random.Random(11)
    counts: Counter[_Key] = Counter()
    for _ in range(30_000):
        counts[assignment_key(sample(rng), 0)] += 1
    keys, probabilities = [], []
    for hand, weight in zip(hands, weights, strict=True):
        stock = [c for c in view.unseen() if c not in hand]
        for order in itertools.permutations(stock):
            keys.append(((frozenset(hand),), tuple(order)))
            probabilities.append(weight / sum(weights) / 6)
    assert set(counts) <= set(keys)
    passes(fit([counts[k] for k in keys], probabilities), "weighted determinizations")


def test_equal_weights_draw_as_determinize_does() -> None:
    # "With equal weights the samples are determinize's in distribution": uniform over the
    # same 60 assignments (24000 draws, as the unweighted test).
    view = _two_players_few_unseen()
    hands: list[tuple[Card, ...]] = list(itertools.combinations(view.unseen(), 2))
    cumulative = [float(i + 1) for i in range(len(hands))]
    draw = weighted_determinizer(view, hands, cumulative)
    passes(enumerated_fit(view, draw, 24_000), "equal weights, all assignments")


# --- bots ----------------------------------------------------------------------------------


def test_random_bot_plays_every_legal_move_equally_often() -> None:
    # 12 legal plays, 24000 choices, 2000 a cell (11 df): catches one move off by 0.012,
    # e.g. a bot that never plays the last move (a whole cell empty).
    state = _many_plays()
    view, legal = observe(state, 0), legal_moves(state)
    bot = RandomBot(seed=13)
    counts = Counter(bot.choose(view, legal) for _ in range(24_000))
    passes(fit([counts[m] for m in legal], [1 / len(legal)] * len(legal)), "RandomBot plays")


def test_random_bot_keeps_and_exposes_equally_often() -> None:
    # A cut: 2 moves, 20000 choices (1 df): catches a keep rate off by 0.018.
    state = apply(new_match(), random_shuffle(random.Random(14)))
    view, legal = observe(state, 1), legal_moves(state)
    assert set(legal) == {Cut(keep=True), Cut(keep=False)}
    bot = RandomBot(seed=15)
    counts = Counter(bot.choose(view, legal) for _ in range(20_000))
    passes(fit([counts[m] for m in legal], [0.5, 0.5]), "RandomBot cut")


def test_the_policy_rollout_plays_a_random_move_with_chance_epsilon() -> None:
    # One move (horizon=1) from a position where the policy's move is unique: it comes
    # with 1 - epsilon + epsilon/12, every other legal move with epsilon/12. 24000 moves
    # at epsilon 0.3 (11 df): catches epsilon off by ~0.02 (an epsilon read as epsilon/2
    # moves 1650 draws).
    state = _many_plays()
    legal = legal_moves(state)
    after = {apply(state, move): move for move in legal}
    rng = random.Random(16)
    greedy = {after[policy_rollout(state, rng, 0.0, 1)] for _ in range(200)}
    assert len(greedy) == 1  # the policy's move, no ties
    (best,) = greedy
    epsilon = 0.3
    counts = Counter(after[policy_rollout(state, rng, epsilon, 1)] for _ in range(24_000))
    probabilities = [epsilon / 12 + (1 - epsilon) * (m == best) for m in legal]
    passes(fit([counts[m] for m in legal], probabilities), "epsilon-greedy rollout move")


def test_the_policy_rollout_has_no_opinion_at_a_cut() -> None:
    # At a cut the default policy picks uniformly, epsilon 0: 20000 cuts (1 df): catches
    # a keep rate off by 0.018.
    state = apply(new_match(), random_shuffle(random.Random(17)))
    after = {apply(state, cut): cut for cut in legal_moves(state)}
    rng = random.Random(18)
    counts = Counter(after[policy_rollout(state, rng, 0.0, 1)] for _ in range(20_000))
    passes(fit([counts[Cut(keep=True)], counts[Cut(keep=False)]], [0.5, 0.5]), "policy cut")


# --- the first dealer ----------------------------------------------------------------------


class _Stop(Exception):
    """Ends a match at its first move."""


def first_dealer_of_play_match(seed: int, players: int) -> int:
    dealers: list[int] = []

    def stop(before: State, move: Move, after: State) -> None:
        dealers.append(before.dealer)
        raise _Stop

    with pytest.raises(_Stop):
        play_match(["random"] * players, seed=seed, players=players, on_move=stop)
    return dealers[0]


@pytest.mark.parametrize("players", [2, 4])
def test_play_match_draws_the_first_dealer_by_lot(players: int) -> None:
    # Seeds 0 to 5999 (1 or 3 df): catches a dealer off by 0.033 (2 players) or 0.037 (4).
    counts = Counter(first_dealer_of_play_match(seed, players) for seed in range(6000))
    passes(fit([counts[d] for d in range(players)], [1 / players] * players), "play_match lot")


def test_tournaments_let_each_bot_deal_first_equally_often() -> None:
    # No lot here: seat 0 deals every match and the pair swaps seats, so each bot deals
    # first in half the matches (the docs' promise), exactly.
    table = tournament(["random", "random"], games=4, seed=3, records=True)
    dealers: Counter[int] = Counter()
    for match in table.matches:
        assert match.record is not None and match.record.dealer == 0
        dealers[match.entrants[0]] += 1
    assert dealers == {0: 2, 1: 2}


@pytest.mark.parametrize("players", [2, 4])
def test_the_gymnasium_env_draws_the_first_dealer_by_lot(players: int) -> None:
    # reset(seed=s) for 3000 seeds, then 3000 plain resets continuing one generator; each
    # catches a dealer off by 0.047 (2 players) or 0.052 (4).
    pytest.importorskip("gymnasium")
    pytest.importorskip("numpy")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv("random", players=players, single_deal=True)
    seeded: Counter[int] = Counter()
    for seed in range(3000):
        env.reset(seed=seed)
        seeded[env.position.state.dealer] += 1
    env.reset(seed=12345)
    continued: Counter[int] = Counter()
    for _ in range(3000):
        env.reset()
        continued[env.position.state.dealer] += 1
    uniform = [1 / players] * players
    passes(fit([seeded[d] for d in range(players)], uniform), "gymnasium lot by seed")
    passes(fit([continued[d] for d in range(players)], uniform), "gymnasium lot, plain resets")


@pytest.mark.parametrize("players", [2, 4])
def test_the_pettingzoo_env_draws_the_first_dealer_by_lot(players: int) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("numpy")
    from chkobba.pettingzoo import raw_env

    # Seeds 0 to 3999 (1 or 3 df): catches a dealer off by 0.041 (2 players) or 0.045
    # (4). (numpy's first draws from seeds 0 to 3999 happen to sit at p = 0.02 and 0.005;
    # 100000 seeds give p = 0.5 and 0.3: no bias.)
    env = raw_env(players=players, single_deal=True)
    counts: Counter[int] = Counter()
    for seed in range(4000):
        env.reset(seed=seed)
        counts[env.match_state.dealer] += 1
    passes(fit([counts[d] for d in range(players)], [1 / players] * players), "pettingzoo lot")


def test_the_pettingzoo_env_shuffles_uniformly() -> None:
    # After a reset the cutter is to act: the state holds the first shuffle whole, in
    # phase CUT (no redeal has been decided yet). Position x card, 6000 resets, 150 a cell.
    pytest.importorskip("pettingzoo")
    pytest.importorskip("numpy")
    from chkobba.pettingzoo import raw_env

    env = raw_env(single_deal=True)
    env.reset(seed=99)
    orders = []
    for _ in range(6000):
        env.reset()
        state = env.match_state
        assert state.phase is Phase.CUT
        orders.append([c.index for c in state.stock])
    passes(assignment_fit(position_table(orders), [1] * 40), "pettingzoo position x card")


# --- OpenSpiel -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_chance_outcomes_are_uniform_over_what_is_left(players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("chkobba.openspiel")
    params: dict[str, object] = {"players": players, "single_deal": True}
    if players == 3:
        params["rules"] = "cardrulesplus"
    state = pyspiel.load_game("python_chkobba", params).new_initial_state()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(players))
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    state.apply_action(1)
    rng = random.Random(players)
    left = set(range(40))
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(o for o, _ in outcomes) == sorted(left)
        assert all(p == pytest.approx(1 / len(left)) for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        assert sorted(state.legal_actions()) == sorted(left)
        drawn = rng.choice(sorted(left))
        state.apply_action(drawn)
        left.discard(drawn)
    assert not left


def test_openspiel_resampling_deals_the_hidden_cards_uniformly() -> None:
    # The fifth round of a 2-player deal, player to lead: 9 hidden cards (3 in the other
    # hand, 6 in the stock). 8000 resamples with a uniform sampler: card x place (48 df,
    # catches one card 5 points more likely in the other hand) and the other hand over
    # its 84 possible.
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("chkobba.openspiel")
    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    state = game.new_initial_state()
    rng = random.Random(21)
    state.apply_action(0)
    for card in rng.sample(range(40), 40):
        state.apply_action(card)
    for _ in range(200):
        core = state.match_state
        if core.phase is Phase.PLAY and len(core.stock) == 6 and sum(map(len, core.hands)) == 6:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    core = state.match_state
    assert len(core.stock) == 6 and state.position.pending is None
    player = state.current_player()
    view = observe(core, player)
    sampler = random.Random(22).random

    def draw(_: random.Random) -> State:
        sample = state.resample_from_infostate(player, sampler)
        result: State = sample.match_state
        return result

    placed, held = location_fit(view, draw, 8000, seed=0)
    passes(placed, "openspiel resample: card x place")
    passes(held, "openspiel resample: the other hand")
