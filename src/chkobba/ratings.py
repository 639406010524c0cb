"""Bradley-Terry ratings on the Elo scale, fitted by maximum likelihood to who beat whom.

The model: a bot rated ``r`` beats one rated ``s`` with probability
``1 / (1 + 10 ** ((s - r) / 400))``, so 400 points are odds of 10 to 1 and a difference
gives the same odds whoever the two bots are. :func:`bradley_terry` fits the ratings to a
table of wins; :meth:`chkobba.arena.TournamentResult.ratings` to a tournament's matches.

>>> from chkobba.ratings import bradley_terry
>>> ratings = bradley_terry(["a", "b"], [[0, 30], [10, 0]], prior=0)
>>> round(ratings.difference("a", "b")[0], 1)  # 400 * log10(30 / 10)
190.8
>>> [round(bot.rating, 1) for bot in ratings.bots]  # the mean is 0
[95.4, -95.4]

Every choice is fixed, so the same wins always give the same ratings:

* **Anchor**: only differences are measured; the ratings are shifted so their mean is 0,
  which does not depend on the order of the bots (as "the first bot at 0" would).
* **Prior**: a bot that won every match (or lost every one) has no maximum-likelihood
  rating: its likelihood keeps growing as its rating goes to infinity; the same when the
  bots split into two groups and one group never lost to the other. So by default
  (``prior=1``) every bot is also credited with one virtual win and one virtual loss
  against a virtual bot rated 0, which keeps every rating finite and pulls the ratings
  together by about as much as two more matches per bot would: little against hundreds
  of matches, visible against a handful (with two bots the virtual bot sits at the mean;
  3 wins of 4 give 146 points instead of 191). ``prior=0`` fits the plain
  maximum-likelihood ratings (two bots with ``w`` wins of ``n`` are then exactly
  ``400 * log10(w / (n - w))`` apart) and refuses the wins for which they do not exist.
* **Fit**: Newton's method on the log-likelihood (concave in the ratings; a step that
  would lower it is halved), from every rating at 0, until no rating moves by more than
  ``1e-9`` points. Hunter's MM algorithm is simpler but crawls when one bot is far from
  the rest (999 wins of 1000 take it past 100,000 iterations); Newton's takes a dozen.
* **Uncertainty**: standard errors from the observed Fisher information at the fit (the
  inverse of the log-likelihood's negated Hessian, the prior's virtual matches included):
  a normal approximation, rough with few matches. A bot's ``std_error`` is that of its
  distance to the mean; :meth:`Ratings.difference` gives a pair's difference with its
  own error, from the covariance of the two ratings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from chkobba._describe import finite_at_least_zero, integer_count
from chkobba.errors import ChkobbaError, items_of, shown

__all__ = ["MAX_WINS", "Rating", "Ratings", "bradley_terry"]

#: The most wins one bot may have counted against another: a billion matches, far beyond
#: any tournament, and far below the counts (about 10**15) that floats cannot fit.
MAX_WINS = 10**9

#: Elo points per natural-log unit of odds: a rating is 400 * log10(strength).
_SCALE = 400 / math.log(10)
#: The fit stops when no rating moves by more than this (1e-9 point) from its mean.
_TOLERANCE = 1e-9 / _SCALE
#: A smaller prior than this, but not 0, lets ratings drift so far apart that floats
#: cannot tell the information matrix from a singular one.
_SMALLEST_PRIOR = 0.001
#: Newton's method converges in about a dozen steps; this many means something is wrong.
_MAX_STEPS = 200
#: A step this small (a millionth of an Elo point) that no longer raises the
#: log-likelihood ends the fit: rounding, not the ratings, moves it.
_STALLED = 1e-6 / _SCALE


@attrs.frozen
class Rating:
    """One bot's rating: Elo points above the mean of all the bots' ratings (below it
    when negative), and the rating's standard error.

    >>> from chkobba.ratings import bradley_terry
    >>> best = bradley_terry(["a", "b"], [[0, 3], [1, 0]]).bots[0]  # a won 3 of 4
    >>> best.name, round(best.rating, 1), round(best.std_error, 1)
    ('a', 72.9, 83.5)
    """

    name: str
    rating: float
    std_error: float


@attrs.frozen
class Ratings:
    """Bradley-Terry ratings of every bot (in the order given), the covariance of the
    ratings (points squared, a row and a column per bot), the ``prior`` they were fitted
    with (virtual wins and losses per bot against a bot rated 0) and the Newton ``steps``
    the fit took.

    >>> from chkobba.ratings import bradley_terry
    >>> ratings = bradley_terry(["a", "b", "c"], [[0, 3, 2], [1, 0, 2], [0, 1, 0]])
    >>> [(bot.name, round(bot.rating)) for bot in ratings.bots], ratings.prior
    ([('a', 152), ('b', -20), ('c', -132)], 1.0)
    >>> round(ratings.win_probability("a", "c"), 3)
    0.836
    >>> ratings.win_probability("a", "z")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: no bot named 'z' among the rated ones (a, b, c)
    """

    bots: tuple[Rating, ...]
    covariance: tuple[tuple[float, ...], ...]
    prior: float
    steps: int

    def difference(self, bot: str, opponent: str) -> tuple[float, float]:
        """How many points ``bot`` is rated above ``opponent``, and that difference's
        standard error (from the covariance: the two ratings are not independent)."""
        i, j = self._index(bot), self._index(opponent)
        variance = self.covariance[i][i] + self.covariance[j][j] - 2 * self.covariance[i][j]
        return self.bots[i].rating - self.bots[j].rating, math.sqrt(max(variance, 0.0))

    def win_probability(self, bot: str, opponent: str) -> float:
        """The chance that ``bot`` beats ``opponent`` in one match, as the model says."""
        return 1 / (1 + 10 ** (-self.difference(bot, opponent)[0] / 400))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the prior, every bot's line and the covariance."""
        return {
            "prior": self.prior,
            "bots": [attrs.asdict(bot) for bot in self.bots],
            "covariance": [list(row) for row in self.covariance],
        }

    def _index(self, name: str) -> int:
        if not isinstance(name, str):  # another type may compare in its own way (numpy's)
            raise ChkobbaError(f"a bot's name is text, not {shown(name)}")
        for index, bot in enumerate(self.bots):
            if bot.name == name:
                return index
        names = ", ".join(bot.name for bot in self.bots)
        raise ChkobbaError(f"no bot named {shown(name)} among the rated ones ({names})")


