"""What players do (:class:`Action`) and what it sets off (the events): small frozen values.

The actions and the dice rebuild a match; the events are what a caller words for the players.
Both turn into plain JSON-able data with ``to_data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast, get_args

from bot.rules.dice import Dice

ActionKind = Literal[
    "roll", "move", "double", "take", "drop", "beaver", "resign", "accept", "reject"
]
Score = tuple[int, int]

_ACTION_KINDS = frozenset(get_args(ActionKind))


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player did: enough, with the dice, to replay the match.

    ``play`` is the play in gnubg notation (for ``move``); ``level`` 1-3 is single, gammon or
    backgammon (for ``resign``).
    """

    kind: ActionKind
    player: int
    play: str | None = None
    level: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.kind, "player": self.player}
        if self.play is not None:
            data["play"] = self.play
        if self.level is not None:
            data["level"] = self.level
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Action:
        kind = data["action"]
        if kind not in _ACTION_KINDS:
            raise ValueError(f"unknown action {kind!r}")
        play = data.get("play")
        level = data.get("level")
        return cls(
            kind,
            int(data["player"]),
            None if play is None else str(play),
            None if level is None else int(level),
        )


class _Event:
    __slots__ = ()
    kind: ClassVar[str]

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.kind}
        names = cast("tuple[str, ...]", type(self).__slots__)
        for name in names:
            value = getattr(self, name)
            data[name] = (
                [list(v) if isinstance(v, tuple) else v for v in value]
                if isinstance(value, tuple)
                else value
            )
        return data


@dataclass(frozen=True, slots=True)
class GameStarted(_Event):
    """Game ``game`` begins at ``score``; ``crawford`` when it is the Crawford game."""

    kind: ClassVar[str] = "game_started"
    game: int
    score: Score
    crawford: bool


@dataclass(frozen=True, slots=True)
class OpeningRoll(_Event):
    """Each player rolled one die: ``dice`` = (player 0's, player 1's).

    ``winner`` moves first with both dice; None when they were equal and are rolled again, in
    which case ``cube`` may have been turned by an automatic double.
    """

    kind: ClassVar[str] = "opening_roll"
    dice: Dice
    winner: int | None
    cube: int
    automatic_double: bool = False


@dataclass(frozen=True, slots=True)
class Rolled(_Event):
    kind: ClassVar[str] = "rolled"
    player: int
    dice: Dice


@dataclass(frozen=True, slots=True)
class Moved(_Event):
    """A play. ``forced`` when it was the only one (it happened by itself); ``steps`` empty and
    ``play`` ``'no legal move'`` when nothing could be played. ``hits`` are the mover's points
    where a blot was hit."""

    kind: ClassVar[str] = "moved"
    player: int
    dice: Dice
    play: str
    steps: tuple[tuple[int, int], ...]
    hits: tuple[int, ...]
    forced: bool

    @property
    def no_legal_move(self) -> bool:
        return not self.steps


@dataclass(frozen=True, slots=True)
class Doubled(_Event):
    """``player`` offers the cube at ``cube``."""

    kind: ClassVar[str] = "doubled"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Took(_Event):
    """``player`` took and now owns the cube at ``cube``."""

    kind: ClassVar[str] = "took"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Beavered(_Event):
    """``player`` took and at once redoubled: they own the cube at ``cube``."""

    kind: ClassVar[str] = "beavered"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Dropped(_Event):
    """``player`` refused the cube offered at ``cube``: the game is over (see GameOver)."""

    kind: ClassVar[str] = "dropped"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class ResignationOffered(_Event):
    """``player`` offers to resign at ``level`` (1 single, 2 gammon, 3 backgammon)."""

    kind: ClassVar[str] = "resignation_offered"
    player: int
    level: int
    points: int


@dataclass(frozen=True, slots=True)
class ResignationAccepted(_Event):
    """``player`` accepted the opponent's resignation (see GameOver)."""

    kind: ClassVar[str] = "resignation_accepted"
    player: int
    level: int
    points: int


@dataclass(frozen=True, slots=True)
class ResignationRejected(_Event):
    """``player`` rejected the opponent's resignation: play goes on."""

    kind: ClassVar[str] = "resignation_rejected"
    player: int
    level: int


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """Game ``game`` is over: ``winner`` scores ``points``.

    ``result`` is single, gammon or backgammon; ``by`` is ``'play'`` (bore off),
    ``'drop'`` or ``'resignation'``; ``jacoby`` when the Jacoby rule made a gammon or
    backgammon count single; ``score`` is the score after the game.
    """

    kind: ClassVar[str] = "game_over"
    game: int
    winner: int
    points: int
    result: Literal["single", "gammon", "backgammon"]
    by: Literal["play", "drop", "resignation"]
    cube: int
    score: Score
    jacoby: bool = False


@dataclass(frozen=True, slots=True)
class MatchOver(_Event):
    kind: ClassVar[str] = "match_over"
    winner: int
    score: Score


Event = (
    GameStarted
    | OpeningRoll
    | Rolled
    | Moved
    | Doubled
    | Took
    | Beavered
    | Dropped
    | ResignationOffered
    | ResignationAccepted
    | ResignationRejected
    | GameOver
    | MatchOver
)


_EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        GameStarted,
        OpeningRoll,
        Rolled,
        Moved,
        Doubled,
        Took,
        Beavered,
        Dropped,
        ResignationOffered,
        ResignationAccepted,
        ResignationRejected,
        GameOver,
        MatchOver,
    )
}


def event_from_data(data: Mapping[str, Any]) -> Event:
    """The event ``event.to_data()`` described (its lists become tuples again)."""
    kind = data.get("event")
    cls = _EVENT_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown event {kind!r}")
    names = cast("tuple[str, ...]", cls.__slots__)
    return cls(**{name: _tuples(data[name]) for name in names if name in data})


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value
