"""Glicko-2: Glickman's worked example, figure by figure, and properties any rating must keep."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.glicko import (
    DEFAULT_DEVIATION,
    DEFAULT_RATING,
    DEFAULT_VOLATILITY,
    MAX_DEVIATION,
    MIN_DEVIATION,
    PUZZLE_STEP,
    RATING_PERIOD_SECONDS,
    SCALE,
    TAU,
    UNBOUNDED,
    Rating,
    decay,
    decay_since,
    expected_score,
    rate,
    rate_answer,
)

EXAMPLE_PLAYER = Rating(1500.0, 200.0, 0.06)
EXAMPLE_RESULTS = [
    (Rating(1400.0, 30.0), 1.0),
    (Rating(1550.0, 100.0), 0.0),
    (Rating(1700.0, 300.0), 0.0),
]


def test_glickmans_worked_example() -> None:
    """ "Example of the Glicko-2 system" (Glickman, 2013): tau 0.5, three games. The paper
    rounds each step to four decimals (mu' = -0.2069, phi' = 0.8722) and scales those: 1464.06
    and 151.52. Unrounded, the same steps give 1464.0507 and 151.5165."""
    rated = rate(EXAMPLE_PLAYER, EXAMPLE_RESULTS, tau=0.5, bounds=UNBOUNDED)
    mu = (rated.rating - 1500.0) / SCALE
    phi = rated.deviation / SCALE
    assert (round(mu, 4), round(phi, 4)) == (-0.2069, 0.8722)
    assert round(round(mu, 4) * SCALE + 1500.0, 2) == 1464.06
    assert round(round(phi, 4) * SCALE, 2) == 151.52
    assert rated.volatility == pytest.approx(0.05999, abs=1e-5)
    assert (round(rated.rating, 4), round(rated.deviation, 4)) == (1464.0507, 151.5165)


def test_lichess_parameters_are_the_defaults() -> None:
    fresh = Rating()
    assert (fresh.rating, fresh.deviation, fresh.volatility) == (1500.0, 500.0, 0.09)
    assert (DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY, TAU) == (
        1500.0,
        500.0,
        0.09,
        0.75,
    )


def test_provisional_and_leaderboard_thresholds() -> None:
    assert Rating(1623.4, 110.0).text == "1623?"
    assert Rating(1623.6, 109.9).text == "1624"
    assert not Rating(1500, 75.1).on_leaderboard
    assert Rating(1500, 75.0).on_leaderboard


def test_no_game_in_a_period_grows_the_deviation_as_glickmans_step_6() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    assert rate(player, [], bounds=UNBOUNDED).deviation == pytest.approx(
        SCALE * ((200.0 / SCALE) ** 2 + 0.06**2) ** 0.5
    )
    assert decay(player, 3.0) == decay(decay(decay(player, 1.0), 1.0), 1.0)
    assert decay_since(player, 0.0, 2 * RATING_PERIOD_SECONDS) == decay(player, 2.0)
    assert decay(Rating(1500.0, 490.0), 1000.0).deviation == MAX_DEVIATION
    with pytest.raises(ValueError, match="time goes forward"):
        decay(player, -1.0)


def test_a_score_is_between_0_and_1() -> None:
    with pytest.raises(ValueError, match="0 \\(lost\\) to 1"):
        rate(Rating(), [(Rating(), 2.0)])


def test_a_puzzles_rating_moves_at_most_the_capped_step() -> None:
    fresh = Rating()  # RD 500: uncapped, a win against it would move it hundreds of points
    player, puzzle = rate_answer(Rating(2400.0, 50.0), fresh, solved=False)
    assert puzzle.rating == fresh.rating + PUZZLE_STEP
    assert player.rating < 2400.0
    assert puzzle.deviation < fresh.deviation
    player, puzzle = rate_answer(Rating(1500.0, 60.0), Rating(1500.0, 60.0), solved=True)
    assert 0 < 1500.0 - puzzle.rating < PUZZLE_STEP  # a small step goes through as it is


ratings = st.builds(
    Rating,
    st.floats(600.0, 2800.0),
    st.floats(45.0, 500.0),
    st.floats(0.03, 0.1),
)
scores = st.sampled_from([0.0, 0.5, 1.0])


@settings(max_examples=200, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, scores), max_size=6), ratings)
def test_a_win_never_lowers_a_rating(
    player: Rating, others: list[tuple[Rating, float]], opponent: Rating
) -> None:
    """Against the same period's other games, one more win never leaves the rating lower than
    a loss (or a draw) in its place would, nor below where it started when it is the only game."""
    won = rate(player, [*others, (opponent, 1.0)])
    drawn = rate(player, [*others, (opponent, 0.5)])
    lost = rate(player, [*others, (opponent, 0.0)])
    assert won.rating >= drawn.rating >= lost.rating
    assert rate(player, [(opponent, 1.0)]).rating >= player.rating
    assert rate(player, [(opponent, 0.0)]).rating <= player.rating


@settings(max_examples=200, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, scores), min_size=1, max_size=8))
def test_the_deviation_shrinks_with_games(
    player: Rating, games: list[tuple[Rating, float]]
) -> None:
    """A period with games leaves the RD below what the same period without one leaves (at
    the volatility the period gave: Glickman's steps 6 and 7); a game with the expected result
    (a draw against an equal rating and RD) shrinks it outright, away from the floor."""
    rated = rate(player, games)
    idle = decay(replace(player, volatility=rated.volatility), 1.0)
    assert rated.deviation <= max(idle.deviation, MIN_DEVIATION) + 1e-9
    even = rate(player, [(replace(player, volatility=DEFAULT_VOLATILITY), 0.5)])
    if player.deviation >= 2 * MIN_DEVIATION:  # near the floor one game a period holds it
        assert even.deviation < player.deviation


@settings(max_examples=200, deadline=None)
@given(ratings, st.floats(0.0, 400.0), st.floats(0.0, 400.0))
def test_the_deviation_grows_with_time(player: Rating, first: float, more: float) -> None:
    sooner = decay(player, first)
    later = decay(player, first + more)
    assert player.deviation - 1e-9 <= sooner.deviation <= later.deviation + 1e-9
    assert later.deviation <= MAX_DEVIATION
    assert later.rating == player.rating


@settings(max_examples=100, deadline=None)
@given(ratings, ratings)
def test_the_expected_scores_of_equal_uncertainty_add_up_to_one(a: Rating, b: Rating) -> None:
    b = Rating(b.rating, a.deviation, b.volatility)
    a_wins = expected_score(a, Rating(b.rating, a.deviation))
    b_wins = expected_score(b, Rating(a.rating, a.deviation))
    assert a_wins + b_wins == pytest.approx(1.0)
