"""eXtreme Gammon's position ID, the XGID, field by field in XG's own terms.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`` holds ten fields separated by colons:

===  ==============  ===========================================================================
 #   field           meaning
===  ==============  ===========================================================================
 1   position        26 characters. The board is always seen from the bottom player, X:
                     character 0 is O's bar, characters 1-24 are X's points 1-24, character 25
                     is X's bar. ``A``-``P`` are 1-16 of X's checkers, ``a``-``p`` 1-16 of O's,
                     ``-`` none. (X's point ``p`` is O's point ``25 - p``.)
 2   cube            log2 of the cube's value: 0 = 1, 1 = 2, 2 = 4...
 3   cube position   1: X owns the cube, -1: O owns it, 0: centred
 4   turn            1: X is on roll (or doubled), -1: O is
 5   dice            ``00`` the player on turn is to roll or double; ``31`` rolled 3 and 1;
                     ``D`` the player on turn doubled, the other must take or pass; ``B`` and
                     the other beavered; ``R`` and the doubler raccooned
 6   X's score
 7   O's score
 8   rules           match play: 1 = this is the Crawford game, 0 = not. Money: 1 = the Jacoby
                     rule, plus 2 = beavers allowed (0-3)
 9   match length    0 = a money game
10   max cube        log2 of XG's largest cube (gnubg ignores it)
===  ==============  ===========================================================================

This is the reading of gnubg's own ``set xgid`` (``SetXGID`` and ``PositionFromXG``), which maps
X to gnubg's player 1 and O to its player 0. Only the format is checked here: whether the fields
make a position in play is for :mod:`bot.rules.pasted`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import pasted as say
from bot.rules.errors import PositionTextError, typed

Side = tuple[int, ...]
POINTS = 24
BAR = 24  # the index of a side's bar
FIELDS = 10
MAX_COUNT = 16  # "P": the most checkers one character holds
OFFERS = ("", "D", "B", "R")  # none, doubled, beavered, raccooned
DEFAULT_MAX_CUBE_LOG2 = 10

_INTEGER = re.compile(r"-?\d{1,5}")
_POSITION = re.compile(r"[A-Pa-p-]{26}")


@dataclass(frozen=True, slots=True)
class Xgid:
    """The fields of an XGID. ``bottom`` (X) and ``top`` (O) hold 25 counts each from their
    own side: index 0-23 = their points 1-24, index 24 = their bar. ``dice`` is (0, 0) when
    none are rolled; ``offer`` is ``""`` or one of ``D``, ``B``, ``R``."""

    bottom: Side
    top: Side
    cube_log2: int = 0
    cube_position: int = 0
    turn: int = 1
    dice: tuple[int, int] = (0, 0)
    offer: str = ""
    score_bottom: int = 0
    score_top: int = 0
    rules: int = 0
    length: int = 0
    max_cube_log2: int = DEFAULT_MAX_CUBE_LOG2

    def __post_init__(self) -> None:
        for side in (self.bottom, self.top):
            if len(side) != 25 or any(not 0 <= count <= MAX_COUNT for count in side):
                raise ValueError(f"a side is 25 counts of 0 to {MAX_COUNT}, not {side!r}")
        for point in range(1, POINTS + 1):
            if self.bottom[point - 1] and self.top[POINTS - point]:
                raise ValueError(f"X and O share X's {point}-point")
        if self.cube_position not in (-1, 0, 1) or self.turn not in (-1, 1):
            raise PositionTextError(say.XGID_TURN.said())
        if self.offer not in OFFERS:
            raise ValueError(f"the offer is one of {OFFERS}, not {self.offer!r}")
        rolled = self.dice != (0, 0)
        if rolled and (self.offer or not all(1 <= die <= 6 for die in self.dice)):
            raise ValueError(
                f"dice are two numbers from 1 to 6, and none with an offer: {self.dice!r}"
            )
        numbers = (
            self.cube_log2,
            self.score_bottom,
            self.score_top,
            self.rules,
            self.length,
            self.max_cube_log2,
        )
        if any(number < 0 for number in numbers):
            raise PositionTextError(say.XGID_NEGATIVE.said())

    @property
    def dice_field(self) -> str:
        """Field 5 as XG writes it: ``00``, ``31``, ``D``..."""
        return self.offer or f"{self.dice[0]}{self.dice[1]}"


def _character(bottom: int, top: int) -> str:
    if bottom:
        return chr(ord("A") + bottom - 1)
    if top:
        return chr(ord("a") + top - 1)
    return "-"


def position_string(bottom: Side, top: Side) -> str:
    """Field 1: O's bar, X's points 1-24 (with O's checkers on them), X's bar."""
    characters = [_character(0, top[BAR])]
    for point in range(1, POINTS + 1):
        characters.append(_character(bottom[point - 1], top[POINTS - point]))
    characters.append(_character(bottom[BAR], 0))
    return "".join(characters)


def encode_xgid(xgid: Xgid) -> str:
    """``XGID=`` and the ten fields."""
    fields = (
        position_string(xgid.bottom, xgid.top),
        xgid.cube_log2,
        xgid.cube_position,
        xgid.turn,
        xgid.dice_field,
        xgid.score_bottom,
        xgid.score_top,
        xgid.rules,
        xgid.length,
        xgid.max_cube_log2,
    )
    return "XGID=" + ":".join(str(field) for field in fields)


def _count(character: str) -> tuple[int, int]:
    """(X's, O's) checkers that one character of field 1 holds."""
    if character == "-":
        return 0, 0
    if character.isupper():
        return ord(character) - ord("A") + 1, 0
    return 0, ord(character) - ord("a") + 1


def _sides(text: str, field: str) -> tuple[Side, Side]:
    if _POSITION.fullmatch(field) is None:
        raise PositionTextError(typed(say.XGID_CHECKERS.said(), text))
    if field[0].isupper() or field[25].islower():
        raise PositionTextError(typed(say.XGID_BARS.said(), text))
    bottom = [0] * 25
    top = [0] * 25
    top[BAR] = _count(field[0])[1]
    bottom[BAR] = _count(field[25])[0]
    for point in range(1, POINTS + 1):
        bottom[point - 1], top[POINTS - point] = _count(field[point])
    return tuple(bottom), tuple(top)


def _dice(text: str, field: str) -> tuple[tuple[int, int], str]:
    if field in OFFERS[1:]:
        return (0, 0), field
    if re.fullmatch(r"00|[1-6][1-6]", field) is None:
        raise PositionTextError(typed(say.XGID_DICE.said(field=repr(field)), text))
    return (int(field[0]), int(field[1])), ""


def decode_xgid(text: str) -> Xgid:
    """The fields of an XGID, with or without ``XGID=`` in front. Raises
    :class:`PositionTextError` when the text is not one."""
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:].strip()
    fields = body.split(":")
    if len(fields) != FIELDS:
        reason = say.XGID_FIELDS.said(fields=FIELDS, count=len(fields))
        raise PositionTextError(typed(reason, text))
    bottom, top = _sides(text, fields[0])
    dice, offer = _dice(text, fields[4])
    numbers: list[int] = []
    for index in (1, 2, 3, 5, 6, 7, 8, 9):
        if _INTEGER.fullmatch(fields[index]) is None:
            reason = say.XGID_NUMBER.said(index=index + 1, field=repr(fields[index]))
            raise PositionTextError(typed(reason, text))
        numbers.append(int(fields[index]))
    cube, position, turn, score_bottom, score_top, rules, length, max_cube = numbers
    try:
        return Xgid(
            bottom,
            top,
            cube,
            position,
            turn,
            dice,
            offer,
            score_bottom,
            score_top,
            rules,
            length,
            max_cube,
        )
    except PositionTextError as error:
        raise PositionTextError(typed(error.reason, text)) from None
