"""The daily puzzle in the store (schema 20): each server's setting, its time zone, each day's
post and the members' answers to it (:mod:`bot.service.puzzles.daily`).

The poll reads the settings due (``puzzle_dailies_due``, by ``next_at``); a day's post is
claimed in one transaction that moves the setting's ``next_at`` on (only if it still holds
what the poll read) and inserts the post, unique by (server, day), with a lease
(:data:`LEASE`): two hosts, or a restart, never claim a day twice. Once its message is sent the
post is marked sent (schema 24); a post still unsent when its lease ends (its process died
between the claim and the send) is found by the index of unsent posts and claimed again by one
host (an update that names the lease it read), so the day is posted at least once. Whether a
puzzle was a server's daily before is read by its unique (server, puzzle); the last post by
(server, day). A member's answer is a row of ``puzzle_answers`` naming the post, unique by
(post, member); the post counts its answers and how many were right.

:class:`Dailies` reads, :class:`DailyWrites` writes (``tx.dailies``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, null, select, update

from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of

pd, dp, pa, sv = (
    schema.puzzle_dailies,
    schema.daily_posts,
    schema.puzzle_answers,
    schema.servers,
)


LEASE = 120.0  # seconds a claimed post has to be sent before another host claims it again


@dataclass(frozen=True, slots=True)
class DailySetting:
    server_id: str
    channel_id: str
    minute: int  # after the server's local midnight
    next_at: float
    set_by: str
    set_at: float


@dataclass(frozen=True, slots=True)
class DailyPost:
    id: int
    server_id: str
    day: str
    channel_id: str
    puzzle: str
    posted_at: float
    answers: int
    found: int
    sent_at: float | None = None
    lease_until: float | None = None  # None: sent, or given up


class Dailies(Repository):
    """Reads of the daily puzzle's settings, posts and answers."""

    async def time_zone(self, server_id: str) -> str | None:
        row = await self._db.fetch_one(select(sv.c.time_zone).where(sv.c.id == server_id))
        return None if row is None or row[0] is None else str(row[0])

    async def setting(self, server_id: str) -> DailySetting | None:
        row = await self._db.fetch_one(select(pd).where(pd.c.server_id == server_id))
        return None if row is None else DailySetting(**row._mapping)

    async def due(self, now: float) -> list[DailySetting]:
        """The settings whose next post is due by ``now``."""
        rows = await self._db.fetch_all(
            select(pd).where(pd.c.next_at <= now).order_by(pd.c.next_at, pd.c.server_id)
        )
        return [DailySetting(**row._mapping) for row in rows]

    async def last_post(self, server_id: str, before: str | None = None) -> DailyPost | None:
        """The server's newest daily post (of a day before ``before``, if given)."""
        query = select(dp).where(dp.c.server_id == server_id)
        if before is not None:
            query = query.where(dp.c.day < before)
        row = await self._db.fetch_one(query.order_by(dp.c.day.desc()).limit(1))
        return None if row is None else DailyPost(**row._mapping)

    async def unsent(self, now: float) -> list[DailyPost]:
        """The posts claimed but not marked sent whose lease ended by ``now``."""
        rows = await self._db.fetch_all(
            select(dp)
            .where(dp.c.sent_at.is_(None), dp.c.lease_until <= now)
            .order_by(dp.c.lease_until, dp.c.id)
        )
        return [DailyPost(**row._mapping) for row in rows]

    async def used(self, server_id: str, keys: Sequence[str]) -> set[str]:
        """Which of the puzzles ``keys`` were the server's daily puzzle before."""
        if not keys:
            return set()
        rows = await self._db.fetch_all(
            select(dp.c.puzzle).where(dp.c.server_id == server_id, dp.c.puzzle.in_(sorted(keys)))
        )
        return {str(row[0]) for row in rows}

    async def answer_of(self, post_id: int, user_id: str) -> tuple[str, int] | None:
        """The member's answer to the post ``post_id``: (answer, right), or None."""
        row = await self._db.fetch_one(
            select(pa.c.answer, pa.c.right).where(pa.c.daily_id == post_id, pa.c.user_id == user_id)
        )
        return None if row is None else (str(row[0]), int(row[1]))


