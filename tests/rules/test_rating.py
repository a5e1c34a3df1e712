from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.rating import (
    claim_change,
    expected_change,
    k_factor,
    rate_match,
    upset_probability,
)


def test_equal_newcomers_five_point_match() -> None:
    # D = 0 -> P_upset = 1/2; K = 5 for both; 4 * 5 * sqrt(5) * 0.5 = 22.3607.
    change = rate_match((1500.0, 0), (1500.0, 0), 5)
    assert change.winner_rating == pytest.approx(1522.3607, abs=1e-4)
    assert change.loser_rating == pytest.approx(1477.6393, abs=1e-4)
    assert (change.winner_experience, change.loser_experience) == (5, 5)


def test_favourite_wins_seven_points() -> None:
    # D = 200, n = 7: P_upset = 1 / (10^(200 * sqrt 7 / 2000) + 1) = 0.352240.
    # The favourite won, so P = P_upset; 4 * sqrt 7 * P = 3.727760.
    # Winner K = max(1, 5 - 500/100) = 1; loser K = 5.
    change = rate_match((1700.0, 500), (1500.0, 0), 7)
    assert upset_probability(200, 7) == pytest.approx(0.352240, abs=1e-6)
    assert change.winner_rating == pytest.approx(1703.7278, abs=1e-4)
    assert change.loser_rating == pytest.approx(1481.3612, abs=1e-4)


def test_underdog_wins_three_points() -> None:
    # D = 200, n = 3: P_upset = 0.401596; the underdog won, so P = 0.598404.
    # Winner K = 5 - 250/100 = 2.5, loser K = 5 - 50/100 = 4.5; 4 * sqrt 3 * P = 4.145864.
    change = rate_match((1500.0, 250), (1700.0, 50), 3)
    assert change.winner_rating == pytest.approx(1510.3647, abs=1e-4)
    assert change.loser_rating == pytest.approx(1681.3436, abs=1e-4)
    assert (change.winner_experience, change.loser_experience) == (253, 53)


def test_k_factor_floor_and_money_games_unrated() -> None:
    assert k_factor(0) == 5
    assert k_factor(150) == 3.5
    assert k_factor(10_000) == 1
    with pytest.raises(ValueError):
        rate_match((1500.0, 0), (1500.0, 0), 0)


ratings = st.tuples(
    st.floats(min_value=500.0, max_value=2500.0, allow_nan=False), st.integers(0, 5_000)
)


@given(ratings, ratings, st.integers(1, 25), st.floats(0.0, 1.0))
def test_a_claim_never_costs_the_claimer_nor_pays_the_abandoner(
    claimer: tuple[float, int], other: tuple[float, int], length: int, chance: float
) -> None:
    change = claim_change(claimer, other, length, chance)
    expected = expected_change(claimer, other, length, chance)
    assert change.winner_rating >= claimer[0]
    assert change.loser_rating <= other[0]
    # Held where the expected result would have gone the wrong way, else the expected result.
    assert change.winner_rating == max(claimer[0], expected.winner_rating)
    assert change.loser_rating == min(other[0], expected.loser_rating)
    assert (change.winner_experience, change.loser_experience) == (
        claimer[1] + length,
        other[1] + length,
    )


def test_the_abandoner_ahead_keeps_their_rating_and_so_does_the_claimer() -> None:
    # The case: the claimer behind in the position left (a 30% chance) would have lost
    # rating and the abandoner gained it; both stay.
    claimer, other = (1527.2, 40), (1502.7, 40)
    expected = expected_change(claimer, other, 3, 0.3)
    assert expected.winner_rating < claimer[0] and expected.loser_rating > other[0]
    change = claim_change(claimer, other, 3, 0.3)
    assert (change.winner_rating, change.loser_rating) == (claimer[0], other[0])
    # Ahead in it, the claimer gains what the expected result gives.
    ahead = claim_change(claimer, other, 3, 0.8)
    assert ahead == expected_change(claimer, other, 3, 0.8)
