"""Positions and legal plays, and GNU Backgammon's Position ID (80 bits, little-endian, in
Base64 without padding: :func:`encode_position_id`, :func:`decode_position_id`).

A :class:`Position` holds both sides from the point of view of the player on roll ("the mover"),
the way GNU Backgammon's boards do: ``mover[i]`` is the mover's count on their point ``i + 1``,
``mover[24]`` their bar; ``opponent`` likewise from the opponent's own side. The mover's point
``p`` is the opponent's point ``25 - p``. Borne-off checkers are the ones missing from 15.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import Any

from bot.i18n import rules as say
from bot.i18n.core import Said, chained
from bot.rules.diagnose import diagnose
from bot.rules.dice import Dice
from bot.rules.errors import AmbiguousMoveError, IllegalMoveError, typed
from bot.rules.notation import (
    BAR,
    NO_LEGAL_MOVE,
    OFF,
    Segment,
    Step,
    backwards_reason,
    dice_text,
    format_play,
    normalise_play_text,
    parse_segments,
    too_many_moves_reason,
)
from bot.rules.textboard import text_grid, text_legend

Side = tuple[int, ...]


@lru_cache(maxsize=4096)  # a match's position is encoded at each save, its snapshot and its key
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


CHECKERS = 15
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def _check_dice(die1: int, die2: int) -> Dice:
    if type(die1) is int and type(die2) is int and 0 < die1 < 7 and 0 < die2 < 7:
        return die1, die2  # the usual roll, checked at a third of the cost of the loop below
    for die in (die1, die2):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"dice must be whole numbers from 1 to 6, not {die!r}")
    return die1, die2


# Legal plays, found as GNU Backgammon's ``GenerateMoves`` finds them, keyed by the position each
# leads to (:func:`_generate`). A resulting position is keyed by one int: a byte per slot of the
# mover's side (index 24 = bar), then one bit per point where an opponent's blot was hit; equal
# keys mean equal positions. The plays come in the order of a depth-first search over single-die
# moves, each die's moves from the bar, then from the highest point down; the dice in the order
# given, then the other way round; for doubles each later move starts no higher than the one
# before. That order is seen (autocomplete lists, seeded random choices): it must not change.
_SLOT = tuple(1 << (8 * index) for index in range(25))
_HIT_SHIFT = 200
_BOARD_MASK = (1 << _HIT_SHIFT) - 1
_HIT = tuple(1 << (_HIT_SHIFT + index) for index in range(24))

# A single-die move: its step and the key after it.
_Move = tuple[Step, int]
_Found = dict[int, tuple[Step, ...]]
# By die, then by source index (24 = bar): the step of that die from there (to 0, off, below
# the die) and what it adds to a key, made once rather than at every move tried.
_STEPS = tuple(
    tuple((index + 1, max(index + 1 - die, OFF)) for index in range(25)) for die in range(7)
)
_DELTAS = tuple(
    tuple(
        _SLOT[index - die] - _SLOT[index] if index >= die else -_SLOT[index] for index in range(25)
    )
    for die in range(7)
)


def _side_key(side: Sequence[int]) -> int:
    """The key of a side (25 counts of at most 15, index 24 = bar) before any hit."""
    return int.from_bytes(bytes(side), "little")


def _generate(mover: tuple[int, ...], opponent: tuple[int, ...], die1: int, die2: int) -> _Found:
    """Resulting-position key -> steps, for every play that uses the most dice (the larger die
    when only one can be played), each position once, its first play in the search's order.
    Empty when nothing is legal."""
    board = list(mover)
    theirs = opponent[23::-1]  # the opponent's checkers by the mover's point index
    if die1 == die2:
        found: _Found = {}
        deepest = _doubles(board, die1, theirs, found, 0, 23, _side_key(board), (), 0)
        return found if deepest else {}
    return _plain(board, die1, die2, theirs)


def _moves(
    board: list[int], die: int, start: int, key: int, theirs: tuple[int, ...]
) -> list[_Move]:
    """The single moves of ``die`` on ``board`` (whose key is ``key``) from ``start`` down."""
    steps = _STEPS[die]
    deltas = _DELTAS[die]
    if board[24]:
        dest = 24 - die
        held = theirs[dest]
        if held > 1:
            return []
        return [(steps[24], (key + deltas[24]) | (_HIT[dest] if held else 0))]
    found: list[_Move] = []
    for index in range(start, -1, -1):
        if not board[index]:
            continue
        dest = index - die
        if dest >= 0:
            held = theirs[dest]
            if held < 2:
                found.append((steps[index], (key + deltas[index]) | (_HIT[dest] if held else 0)))
        elif any(board[6:24]):
            break  # a checker outside the home board: nothing bears off
        elif dest == -1 or not any(board[index + 1 : 6]):
            found.append((steps[index], key + deltas[index]))
    return found


def _plain(board: list[int], die1: int, die2: int, theirs: tuple[int, ...]) -> _Found:
    """A roll of two different dice: both dice in either order, else the larger die alone,
    else the smaller."""
    found: _Found = {}
    key = _side_key(board)
    firsts: list[list[_Move]] = []
    for first, second in ((die1, die2), (die2, die1)):
        moves = _moves(board, first, 23, key, theirs)
        firsts.append(moves)
        for step, after in moves:
            source, dest = step
            board[source - 1] -= 1
            if dest:
                board[dest - 1] += 1
            for then, final in _moves(board, second, 23, after, theirs):
                if final not in found:
                    found[final] = (step, then)
            board[source - 1] += 1
            if dest:
                board[dest - 1] -= 1
    if found:
        return found
    larger, smaller = firsts if die1 > die2 else firsts[::-1]
    for step, after in larger or smaller:
        found[after] = (step,)  # one die's moves start from different points: no key twice
    return found


def _doubles(
    board: list[int],
    die: int,
    theirs: tuple[int, ...],
    found: _Found,
    depth: int,
    start: int,
    key: int,
    steps: tuple[Step, ...],
    deepest: int,
) -> int:
    """The plays of a double from ``board`` after ``steps`` (``depth`` of them), each move from
    ``start`` or lower, into ``found``; ``deepest``: the most moves found so far, returned
    updated (``found`` holds only plays of that many)."""
    moves = _moves(board, die, start, key, theirs)
    if not moves:
        if depth > deepest:
            found.clear()
            deepest = depth
        if depth == deepest and key not in found:
            found[key] = steps
        return deepest
    if depth == 3:
        if deepest < 4:
            found.clear()
        for step, after in moves:
            if after not in found:
                found[after] = (*steps, step)
        return 4
    for step, after in moves:
        source, dest = step
        board[source - 1] -= 1
        if dest:
            board[dest - 1] += 1
        next_start = 23 if source == BAR else source - 1
        deepest = _doubles(
            board, die, theirs, found, depth + 1, next_start, after, (*steps, step), deepest
        )
        board[source - 1] += 1
        if dest:
            board[dest - 1] -= 1
    return deepest


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides of a board, the player on roll first. Immutable; build new ones with methods."""

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        for name, side in (("mover", self.mover), ("opponent", self.opponent)):
            if not isinstance(side, tuple) or len(side) != 25:
                raise ValueError(f"{name} must be a tuple of 25 counts (points 1-24, then bar)")
            if any(not isinstance(c, int) or c < 0 for c in side) or sum(side) > CHECKERS:
                raise ValueError(f"{name} must hold 0 to 15 checkers, not {side!r}")
        for index in range(24):
            if self.mover[index] and self.opponent[23 - index]:
                raise ValueError(f"both players have checkers on point {index + 1}")

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        return cls(_START, _START)

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """The position a gnubg Position ID describes, its player on roll as the mover."""
        not_on_roll, on_roll = decode_position_id(position_id)
        return cls(on_roll, not_on_roll)

    @classmethod
    def from_points(cls, mover: dict[int, int], opponent: dict[int, int]) -> Position:
        """Build from ``{point: count}`` maps, each from its owner's side (25 = bar)."""

        def side(points: dict[int, int]) -> tuple[int, ...]:
            counts = [0] * 25
            for point, count in points.items():
                if not 1 <= point <= BAR:
                    raise ValueError(f"no point {point}: use 1-24, or 25 for the bar")
                counts[point - 1] += count
            return tuple(counts)

        return cls(side(mover), side(opponent))

    # -- facts --------------------------------------------------------------------------------

    def position_id(self) -> str:
        """GNU Backgammon's Position ID, with the mover as gnubg's player on roll."""
        return encode_position_id(self.opponent, self.mover)

    def pip_counts(self) -> tuple[int, int]:
        """(mover, opponent) pips to bear everything off."""
        return _pips(self.mover), _pips(self.opponent)

    def borne_off(self) -> tuple[int, int]:
        """(mover, opponent) checkers already borne off."""
        return CHECKERS - sum(self.mover), CHECKERS - sum(self.opponent)

    def is_game_over(self) -> bool:
        return not sum(self.mover) or not sum(self.opponent)

    def swapped(self) -> Position:
        """The same board with the other player on roll."""
        return _sound(self.opponent, self.mover)

    def checker_at(self, point: int) -> tuple[int, int]:
        """(mover's, opponent's) checkers on the mover's ``point`` (1-24; 25 = the bars)."""
        if point == BAR:
            return self.mover[24], self.opponent[24]
        return self.mover[point - 1], self.opponent[24 - point]

    # -- plays --------------------------------------------------------------------------------

    def legal_plays(self, die1: int, die2: int) -> list[Play]:
        """Every legal play for the roll, one per distinct resulting position.

        A play uses as many dice as possible, the larger die when only one can be played. When
        nothing is legal the list holds one empty play, ``no legal move``.
        """
        dice = _check_dice(die1, die2)
        found = _generate(self.mover, self.opponent, *dice)
        if not found:
            return _plays(self, dice, {_side_key(self.mover): ()})
        return _plays(self, dice, found)

    def play(self, play: Play) -> Position:
        """The position after ``play``, the opponent now on roll."""
        if play.before != self:
            raise IllegalMoveError(
                f"{play.notation!r} was worked out for another position"
            )  # a caller's bug
        return play.result

    def parse_play(
        self, text: str, dice: Sequence[int], plays: Sequence[Play] | None = None
    ) -> Play:
        """The legal play that ``text`` describes, in gnubg or FIBS notation, in any order
        (``plays``: :meth:`legal_plays` for ``dice``, when they are known already).

        Raises :class:`InvalidMoveError` when the text can't be read, :class:`IllegalMoveError`
        when it describes no legal play, :class:`AmbiguousMoveError` when it fits several.
        """
        if len(dice) != 2:
            raise ValueError(f"a roll is two dice, not {tuple(dice)!r}")
        roll = _check_dice(dice[0], dice[1])
        if plays is None:
            plays = self.legal_plays(*roll)
        plain = normalise_play_text(text).strip().lower()
        if not plays[0].steps:
            if plain in ("", NO_LEGAL_MOVE, "pass"):
                return plays[0]
            raise IllegalMoveError(typed(say.NOTHING_TO_PLAY.said(dice=dice_text(roll)), text))
        if plain in (NO_LEGAL_MOVE, "pass"):
            raise IllegalMoveError(typed(say.CANT_PASS.said(dice=dice_text(roll)), text))
        segments = parse_segments(text)
        return _Matcher(self, roll, plays, text, segments).match()

    def push_play(self, text: str, dice: Sequence[int]) -> Position:
        """``parse_play`` then ``play``: the position after the typed play."""
        return self.play(self.parse_play(text, dice))

    def text_board(self) -> tuple[str, tuple[Said, Said]]:
        """A gnubg-like text board from the mover's side (X, on roll, home bottom right) and
        its two lines of bars, borne-off checkers and pips (O's, then X's), to be worded."""
        legend = text_legend(
            (self.mover[24], self.opponent[24]), self.borne_off(), self.pip_counts()
        )
        return text_grid(self.mover, self.opponent), legend

    def __str__(self) -> str:
        grid, legend = self.text_board()
        lines = [grid, *(f" {line}" for line in legend), f" Position ID: {self.position_id()}"]
        return "\n".join(lines)