def bradley_terry(
    names: Sequence[str], wins: Sequence[Sequence[int]], *, prior: float = 1.0
) -> Ratings:
    """The Bradley-Terry ratings of ``names`` from ``wins[i][j]``, the matches bot ``i``
    won against bot ``j`` (a square table of integers from 0 to :data:`MAX_WINS`, zero
    on its diagonal).

    ``prior`` is the virtual wins and losses (as many of each) every bot is credited with
    against a virtual bot rated 0: 1 by default (see the module's notes), 0 for none, or
    any finite number from 0.001 up. With ``prior=0`` the ratings exist only if no group
    of bots never lost to the others; otherwise :class:`~chkobba.ChkobbaError` says which
    bots.

    >>> from chkobba.ratings import bradley_terry
    >>> ratings = bradley_terry(["a", "b", "c"], [[0, 3, 4], [1, 0, 3], [0, 1, 0]])
    >>> [bot.name for bot in sorted(ratings.bots, key=lambda bot: -bot.rating)]
    ['a', 'b', 'c']
    """
    labels = _checked_names(names)
    counts = _checked_wins(wins, len(labels))
    prior = _checked_prior(prior)
    if prior == 0:
        _check_connected(labels, counts)
    theta, steps = _fit(counts, prior)
    covariance = _centred(_inverse(_information(counts, prior, theta)))
    mean = math.fsum(theta) / len(theta)
    bots = tuple(
        Rating(name, _SCALE * (value - mean), _SCALE * math.sqrt(max(covariance[i][i], 0.0)))
        for i, (name, value) in enumerate(zip(labels, theta, strict=True))
    )
    scaled = tuple(tuple(_SCALE * _SCALE * cell for cell in row) for row in covariance)
    return Ratings(bots=bots, covariance=scaled, prior=prior, steps=steps)


# --- the arguments ---------------------------------------------------------------------


