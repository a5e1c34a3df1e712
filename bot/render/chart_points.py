"""The analysis chart's input (:mod:`bot.render.chart`): a decision's point, and its error class
and cube action read from ours or gnubg's words."""

from __future__ import annotations

from typing import Literal, NamedTuple

__all__ = [
    "CUBE_ACTIONS",
    "ERROR_CLASSES",
    "CubeMark",
    "ErrorClass",
    "Point",
    "cube_action",
    "error_class",
]

ErrorClass = Literal["doubtful", "error", "blunder"]
CubeMark = Literal["double", "take", "pass", "no double"]
ERROR_CLASSES: tuple[ErrorClass, ...] = ("doubtful", "error", "blunder")
CUBE_ACTIONS: tuple[CubeMark, ...] = ("double", "take", "pass", "no double")
_ERROR_WORDS: dict[str, ErrorClass] = {
    "doubtful": "doubtful",
    "error": "error",
    "bad": "error",
    "blunder": "blunder",
    "very bad": "blunder",
}
"""Ours and gnubg's words ("doubtful", "bad", "very bad")."""
_CUBE_WORDS: dict[str, CubeMark] = {
    "double": "double",
    "redouble": "double",
    "take": "take",
    "beaver": "take",
    "pass": "pass",
    "drop": "pass",
    "no double": "no double",
    "no redouble": "no double",
}
"""Ours and gnubg's words ("Double", "Redouble", "Take", "Beaver", "Pass", "No double"...)."""


class Point(NamedTuple):
    """Player 0's chances (0..1: of the game for money, of the match in match play) after one
    decision of game ``game``, made by ``player`` (0 or 1; None: not said).

    ``error`` classes a bad decision there: "doubtful", "error" or "blunder" (gnubg's
    "doubtful", "bad", "very bad" are read too); ``blunder`` alone (the old flag) means a
    blunder. ``cube`` is the cube action taken there, if any: "double" (or "redouble"), "take"
    (or "beaver"), "pass" (or "drop"), "no double" (or "no redouble"): mark "no double" only
    where it matters (a cube error), as every roll is a decision not to double."""

    game: int
    chance: float
    blunder: bool = False
    player: int | None = None
    error: str | None = None
    cube: str | None = None


def error_class(point: Point) -> ErrorClass | None:
    """The point's error class: its ``error`` read, else a blunder where ``blunder`` is set."""
    if point.error is None:
        return "blunder" if point.blunder else None
    found = _ERROR_WORDS.get(point.error.strip().lower())
    if found is None:
        raise ValueError(
            f"an error is one of {', '.join(ERROR_CLASSES)} (or gnubg's bad, very bad), "
            f"not {point.error!r}"
        )
    return found


def cube_action(point: Point) -> CubeMark | None:
    """The point's cube action, read: one of :data:`CUBE_ACTIONS`, or None."""
    if point.cube is None:
        return None
    found = _CUBE_WORDS.get(point.cube.strip().lower())
    if found is None:
        raise ValueError(f"a cube action is one of {', '.join(CUBE_ACTIONS)}, not {point.cube!r}")
    return found
