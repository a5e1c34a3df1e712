"""A playing match's deadline in the store (``match_timers``, schema 8): when its decision began,
whether its player was reminded, its clock's banks and when the player to act runs out of time.

:class:`Timers` reads, :class:`TimerWrites` writes in the command's transaction; the match's
repositories (:mod:`bot.store.matches`) extend them, so callers reach both as ``store.matches``
and ``tx.matches``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, select, update

from bot.store import schema
from bot.store.connections import Repository, Writes, for_each_database
from bot.store.rows import MatchRow
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


m = schema.matches
t = schema.match_timers

_TIMER = (
    t.c.match_id,
    t.c.turn_started_at,
    t.c.reminded,
    t.c.bank0,
    t.c.bank1,
    t.c.delay,
    t.c.flag_at,
)
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


_WITH_TIMER = {False: _with_timer(latest=False), True: _with_timer(latest=True)}
_TIMER_WRITTEN = for_each_database(_timer_written)
_TIMER_DROPPED = delete(t).where(t.c.match_id == bindparam("match_id"))


def _timer_values(timer: TimerRow) -> dict[str, Any]:
    bank0, bank1 = timer.banks or (None, None)
    return {
        "match_id": timer.match_id,
        "turn_started_at": timer.turn_started_at,
        "reminded": int(timer.reminded),
        "bank0": bank0,
        "bank1": bank1,
        "delay": timer.delay,
        "flag_at": timer.flag_at,
    }


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


class Timers(Repository):
    """Reads of matches' timers."""

    async def with_timer(
        self, server_id: str, channel_id: str, *, latest: bool
    ) -> tuple[MatchRow, TimerRow | None] | None:
        """The channel's match being played (or, with ``latest``, its newest one) and its
        timer, in one read."""
        row = await self._db.fetch_one(
            _WITH_TIMER[latest], {"server_id": server_id, "channel_id": channel_id}
        )
        if row is None:
            return None
        values = dict(row._mapping)
        timer = tuple(values.pop(f"t_{column.name}") for column in _TIMER)
        return MatchRow(**values), (_timer(timer) if timer[0] is not None else None)

    async def timer(self, match_id: int) -> TimerRow | None:
        row = await self._db.fetch_one(select(*_TIMER).where(t.c.match_id == match_id))
        return _timer(tuple(row)) if row else None

    async def due_reminders(self, started_before: float) -> list[MatchRow]:
        """Playing matches whose decision began before ``started_before`` and whose player was
        not yet reminded of it."""
        rows = await self._db.fetch_all(
            select(m)
            .select_from(t.join(m, m.c.id == t.c.match_id))
            .where(t.c.reminded == fixed(0), t.c.turn_started_at <= started_before)
            .where(m.c.status == fixed("playing"))
        )
        return _by_id([MatchRow(**row._mapping) for row in rows])

    async def due_flags(self, now: float) -> list[MatchRow]:
        """Playing matches whose player to act ran out of time by ``now``."""
        rows = await self._db.fetch_all(
            select(m)
            .select_from(t.join(m, m.c.id == t.c.match_id))
            .where(t.c.flag_at.is_not(None), t.c.flag_at <= now, m.c.status == fixed("playing"))
        )
        return _by_id([MatchRow(**row._mapping) for row in rows])


class TimerWrites(Writes, Timers):
    """Writes of matches' timers, in the transaction of the command."""

    async def write_timer(self, timer: TimerRow) -> None:
        """Create or replace a match's timer, inside the transaction that saves the match."""
        await self._tx.write(_TIMER_WRITTEN[self._tx.dialect], _timer_values(timer))

    async def write_timers(self, timers: Sequence[TimerRow]) -> None:
        """The first timers of matches started together (a tournament's round): one statement."""
        if len(timers) == 1:
            await self.write_timer(timers[0])
        elif timers:
            rows = [_timer_values(timer) for timer in timers]
            await self._tx.write(_TIMER_WRITTEN[self._tx.dialect], rows)

    async def drop_timer(self, match_id: int) -> None:
        """The match ended: no deadline is left."""
        await self._tx.write(_TIMER_DROPPED, {"match_id": match_id})

    async def mark_reminded(self, match_id: int, turn_started_at: float) -> bool:
        """Note the reminder of the decision that began at ``turn_started_at``; False when that
        decision is over already (or its player was reminded)."""
        changed = await self._tx.execute(
            update(t)
            .where(t.c.match_id == match_id, t.c.turn_started_at == turn_started_at)
            .where(t.c.reminded == fixed(0))
            .values(reminded=1)
        )
        return changed == 1
