"""A position someone pasted: the board and everything around it (cube, score, dice, turn, the
match length and rules), read from an XGID or a gnubg ID, and written back as either.

Players are numbered as gnubg numbers them, and named as both gnubg and XG name them: player 1
is X (XG's bottom player), player 0 is O. :func:`read_position` turns any accepted text into
one :class:`PastedPosition`, or raises :class:`PositionTextError` saying what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.i18n import pasted as say
from bot.i18n.core import Said
from bot.rules.errors import PositionTextError, typed
from bot.rules.matchid import GAME_PLAYING, MatchIdFields, decode_match_id, encode_match_id
from bot.rules.position import CHECKERS, Position, decode_position_id
from bot.rules.xgid import DEFAULT_MAX_CUBE_LOG2, Xgid, decode_xgid, encode_xgid

NAMES = ("O", "X")  # by player number
MAX_CUBE = 1 << 15  # the largest cube a Match ID holds
MAX_SCORE = (1 << 15) - 1
Side = tuple[int, ...]

_BASE64 = r"[A-Za-z0-9+/]"
_GNUBG_ID = re.compile(rf"({_BASE64}{{14}})(?:\s*:\s*|\s+)({_BASE64}{{12}})")
_POSITION_ID = re.compile(rf"{_BASE64}{{14}}")
_LABELLED = re.compile(
    rf"Position\s*ID\s*:\s*({_BASE64}+)\s*(?:Match\s*ID\s*:\s*({_BASE64}+))?", re.IGNORECASE
)


def _owner_text(owner: int | None) -> str:
    return "centred" if owner is None else NAMES[owner]


@dataclass(frozen=True, slots=True)
class PastedPosition:
    """A position in play and its state. ``position``'s mover is ``on_roll``: the player to
    roll (or double), to move ``dice``, or who ``doubled`` (the other must take or pass).
    ``score`` is by player number; ``length`` 0 is a money game, where ``jacoby`` and
    ``beavers`` may be on. ``max_cube`` is XG's cube limit, kept only to write the XGID back.
    Raises :class:`PositionTextError` with a reason for a state that can't be in play."""

    position: Position
    on_roll: int = 1
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: int | None = None
    doubled: bool = False
    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1 << DEFAULT_MAX_CUBE_LOG2

    def __post_init__(self) -> None:
        if self.dice is not None:  # the larger die first, as gnubg and the bot's matches write
            object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))
        if self.on_roll not in (0, 1) or self.cube_owner not in (None, 0, 1):
            raise ValueError("players are 0 and 1")  # a caller's bug
        reason = self._fault()
        if reason is not None:
            raise PositionTextError(reason)

    def _fault(self) -> Said | None:
        """What makes this state impossible in play, or None."""
        doubler, other = NAMES[self.on_roll], NAMES[1 - self.on_roll]
        for name, side in ((doubler, self.position.mover), (other, self.position.opponent)):
            if not sum(side):
                return say.NO_CHECKERS_LEFT.said(name=name)
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            return say.DICE_RANGE.said(dice=f"{self.dice[0]}-{self.dice[1]}")
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > MAX_CUBE:
            return say.CUBE_VALUES.said(most=MAX_CUBE, cube=self.cube)
        if self.max_cube < 1 or self.max_cube & (self.max_cube - 1):
            return say.CUBE_LIMIT.said(most=self.max_cube)
        if self.cube_owner is not None and self.cube == 1:
            return say.CUBE_CENTRED.said()
        if not 0 <= self.length <= MAX_SCORE or not all(
            0 <= points <= MAX_SCORE for points in self.score
        ):
            return say.SCORES.said()
        if self.length and max(self.score) >= self.length:
            return say.ALREADY_WON.said(score=max(self.score), length=self.length)
        if self.length and (self.jacoby or self.beavers):
            return say.MONEY_ONLY.said()
        if self.crawford and self.length == 1:
            return say.NO_CRAWFORD_ONE_POINT.said()
        if self.crawford and self.score.count(self.length - 1) != 1:
            return say.CRAWFORD_SCORE.said()
        if self.crawford and (self.cube > 1 or self.doubled):
            return say.NO_CUBE_CRAWFORD.said()
        if self.doubled:
            if self.dice is not None:
                return say.DOUBLE_WITH_DICE.said()
            if self.cube_owner == 1 - self.on_roll:
                return say.DOUBLER_NOT_OWNER.said(doubler=doubler, other=other)
            if self.cube * 2 > MAX_CUBE:
                return say.CUBE_PAST_LIMIT.said(most=MAX_CUBE)
        return None

    # -- facts --------------------------------------------------------------------------------

    def side(self, player: int) -> Side:
        """``player``'s 25 counts from their own side (index 24 = the bar)."""
        return self.position.mover if player == self.on_roll else self.position.opponent

    def pip_counts(self) -> tuple[int, int]:
        """(player 0, player 1) pips."""
        mover, opponent = self.position.pip_counts()
        return (opponent, mover) if self.on_roll else (mover, opponent)

    @property
    def turn(self) -> int:
        """The player who must act now: the one on roll, or the taker of a double."""
        return 1 - self.on_roll if self.doubled else self.on_roll

    @property
    def phase(self) -> str:
        """What is awaited, in the words of the renderer's ``BoardState``."""
        if self.doubled:
            return "doubled"
        return "roll" if self.dice is None else "move"

    def before_double(self) -> PastedPosition:
        """The same state before a double was offered (the doubler to roll or double)."""
        return replace(self, doubled=False)

    # -- writing ------------------------------------------------------------------------------

    def position_id(self) -> str:
        return self.position.position_id()

    def match_id(self) -> str:
        return encode_match_id(
            MatchIdFields(
                cube=self.cube,
                cube_owner=self.cube_owner,
                on_roll=self.on_roll,
                crawford=self.crawford,
                game_state=GAME_PLAYING,
                turn=self.turn,
                doubled=self.doubled,
                dice=self.dice or (0, 0),
                length=self.length,
                score=self.score,
                jacoby=self.jacoby,
            )
        )

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``."""
        return f"{self.position_id()}:{self.match_id()}"

    def to_xgid(self) -> Xgid:
        money_rules = int(self.jacoby) + 2 * int(self.beavers)
        rules = int(self.crawford) if self.length else money_rules
        owner = {None: 0, 1: 1, 0: -1}[self.cube_owner]
        return Xgid(
            bottom=self.side(1),
            top=self.side(0),
            cube_log2=self.cube.bit_length() - 1,
            cube_position=owner,
            turn=1 if self.on_roll == 1 else -1,
            dice=self.dice or (0, 0),
            offer="D" if self.doubled else "",
            score_bottom=self.score[1],
            score_top=self.score[0],
            rules=rules,
            length=self.length,
            max_cube_log2=self.max_cube.bit_length() - 1,
        )

    def xgid(self) -> str:
        return encode_xgid(self.to_xgid())


def _checked_sides(text: str, sides: dict[int, Side]) -> None:
    """At most 15 checkers a side (an XGID's letters go to 16) and no point held by both,
    said in words for the player before the board is built."""
    for player, side in sides.items():
        if sum(side) > CHECKERS:
            reason = say.TOO_MANY_CHECKERS.said(name=NAMES[player], count=sum(side), most=CHECKERS)
            raise PositionTextError(typed(reason, text))
    for index in range(24):  # player 1's point index + 1 is player 0's point 24 - index
        if sides[1][index] and sides[0][23 - index]:
            raise PositionTextError(typed(say.SHARED_POINT.said(point=index + 1), text))


def _built(text: str, make: Callable[[], PastedPosition]) -> PastedPosition:
    """``make()``, the reason it is not a state in play said for the player."""
    try:
        return make()
    except PositionTextError as error:
        raise PositionTextError(typed(say.NOT_IN_PLAY.said(why=error.reason), text)) from None


def from_xgid(text: str) -> PastedPosition:
    """The position an XGID describes (with or without ``XGID=``)."""
    xgid = decode_xgid(text)
    if xgid.offer in say.XGID_ANSWER:
        raise PositionTextError(typed(say.XGID_ANSWER[xgid.offer].said(), text))
    _checked_sides(text, {1: xgid.bottom, 0: xgid.top})
    on_roll = 1 if xgid.turn == 1 else 0
    sides = {1: xgid.bottom, 0: xgid.top}
    if xgid.length and xgid.rules > 1:
        raise PositionTextError(typed(say.XGID_MATCH_RULES.said(), text))
    if xgid.rules > 3:
        raise PositionTextError(typed(say.XGID_MONEY_RULES.said(), text))
    if xgid.cube_log2 > 15 or xgid.max_cube_log2 > 15:
        raise PositionTextError(typed(say.XGID_CUBE.said(most=MAX_CUBE), text))
    return _built(
        text,
        lambda: PastedPosition(
            Position(sides[on_roll], sides[1 - on_roll]),
            on_roll=on_roll,
            dice=None if xgid.dice == (0, 0) else xgid.dice,
            cube=1 << xgid.cube_log2,
            cube_owner={0: None, 1: 1, -1: 0}[xgid.cube_position],
            doubled=xgid.offer == "D",
            length=xgid.length,
            score=(xgid.score_top, xgid.score_bottom),
            crawford=xgid.length > 1 and xgid.rules == 1,  # gnubg: no Crawford in a 1-point match
            jacoby=not xgid.length and bool(xgid.rules & 1),
            beavers=not xgid.length and bool(xgid.rules & 2),
            max_cube=1 << xgid.max_cube_log2,
        ),
    )


def from_gnubg_id(text: str, position_id: str, match_id: str | None) -> PastedPosition:
    """The position of a Position ID and, when given, a Match ID. A Position ID alone is a
    money game, cube centred, X (player 1) to roll."""
    try:
        not_on_roll, on_roll_side = decode_position_id(position_id)
    except ValueError:
        reason = say.NOT_A_POSITION_ID.said(text=repr(position_id))
        raise PositionTextError(typed(reason, text)) from None
    fields = MatchIdFields(on_roll=1, turn=1)
    if match_id is not None:
        try:
            fields = decode_match_id(match_id)
        except ValueError:
            reason = say.NOT_A_MATCH_ID.said(text=repr(match_id))
            raise PositionTextError(typed(reason, text)) from None
    if fields.game_state != GAME_PLAYING:
        raise PositionTextError(typed(say.MATCH_ID_OVER.said(), text))
    if fields.resigned:
        raise PositionTextError(typed(say.MATCH_ID_RESIGNED.said(), text))
    if fields.turn != (1 - fields.on_roll if fields.doubled else fields.on_roll):
        raise PositionTextError(typed(say.MATCH_ID_TURN.said(), text))
    _checked_sides(text, {fields.on_roll: on_roll_side, 1 - fields.on_roll: not_on_roll})
    dice = None if fields.dice == (0, 0) else fields.dice
    if dice is not None and 0 in dice:
        raise PositionTextError(typed(say.MATCH_ID_ONE_DIE.said(), text))
    return _built(
        text,
        lambda: PastedPosition(
            Position(on_roll_side, not_on_roll),
            on_roll=fields.on_roll,
            dice=dice,
            cube=fields.cube,
            cube_owner=fields.cube_owner,
            doubled=fields.doubled,
            length=fields.length,
            score=fields.score,
            crawford=fields.crawford and fields.length > 1,
            jacoby=fields.jacoby,
        ),
    )


def read_position(text: str) -> PastedPosition:
    """Any of the accepted forms: an XGID (``XGID=...``, or its ten fields), a gnubg ID
    (``PositionID:MatchID``), a Position ID alone, or gnubg's ``Position ID: ... Match ID:
    ...``; quotes and code marks around it are ignored."""
    body = text.strip().strip("`'\"").strip()
    if not body:
        raise PositionTextError(say.NO_POSITION.said())
    if body[:5].upper() == "XGID=" or body.count(":") == 9:
        return from_xgid(body)
    labelled = _LABELLED.search(body)
    if labelled is not None:
        return from_gnubg_id(body, labelled.group(1), labelled.group(2))
    pair = _GNUBG_ID.fullmatch(body)
    if pair is not None:
        return from_gnubg_id(body, pair.group(1), pair.group(2))
    if _POSITION_ID.fullmatch(body) is not None:
        return from_gnubg_id(body, body, None)
    raise PositionTextError(typed(say.UNREADABLE.said(), text))
