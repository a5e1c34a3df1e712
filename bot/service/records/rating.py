"""The FIBS rating formula.

For an ``n``-point match between ratings r1 and r2: D = |r1 - r2|,
P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1); P = 1 - P_upset when the underdog wins, else
P_upset. Each player's K = max(1, 5 - experience / 100), using experience before the match. The
winner gains 4 * K * sqrt(n) * P, the loser loses 4 * K * sqrt(n) * P with their own K, and both
add n to their experience.

:func:`record_result` writes a rated result: both players' new ratings and the history rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.store import PlayerRow, Transaction

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


async def record_result(
    tx: Transaction, server_id: str, ids: tuple[str, str], winner: int, match_id: int, length: int
) -> None:
    """Rate match ``match_id`` (``length`` points, between players ``ids``) that ``ids[winner]``
    won, inside the transaction that ends it."""
    win, lose = await tx.both_players(server_id, (ids[winner], ids[1 - winner]))
    change = rate_match((win.rating, win.experience), (lose.rating, lose.experience), length)
    await _write(tx, server_id, match_id, (win, lose), change)


async def _write(
    tx: Transaction,
    server_id: str,
    match_id: int,
    players: tuple[PlayerRow, PlayerRow],
    change: RatingChange,
) -> None:
    """Store ``change`` of the (winner, loser) ``players`` of match ``match_id``: each one's
    rating change and their new rating, experience and record."""
    win, lose = players
    await tx.record_rating(match_id, server_id, win.user_id, win, change.winner_rating)
    await tx.record_rating(match_id, server_id, lose.user_id, lose, change.loser_rating)
    await tx.update_player_result(
        server_id,
        win.user_id,
        rating=change.winner_rating,
        experience=change.winner_experience,
        won=True,
    )
    await tx.update_player_result(
        server_id,
        lose.user_id,
        rating=change.loser_rating,
        experience=change.loser_experience,
        won=False,
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


async def record_claim(
    tx: Transaction,
    server_id: str,
    ids: tuple[str, str],
    claimer: int,
    match_id: int,
    length: int,
    chance: float,
) -> None:
    """Rate match ``match_id`` that ``ids[claimer]`` claimed with ``chance`` to win it, inside
    the transaction that ends it (it counts as the claimer's win)."""
    win, lose = await tx.both_players(server_id, (ids[claimer], ids[1 - claimer]))
    change = expected_change(
        (win.rating, win.experience), (lose.rating, lose.experience), length, chance
    )
    await _write(tx, server_id, match_id, (win, lose), change)
