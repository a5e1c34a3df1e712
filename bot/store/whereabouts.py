"""Where matches are, for the commands and tasks that look for them (not for play): a player's
matches on any server, a channel's finished ones, its threads' (schema 9), who is seated at a
channel's table, those against GNU Backgammon, and all of them in id order. The match's
repositories (:mod:`bot.store.matches`) extend :class:`Whereabouts`: callers reach it as
``store.matches``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, select, union_all

from bot.store import schema
from bot.store.connections import Repository
from bot.store.rows import MatchRow
from bot.store.schema import fixed

THREADED_SHOWN = 5  # matches named when pointing from a channel to its threads

m = schema.matches
c = schema.challenges


def _open() -> Any:
    return c.c.status == fixed("open")


def _played_by() -> Any:
    playing = m.c.status == fixed("playing")
    both = union_all(
        select(m).where(m.c.player0_id == bindparam("user_id"), playing),
        select(m).where(m.c.player1_id == bindparam("user_id"), playing),
    ).subquery()
    return select(both).order_by(both.c.id)


# Built once and bound by its shape (``connections.bind``): read at every game against the bot.
_PLAYED_BY = _played_by()


class Whereabouts(Repository):
    """Reads of where matches are."""

    async def after(self, after: int, limit: int) -> list[MatchRow]:
        """Up to ``limit`` matches with ids above ``after``, in id order (to walk them all)."""
        rows = await self._db.fetch_all(
            select(m).where(m.c.id > after).order_by(m.c.id).limit(limit)
        )
        return [MatchRow(**row._mapping) for row in rows]

    async def played_by(self, user_id: str) -> list[MatchRow]:
        """The matches ``user_id`` is playing now, on any server, oldest first."""
        rows = await self._db.fetch_all(_PLAYED_BY, {"user_id": user_id})
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

    # -- who plays where ---

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
