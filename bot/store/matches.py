"""Matches in the store: the match row and its action log, what of it was shown in its channel
(``match_announcements``), the thread it is played in (schema 9) and its terms against GNU
Backgammon (schema 6); its deadline (``match_timers``) is :mod:`bot.store.timers`, whose reads
and writes these extend.

:class:`Matches` reads (on the store or in a transaction), :class:`MatchWrites` writes, in the
transaction of the command (``tx.matches``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    Integer,
    Text,
    bindparam,
    case,
    func,
    select,
    union_all,
    update,
)
from sqlalchemy import exc as sa

from bot.store import schema
from bot.store.connections import for_each_database, one_row
from bot.store.rows import MatchRow, StaleMatchError, StoreError, describe_error
from bot.store.schema import fixed
from bot.store.timers import Timers, TimerWrites

THREADED_SHOWN = 5  # matches named when pointing from a channel to its threads


m = schema.matches
c = schema.challenges
a = schema.match_announcements
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
_SAVE_MATCH = (
    update(m)
    .where(m.c.id == bindparam("match_id"), m.c.version == bindparam("seen_version"))
    .values(
        state=func.coalesce(bindparam("new_state", type_=Text), m.c.state),
        snapshot=func.coalesce(bindparam("new_snapshot", type_=Text), m.c.snapshot),
        status=bindparam("new_status", type_=Text),
        winner=bindparam("new_winner", type_=Integer),
        ending=bindparam("new_ending", type_=Text),
        abort_offered_by=bindparam("new_abort_offered_by", type_=Integer),
        version=m.c.version + 1,
        last_action_at=case(
            (bindparam("touch", type_=Boolean), bindparam("now", type_=Float)),
            else_=m.c.last_action_at,
        ),
    )
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


def _open() -> Any:
    return c.c.status == fixed("open")


class Matches(Timers):
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

    async def after(self, after: int, limit: int) -> list[MatchRow]:
        """Up to ``limit`` matches with ids above ``after``, in id order (to walk them all)."""
        rows = await self._db.fetch_all(
            select(m).where(m.c.id > after).order_by(m.c.id).limit(limit)
        )
        return [MatchRow(**row._mapping) for row in rows]

    async def actions(self, match_id: int) -> list[tuple[int, str]]:
        """The match's action log (as a transaction sees it, in one): (seq, action JSON) in
        order."""
        rows = await self._db.fetch_all(_ACTIONS, {"match_id": match_id})
        return [(int(row[0]), str(row[1])) for row in rows]

    async def played_by(self, user_id: str) -> list[MatchRow]:
        """The matches ``user_id`` is playing now, on any server, oldest first."""
        playing = m.c.status == fixed("playing")
        both = union_all(
            select(m).where(m.c.player0_id == user_id, playing),
            select(m).where(m.c.player1_id == user_id, playing),
        ).subquery()
        rows = await self._db.fetch_all(select(both).order_by(both.c.id))
        return [MatchRow(**row._mapping) for row in rows]

    async def latest_finished(self, server_id: str, channel_id: str) -> int | None:
        """The id of the channel's last finished match, or None."""
        row = await self._db.fetch_one(
            select(m.c.id)
            .where(m.c.server_id == server_id, m.c.channel_id == channel_id)
            .where(m.c.status == fixed("finished"))
            .order_by(m.c.id.desc())
            .limit(1)
        )
        return int(row[0]) if row else None

    async def over(self, match_ids: Sequence[int]) -> set[int]:
        """Which of ``match_ids`` are no longer being played (by key: one read for all)."""
        if not match_ids:
            return set()
        rows = await self._db.fetch_all(
            select(m.c.id).where(m.c.id.in_(list(match_ids)), m.c.status != fixed("playing"))
        )
        return {int(row[0]) for row in rows}

    async def against_engine(self) -> list[MatchRow]:
        """Every match being played against the engine (any of them may wait on its turn): by
        the index of the matches being played, not through the finished ones."""
        rows = await self._db.fetch_all(
            select(m)
            .where(m.c.status == fixed("playing"), m.c.engine_level.is_not(None))
            .order_by(m.c.id)
        )
        return [MatchRow(**row._mapping) for row in rows]

    # -- who plays where, and what was announced ----------------------------------------------

    async def seated(
        self, server_id: str, channel_id: str, now: float, ended_since: float
    ) -> frozenset[str]:
        """The players of the channel's match and of its open (unexpired) challenge, and of its
        newest match (or its newest played in a thread) if that ended after ``ended_since``:
        they ask for stats, exports and rematches right after. Index reads only."""
        here = m.c.server_id == server_id

        def newest(where: Any) -> Any:
            last = select(m.c.id).where(here, where).order_by(m.c.id.desc()).limit(1).subquery()
            return select(last.c.id)

        recent = union_all(
            newest(m.c.channel_id == channel_id), newest(m.c.parent_channel_id == channel_id)
        )
        rows = await self._db.fetch_all(
            union_all(
                select(m.c.player0_id, m.c.player1_id).where(
                    here, m.c.channel_id == channel_id, m.c.status == fixed("playing")
                ),
                select(c.c.challenger_id, c.c.challenged_id).where(
                    c.c.server_id == server_id,
                    c.c.channel_id == channel_id,
                    _open(),
                    c.c.expires_at > now,
                ),
                select(m.c.player0_id, m.c.player1_id).where(
                    m.c.id.in_(recent), m.c.last_action_at > ended_since
                ),
            )
        )
        return frozenset(str(user_id) for row in rows for user_id in row)

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

    # -- threads ------------------------------------------------------------------------------

    async def threaded(
        self,
        server_id: str,
        parent_channel_id: str,
        limit: int = THREADED_SHOWN,
        *,
        after: int = 0,
    ) -> list[MatchRow]:
        """The matches being played in threads of the channel (newer than match ``after``),
        oldest first."""
        rows = await self._db.fetch_all(
            select(m)
            .where(m.c.server_id == server_id, m.c.parent_channel_id == parent_channel_id)
            .where(m.c.status == fixed("playing"), m.c.id > after)
            .order_by(m.c.id)
            .limit(limit)
        )
        return [MatchRow(**row._mapping) for row in rows]

    async def latest_threaded(self, server_id: str, parent_channel_id: str) -> MatchRow | None:
        """The newest match from the channel played in a thread, whatever its status."""
        row = await self._db.fetch_one(
            select(m)
            .where(m.c.server_id == server_id, m.c.parent_channel_id == parent_channel_id)
            .order_by(m.c.id.desc())
            .limit(1)
        )
        return None if row is None else MatchRow(**row._mapping)


