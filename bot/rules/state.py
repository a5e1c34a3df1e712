"""The fields of a match's state, apart from the actions that change it: how the match is
played (:class:`MatchOptions`), :class:`MatchState`, which a :class:`Draft` edits while an action
is in progress (:class:`~bot.rules.match.Match` adds the actions), and the state as a snapshot
of a few hundred bytes (:func:`snapshot_of`, :func:`match_from_snapshot`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from operator import attrgetter
from typing import Any, Generic, Literal, TypeVar

from bot.rules.dice import Dice, DiceSource
from bot.rules.errors import SnapshotError
from bot.rules.events import (
    Action,
    Event,
    GameOver,
    GameStarted,
    MatchOver,
    Moved,
    OpeningRoll,
    Rolled,
    Score,
    event_from_data,
)
from bot.rules.notation import NO_LEGAL_MOVE
from bot.rules.position import CHECKERS, Play, Position

MAX_LENGTH = 64  # the longest match GNU Backgammon plays
MAX_CUBE = 1 << 12  # the cube stops at 4096
DEFAULT_AUTOMATIC_DOUBLES = 1  # ``automatic_doubles=True``: one per game, the usual house rule
MAX_AUTOMATIC_DOUBLES = 3  # the most automatic doubles per game a match may ask for


class MatchOptionsError(ValueError):
    """Options no match can be played with; the message says which and why."""


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """How the match is played. ``length`` 0 is a money game (a single game).

    ``automatic_doubles`` is how many times per game equal opening dice may turn the cube: 0
    (off) to :data:`MAX_AUTOMATIC_DOUBLES`; ``True`` means :data:`DEFAULT_AUTOMATIC_DOUBLES`.
    Stored data keeps the number, so a match replays with the cap it was played under.
    ``jacoby``, ``beavers`` and ``automatic_doubles`` are money-game options.
    """

    length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int):
            raise MatchOptionsError(f"the match length must be a whole number, not {self.length!r}")
        if not 0 <= self.length <= MAX_LENGTH:
            raise MatchOptionsError(
                f"a match is 1 to {MAX_LENGTH} points (0 for a money game), not {self.length}"
            )
        auto = self.automatic_doubles
        if auto is True:
            object.__setattr__(self, "automatic_doubles", DEFAULT_AUTOMATIC_DOUBLES)
        elif auto is False:
            object.__setattr__(self, "automatic_doubles", 0)
        elif not isinstance(auto, int) or not 0 <= auto <= MAX_AUTOMATIC_DOUBLES:
            raise MatchOptionsError(
                f"automatic doubles are how many per game: 0 (off) to {MAX_AUTOMATIC_DOUBLES}, "
                f"not {auto!r}"
            )
        if self.length:
            for name in ("jacoby", "beavers", "automatic_doubles"):
                if getattr(self, name):
                    raise MatchOptionsError(f"{name.replace('_', ' ')} is a money-game option")
        else:
            object.__setattr__(self, "crawford", False)

    @property
    def money(self) -> bool:
        return self.length == 0

    def to_data(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "automatic_doubles": self.automatic_doubles,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchOptions:
        return cls(
            length=int(data["length"]),
            crawford=bool(data["crawford"]),
            jacoby=bool(data["jacoby"]),
            beavers=bool(data["beavers"]),
            automatic_doubles=int(data["automatic_doubles"]),
        )


Phase = Literal["roll", "move", "doubled", "resigned", "over"]


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole state of a match, without its actions (:class:`~bot.rules.match.Match` adds them).

    Players are 0 and 1 (0 is the first name in a ``.mat`` file). The fields:

    - ``phase``: ``"roll"`` (the player on roll may double, roll or resign), ``"move"`` (they
      rolled ``dice`` and must play, or resign), ``"doubled"`` (the opponent must take, drop or
      beaver ``offered_cube``), ``"resigned"`` (the opponent must accept or reject the
      ``resignation`` level), ``"over"`` (the match is over; ``winner`` is set).
    - ``on_roll``: whose turn it is; :attr:`Match.turn`: who must act now.
    - ``position``: the board, the player on roll as the mover (after a game played out, the
      loser is the mover); ``dice``: the roll to play, higher die first, or None.
    - ``cube_value``, ``cube_owner`` (None = centred), ``score``, ``game_number``,
      ``crawford`` (this game is the Crawford game), ``post_crawford``, ``auto_doubles`` (made
      this game), ``games`` (the finished games' :class:`GameOver`).
    - ``actions`` (what players did: replayable), ``record`` (every event since the start),
      :attr:`Match.events` (those of the last action), ``dice_used`` (dice drawn so far).
    - A match restored by :meth:`Match.from_snapshot` holds less history (``has_full_record`` is
      False): ``actions`` are those since the snapshot, after ``earlier_actions`` others
      (:attr:`Match.action_count` counts both); ``record`` starts with the current game's last play
      only, and ``games`` with the last finished game only.

    This list is the only one of the state: an action edits a copy with
    :func:`evolved` (see :mod:`bot.rules.events`), and the defaults are the state
    before the first game.

    With the live-cube rule a drop in match play never reaches the match length (the doubler
    gets the cube's value before the double, and may double only while that leaves them short),
    so only a money game ends on a drop.
    """

    options: MatchOptions
    dice_source: DiceSource = field(repr=False)
    dice_used: int = 0
    score: Score = (0, 0)
    game_number: int = 0
    crawford: bool = False
    post_crawford: bool = False
    position: Position = field(default=Position.initial(), repr=False)
    on_roll: int = 0
    phase: Phase = "roll"
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    resignation: int = 0
    auto_doubles: int = 0
    winner: int | None = None
    games: tuple[GameOver, ...] = field(default=(), repr=False)
    actions: tuple[Action, ...] = field(default=(), repr=False)
    record: tuple[Event, ...] = field(default=(), repr=False)
    events_start: int = field(default=0, repr=False)
    earlier_actions: int = field(default=0, repr=False)
    has_full_record: bool = field(default=True, repr=False)
    _plays: tuple[Play, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def action_count(self) -> int:
        """How many actions players have taken since the start (restored or not)."""
        return self.earlier_actions + len(self.actions)

    @property
    def length(self) -> int:
        """Points to win the match; 0 for a money game."""
        return self.options.length

    @property
    def turn(self) -> int | None:
        """Who must act now: the player on roll, or their opponent when a double or a
        resignation waits for an answer. None when the match is over."""
        if self.phase in ("roll", "move"):
            return self.on_roll
        if self.phase == "over":
            return None
        return 1 - self.on_roll


# A match's state in a few hundred bytes, whatever its length: :func:`snapshot_of` and
# :func:`match_from_snapshot` (used as :meth:`Match.snapshot` and :meth:`Match.from_snapshot`).
#
# A snapshot holds every state field of :class:`MatchState` (its rules, score, board,
# cube, dice and turn), the number of actions so far, and the two things of the history that the
# current state still shows: the last finished game (the score line and gnubg's Match ID of a
# finished match) and the last real play of the current game (the board marks it). The restored
# match plays on exactly like the replayed one, with the same states and events, but its
# ``actions`` and ``record`` start empty: see :attr:`Match.has_full_record`.
SNAPSHOT_FORMAT = 1
# Fields of Match that are history (or the dice, given apart), not state: the snapshot keeps
# only the part of the history listed in the module docstring.
_HISTORY = frozenset(
    {
        "dice_source",
        "games",
        "actions",
        "record",
        "events_start",
        "_plays",
        "earlier_actions",
        "has_full_record",
    }
)
_TUPLE_FIELDS = frozenset({"score", "dice"})
_Kept = TypeVar("_Kept", GameOver, Moved)
_State = TypeVar("_State", bound=MatchState)


@cache  # read at every snapshot, made and restored
def state_fields() -> tuple[str, ...]:
    """The names of the fields of a match that a snapshot holds (all but history)."""
    return tuple(item.name for item in fields(MatchState) if item.name not in _HISTORY)


def snapshot_of(match: MatchState) -> dict[str, Any]:
    """``match``'s state as plain JSON-able data; :func:`match_from_snapshot` restores it."""
    data: dict[str, Any] = {"format": SNAPSHOT_FORMAT}
    for name in state_fields():
        data[name] = getattr(match, name)
    # The fields that are not JSON as they are (kept in the loop's order, the snapshot's):
    data["options"] = match.options.to_data()
    data["position"] = match.position.position_id()
    data["score"] = list(match.score)
    data["dice"] = None if match.dice is None else list(match.dice)
    last_play = last_play_event(match.record)
    data["actions"] = match.action_count
    data["last_game"] = match.games[-1].to_data() if match.games else None
    data["last_play"] = None if last_play is None else last_play.to_data()
    return data


def match_from_snapshot(kind: type[_State], data: Mapping[str, Any], dice: DiceSource) -> _State:
    """The match (a ``kind``) :func:`snapshot_of` described, drawing its dice from ``dice`` (the
    source it was played with). Raises :class:`SnapshotError` for data it can't have written."""
    if data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"unknown match snapshot format {data.get('format')!r}")
    try:
        state = {name: _decode(name, data[name]) for name in state_fields()}
        count = data["actions"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise SnapshotError(f"a snapshot's action count is a whole number, not {count!r}")
        games = _events(data["last_game"], GameOver)
        record = _events(data["last_play"], Moved)
        return kind(
            dice_source=dice,
            games=games,
            record=record,
            events_start=len(record),
            earlier_actions=count,
            has_full_record=False,
            **state,
        )
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise SnapshotError(f"a damaged match snapshot: {error!r}") from error


# ``dataclasses.replace`` for frozen dataclasses that run nothing at construction (no
# ``__post_init__``), at about half its cost: a match is copied about 16 times a play, a stored
# row or a timer a few times a save. Each class's fields are read in one call (an
# ``attrgetter`` of them all) and set on a new object through each field's slot (or
# ``object.__setattr__`` without slots), both worked out once a class. (Kept here: a file of
# its own is one more file a typed ``!move`` reaches, tests/service/test_reach.py.)
_T = TypeVar("_T")
_Setter = Callable[[Any, Any], None]


@dataclass(frozen=True, slots=True)
class _Copier:
    read: Callable[[Any], tuple[Any, ...]]  # every field's value, in the fields' order
    setters: tuple[_Setter, ...]
    by_name: Mapping[str, _Setter]


_COPIERS: dict[type, _Copier] = {}


def evolved(value: _T, **changes: Any) -> _T:
    """A copy of ``value`` with ``changes``: what ``dataclasses.replace`` gives for a frozen
    dataclass without ``__post_init__`` (its fields not checked again: they come from a sound
    value, or from the caller's own)."""
    kind = type(value)
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier(kind)
    made: _T = object.__new__(kind)
    for setter, field_value in zip(copier.setters, copier.read(value), strict=True):
        setter(made, field_value)
    for name, changed in changes.items():
        named = copier.by_name.get(name)
        if named is None:
            raise TypeError(f"{kind.__name__} has no field {name!r}")
        named(made, changed)
    return made


def _copier(kind: type) -> _Copier:
    if not is_dataclass(kind) or hasattr(kind, "__post_init__"):
        raise TypeError(f"{kind.__name__} is not a dataclass that runs nothing at construction")
    names = tuple(item.name for item in fields(kind))
    setters = tuple(_setter(kind, name) for name in names)
    many = attrgetter(*names) if len(names) > 1 else None
    read: Callable[[Any], tuple[Any, ...]] = (
        many if many is not None else (lambda value: tuple(getattr(value, n) for n in names))
    )
    return _Copier(read, setters, dict(zip(names, setters, strict=True)))


def _setter(kind: type, name: str) -> _Setter:
    """The field's slot's own setter where it has one (a frozen dataclass's ``__setattr__``
    refuses every assignment), else ``object.__setattr__`` by name."""
    slot = next((vars(base)[name] for base in kind.__mro__ if name in vars(base)), None)
    if slot is not None and hasattr(slot, "__set__") and not isinstance(slot, property):
        found: _Setter = slot.__set__
        return found

    def set_field(made: Any, changed: Any) -> None:
        object.__setattr__(made, name, changed)

    return set_field


def compacted(match: _State) -> _State:
    """What :func:`match_from_snapshot` gives back from ``match``'s snapshot, made without the
    round trip through data (no ID decoded, nothing validated: ``match`` is sound), its legal
    plays kept: a match kept in memory between commands."""
    last_play = last_play_event(match.record)
    record: tuple[Event, ...] = () if last_play is None else (last_play,)
    return evolved(
        match,
        games=match.games[-1:],
        actions=(),
        record=record,
        events_start=len(record),
        earlier_actions=match.action_count,
        has_full_record=False,
    )


def last_play_event(record: Sequence[Event]) -> Moved | None:
    """The latest play of the current game that moved checkers (not a 'no legal move')."""
    for event in reversed(record):
        if isinstance(event, GameStarted):
            return None
        if isinstance(event, Moved) and event.steps:
            return event
    return None


def _decode(name: str, value: Any) -> Any:
    if name == "options":
        return MatchOptions.from_data(value)
    if name == "position":
        return Position.from_position_id(str(value))
    if name in _TUPLE_FIELDS and value is not None:
        return tuple(value)
    return value


def _events(data: Mapping[str, Any] | None, kind: type[_Kept]) -> tuple[_Kept, ...]:
    """The one event of ``kind`` that ``data`` describes, or none."""
    if data is None:
        return ()
    event = event_from_data(data)
    if not isinstance(event, kind):
        raise SnapshotError(f"a snapshot's {kind.kind} is a {type(event).kind}")
    return (event,)


# An action in progress, and what follows from it by itself: the opening roll, a forced play or
# a roll with no legal play, scoring a finished game and starting the next one.
#
# A :class:`Draft` holds the match as the action has made it so far (``now``, a
# :class:`~bot.rules.match.Match` edited with :func:`evolved`, so the state's fields
# are listed only on ``Match``) and the events set off, until :meth:`Draft.freeze` makes the next
# ``Match``.
State = TypeVar("State", bound=MatchState)


class Draft(Generic[State]):
    """The working copy an action edits before it is frozen into a new Match.

    ``now`` is the state so far; its ``actions``, ``record``, ``events_start`` and cached plays
    are the old match's until :meth:`freeze` fills them in from the draft.
    """

    __slots__ = ("actions", "events_start", "now", "plays", "record")

    def __init__(self, now: State, actions: tuple[Action, ...]) -> None:
        self.now = now
        self.actions = actions
        self.record: list[Event] = list(now.record)
        self.events_start = len(now.record)
        self.plays: tuple[Play, ...] | None = None

    def freeze(self) -> State:
        return evolved(
            self.now,
            actions=self.actions,
            record=tuple(self.record),
            events_start=self.events_start,
            _plays=self.plays,
        )

    def start_game(self) -> None:
        now = self.now
        game = now.game_number + 1
        self.record.append(GameStarted(game, now.score, now.crawford))
        used, cube, automatic = now.dice_used, 1, 0
        while True:
            first, second = _dice_at(now.dice_source, used)
            used += 2
            if first != second:
                break
            turned = automatic < now.options.automatic_doubles and cube * 2 <= MAX_CUBE
            if turned:
                automatic += 1
                cube *= 2
            self.record.append(OpeningRoll((first, second), None, cube, turned))
        winner = 0 if first > second else 1
        self.record.append(OpeningRoll((first, second), winner, cube))
        self.now = evolved(
            now,
            game_number=game,
            position=Position.initial(),
            cube_value=cube,
            cube_owner=None,
            resignation=0,
            auto_doubles=automatic,
            dice_used=used,
            on_roll=winner,
            dice=_ordered(first, second),
            phase="move",
        )
        self.after_roll()

    def roll(self) -> None:
        now = self.now
        dice = _ordered(*_dice_at(now.dice_source, now.dice_used))
        self.record.append(Rolled(now.on_roll, dice))
        self.now = evolved(now, dice=dice, dice_used=now.dice_used + 2, phase="move")
        self.after_roll()

    def after_roll(self) -> None:
        """The player on roll has rolled (``now`` is in the ``move`` phase): the only play there
        is plays itself."""
        now = self.now
        assert now.dice is not None
        plays = tuple(now.position.legal_plays(*now.dice))
        if len(plays) == 1:
            self.play(plays[0], forced=True)
        else:
            self.plays = plays

    def play(self, play: Play, *, forced: bool) -> None:
        now = self.now
        assert now.dice is not None
        notation = play.notation if play.steps else NO_LEGAL_MOVE
        self.record.append(Moved(now.on_roll, now.dice, notation, play.steps, play.hits, forced))
        self.plays = None
        after = play.result
        self.now = evolved(now, position=after, on_roll=1 - now.on_roll, dice=None, phase="roll")
        if after.is_game_over():
            loser = after.mover  # the loser's side, from their own point of view
            if sum(loser) < CHECKERS:
                level = 1
            elif any(loser[18:25]):
                level = 3
            else:
                level = 2
            self.end_game(now.on_roll, level, "play")

    def end_game(self, winner: int, level: int, by: Literal["play", "drop", "resignation"]) -> None:
        now = self.now
        options = now.options
        jacoby = (
            by == "play"
            and level > 1
            and options.money
            and options.jacoby
            and now.cube_owner is None
        )
        points = (1 if jacoby else level) * now.cube_value
        score: Score = (
            (now.score[0] + points, now.score[1])
            if winner == 0
            else (now.score[0], now.score[1] + points)
        )
        result: Literal["single", "gammon", "backgammon"] = (
            "single" if level == 1 else "gammon" if level == 2 else "backgammon"
        )
        over = GameOver(now.game_number, winner, points, result, by, now.cube_value, score, jacoby)
        self.record.append(over)
        self.plays = None
        games = (*now.games, over)
        if options.money or score[winner] >= options.length:
            self.now = evolved(
                now, score=score, games=games, resignation=0, winner=winner, phase="over"
            )
            self.record.append(MatchOver(winner, score))
            return
        crawford, post_crawford = now.crawford, now.post_crawford
        if options.crawford:
            post_crawford = post_crawford or crawford
            crawford = not post_crawford and score[winner] == options.length - 1
        self.now = evolved(
            now,
            score=score,
            games=games,
            resignation=0,
            dice=None,
            crawford=crawford,
            post_crawford=post_crawford,
        )
        self.start_game()


def _dice_at(source: DiceSource, index: int) -> tuple[int, int]:
    """Dice ``index`` and ``index + 1`` of ``source``, in the order drawn."""
    return source.die(index), source.die(index + 1)


def _ordered(first: int, second: int) -> Dice:
    """A roll, the higher die first."""
    return max(first, second), min(first, second)
