"""GNU Backgammon's Match ID: 66 bits of match state, little-endian, in 12 Base64 characters.

Bit fields (first bit = least significant bit of byte 0):

====== ======================================================================
bits   field
====== ======================================================================
0-3    log2 of the cube value
4-5    cube owner: 0 or 1, 3 = centred
6      player on roll
7      this is the Crawford game
8-10   game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11     turn: the player who must act now (the taker while a double is offered)
12     a double is offered
13-14  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17  first die (0 = not rolled)
18-20  second die
21-35  match length (0 = money game)
36-50  player 0's score
51-65  player 1's score
66     set when the Jacoby rule is off (always set in match play)
====== ======================================================================
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from functools import lru_cache

GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchIdFields:
    """Every field of a Match ID; ``cube_owner`` None means centred, ``dice`` (0, 0) not rolled."""

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False


@lru_cache(maxsize=4096)  # a match's ID is made at each save and each request to gnubg
def encode_match_id(fields: MatchIdFields) -> str:
    """The 12-character Match ID for ``fields``."""
    cube = fields.cube
    if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
        raise ValueError(f"the cube must be a power of 2 up to 32768, not {cube}")
    owner = 3 if fields.cube_owner is None else fields.cube_owner
    values = (
        (cube.bit_length() - 1, 4),
        (owner, 2),
        (fields.on_roll, 1),
        (int(fields.crawford), 1),
        (fields.game_state, 3),
        (fields.turn, 1),
        (int(fields.doubled), 1),
        (fields.resigned, 2),
        (fields.dice[0], 3),
        (fields.dice[1], 3),
        (fields.length, 15),
        (fields.score[0], 15),
        (fields.score[1], 15),
        (int(fields.length > 0 or not fields.jacoby), 1),
    )
    value = 0
    bit = 0
    for field, width in values:
        if not 0 <= field < 1 << width:
            raise ValueError(f"{field} does not fit in a {width}-bit Match ID field")
        value |= field << bit
        bit += width
    return base64.b64encode(value.to_bytes(9, "little")).decode("ascii")


def decode_match_id(match_id: str) -> MatchIdFields:
    """The fields of a Match ID; raises ``ValueError`` when it is not one."""
    text = match_id.strip()
    if len(text) != 12:
        raise ValueError(f"{match_id!r} is not a Match ID: it must be 12 characters")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{match_id!r} is not a Match ID: it is not Base64") from None
    value = int.from_bytes(raw, "little")

    def take(start: int, width: int) -> int:
        return value >> start & ((1 << width) - 1)

    owner = take(4, 2)
    length = take(21, 15)
    return MatchIdFields(
        cube=1 << take(0, 4),
        cube_owner=None if owner == 3 else owner,
        on_roll=take(6, 1),
        crawford=bool(take(7, 1)),
        game_state=take(8, 3),
        turn=take(11, 1),
        doubled=bool(take(12, 1)),
        resigned=take(13, 2),
        dice=(take(15, 3), take(18, 3)),
        length=length,
        score=(take(36, 15), take(51, 15)),
        jacoby=length == 0 and not take(66, 1),
    )
