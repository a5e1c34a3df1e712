"""The rules of backgammon as GNU Backgammon has them: pure values, no I/O."""

from __future__ import annotations

from bot.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, MoveError
from bot.engine.position import Play, Position

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "Play",
    "Position",
]
