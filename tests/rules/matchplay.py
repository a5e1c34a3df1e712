"""Matches set up at a chosen position, for match tests."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.rules import Match, Position, ScriptedDice


def set_up(
    length: int,
    mover: dict[int, int],
    opponent: dict[int, int],
    *,
    rolls: list[tuple[int, int]],
    on_roll: int = 0,
    cube: int = 1,
    owner: int | None = None,
    score: tuple[int, int] = (0, 0),
    crawford: bool = False,
    post_crawford: bool = False,
    **options: Any,
) -> Match:
    """A match in the roll phase at a chosen position (``mover`` is ``on_roll``'s side, as
    ``{point: checkers}``), whose next rolls are ``rolls``. Test-only surgery on the value."""
    opening = (6, 5) if on_roll == 0 else (5, 6)
    match = Match.start(length, dice=ScriptedDice.rolls(opening, *rolls), **options)
    return dataclasses.replace(
        match,
        position=Position.from_points(mover, opponent),
        on_roll=on_roll,
        phase="roll",
        dice=None,
        cube_value=cube,
        cube_owner=owner,
        score=score,
        crawford=crawford,
        post_crawford=post_crawford,
        _plays=None,
    )
