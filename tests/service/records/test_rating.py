from __future__ import annotations

import pytest

from bot.service.records.rating import k_factor, rate_match, upset_probability


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