def _checked_names(names: object) -> tuple[str, ...]:
    labels = items_of(names, "bradley_terry: names")
    if not labels:
        raise ChkobbaError("bradley_terry: there are no bots to rate")
    for label in labels:
        if not isinstance(label, str):
            raise ChkobbaError(f"bradley_terry: a bot's name must be text, not {shown(label)}")
    if len(set(labels)) != len(labels):
        raise ChkobbaError(f"bradley_terry: two bots have the same name in {shown(labels)}")
    return labels


def _checked_wins(wins: object, size: int) -> list[list[int]]:
    rows = items_of(wins, "bradley_terry: wins")
    if len(rows) != size:
        raise ChkobbaError(f"bradley_terry: wins needs a row per bot ({size}), got {len(rows)}")
    table = []
    for i, row in enumerate(rows):
        cells = items_of(row, f"bradley_terry: wins[{i}]")
        if len(cells) != size:
            raise ChkobbaError(
                f"bradley_terry: wins[{i}] needs a count per bot ({size}), got {len(cells)}"
            )
        table.append([_count(cell, f"wins[{i}][{j}]") for j, cell in enumerate(cells)])
        if table[i][i]:
            raise ChkobbaError(f"bradley_terry: a bot cannot beat itself (wins[{i}][{i}])")
    return table


def _count(value: object, where: str) -> int:
    count = integer_count(value)
    if count is None:
        raise ChkobbaError(f"bradley_terry: {where} must be an integer, not {shown(value)}")
    if not 0 <= count <= MAX_WINS:
        raise ChkobbaError(
            f"bradley_terry: {where} must be from 0 to {MAX_WINS:,}, not {shown(count)}"
        )
    return count


def _checked_prior(prior: object) -> float:
    if finite_at_least_zero(prior):
        value = float(prior)  # type: ignore[arg-type]
        if value == 0 or value >= _SMALLEST_PRIOR:
            return value
    raise ChkobbaError(
        f"bradley_terry: prior must be 0 or a finite number >= {_SMALLEST_PRIOR}, "
        f"not {shown(prior)}"
    )


def _check_connected(names: tuple[str, ...], wins: list[list[int]]) -> None:
    """Refuse wins that have no maximum-likelihood ratings (Ford's condition: every bot
    beat every other, directly or through others): when the bots that bot 0 beat that
    way, or those that beat it, are not all of them."""
    for forward, verb in ((True, "beat"), (False, "lost to")):
        reached = _reached(wins, forward=forward)
        if len(reached) < len(names):
            group = _listed(names[i] for i in range(len(names)) if i in reached)
            others = _listed(names[i] for i in range(len(names)) if i not in reached)
            raise ChkobbaError(
                f"bradley_terry: without a prior these ratings do not exist: {group} never "
                f"{verb} {others}, so the gap between them is unbounded (use prior > 0)"
            )


def _listed(names: Iterable[str]) -> str:
    return ", ".join(shown(name) for name in names)


def _reached(wins: list[list[int]], *, forward: bool) -> set[int]:
    """The bots bot 0 beat (``forward``) or lost to, directly or through others."""
    reached, frontier = {0}, [0]
    while frontier:
        i = frontier.pop()
        for j in range(len(wins)):
            if j not in reached and (wins[i][j] if forward else wins[j][i]):
                reached.add(j)
                frontier.append(j)
    return reached


# --- the fit (in natural-log units of odds: theta = rating / _SCALE) --------------------


def _fit(wins: list[list[int]], prior: float) -> tuple[list[float], int]:
    """The maximum-likelihood strengths, by Newton's method with step halving."""
    theta = [0.0] * len(wins)
    for step in range(1, _MAX_STEPS + 1):
        change = _solve(_information(wins, prior, theta), _gradient(wins, prior, theta))
        # Only the ratings minus their mean are reported: a move of them all together
        # (which, with a small prior, rounding alone can make) does not count.
        mean = math.fsum(change) / len(change)
        moves = max(abs(value - mean) for value in change)
        if moves <= _TOLERANCE:
            return theta, step
        before = _log_likelihood(wins, prior, theta)
        theta = _uphill(wins, prior, theta, change)
        # With counts in the hundreds of millions the matrix is so badly conditioned that
        # rounding keeps a step just above the tolerance: a tiny one that no longer raises
        # the log-likelihood has converged too.
        if moves <= _STALLED and _log_likelihood(wins, prior, theta) <= before:
            return theta, step
    raise ChkobbaError(f"bradley_terry: the fit did not converge in {_MAX_STEPS} steps")


