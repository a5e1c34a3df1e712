"""GNU Backgammon's Position ID: 80 bits, little-endian, in Base64 without padding."""

from __future__ import annotations

import base64
import binascii

Side = tuple[int, ...]


def encode_position_id(not_on_roll: Side, on_roll: Side) -> str:
    """Encode two sides (25 slots each, own point of view, index 24 = bar) as gnubg does.

    gnubg writes the player *not* on roll first; each checker is a 1 bit, each slot ends with a 0.
    """
    value = 0
    bit = 0
    for side in (not_on_roll, on_roll):
        for count in side:
            value |= ((1 << count) - 1) << bit
            bit += count + 1
    raw = value.to_bytes(10, "little")
    return base64.b64encode(raw).decode("ascii").rstrip("=")


def decode_position_id(position_id: str) -> tuple[Side, Side]:
    """The inverse of :func:`encode_position_id`: ``(not_on_roll, on_roll)``.

    Raises ``ValueError`` for anything that is not a well-formed ID of two sides of at most 15.
    """
    text = position_id.strip()
    if len(text) != 14:
        raise ValueError(f"{position_id!r} is not a Position ID: it must be 14 characters")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{position_id!r} is not a Position ID: it is not Base64") from None
    value = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[], []]
    side = 0
    count = 0
    for bit in range(80):
        if value >> bit & 1:
            count += 1
            continue
        sides[side].append(count)
        count = 0
        if len(sides[side]) == 25:
            side += 1
            if side == 2:
                break
    if side != 2 or value >> (bit + 1):
        raise ValueError(f"{position_id!r} is not a Position ID: its bits do not make two sides")
    for counts in sides:
        if sum(counts) > 15:
            raise ValueError(f"{position_id!r} is not a Position ID: a side has over 15 checkers")
    return tuple(sides[0]), tuple(sides[1])
