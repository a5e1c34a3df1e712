"""Glicko-2 ratings (Mark Glickman's "Example of the Glicko-2 system", 2013), with lichess's
parameters as the defaults: for players answering puzzles and for the puzzles themselves.

A :class:`Rating` is a rating, its deviation (RD: how uncertain it is) and its volatility (how
erratic the player is). :func:`rate` applies one rating period's results (each against an
opponent's rating: 1 a win, 0 a loss, 0.5 a draw), as Glickman's steps 2-8 do; :func:`decay`
is a period with no games (the RD grows, never past :data:`MAX_DEVIATION`). A puzzle's own
rating moves at most :data:`PUZZLE_STEP` per answer (:func:`rate_answer`): one strong or weak
solver must not throw it about. A rating is provisional (shown with ``?``) while its RD is at
least :data:`PROVISIONAL_DEVIATION`; a leaderboard shows only ratings with an RD of at most
:data:`LEADERBOARD_DEVIATION`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# lichess's parameters
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 500.0
DEFAULT_VOLATILITY = 0.09
TAU = 0.75  # how fast volatility may change
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
PROVISIONAL_DEVIATION = 110.0  # RD >= this: provisional ("1623?")
LEADERBOARD_DEVIATION = 75.0  # RD <= this: on the leaderboard
PUZZLE_STEP = 20.0  # the most a puzzle's own rating moves for one answer
RATING_PERIOD_SECONDS = 86_400.0  # one rating period: a day without answers grows the RD once

SCALE = 173.7178  # Glicko-2's scale: 400 / ln(10)
CONVERGENCE = 1e-6  # Glickman's epsilon for the volatility iteration


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION

    @property
    def on_leaderboard(self) -> bool:
        return self.deviation <= LEADERBOARD_DEVIATION

    @property
    def text(self) -> str:
        """``1623``, or ``1623?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


@dataclass(frozen=True, slots=True)
class Bounds:
    """The limits a rating is kept within after a period (lichess's by default). Glickman's
    worked example has none: ``Bounds(0.0, math.inf, math.inf)``."""

    min_deviation: float = MIN_DEVIATION
    max_deviation: float = MAX_DEVIATION
    max_volatility: float = MAX_VOLATILITY


LICHESS = Bounds()
UNBOUNDED = Bounds(0.0, math.inf, math.inf)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` (Glicko-2's E, from the player's side)."""
    mu, mu_j = (player.rating - DEFAULT_RATING) / SCALE, (opponent.rating - DEFAULT_RATING) / SCALE
    return _expected(mu, mu_j, opponent.deviation / SCALE)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Glickman's step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def _bounded(rating: float, phi: float, sigma: float, bounds: Bounds) -> Rating:
    deviation = min(max(phi * SCALE, bounds.min_deviation), bounds.max_deviation)
    return Rating(rating, deviation, min(sigma, bounds.max_volatility))


def rate(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    bounds: Bounds = LICHESS,
) -> Rating:
    """``player`` after one rating period of ``results``: (opponent, score) with score 1 for a
    win, 0.5 a draw, 0 a loss. No results: :func:`decay` by one period."""
    if not results:
        return decay(player, 1.0, bounds=bounds)
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0 (lost) to 1 (won), not {score!r}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    impact = 0.0  # sum of g(phi_j) * (s_j - E_j)
    information = 0.0  # sum of g(phi_j)^2 * E_j * (1 - E_j)
    for opponent, score in results:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        expected = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        impact += g * (score - expected)
        information += g * g * expected * (1.0 - expected)
    v = 1.0 / information
    delta = v * impact
    # Capped before it is used: the volatility kept is the one the period's deviation grew by.
    sigma = min(_volatility(phi, sigma, delta, v, tau), bounds.max_volatility)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu += phi * phi * impact
    return _bounded(mu * SCALE + DEFAULT_RATING, phi, sigma, bounds)


def decay(player: Rating, periods: float, *, bounds: Bounds = LICHESS) -> Rating:
    """``player`` after ``periods`` rating periods without a game: the RD grows as Glickman's
    step 6 makes it grow for each (phi^2 + sigma^2 a period), the rating stays."""
    if periods < 0:
        raise ValueError(f"time goes forward: {periods!r} periods")
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return _bounded(player.rating, grown, player.volatility, bounds)


def decay_since(player: Rating, then: float, now: float, *, bounds: Bounds = LICHESS) -> Rating:
    """``player`` rated at ``then``, at ``now`` (seconds): :func:`decay` by the rating periods
    (:data:`RATING_PERIOD_SECONDS`, fractions counted) between them."""
    return decay(player, max(0.0, now - then) / RATING_PERIOD_SECONDS, bounds=bounds)


def rate_answer(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one answer: a game the player won when they
    solved it, the puzzle won otherwise. The puzzle's rating moves at most :data:`PUZZLE_STEP`."""
    score = 1.0 if solved else 0.0
    new_player = rate(player, [(puzzle, score)])
    rated = rate(puzzle, [(player, 1.0 - score)])
    step = max(-PUZZLE_STEP, min(PUZZLE_STEP, rated.rating - puzzle.rating))
    return new_player, Rating(puzzle.rating + step, rated.deviation, rated.volatility)
