"""The FIBS rating formula, and the expected result of a claimed match.

For an ``n``-point match between ratings r1 and r2: D = |r1 - r2|,
P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1); P = 1 - P_upset when the underdog wins, else
P_upset. Each player's K = max(1, 5 - experience / 100), using experience before the match. The
winner gains 4 * K * sqrt(n) * P, the loser loses 4 * K * sqrt(n) * P with their own K, and both
add n to their experience.

A claimed match, its claimer winning the position left with chance p, moves each rating by p x
its change had the claimer won plus (1 - p) x its change had they lost; then a claim never
lowers the claimer's rating nor raises the abandoner's (both held where they were instead).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0


@dataclass(frozen=True, slots=True)
class RatingChange:
    winner_rating: float
    loser_rating: float
    winner_experience: int
    loser_experience: int


def upset_probability(rating_difference: float, length: int) -> float:
    """The chance that the lower-rated player wins an ``length``-point match."""
    exponent = abs(rating_difference) * math.sqrt(length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def k_factor(experience: int) -> float:
    return max(1.0, 5.0 - experience / 100.0)


def rate_match(winner: tuple[float, int], loser: tuple[float, int], length: int) -> RatingChange:
    """New (rating, experience) for both players of a finished ``length``-point match.

    ``winner`` and ``loser`` are (rating, experience) before the match.
    """
    if length < 1:
        raise ValueError("only matches of 1 point or more are rated")
    (winner_rating, winner_experience), (loser_rating, loser_experience) = winner, loser
    upset = upset_probability(winner_rating - loser_rating, length)
    underdog_won = winner_rating < loser_rating
    probability = 1.0 - upset if underdog_won else upset
    scale = 4.0 * math.sqrt(length) * probability
    return RatingChange(
        winner_rating=winner_rating + k_factor(winner_experience) * scale,
        loser_rating=loser_rating - k_factor(loser_experience) * scale,
        winner_experience=winner_experience + length,
        loser_experience=loser_experience + length,
    )


def expected_change(
    claimer: tuple[float, int], other: tuple[float, int], length: int, chance: float
) -> RatingChange:
    """The expected result of a match left unfinished, ``claimer`` winning it with ``chance``:
    each rating moves by ``chance`` x its change if the claimer won plus ``1 - chance`` x its
    change if the claimer lost. The "winner" of the result is the claimer."""
    if not 0.0 <= chance <= 1.0:
        raise ValueError(f"a chance is between 0 and 1, not {chance!r}")
    won = rate_match(claimer, other, length)
    lost = rate_match(other, claimer, length)
    return RatingChange(
        winner_rating=chance * won.winner_rating + (1 - chance) * lost.loser_rating,
        loser_rating=chance * won.loser_rating + (1 - chance) * lost.winner_rating,
        winner_experience=won.winner_experience,
        loser_experience=won.loser_experience,
    )


def claim_change(
    claimer: tuple[float, int], other: tuple[float, int], length: int, chance: float
) -> RatingChange:
    """The rating change of a claimed match: :func:`expected_change`, except that the claimer
    never loses rating by it and the player who stopped acting never gains any (a claimer
    behind in the position left keeps their rating; so does the abandoner, ahead in it)."""
    expected = expected_change(claimer, other, length, chance)
    return RatingChange(
        winner_rating=max(claimer[0], expected.winner_rating),
        loser_rating=min(other[0], expected.loser_rating),
        winner_experience=expected.winner_experience,
        loser_experience=expected.loser_experience,
    )
