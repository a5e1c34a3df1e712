"""Tournaments: formats, pairings, standings and tie-breaks, as pure functions of values."""

from __future__ import annotations

from bot.rules.tournaments.model import (
    MAX_ROUND_ROBIN,
    Entrant,
    Format,
    Pairing,
    Result,
    Standing,
    TournamentError,
)
from bot.rules.tournaments.pairing import bracket, pair_round, rounds_total, seed
from bot.rules.tournaments.standings import champion, is_over, standings

__all__ = [
    "MAX_ROUND_ROBIN",
    "Entrant",
    "Format",
    "Pairing",
    "Result",
    "Standing",
    "TournamentError",
    "bracket",
    "champion",
    "is_over",
    "pair_round",
    "rounds_total",
    "seed",
    "standings",
]
