"""Writing rated results: both players' new ratings (by :mod:`bot.rules.rating`, the FIBS
formula) and the history rows, inside the transaction that ends a match."""

from __future__ import annotations

from bot.rules.rating import RatingChange, claim_change, rate_match
from bot.store import PlayerRow, Transaction


async def record_result(
    tx: Transaction, server_id: str, ids: tuple[str, str], winner: int, match_id: int, length: int
) -> None:
    """Rate match ``match_id`` (``length`` points, between players ``ids``) that ``ids[winner]``
    won, inside the transaction that ends it."""
    win, lose = await tx.players.both(server_id, (ids[winner], ids[1 - winner]))
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
    await tx.players.record_ratings(
        match_id, server_id, [(win, change.winner_rating), (lose, change.loser_rating)]
    )
    await tx.players.update_results(
        server_id,
        [
            (win.user_id, change.winner_rating, change.winner_experience, 1, 0),
            (lose.user_id, change.loser_rating, change.loser_experience, 0, 1),
        ],
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
    the transaction that ends it (it counts as the claimer's win; see
    :func:`~bot.rules.rating.claim_change`)."""
    win, lose = await tx.players.both(server_id, (ids[claimer], ids[1 - claimer]))
    change = claim_change(
        (win.rating, win.experience), (lose.rating, lose.experience), length, chance
    )
    await _write(tx, server_id, match_id, (win, lose), change)