class Play:
    """One legal play: the single-die steps ``(from, to)`` it is made of, on the mover's points.

    Plays come from :meth:`Position.legal_plays` (or :meth:`Position.parse_play`); two plays are
    equal when they start from the same position and lead to the same one.
    """

    __slots__ = ("_before", "_dice", "_key", "_notation", "_result", "_steps")

    _before: Position
    _dice: Dice
    _key: int
    _notation: str  # these two are set when first asked
    _result: Position
    _steps: tuple[Step, ...]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Play is immutable")

    @property
    def before(self) -> Position:
        return self._before

    @property
    def dice(self) -> Dice:
        return self._dice

    @property
    def steps(self) -> tuple[Step, ...]:
        """Single-die moves in the order they can be played; 25 = bar, 0 = off."""
        return self._steps

    @property
    def notation(self) -> str:
        """What GNU Backgammon prints for this play, e.g. ``24/18*/13`` or ``6/off(2)``."""
        try:
            return self._notation
        except AttributeError:
            _SET_NOTATION(self, format_play(self._steps, self._before.opponent))
            return self._notation

    @property
    def result(self) -> Position:
        """The position after this play, the opponent on roll."""
        try:
            return self._result
        except AttributeError:
            _SET_RESULT(self, _apply(self._before, self._steps))
            return self._result

    @property
    def hits(self) -> tuple[int, ...]:
        """The mover's points where an opponent's blot was hit, highest first."""
        hit = self._key >> _HIT_SHIFT
        if not hit:
            return ()  # most plays hit nothing
        return tuple(p + 1 for p in range(23, -1, -1) if hit >> p & 1)

    def pips(self) -> int:
        """Pips the mover's checkers travelled."""
        return sum(source - dest for source, dest in self._steps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._key == other._key and self._before == other._before

    def __hash__(self) -> int:
        return hash((self._before, self._key))

    def __repr__(self) -> str:
        return f"Play({self.notation!r}, dice={dice_text(self._dice)})"

    def __str__(self) -> str:
        return self.notation


# Each slot's own setter (``Play.__setattr__`` refuses every assignment): half the cost of
# ``object.__setattr__`` by name, for the 13 to 40 plays of every roll.
_SET_BEFORE, _SET_DICE, _SET_STEPS, _SET_KEY, _SET_NOTATION, _SET_RESULT = (
    vars(Play)[name].__set__
    for name in ("_before", "_dice", "_steps", "_key", "_notation", "_result")
)


def _plays(before: Position, dice: Dice, found: _Found) -> list[Play]:
    """The plays ``_generate`` found (Play has no ``__init__``: they are made only here)."""
    made = list(map(object.__new__, repeat(Play, len(found))))
    for play, (key, steps) in zip(made, found.items(), strict=True):
        _SET_BEFORE(play, before)
        _SET_DICE(play, dice)
        _SET_STEPS(play, steps)
        _SET_KEY(play, key)
    return made


def _pips(side: tuple[int, ...]) -> int:
    return sum((index + 1) * count for index, count in enumerate(side))


def _apply(before: Position, steps: tuple[Step, ...]) -> Position:
    mover = list(before.mover)
    opponent = list(before.opponent)
    for source, dest in steps:
        mover[source - 1] -= 1
        if dest != OFF:
            mover[dest - 1] += 1
            if opponent[24 - dest] == 1:
                opponent[24 - dest] = 0
                opponent[24] += 1
    return _sound(tuple(opponent), tuple(mover))


def _sound(mover: Side, opponent: Side) -> Position:
    """A position made from a sound one (the other side on roll, a legal play applied): not
    checked again (the checks cost 50 us, a position made at every play)."""
    made = object.__new__(Position)
    object.__setattr__(made, "mover", mover)
    object.__setattr__(made, "opponent", opponent)
    return made


class _Matcher:
    """The second layer of parsing: typed segments against the legal plays of one roll."""

    def __init__(
        self,
        position: Position,
        dice: Dice,
        plays: Sequence[Play],
        text: str,
        segments: list[Segment],
    ) -> None:
        self.position = position
        self.dice = dice
        self.plays = plays
        self.text = text
        self.segments = segments

    def illegal(self, reason: Said) -> IllegalMoveError:
        return IllegalMoveError(typed(reason, self.text))

    def match(self) -> Play:
        position, segments = self.position, self.segments
        reason = (
            backwards_reason(segments)
            or too_many_moves_reason(self.dice, segments)
            or _closed_reason(position, segments)
        )
        if reason:
            raise self.illegal(reason)
        mover = list(position.mover)
        hits = 0
        for segment in segments:
            source, dest = segment.path[0], segment.path[-1]
            mover[source - 1] -= segment.count
            if dest != OFF:
                mover[dest - 1] += segment.count
            for point in segment.path[1:]:
                if point != OFF and position.checker_at(point)[1] == 1:
                    hits |= 1 << (_HIT_SHIFT + point - 1)
        if min(mover) >= 0:
            key = _side_key(mover)
            for play in self.plays:
                if play._key == key | hits:
                    return play
            # The typed path may skip an intermediate point where the only way through hits.
            same_board = [play for play in self.plays if play._key & _BOARD_MASK == key]
            if len(same_board) == 1:
                return same_board[0]
            if len(same_board) > 1:
                choices = chained(say.OR, (play.notation for play in same_board))
                raise AmbiguousMoveError(typed(say.AMBIGUOUS.said(choices=choices), self.text))
        raise self.illegal(diagnose(position, self.dice, self.plays, segments))


def _closed_reason(position: Position, segments: Sequence[Segment]) -> Said | None:
    for segment in segments:
        for point in segment.path[1:]:
            theirs = position.checker_at(point)[1] if point != OFF else 0
            if theirs >= 2:
                return say.CLOSED.said(point=point, count=theirs)
    return None
