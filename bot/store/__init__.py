"""Persistence: aiosqlite, numbered migrations, one transaction per state change."""

from __future__ import annotations

from bot.store.database import (
    ChallengeRow,
    MatchRow,
    PlayerRow,
    StaleMatchError,
    Store,
    StoreError,
    Transaction,
)

__all__ = [
    "ChallengeRow",
    "MatchRow",
    "PlayerRow",
    "StaleMatchError",
    "Store",
    "StoreError",
    "Transaction",
]
