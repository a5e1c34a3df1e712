"""Seeded random players: whole matches and positions met in self-play, for checks and
benchmarks that need many realistic games (a seed replays a failure)."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from bot.rules.dice import VerifiableDice
from bot.rules.match import MAX_CUBE, Match
from bot.rules.position import Position


@dataclasses.dataclass(frozen=True)
class Policy:
    """How often the random players resign, double, drop, beaver and accept."""

    resign: float = 0.01
    double: float = 0.05
    drop: float = 0.4
    beaver: float = 0.0
    accept: float = 0.5


def random_states(
    seed: int, length: int = 5, policy: Policy = Policy(), **options: Any
) -> Iterator[Match]:
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
            elif (
                draw < policy.drop + policy.beaver
                and match.options.beavers
                and match.cube_value * 4 <= MAX_CUBE
            ):
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


def self_play_positions(seed: int, count: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """``count`` (position, roll) pairs met while two random players play whole games."""
    rng = random.Random(seed)
    position = Position.initial()
    for _ in range(count):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        yield position, roll
        position = rng.choice(position.legal_plays(*roll)).result
        if position.is_game_over():
            position = Position.initial()
