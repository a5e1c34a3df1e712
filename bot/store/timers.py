"""The store's side of deadlines and dice (schema 8): each playing match's timer (when its
decision began, whether its player was reminded, a clock's banks and flag time), challenges'
clocks, and each server's dice counters.

Plain functions over a :class:`~bot.store.database.Store` or
:class:`~bot.store.database.Transaction`, like :mod:`bot.store.opponent`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, select, update

from bot.store import schema
from bot.store.database import Store, Transaction, for_each_database
from bot.store.rows import ChallengeRow, MatchRow
from bot.store.schema import fixed


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A playing match's timer. ``banks`` and ``delay`` are None without a clock; ``flag_at``
    is None when no bank runs."""

    match_id: int
    turn_started_at: float
    reminded: bool
    banks: tuple[float, float] | None
    delay: float | None
    flag_at: float | None


@dataclass(frozen=True, slots=True)
class DiceCounts:
    """A server's dice: ``faces[n - 1]`` dice showed ``n``; ``rolls`` of two dice, ``doubles``
    of them pairs."""

    faces: tuple[int, int, int, int, int, int]
    rolls: int
    doubles: int

    @property
    def dice(self) -> int:
        return sum(self.faces)


NO_DICE = DiceCounts((0, 0, 0, 0, 0, 0), 0, 0)
t = schema.match_timers
m = schema.matches
_TIMER = (
    t.c.match_id,
    t.c.turn_started_at,
    t.c.reminded,
    t.c.bank0,
    t.c.bank1,
    t.c.delay,
    t.c.flag_at,
)
_FACES = ("face1", "face2", "face3", "face4", "face5", "face6", "rolls", "doubles")
_TIMER_VALUES = ("turn_started_at", "reminded", "bank0", "bank1", "delay", "flag_at")


def _with_timer(*, latest: bool) -> Any:
    query = (
        select(m, *(column.label(f"t_{column.name}") for column in _TIMER))
        .select_from(m.outerjoin(t, t.c.match_id == m.c.id))
        .where(m.c.server_id == bindparam("server_id"), m.c.channel_id == bindparam("channel_id"))
    )
    # The playing one by its own (unique, partial) index: no walk back through a history.
    if latest:
        return query.order_by(m.c.id.desc()).limit(1)
    return query.where(m.c.status == fixed("playing"))


def _timer_written(insert: Any) -> Any:
    written = insert(t).values(
        match_id=bindparam("match_id"), **{name: bindparam(name) for name in _TIMER_VALUES}
    )
    return written.on_conflict_do_update(
        index_elements=["match_id"],
        set_={name: written.excluded[name] for name in _TIMER_VALUES},
    )


def _dice_added(insert: Any) -> Any:
    counts = schema.dice_counts
    added = insert(counts).values(
        server_id=bindparam("server_id"), **{name: bindparam(name) for name in _FACES}
    )
    return added.on_conflict_do_update(
        index_elements=["server_id"],
        set_={name: counts.c[name] + added.excluded[name] for name in _FACES},
    )


# Built once (they run at every command): see bot/store/database.py.
_WITH_TIMER = {False: _with_timer(latest=False), True: _with_timer(latest=True)}
_TIMER_WRITTEN = for_each_database(_timer_written)
_DICE_ADDED = for_each_database(_dice_added)
_TIMER_DROPPED = delete(t).where(t.c.match_id == bindparam("match_id"))


def _by_id(rows: list[MatchRow]) -> list[MatchRow]:
    """Due rows in match order. Sorted here, not by the query: with an ORDER BY the planner may
    walk the whole table in that order instead of searching the small index of what is due."""
    return sorted(rows, key=lambda row: row.id)


def _timer(row: Sequence[object]) -> TimerRow:
    match_id, started, reminded, bank0, bank1, delay, flag_at = row
    banks = None if bank0 is None or bank1 is None else (float(str(bank0)), float(str(bank1)))
    return TimerRow(
        int(str(match_id)),
        float(str(started)),
        bool(reminded),
        banks,
        None if delay is None else float(str(delay)),
        None if flag_at is None else float(str(flag_at)),
    )


