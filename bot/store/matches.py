"""Matches in the store: the match row and its action log, what of it was shown in its channel
(``match_announcements``), its deadline (``match_timers``, schema 8), the thread it is played in
(schema 9) and its terms against GNU Backgammon (schema 6). The reads that look for matches
rather than play one are :mod:`bot.store.whereabouts`, which :class:`Matches` extends.

:class:`Matches` reads (on the store or in a transaction), :class:`MatchWrites` writes, in the
transaction of the command (``tx.matches``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    Integer,
    Text,
    bindparam,
    case,
    delete,
    func,
    select,
    update,
)
from sqlalchemy import exc as sa

from bot.store import schema
from bot.store.connections import Writes, for_each_database, one_row
from bot.store.rows import MatchRow, StaleMatchError, StoreError, describe_error
from bot.store.schema import fixed
from bot.store.whereabouts import Whereabouts


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
a = schema.match_announcements
t = schema.match_timers
actions = schema.match_actions

# The statements of every command, built once with named parameters: building a statement and its
# cache key costs more than running it on SQLite, so the per-command paths don't do it each time.
_PLAYING_MATCH = select(m).where(
    m.c.server_id == bindparam("server_id"),
    m.c.channel_id == bindparam("channel_id"),
    m.c.status == fixed("playing"),
)
_LATEST_MATCH = (
    select(m)
    .where(m.c.server_id == bindparam("server_id"), m.c.channel_id == bindparam("channel_id"))
    .order_by(m.c.id.desc())
    .limit(1)
)
_MATCH = select(m).where(m.c.id == bindparam("match_id"))
_ACTIONS = (
    select(actions.c.seq, actions.c.action)
    .where(actions.c.match_id == bindparam("match_id"))
    .order_by(actions.c.seq)
)
# Names of parameters in SET differ from the columns': SQLAlchemy keeps those for itself.
_SAVED = {
    "state": func.coalesce(bindparam("new_state", type_=Text), m.c.state),
    "snapshot": func.coalesce(bindparam("new_snapshot", type_=Text), m.c.snapshot),
    "winner": bindparam("new_winner", type_=Integer),
    "ending": bindparam("new_ending", type_=Text),
    "abort_offered_by": bindparam("new_abort_offered_by", type_=Integer),
    "version": m.c.version + 1,
    "last_action_at": case(
        (bindparam("touch", type_=Boolean), bindparam("now", type_=Float)),
        else_=m.c.last_action_at,
    ),
}
_SAVE_WHERE = (m.c.id == bindparam("match_id"), m.c.version == bindparam("seen_version"))
# A save that keeps the status (a move of a match still played) leaves it out of the SET: SQLite
# then leaves the five indexes over it alone, which halves its work on a save (45 of 110 us).
_SAVE_MATCH = update(m).where(*_SAVE_WHERE).values(**_SAVED)
_SAVE_MATCH_STATUS = (
    update(m).where(*_SAVE_WHERE).values(status=bindparam("new_status", type_=Text), **_SAVED)
)
# What a new match's INSERT names: every column but its id and what only its end writes.
_CREATED = [
    f.name for f in fields(MatchRow) if f.name not in ("id", "winner", "ending", "abort_offered_by")
]
_ACTIONS_ADDED = actions.insert()
_ANNOUNCEMENT = select(a.c.version, a.c.shown_at).where(a.c.match_id == bindparam("match_id"))


_TABLE_MESSAGE = select(a.c.message_id, a.c.version).where(a.c.match_id == bindparam("match_id"))


def _announced(insert: Any) -> Any:
    shown = insert(a).values(
        match_id=bindparam("match_id"),
        version=bindparam("version"),
        shown_at=bindparam("now"),
        message_id=bindparam("message_id", type_=Text),
    )
    newer = shown.excluded.version > a.c.version
    return shown.on_conflict_do_update(
        index_elements=["match_id"],
        set_={
            "version": case((newer, shown.excluded.version), else_=a.c.version),
            # the same state shown again (``!board``) keeps its time: the claim clock's start
            "shown_at": case((newer, shown.excluded.shown_at), else_=a.c.shown_at),
            # a state shown by a message of its own keeps the table's message
            "message_id": func.coalesce(shown.excluded.message_id, a.c.message_id),
        },
        where=newer
        | ((shown.excluded.version == a.c.version) & shown.excluded.message_id.is_not(None)),
    )


_ANNOUNCED = for_each_database(_announced)

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


class Matches(Whereabouts):
    """Reads of matches."""

    async def playing(self, server_id: str, channel_id: str) -> MatchRow | None:
        """The channel's match being played."""
        row = await self._db.fetch_one(
            _PLAYING_MATCH, {"server_id": server_id, "channel_id": channel_id}
        )
        return MatchRow(**row._mapping) if row else None

    async def latest(self, server_id: str, channel_id: str) -> MatchRow | None:
        """The channel's newest match, over or not."""
        row = await self._db.fetch_one(
            _LATEST_MATCH, {"server_id": server_id, "channel_id": channel_id}
        )
        return MatchRow(**row._mapping) if row else None

    async def get(self, match_id: int) -> MatchRow | None:
        row = await self._db.fetch_one(_MATCH, {"match_id": match_id})
        return MatchRow(**row._mapping) if row else None

    async def actions(self, match_id: int) -> list[tuple[int, str]]:
        """The match's action log (as a transaction sees it, in one): (seq, action JSON) in
        order."""
        rows = await self._db.fetch_all(_ACTIONS, {"match_id": match_id})
        return [(int(row[0]), str(row[1])) for row in rows]

    # -- what was announced ------------------------------------------------------------------

    async def announcement(self, match_id: int) -> tuple[int, float] | None:
        """(version, when) of the match's newest state shown in its channel, if recorded."""
        row = await self._db.fetch_one(_ANNOUNCEMENT, {"match_id": match_id})
        return (int(row[0]), float(row[1])) if row else None

    async def table_message(self, match_id: int) -> tuple[str | None, int] | None:
        """The id of the match's table message (the one edited at each move; None: it has
        none) and the newest version of the match shown; None when nothing was shown."""
        row = await self._db.fetch_one(_TABLE_MESSAGE, {"match_id": match_id})
        if row is None:
            return None
        return (None if row[0] is None else str(row[0])), int(row[1])

    async def unannounced(self) -> list[MatchRow]:
        """Matches being played whose newest state was never shown in their channel (by the
        index of the matches being played)."""
        rows = await self._db.fetch_all(
            select(m)
            .select_from(m.outerjoin(a, a.c.match_id == m.c.id))
            .where(m.c.status == fixed("playing"), m.c.version > func.coalesce(a.c.version, 0))
            .order_by(m.c.id)
        )
        return [MatchRow(**row._mapping) for row in rows]

    # -- deadlines ----------------------------------------------------------------------------

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


