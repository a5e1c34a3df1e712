"""Persistence: aiosqlite, numbered migrations, one transaction per state change."""

from __future__ import annotations

from bot.store.analyses import AnalysisRecords, AnalysisRow, PlayerFigures, PrSummary
from bot.store.database import Store, Transaction
from bot.store.rows import (
    ChallengeRow,
    DatabaseBusy,
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
    "DatabaseBusy",
    "DiskFull",
    "MatchRow",
    "PlayerFigures",
    "PlayerRow",
    "PrSummary",
    "StaleMatchError",
    "Store",
    "StoreError",
    "Transaction",
]
