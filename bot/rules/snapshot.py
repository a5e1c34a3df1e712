"""A match's state in a few hundred bytes, whatever its length: :func:`snapshot_of` and
:func:`match_from_snapshot` (used as :meth:`Match.snapshot` and :meth:`Match.from_snapshot`).

A snapshot holds every state field of :class:`~bot.rules.state.MatchState` (its rules, score, board,
cube, dice and turn), the number of actions so far, and the two things of the history that the
current state still shows: the last finished game (the score line and gnubg's Match ID of a
finished match) and the last real play of the current game (the board marks it). The restored
match plays on exactly like the replayed one, with the same states and events, but its
``actions`` and ``record`` start empty: see :attr:`Match.has_full_record`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from functools import cache
from typing import Any, TypeVar

from bot.rules.dice import DiceSource
from bot.rules.errors import SnapshotError
from bot.rules.events import Event, GameOver, GameStarted, Moved, event_from_data
from bot.rules.options import MatchOptions
from bot.rules.position import Position
from bot.rules.state import MatchState

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
        data[name] = _encode(getattr(match, name))
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


def compacted(match: _State) -> _State:
    """What :func:`match_from_snapshot` gives back from ``match``'s snapshot, made without the
    round trip through data (no ID decoded, nothing validated: ``match`` is sound), its legal
    plays kept: a match kept in memory between commands."""
    last_play = last_play_event(match.record)
    record: tuple[Event, ...] = () if last_play is None else (last_play,)
    return replace(
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


def _encode(value: Any) -> Any:
    if isinstance(value, MatchOptions):
        return value.to_data()
    if isinstance(value, Position):
        return value.position_id()
    if isinstance(value, tuple):
        return list(value)
    return value


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
