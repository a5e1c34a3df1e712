"""Persistence: SQLite (a file, the default) or PostgreSQL (many hosts), one schema and one set
of queries for both, one transaction per state change.

One convention: a repository per aggregate, one module each (matches, challenges, players with
their ratings and records, tournaments, analyses, drills, dice, meta), each two classes over the
same runner contract (:mod:`bot.store.connections`). The reads (``Matches``) are bound to the store,
outside any transaction: ``store.matches.get(match_id)``. The writes (``MatchWrites``, which
read too, as the transaction sees the rows) are bound to a transaction:
``async with store.transaction() as tx: await tx.matches.save(...)``. A repository never opens a
transaction of its own: the caller decides what is atomic. :mod:`bot.store.database` opens,
closes and runs transactions; nothing outside :mod:`bot.store` writes SQL.
"""

from __future__ import annotations

from bot.store.address import DatabaseAddress, shown
from bot.store.analyses import AnalysisRow, PlayerFigures, PrSummary
from bot.store.database import Store, Transaction
from bot.store.rows import (
    ChallengeRow,
    DatabaseBusy,
    DatabaseDown,
    DiskFull,
    MatchRow,
    OutdatedSchema,
    PlayerRow,
    StaleMatchError,
    StoreError,
)

__all__ = [
    "AnalysisRow",
    "ChallengeRow",
    "DatabaseAddress",
    "DatabaseBusy",
    "DatabaseDown",
    "DiskFull",
    "MatchRow",
    "OutdatedSchema",
    "PlayerFigures",
    "PlayerRow",
    "PrSummary",
    "StaleMatchError",
    "Store",
    "StoreError",
    "Transaction",
    "shown",
]
