"""Helpers for match tests: seeded random players, and matches set up at a chosen position."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from bot.engine import Match, Position, ScriptedDice, VerifiableDice
from bot.engine.match import MAX_CUBE


@dataclasses.dataclass(frozen=True)
class Policy:
    """How often the random players resign, double, drop, beaver and accept."""

    resign: float = 0.01
    double: float = 0.05
    drop: float = 0.4
    beaver: float = 0.0
    accept: float = 0.5


def random_states(seed: int, length: int = 5, policy: Policy = Policy(),
                  **options: Any) -> Iterator[Match]:
    """Every state of a match between two seeded random players, the start first."""
    rng = random.Random(seed)
    match = Match.start(length, dice=VerifiableDice.seeded(seed), **options)
    yield match
    while not match.is_over:
        player = match.turn
        assert player is not None
        if match.phase == "roll":
            draw = rng.random()
            if draw < policy.resign:
                match = match.resign(player, rng.randint(1, 3))
            elif draw < policy.resign + policy.double and match.can_double(player):
                match = match.double(player)
            else:
                match = match.roll(player)
        elif match.phase == "move":
            if rng.random() < policy.resign:
                match = match.resign(player, rng.randint(1, 3))
            else:
                match = match.move(player, rng.choice(match.legal_plays()).notation)
        elif match.phase == "doubled":
            draw = rng.random()
            if draw < policy.drop:
                match = match.drop(player)
            elif (draw < policy.drop + policy.beaver and match.options.beavers
                  and match.cube_value * 4 <= MAX_CUBE):
                match = match.beaver(player)
            else:
                match = match.take(player)
        else:
            assert match.phase == "resigned"
            if rng.random() < policy.accept:
                match = match.accept_resignation(player)
            else:
                match = match.reject_resignation(player)
        yield match


def random_match(seed: int, length: int = 5, policy: Policy = Policy(), **options: Any) -> Match:
    """The finished match of :func:`random_states`."""
    return deque(random_states(seed, length, policy, **options), maxlen=1)[0]


def set_up(length: int, mover: dict[int, int], opponent: dict[int, int], *,
           rolls: list[tuple[int, int]], on_roll: int = 0, cube: int = 1,
           owner: int | None = None, score: tuple[int, int] = (0, 0), crawford: bool = False,
           post_crawford: bool = False, **options: Any) -> Match:
    """A match in the roll phase at a chosen position (``mover`` is ``on_roll``'s side, as
    ``{point: checkers}``), whose next rolls are ``rolls``. Test-only surgery on the value."""
    opening = (6, 5) if on_roll == 0 else (5, 6)
    match = Match.start(length, dice=ScriptedDice.rolls(opening, *rolls), **options)
    return dataclasses.replace(
        match, position=Position.from_points(mover, opponent), on_roll=on_roll, phase="roll",
        dice=None, cube_value=cube, cube_owner=owner, score=score, crawford=crawford,
        post_crawford=post_crawford, _plays=None)
