"""Challenges in the store: open until answered, withdrawn or expired, with their options, clock
(schema 8) and hints (schema 6).

:class:`Challenges` reads, :class:`ChallengeWrites` writes (``tx.challenges``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select, update

from bot.store import schema
from bot.store.connections import Repository, Writes
from bot.store.rows import ChallengeRow, StaleMatchError
from bot.store.schema import fixed

c = schema.challenges


def _open() -> Any:
    return c.c.status == fixed("open")


# Built once and bound by its shape (``connections.bind``): read at every challenge.
_OPEN_IN = select(c).where(
    c.c.server_id == bindparam("server_id"), c.c.channel_id == bindparam("channel_id"), _open()
)


class Challenges(Repository):
    """Reads of challenges."""

    async def open(self, server_id: str, channel_id: str) -> ChallengeRow | None:
        """The channel's open challenge."""
        row = await self._db.fetch_one(_OPEN_IN, {"server_id": server_id, "channel_id": channel_id})
        return ChallengeRow(**row._mapping) if row else None

    async def latest(self, server_id: str, channel_id: str) -> ChallengeRow | None:
        """The channel's newest challenge, open or not."""
        row = await self._db.fetch_one(
            select(c)
            .where(c.c.server_id == server_id, c.c.channel_id == channel_id)
            .order_by(c.c.id.desc())
            .limit(1)
        )
        return ChallengeRow(**row._mapping) if row else None

    async def times(self, server_id: str, user_id: str, since: float, most: int) -> list[float]:
        """When ``user_id`` made their (at most ``most``) newest challenges on the server after
        ``since`` that were not accepted (open, declined, cancelled or expired), newest first."""
        rows = await self._db.fetch_all(
            select(c.c.created_at)
            .where(
                c.c.server_id == server_id,
                c.c.challenger_id == user_id,
                c.c.created_at > since,
                c.c.status != fixed("accepted"),
            )
            .order_by(c.c.created_at.desc())
            .limit(most)
        )
        return [float(row[0]) for row in rows]

    async def expired(self, now: float) -> list[ChallengeRow]:
        """Open challenges past their time, not yet closed as expired."""
        rows = await self._db.fetch_all(
            select(c).where(c.c.status == fixed("open"), c.c.expires_at <= now)
        )
        return sorted((ChallengeRow(**row._mapping) for row in rows), key=lambda row: row.id)


class ChallengeWrites(Writes, Challenges):
    """Writes of challenges, in the transaction of the command."""

    async def create(
        self,
        server_id: str,
        channel_id: str,
        challenger_id: str,
        challenged_id: str,
        match_length: int,
        now: float,
        expires_at: float,
        options: str = "{}",
    ) -> int:
        return await self._tx.insert_row(
            c.insert().values(
                server_id=server_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                challenged_id=challenged_id,
                match_length=match_length,
                created_at=now,
                expires_at=expires_at,
                status="open",
                options=options,
            )
        )

    async def close(self, challenge_id: int, status: str) -> None:
        """Answer the open challenge with ``status``; :class:`StaleMatchError` when it was
        answered meanwhile."""
        changed = await self._tx.execute(
            update(c).where(c.c.id == challenge_id, _open()).values(status=status)
        )
        if changed != 1:
            raise StaleMatchError("the challenge was answered meanwhile")

    async def expire(self, challenge_id: int) -> None:
        """Close a challenge past its time (a no-op if another command got there first)."""
        await self._tx.execute(
            update(c).where(c.c.id == challenge_id, _open()).values(status="expired")
        )

    async def set_clock(self, challenge_id: int, seconds: float) -> None:
        await self._tx.execute(
            update(c).where(c.c.id == challenge_id).values(clock_seconds=seconds)
        )

    async def set_hints(self, challenge_id: int, hints: bool) -> None:
        await self._tx.execute(update(c).where(c.c.id == challenge_id).values(hints=int(hints)))
