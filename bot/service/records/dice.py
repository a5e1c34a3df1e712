"""Where new matches' dice come from: a factory of fresh dice per match."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from bot.rules.dice import DiceSource, KeyedDice, VerifiableDice

DiceFactory = Callable[[], DiceSource]


def secure_dice() -> DiceSource:
    """Fresh secret dice whose seed is stored with the match (tests; production uses
    :func:`keyed_dice`, which keeps the seed out of the database)."""
    return VerifiableDice.generate()


def keyed_dice(key: bytes) -> DiceFactory:
    """Dice whose seeds only the holder of the server's ``key`` can know."""
    return functools.partial(KeyedDice.generate, key)


def seeded_dice(seed: int) -> DiceFactory:
    """Deterministic dice for tests and ``console --seed``: never a production setting."""
    rng = random.Random(seed)

    def factory() -> DiceSource:
        return VerifiableDice.from_hex(rng.randbytes(32).hex())

    return factory