class MatchWrites(TimerWrites, Matches):
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
        status: str,
        now: float,
        state: str | None = None,
        snapshot: str | None = None,
        winner: int | None = None,
        ending: str | None = None,
        abort_offered_by: int | None = None,
        touch: bool = True,
    ) -> int:
        """Write a match if it is still at ``version``; returns the new version. ``state`` and
        ``snapshot`` are written when given, else kept; new actions go in with
        :meth:`append_actions`, in the same transaction.

        Raises :class:`StaleMatchError` when another writer got there first (on SQLite later).
        """
        # The version check is in the UPDATE itself: of two writers racing on one match (two
        # processes), the second finds no row at ``version`` once the first has committed. On
        # SQLite it goes with the transaction's next trip (a statement that answers, or the
        # COMMIT): the error is raised there.
        stale = StaleMatchError(f"match {match_id} is no longer at version {version}", match_id)
        await self._tx.write(
            _SAVE_MATCH,
            {
                "match_id": match_id,
                "seen_version": version,
                "new_state": state,
                "new_snapshot": snapshot,
                "new_status": status,
                "new_winner": winner,
                "new_ending": ending,
                "new_abort_offered_by": abort_offered_by,
                "touch": touch,
                "now": now,
            },
            changes=one_row(stale),
        )
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