class DailyWrites(Writes, Dailies):
    """Writes of the daily puzzle's settings, posts and answers."""

    async def set_time_zone(self, server_id: str, zone: str, now: float) -> None:
        insert = insert_of(self._tx.dialect)(sv).values(
            id=server_id, created_at=now, time_zone=zone
        )
        await self._tx.execute(
            insert.on_conflict_do_update(index_elements=["id"], set_={"time_zone": zone})
        )

    async def set(self, setting: DailySetting) -> None:
        values = {
            "channel_id": setting.channel_id,
            "minute": setting.minute,
            "next_at": setting.next_at,
            "set_by": setting.set_by,
            "set_at": setting.set_at,
        }
        insert = insert_of(self._tx.dialect)(pd).values(server_id=setting.server_id, **values)
        await self._tx.execute(
            insert.on_conflict_do_update(index_elements=["server_id"], set_=values)
        )

    async def stop(self, server_id: str) -> bool:
        """No daily puzzle for the server any more; False when it had none."""
        return await self._tx.execute(delete(pd).where(pd.c.server_id == server_id)) > 0

    async def claim(
        self, setting: DailySetting, next_at: float, day: str, puzzle: str | None, now: float
    ) -> DailyPost | None:
        """The day's post, claimed: the setting moved on to ``next_at`` (if it is still the one
        read) and the post of ``puzzle`` inserted; None when another host (or an earlier run)
        had it, or with no puzzle to post (the setting still moves on)."""
        moved = await self._tx.execute(
            update(pd)
            .where(
                pd.c.server_id == setting.server_id,
                pd.c.next_at == setting.next_at,
                pd.c.minute == setting.minute,
            )
            .values(next_at=next_at)
        )
        if not moved or puzzle is None:
            return None
        insert = insert_of(self._tx.dialect)(dp).values(
            server_id=setting.server_id,
            day=day,
            channel_id=setting.channel_id,
            puzzle=puzzle,
            posted_at=now,
            lease_until=now + LEASE,
        )
        if not await self._tx.execute(insert.on_conflict_do_nothing()):
            return None
        return await self.last_post(setting.server_id)

    async def reclaim(self, post: DailyPost, now: float) -> bool:
        """Claim again the unsent ``post`` whose lease ended, for :data:`LEASE` more; False when
        another host did first (or it was sent meanwhile)."""
        return bool(
            await self._tx.execute(
                update(dp)
                .where(
                    dp.c.id == post.id,
                    dp.c.sent_at.is_(None),
                    dp.c.lease_until == post.lease_until,
                )
                .values(lease_until=now + LEASE)
            )
        )

    async def give_up(self, post: DailyPost) -> None:
        """No more tries at sending ``post`` (its day is over): out of the unsent posts' way."""
        await self._tx.execute(
            update(dp).where(dp.c.id == post.id, dp.c.sent_at.is_(None)).values(lease_until=null())
        )

    async def mark_sent(self, post_ids: Sequence[int], now: float) -> None:
        """The posts ``post_ids`` were sent: never claimed again."""
        if post_ids:
            await self._tx.execute(
                update(dp)
                .where(dp.c.id.in_(sorted(set(post_ids))), dp.c.sent_at.is_(None))
                .values(sent_at=now, lease_until=null())
            )

    async def answer(
        self, post: DailyPost, user_id: str, answer: str, right: bool, loss: float, now: float
    ) -> bool:
        """The member's answer to ``post`` and its counts; False when they had answered it."""
        values = {
            "server_id": post.server_id,
            "user_id": user_id,
            "puzzle": post.puzzle,
            "shown_at": now,
            "rated": 1,
            "answered_at": now,
            "answer": answer,
            "right": int(right),
            "loss": loss,
            "daily_id": post.id,
        }
        insert = insert_of(self._tx.dialect)(pa).values(**values).on_conflict_do_nothing()
        if not await self._tx.execute(insert):
            return False
        await self._tx.execute(
            update(dp)
            .where(dp.c.id == post.id)
            .values(answers=dp.c.answers + 1, found=dp.c.found + int(right))
        )
        return True