class MatchWrites(Writes, Matches):
    """Writes of matches, in the transaction of the command."""

    async def create(
        self,
        server_id: str,
        channel_id: str,
        player_ids: tuple[str, str],
        match_length: int,
        state: str,
        now: float,
        *,
        snapshot: str | None = None,
        engine_level: str | None = None,
        tutor: bool = False,
        hints: bool = False,
        rated: bool = True,
        parent_channel_id: str | None = None,
    ) -> MatchRow:
        """A new match at version 1, with its terms (the engine's level, tutor, hints, rated)
        and the channel whose thread it is played in; its row as written (every column is
        given: nothing to read back). Its actions go in with :meth:`append_actions`."""
        row = MatchRow(
            id=0,  # the database's, below
            server_id=server_id,
            channel_id=channel_id,
            player0_id=player_ids[0],
            player1_id=player_ids[1],
            match_length=match_length,
            state=state,
            version=1,
            status="playing",
            winner=None,
            ending=None,
            abort_offered_by=None,
            created_at=now,
            last_action_at=now,
            snapshot=snapshot,
            engine_level=engine_level,
            tutor=int(tutor),
            hints=int(hints),
            rated=int(rated),
            parent_channel_id=parent_channel_id,
        )
        values = {name: getattr(row, name) for name in _CREATED}
        return replace(row, id=await self._tx.insert_row(m.insert().values(**values)))

    async def save(
        self,
        match_id: int,
        version: int,
        *,
        status: str | None,
        now: float,
        state: str | None = None,
        snapshot: str | None = None,
        winner: int | None = None,
        ending: str | None = None,
        abort_offered_by: int | None = None,
        touch: bool = True,
    ) -> int:
        """Write a match if it is still at ``version``; returns the new version. ``status``,
        ``state`` and ``snapshot`` are written when given, else kept; new actions go in with
        :meth:`append_actions`, in the same transaction.

        Raises :class:`StaleMatchError` when another writer got there first (on SQLite later).
        """
        # The version check is in the UPDATE itself: of two writers racing on one match (two
        # processes), the second finds no row at ``version`` once the first has committed. On
        # SQLite it goes with the transaction's next trip (a statement that answers, or the
        # COMMIT): the error is raised there.
        stale = StaleMatchError(f"match {match_id} is no longer at version {version}", match_id)
        values = {
            "match_id": match_id,
            "seen_version": version,
            "new_state": state,
            "new_snapshot": snapshot,
            "new_winner": winner,
            "new_ending": ending,
            "new_abort_offered_by": abort_offered_by,
            "touch": touch,
            "now": now,
        }
        if status is None:
            await self._tx.write(_SAVE_MATCH, values, changes=one_row(stale))
        else:
            values["new_status"] = status
            await self._tx.write(_SAVE_MATCH_STATUS, values, changes=one_row(stale))
        return version + 1

    async def append_actions(self, match_id: int, first_seq: int, actions: Sequence[str]) -> None:
        """Add ``actions`` (JSON texts) to the match's log as ``first_seq``, ``first_seq + 1``...

        Raises :class:`StoreError` when the log already has one of those numbers (it then
        disagrees with whoever thought it held ``first_seq`` actions), on SQLite later.
        """
        rows = [
            {"match_id": match_id, "seq": first_seq + offset, "action": action}
            for offset, action in enumerate(actions)
        ]
        if not rows:
            return

        def refused(error: sa.StatementError) -> Exception:
            if not isinstance(error, sa.IntegrityError):
                return error
            return StoreError(
                f"match {match_id}: can't log actions {first_seq}-{first_seq + len(rows) - 1}: "
                f"{describe_error(error)}"
            )

        await self._tx.write(_ACTIONS_ADDED, rows, failure=refused)

    async def store_snapshot(self, match_id: int, version: int, snapshot: str) -> bool:
        """Write a snapshot rebuilt from the log without making a new version (nothing about
        the match changed, so nothing is announced again); False when the match is no longer
        at ``version`` (the newer writer wrote its own snapshot)."""
        changed = await self._tx.execute(
            update(m).where(m.c.id == match_id, m.c.version == version).values(snapshot=snapshot)
        )
        return changed == 1

    async def mark_announced(self, match_id: int, version: int, now: float = 0.0) -> None:
        """Version ``version`` of the match was shown in its channel at ``now`` (never goes
        back to an older version)."""
        await self.mark_all_announced({match_id: version}, now)

    async def mark_all_announced(
        self,
        shown: Mapping[int, int],
        now: float = 0.0,
        messages: Mapping[int, str] | None = None,
    ) -> None:
        """Each match's version in ``shown`` was shown at ``now``: one statement for all;
        ``messages``: the table message that showed it, for the matches shown in one."""
        table = messages or {}
        await self._tx.write(
            _ANNOUNCED[self._tx.dialect],
            [
                {
                    "match_id": match_id,
                    "version": version,
                    "now": now,
                    "message_id": table.get(match_id),
                }
                for match_id, version in shown.items()
            ],
        )

    async def set_terms(
        self,
        match_id: int,
        *,
        engine_level: str | None,
        tutor: bool,
        hints: bool,
        rated: bool,
    ) -> None:
        """Write the terms of a match (those :meth:`create` did not give)."""
        await self._tx.execute(
            update(m)
            .where(m.c.id == match_id)
            .values(engine_level=engine_level, tutor=int(tutor), hints=int(hints), rated=int(rated))
        )

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