def _uphill(
    wins: list[list[int]], prior: float, theta: list[float], change: list[float]
) -> list[float]:
    """The Newton step, halved while it lowers the log-likelihood by more than rounding
    (near the top a step moves it by less than a float tells apart: those steps stand)."""
    start = _log_likelihood(wins, prior, theta)
    floor = start - 1e-12 * max(1.0, abs(start))
    fraction = 1.0
    while True:
        moved = [value + fraction * delta for value, delta in zip(theta, change, strict=True)]
        if _log_likelihood(wins, prior, moved) >= floor or fraction < 1e-12:
            return moved
        fraction /= 2


def _log_sigmoid(x: float) -> float:
    """log(1 / (1 + exp(-x))) without overflow."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _log_likelihood(wins: list[list[int]], prior: float, theta: list[float]) -> float:
    size = range(len(theta))
    terms = [wins[i][j] * _log_sigmoid(theta[i] - theta[j]) for i in size for j in size if i != j]
    terms += [prior * (_log_sigmoid(value) + _log_sigmoid(-value)) for value in theta]
    return math.fsum(terms)


def _gradient(wins: list[list[int]], prior: float, theta: list[float]) -> list[float]:
    """Per bot: its wins minus the wins the model expects, the virtual ones included."""
    size = range(len(theta))
    return [
        math.fsum(
            # w_ij - n_ij p_ij, written so that nothing cancels when p_ij is near 0 or 1
            [
                wins[i][j] * _sigmoid(theta[j] - theta[i])
                - wins[j][i] * _sigmoid(theta[i] - theta[j])
                for j in size
                if j != i
            ]
            + [prior * (_sigmoid(-theta[i]) - _sigmoid(theta[i]))]
        )
        for i in size
    ]


def _information(wins: list[list[int]], prior: float, theta: list[float]) -> list[list[float]]:
    """The negated Hessian of the log-likelihood. Without a prior it is singular (adding
    the same number to every rating changes nothing): the mean's direction gets
    information 1, which the steps and the centred covariance then ignore."""
    size = len(theta)
    matrix = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(size):
            if i != j:
                p = _sigmoid(theta[i] - theta[j])
                matrix[i][j] = -(wins[i][j] + wins[j][i]) * p * (1 - p)
        q = _sigmoid(theta[i])
        matrix[i][i] = -math.fsum(matrix[i]) + 2 * prior * q * (1 - q)
    if prior == 0:
        matrix = [[cell + 1 / size for cell in row] for row in matrix]
    return matrix


# --- linear algebra (a few bots: plain Gauss-Jordan elimination is enough) -------------


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive-definite matrix, by Gauss-Jordan elimination
    with partial pivoting."""
    size = len(matrix)
    rows = [
        list(row) + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)
    ]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        if not math.isfinite(lead) or abs(lead) < 1e-300:
            # Only win counts far beyond any tournament (10**15 and more) get here: the
            # information matrix loses all precision against them.
            raise ChkobbaError(
                "bradley_terry: the fit did not converge: the win counts are too large "
                "to fit in floating point"
            )
        rows[column] = [cell / lead for cell in rows[column]]
        for r in range(size):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[size:] for row in rows]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    return [math.fsum(a * b for a, b in zip(row, vector, strict=True)) for row in _inverse(matrix)]


def _centred(covariance: list[list[float]]) -> list[list[float]]:
    """The covariance of the ratings minus their mean: C · covariance · C, where
    C = I - 1/n removes the mean."""
    size = len(covariance)
    row_means = [math.fsum(row) / size for row in covariance]
    column_means = [math.fsum(column) / size for column in zip(*covariance, strict=True)]
    mean = math.fsum(row_means) / size
    return [
        [covariance[i][j] - row_means[i] - column_means[j] + mean for j in range(size)]
        for i in range(size)
    ]