async def write_timer(tx: Transaction, timer: TimerRow) -> None:
    """Create or replace a match's timer, inside the transaction that saves the match."""
    bank0, bank1 = timer.banks or (None, None)
    values = {
        "match_id": timer.match_id,
        "turn_started_at": timer.turn_started_at,
        "reminded": int(timer.reminded),
        "bank0": bank0,
        "bank1": bank1,
        "delay": timer.delay,
        "flag_at": timer.flag_at,
    }
    await tx.execute(_TIMER_WRITTEN[tx.dialect], values)


async def drop_timer(tx: Transaction, match_id: int) -> None:
    """The match ended: no deadline is left."""
    await tx.execute(_TIMER_DROPPED, {"match_id": match_id})


async def mark_reminded(tx: Transaction, match_id: int, turn_started_at: float) -> bool:
    """Note the reminder of the decision that began at ``turn_started_at``; False when that
    decision is over already (or its player was reminded)."""
    changed = await tx.execute(
        update(t)
        .where(t.c.match_id == match_id, t.c.turn_started_at == turn_started_at)
        .where(t.c.reminded == fixed(0))
        .values(reminded=1)
    )
    return changed == 1


async def match_with_timer(
    store: Store, server_id: str, channel_id: str, *, latest: bool
) -> tuple[MatchRow, TimerRow | None] | None:
    """The channel's match being played (or, with ``latest``, its newest one) and its timer,
    in one read."""
    row = await store.fetch_one(
        _WITH_TIMER[latest], {"server_id": server_id, "channel_id": channel_id}
    )
    if row is None:
        return None
    values = dict(row._mapping)
    timer = tuple(values.pop(f"t_{column.name}") for column in _TIMER)
    return MatchRow(**values), (_timer(timer) if timer[0] is not None else None)


async def timer_of(store: Store, match_id: int) -> TimerRow | None:
    row = await store.fetch_one(select(*_TIMER).where(t.c.match_id == match_id))
    return _timer(tuple(row)) if row else None


async def due_reminders(store: Store, started_before: float) -> list[MatchRow]:
    """Playing matches whose decision began before ``started_before`` and whose player was not
    yet reminded of it."""
    rows = await store.fetch_all(
        select(m)
        .select_from(t.join(m, m.c.id == t.c.match_id))
        .where(t.c.reminded == fixed(0), t.c.turn_started_at <= started_before)
        .where(m.c.status == fixed("playing"))
    )
    return _by_id([MatchRow(**row._mapping) for row in rows])


async def due_flags(store: Store, now: float) -> list[MatchRow]:
    """Playing matches whose player to act ran out of time by ``now``."""
    rows = await store.fetch_all(
        select(m)
        .select_from(t.join(m, m.c.id == t.c.match_id))
        .where(t.c.flag_at.is_not(None), t.c.flag_at <= now, m.c.status == fixed("playing"))
    )
    return _by_id([MatchRow(**row._mapping) for row in rows])


async def set_challenge_clock(tx: Transaction, challenge_id: int, seconds: float) -> None:
    c = schema.challenges
    await tx.execute(update(c).where(c.c.id == challenge_id).values(clock_seconds=seconds))


async def add_dice(
    tx: Transaction, server_id: str, faces: Sequence[int], rolls: int, doubles: int
) -> None:
    """Add dice to the server's counters (one statement, whatever the count)."""
    if not any(faces) and not rolls:
        return
    added = dict(zip(_FACES, (*faces, rolls, doubles), strict=True))
    await tx.execute(_DICE_ADDED[tx.dialect], {"server_id": server_id, **added})


async def dice_counts(store: Store, server_id: str) -> DiceCounts:
    counts = schema.dice_counts
    row = await store.fetch_one(
        select(*(counts.c[name] for name in _FACES)).where(counts.c.server_id == server_id)
    )
    if row is None:
        return NO_DICE
    values = [int(value) for value in row]
    faces = (values[0], values[1], values[2], values[3], values[4], values[5])
    return DiceCounts(faces, values[6], values[7])


async def expired_challenges(store: Store, now: float) -> list[ChallengeRow]:
    """Open challenges past their time, not yet closed as expired."""
    c = schema.challenges
    rows = await store.fetch_all(
        select(c).where(c.c.status == fixed("open"), c.c.expires_at <= now)
    )
    return sorted((ChallengeRow(**row._mapping) for row in rows), key=lambda row: row.id)
