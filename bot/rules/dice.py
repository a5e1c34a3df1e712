"""Dice that players can check: every die comes from a secret seed and its number.

At the start of a match the server publishes ``SHA-256(seed)`` (the *commitment*) and keeps the
seed secret. Die number ``n`` (0, 1, 2, ... through the whole match; an opening roll uses two, one
per player, and every other roll two) is

    digest = SHA-256(seed || n as 8 bytes, big-endian)
    die    = 1 + (first byte of digest that is below 252) % 6

re-hashing the digest in the (astronomically unlikely) case that all 32 bytes are 252 or more.
Bytes 252-255 are skipped because 256 is not a multiple of 6: keeping them would make 1-4 a
little likelier than 5 and 6. When the match ends the seed is revealed and anyone can recompute
every roll (see ``docs/dice.md``).

A source is a pure function of the die number, so a match that holds its source and a counter
stays an immutable value that replays exactly. :class:`ScriptedDice` plays back given rolls for
tests.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

Dice = tuple[int, int]  # a roll, as (die, die)

SEED_BYTES = 32
_LIMIT = 252  # the largest multiple of 6 not above 256


class DiceExhaustedError(RuntimeError):
    """A :class:`ScriptedDice` was asked for more dice than its script holds."""


@runtime_checkable
class DiceSource(Protocol):
    """Where a match's dice come from: die ``n`` is always the same number."""

    def die(self, index: int) -> int:
        """Die number ``index`` (0-based), 1 to 6."""
        ...

    @property
    def commitment(self) -> str:
        """What is published before play: hex SHA-256 of the secret."""
        ...

    def reveal(self) -> str:
        """The secret (hex seed), to publish when the match is over."""
        ...

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-able data that :func:`dice_from_data` turns back into this source."""
        ...


def derive_die(seed: bytes, index: int) -> int:
    """Die number ``index`` from ``seed``: the rule in this module's docstring."""
    if index < 0:
        raise ValueError(f"die numbers start at 0, not {index}")
    digest = hashlib.sha256(seed + index.to_bytes(8, "big")).digest()
    while True:
        for byte in digest:
            if byte < _LIMIT:
                return byte % 6 + 1
        digest = hashlib.sha256(digest).digest()


def commitment_of(seed: bytes) -> str:
    """The published commitment for ``seed``: hex SHA-256."""
    return hashlib.sha256(seed).hexdigest()


def verify_seed(seed_hex: str, commitment: str) -> bool:
    """True when the revealed ``seed_hex`` is the one the ``commitment`` was made for."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return False
    return secrets.compare_digest(commitment_of(seed), commitment.strip().lower())


def dice_sequence(seed_hex: str, count: int) -> list[int]:
    """The first ``count`` dice that ``seed_hex`` gives, in order."""
    seed = bytes.fromhex(seed_hex)
    return [derive_die(seed, index) for index in range(count)]


@dataclass(frozen=True, slots=True)
class VerifiableDice:
    """Dice from a secret seed (see the module docstring). ``generate()`` in production."""

    seed: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.seed, bytes) or len(self.seed) < 16:
            raise ValueError("a dice seed must be at least 16 bytes")

    @classmethod
    def generate(cls) -> VerifiableDice:
        """A fresh seed from the operating system's secure generator (``secrets``)."""
        return cls(secrets.token_bytes(SEED_BYTES))

    @classmethod
    def seeded(cls, value: int | str) -> VerifiableDice:
        """A fixed seed made from ``value``, for tests and reproducible examples."""
        return cls(hashlib.sha256(f"bot-dice-test:{value}".encode()).digest())

    @classmethod
    def from_hex(cls, seed_hex: str) -> VerifiableDice:
        return cls(bytes.fromhex(seed_hex))

    def die(self, index: int) -> int:
        return derive_die(self.seed, index)

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed)

    def reveal(self) -> str:
        return self.seed.hex()

    def to_data(self) -> dict[str, Any]:
        return {"kind": "sha256", "seed": self.seed.hex()}

    def __repr__(self) -> str:  # never print the secret by accident
        return f"VerifiableDice(commitment={self.commitment[:16]}...)"


@dataclass(frozen=True, slots=True)
class KeyedDice(VerifiableDice):
    """:class:`VerifiableDice` whose seed is ``HMAC-SHA256(server key, "bot-dice:" + nonce)``.

    Only the nonce is stored with the match, so whoever reads the database without the
    server's key learns nothing of the rolls to come. Seed, commitment, dice and the reveal are
    exactly those of ``VerifiableDice(seed)``: players check them the same way.
    """

    nonce: bytes = b""

    @classmethod
    def generate(cls, key: bytes | None = None) -> KeyedDice:
        """Fresh dice from ``key``, the server's dice key, and a new random nonce."""
        if key is None:
            raise TypeError("keyed dice need the server's dice key")
        return cls.derive(key, secrets.token_bytes(16))

    @classmethod
    def derive(cls, key: bytes, nonce: bytes) -> KeyedDice:
        if len(key) < 16:
            raise ValueError("a dice key must be at least 16 bytes")
        return cls(hmac.new(key, b"bot-dice:" + nonce, hashlib.sha256).digest(), nonce)

    def to_data(self) -> dict[str, Any]:
        return {"kind": "keyed", "nonce": self.nonce.hex()}


@dataclass(frozen=True, slots=True)
class ScriptedDice:
    """Dice played back from a script, for tests: ``ScriptedDice.rolls((3, 1), (6, 5), ...)``.

    Every roll takes two dice, the opening roll too: ``(3, 1)`` there means player 0 rolls a 3
    and player 1 a 1. Asking past the end raises :class:`DiceExhaustedError`.
    """

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        for value in self.values:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise ValueError(f"scripted dice must be 1 to 6, not {value!r}")

    @classmethod
    def rolls(cls, *rolls: Sequence[int] | str) -> ScriptedDice:
        """From pairs ``(6, 5)`` or strings ``"65"``."""
        values: list[int] = []
        for roll in rolls:
            pair = [int(ch) for ch in roll] if isinstance(roll, str) else list(roll)
            if len(pair) != 2:
                raise ValueError(f"a roll is two dice, not {roll!r}")
            values.extend(pair)
        return cls(tuple(values))

    @classmethod
    def of(cls, values: Iterable[int]) -> ScriptedDice:
        return cls(tuple(values))

    def die(self, index: int) -> int:
        if not 0 <= index < len(self.values):
            raise DiceExhaustedError(
                f"the scripted dice ran out (die {index} of {len(self.values)})"
            )
        return self.values[index]

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.reveal().encode()).hexdigest()

    def reveal(self) -> str:
        return json.dumps(list(self.values), separators=(",", ":"))

    def to_data(self) -> dict[str, Any]:
        return {"kind": "scripted", "values": list(self.values)}


class DiceKeyError(ValueError):
    """Keyed dice read without the server's key they were made with."""


def dice_from_data(data: dict[str, Any], *, key: bytes | None = None) -> DiceSource:
    """The source that ``source.to_data()`` describes; keyed dice need the server's ``key``."""
    kind = data.get("kind")
    if kind == "keyed":
        if key is None:
            raise DiceKeyError("these dice were made with the server's dice key: give it")
        return KeyedDice.derive(key, bytes.fromhex(str(data["nonce"])))
    if kind == "sha256":
        return VerifiableDice.from_hex(str(data["seed"]))
    if kind == "scripted":
        return ScriptedDice.of(int(value) for value in data["values"])
    raise ValueError(f"unknown dice source {kind!r}")
