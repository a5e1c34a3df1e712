"""Persistence: SQLite (a file, the default) or PostgreSQL (many hosts), one schema and one set
of queries for both, one transaction per state change."""

from __future__ import annotations

from bot.store.address import DatabaseAddress, shown
from bot.store.analyses import AnalysisRecords, AnalysisRow, PlayerFigures, PrSummary
from bot.store.database import Store, Transaction
from bot.store.rows import (
    ChallengeRow,
    DatabaseBusy,
    DatabaseDown,
    DiskFull,
    MatchRow,
    PlayerRow,
    StaleMatchError,
    StoreError,
)

__all__ = [
    "AnalysisRecords",
    "AnalysisRow",
    "ChallengeRow",
    "DatabaseAddress",
    "DatabaseBusy",
    "DatabaseDown",
    "DiskFull",
    "MatchRow",
    "PlayerFigures",
    "PlayerRow",
    "PrSummary",
    "StaleMatchError",
    "Store",
    "StoreError",
    "Transaction",
    "shown",
]
