"""Random self-play positions for tests: seeded, so a failure can be replayed."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.engine import Position


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
