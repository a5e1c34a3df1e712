"""The SQLite store: numbered migrations, WAL, foreign keys, one transaction per command.
Its rows and errors are in :mod:`bot.store.rows`.

All access goes through one aiosqlite connection guarded by one lock, so a transaction of one
channel's command never interleaves with another's statements.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.rows import (
    ChallengeRow,
    MatchRow,
    PlayerRow,
    StaleMatchError,
    StoreError,
    raise_translated,
)

log = logging.getLogger(__name__)

BUSY_SECONDS = 10.0  # how long a statement waits for another process's write lock
_PLAYER_SQL = "SELECT * FROM players WHERE server_id = ? AND user_id = ?"
_ACTIONS_SQL = "SELECT seq, action FROM match_actions WHERE match_id = ? ORDER BY seq"
_APPEND_SQL = "INSERT INTO match_actions (match_id, seq, action) VALUES (?, ?, ?)"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[\w-]+\.sql$")


async def _worker_stopped(connection: aiosqlite.Connection) -> None:
    """Wait until the worker thread of a connection that failed to open has ended: aiosqlite
    stops it then, and a thread still running once the event loop is closed would report to
    that closed loop (a "RuntimeError: Event loop is closed" traceback after a clean exit)."""
    thread = getattr(connection, "_thread", None)
    if isinstance(thread, threading.Thread) and thread.is_alive():
        await asyncio.to_thread(thread.join, 10.0)


def migrations() -> list[tuple[int, str]]:
    """(number, SQL) of every bundled migration, in order."""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match[1]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class Store:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating and migrating as needed) the database at ``path``.

        Several processes may open one file at once: each migration runs in its own write
        transaction and is skipped by whoever finds it already applied. On any failure the
        connection (and its thread) is closed before the error propagates, so a process that
        can't open its database exits instead of hanging.
        """
        connection = aiosqlite.connect(str(path), isolation_level=None)
        try:
            await connection
        except sqlite3.Error as error:
            await _worker_stopped(connection)
            raise StoreError(f"can't open the database {path}: {error}") from error
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            await _set_wal(connection)
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
            store = cls(connection)
            await store._migrate()
            known = max(number for number, _ in migrations())
            found = await store.schema_version()
            if found > known:
                raise StoreError(
                    f"the database {path} is at schema version {found}, newer than this "
                    f"bot's {known}: run the newer bot, or restore a backup"
                )
        except BaseException as error:
            await connection.close()
            if isinstance(error, sqlite3.Error):
                raise StoreError(f"can't use the database {path}: {error}") from error
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def _migrate(self) -> None:
        async with self._lock:
            for number, sql in migrations():
                # Read the version inside the write transaction: another process may have
                # applied this migration since we looked.
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    row = await (await self._db.execute("PRAGMA user_version")).fetchone()
                    if number <= (int(row[0]) if row else 0):
                        await self._db.execute("ROLLBACK")
                        continue
                    log.info("applying database migration %03d", number)
                    for statement in migration_statements(sql):
                        await self._db.execute(statement)
                    await self._db.execute(f"PRAGMA user_version = {number}")
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise
                await self._db.execute("COMMIT")

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    # -- primitives ---------------------------------------------------------------------------

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self._lock:
            try:
                cursor = await self._db.execute(sql, tuple(params))
                row: sqlite3.Row | None = await cursor.fetchone()
            except sqlite3.OperationalError as error:
                raise_translated(error)
            return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            try:
                cursor = await self._db.execute(sql, tuple(params))
                return list(await cursor.fetchall())
            except sqlite3.OperationalError as error:
                raise_translated(error)

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Hand every SQL statement run from now on to ``callback`` (None: stop); for tests
        and diagnosis (how many reads a command costs)."""
        await self._db.set_trace_callback(callback)  # type: ignore[arg-type]  # None is allowed

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One atomic unit of writes: all of it is committed, or none of it. A database held
        by another program raises :class:`DatabaseBusy`, a full disk :class:`DiskFull`."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                raise_translated(error)
            try:
                yield Transaction(self._db)
                await self._db.execute("COMMIT")
            except BaseException as error:
                await self._rollback()
                if isinstance(error, sqlite3.OperationalError):
                    raise_translated(error)
                raise

    async def _rollback(self) -> None:
        if not self._db.in_transaction:
            return  # SQLite already rolled it back (a full disk, a failed write)
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            log.warning("The transaction could not be rolled back", exc_info=True)

    # -- reads --------------------------------------------------------------------------------

    async def player(self, server_id: str, user_id: str) -> PlayerRow | None:
        row = await self.fetch_one(_PLAYER_SQL, (server_id, user_id))
        return PlayerRow(**dict(row)) if row else None

    async def open_challenge(self, server_id: str, channel_id: str) -> ChallengeRow | None:
        row = await self.fetch_one(
            "SELECT * FROM challenges WHERE server_id = ? AND channel_id = ? AND status = 'open'",
            (server_id, channel_id),
        )
        return ChallengeRow(**dict(row)) if row else None

    async def challenge_times(
        self, server_id: str, user_id: str, since: float, most: int
    ) -> list[float]:
        """When ``user_id`` made their (at most ``most``) newest challenges on the server after
        ``since`` that were not accepted (open, declined, cancelled or expired), newest first."""
        rows = await self.fetch_all(
            "SELECT created_at FROM challenges WHERE server_id = ? AND challenger_id = ? "
            "AND created_at > ? AND status != 'accepted' ORDER BY created_at DESC LIMIT ?",
            (server_id, user_id, since, most),
        )
        return [float(row[0]) for row in rows]

    async def playing_matches(self, user_id: str) -> list[MatchRow]:
        """The matches ``user_id`` is playing now, on any server, oldest first."""
        rows = await self.fetch_all(
            "SELECT * FROM matches WHERE player0_id = ? AND status = 'playing' "
            "UNION ALL SELECT * FROM matches WHERE player1_id = ? AND status = 'playing' "
            "ORDER BY id",
            (user_id, user_id),
        )
        return [MatchRow(**dict(row)) for row in rows]

    async def meta(self, name: str) -> str | None:
        row = await self.fetch_one("SELECT value FROM meta WHERE name = ?", (name,))
        return str(row[0]) if row else None

    async def set_meta(self, name: str, value: str) -> None:
        """Set ``name`` unless another process set it first (then its value stays)."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, value),
            )

    async def latest_challenge(self, server_id: str, channel_id: str) -> ChallengeRow | None:
        row = await self.fetch_one(
            "SELECT * FROM challenges WHERE server_id = ? AND channel_id = ? "
            "ORDER BY id DESC LIMIT 1",
            (server_id, channel_id),
        )
        return ChallengeRow(**dict(row)) if row else None

    async def playing_match(self, server_id: str, channel_id: str) -> MatchRow | None:
        row = await self.fetch_one(
            "SELECT * FROM matches WHERE server_id = ? AND channel_id = ? AND status = 'playing'",
            (server_id, channel_id),
        )
        return MatchRow(**dict(row)) if row else None

    async def latest_match(self, server_id: str, channel_id: str) -> MatchRow | None:
        row = await self.fetch_one(
            "SELECT * FROM matches WHERE server_id = ? AND channel_id = ? ORDER BY id DESC LIMIT 1",
            (server_id, channel_id),
        )
        return MatchRow(**dict(row)) if row else None

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self.fetch_one("SELECT * FROM matches WHERE id = ?", (match_id,))
        return MatchRow(**dict(row)) if row else None

    async def match_actions(self, match_id: int) -> list[tuple[int, str]]:
        """The match's action log: (seq, action JSON) in order."""
        rows = await self.fetch_all(_ACTIONS_SQL, (match_id,))
        return [(int(row[0]), str(row[1])) for row in rows]

    async def leaderboard(self, server_id: str, limit: int = 10) -> list[PlayerRow]:
        rows = await self.fetch_all(
            "SELECT * FROM players WHERE server_id = ? AND wins + losses > 0 "
            "ORDER BY rating DESC, wins DESC, name LIMIT ?",
            (server_id, limit),
        )
        return [PlayerRow(**dict(row)) for row in rows]

    async def rank(self, server_id: str, user_id: str) -> tuple[int, int] | None:
        """(rank, ranked players) of a player who has finished a rated match, else None."""
        row = await self.fetch_one(
            "SELECT (SELECT COUNT(*) FROM players o WHERE o.server_id = p.server_id "
            "  AND o.wins + o.losses > 0 AND (o.rating > p.rating "
            "  OR (o.rating = p.rating AND (o.wins > p.wins "
            "  OR (o.wins = p.wins AND o.name < p.name))))) + 1, "
            "(SELECT COUNT(*) FROM players o WHERE o.server_id = p.server_id "
            "  AND o.wins + o.losses > 0) "
            "FROM players p WHERE p.server_id = ? AND p.user_id = ? AND p.wins + p.losses > 0",
            (server_id, user_id),
        )
        return (int(row[0]), int(row[1])) if row else None

    async def match_counts(self, server_id: str, user_id: str) -> dict[str, int]:
        """How many matches a player has finished, aborted and is playing, on this server."""
        rows = await self.fetch_all(
            "SELECT status, COUNT(*) FROM matches WHERE server_id = ? "
            "AND (player0_id = ? OR player1_id = ?) GROUP BY status",
            (server_id, user_id, user_id),
        )
        return {str(row[0]): int(row[1]) for row in rows}

    # -- who plays where, and what was announced ----------------------------------------------

    async def seated(
        self, server_id: str, channel_id: str, now: float, ended_since: float
    ) -> frozenset[str]:
        """The players of the channel's match and of its open (unexpired) challenge, and of its
        newest match (or its newest played in a thread) if that ended after ``ended_since``:
        they ask for stats, exports and rematches right after. Index reads only."""
        rows = await self.fetch_all(
            "SELECT player0_id, player1_id FROM matches "
            "WHERE server_id = ? AND channel_id = ? AND status = 'playing' "
            "UNION ALL SELECT challenger_id, challenged_id FROM challenges "
            "WHERE server_id = ? AND channel_id = ? AND status = 'open' AND expires_at > ? "
            "UNION ALL SELECT player0_id, player1_id FROM matches WHERE id IN ("
            "SELECT id FROM (SELECT id FROM matches WHERE server_id = ? AND channel_id = ? "
            "ORDER BY id DESC LIMIT 1) "
            "UNION ALL SELECT id FROM (SELECT id FROM matches WHERE server_id = ? "
            "AND parent_channel_id = ? ORDER BY id DESC LIMIT 1)"
            ") AND last_action_at > ?",
            (
                server_id,
                channel_id,
                server_id,
                channel_id,
                now,
                server_id,
                channel_id,
                server_id,
                channel_id,
                ended_since,
            ),
        )
        return frozenset(str(user_id) for row in rows for user_id in row)

    async def announcement(self, match_id: int) -> tuple[int, float] | None:
        """(version, when) of the match's newest state shown in its channel, if recorded."""
        row = await self.fetch_one(
            "SELECT version, shown_at FROM match_announcements WHERE match_id = ?", (match_id,)
        )
        return (int(row[0]), float(row[1])) if row else None

    async def unannounced(self) -> list[MatchRow]:
        """Matches being played whose newest state was never shown in their channel."""
        rows = await self.fetch_all(
            "SELECT m.* FROM matches m LEFT JOIN match_announcements a ON a.match_id = m.id "
            "WHERE m.status = 'playing' AND m.version > COALESCE(a.version, 0) ORDER BY m.id"
        )
        return [MatchRow(**dict(row)) for row in rows]


class Transaction:
    """Writes inside :meth:`Store.transaction`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        cursor = await self._db.execute(sql, tuple(params))
        return cursor.rowcount

    async def ensure_player(self, server_id: str, user_id: str, name: str, now: float) -> None:
        await self._db.execute(
            "INSERT INTO servers (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
            (server_id, now),
        )
        await self._db.execute(
            "INSERT INTO players (server_id, user_id, name) VALUES (?, ?, ?) "
            "ON CONFLICT (server_id, user_id) DO UPDATE SET name = excluded.name",
            (server_id, user_id, name),
        )

    async def create_challenge(
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
        cursor = await self._db.execute(
            "INSERT INTO challenges (server_id, channel_id, challenger_id, challenged_id, "
            "match_length, created_at, expires_at, status, options) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)",
            (
                server_id,
                channel_id,
                challenger_id,
                challenged_id,
                match_length,
                now,
                expires_at,
                options,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def close_challenge(self, challenge_id: int, status: str) -> None:
        changed = await self.execute(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
            (status, challenge_id),
        )
        if changed != 1:
            raise StaleMatchError("the challenge was answered meanwhile")

    async def expire_challenge(self, challenge_id: int) -> None:
        """Close a challenge past its time (a no-op if another command got there first)."""
        await self.execute(
            "UPDATE challenges SET status = 'expired' WHERE id = ? AND status = 'open'",
            (challenge_id,),
        )

    async def create_match(
        self,
        server_id: str,
        channel_id: str,
        player_ids: tuple[str, str],
        match_length: int,
        state: str,
        now: float,
        *,
        snapshot: str | None = None,
    ) -> int:
        """A new match at version 1; its actions go in with :meth:`append_actions`."""
        cursor = await self._db.execute(
            "INSERT INTO matches (server_id, channel_id, player0_id, player1_id, match_length, "
            "state, snapshot, version, status, created_at, last_action_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 1, 'playing', ?, ?)",
            (server_id, channel_id, *player_ids, match_length, state, snapshot, now, now),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def save_match(
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

        Raises :class:`StaleMatchError` when another writer got there first.
        """
        changed = await self.execute(
            "UPDATE matches SET state = COALESCE(?, state), snapshot = COALESCE(?, snapshot), "
            "status = ?, winner = ?, ending = ?, abort_offered_by = ?, version = version + 1, "
            "last_action_at = CASE WHEN ? THEN ? ELSE last_action_at END "
            "WHERE id = ? AND version = ?",
            (
                state,
                snapshot,
                status,
                winner,
                ending,
                abort_offered_by,
                touch,
                now,
                match_id,
                version,
            ),
        )
        if changed != 1:
            raise StaleMatchError(f"match {match_id} is no longer at version {version}", match_id)
        return version + 1

    async def append_actions(self, match_id: int, first_seq: int, actions: Sequence[str]) -> None:
        """Add ``actions`` (JSON texts) to the match's log as ``first_seq``, ``first_seq + 1``...

        Raises :class:`StoreError` when the log already has one of those numbers (it then
        disagrees with whoever thought it held ``first_seq`` actions).
        """
        rows = [(match_id, first_seq + offset, action) for offset, action in enumerate(actions)]
        try:
            if len(rows) == 1:
                await self._db.execute(_APPEND_SQL, rows[0])
            elif rows:
                await self._db.executemany(_APPEND_SQL, rows)
        except sqlite3.IntegrityError as error:
            raise StoreError(
                f"match {match_id}: can't log actions {first_seq}-{first_seq + len(rows) - 1}: "
                f"{error}"
            ) from error

    async def match_actions(self, match_id: int) -> list[tuple[int, str]]:
        """The match's action log as this transaction sees it: (seq, action JSON) in order."""
        cursor = await self._db.execute(_ACTIONS_SQL, (match_id,))
        return [(int(row[0]), str(row[1])) for row in await cursor.fetchall()]

    async def store_snapshot(self, match_id: int, version: int, snapshot: str) -> bool:
        """Write a snapshot rebuilt from the log without making a new version (nothing about
        the match changed, so nothing is announced again); False when the match is no longer
        at ``version`` (the newer writer wrote its own snapshot)."""
        changed = await self.execute(
            "UPDATE matches SET snapshot = ? WHERE id = ? AND version = ?",
            (snapshot, match_id, version),
        )
        return changed == 1

    async def record_rating(
        self, match_id: int, server_id: str, user_id: str, before: PlayerRow, rating: float
    ) -> None:
        await self._db.execute(
            "INSERT INTO rating_changes (match_id, server_id, user_id, rating_before, "
            "rating_after, experience_before) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, server_id, user_id, before.rating, rating, before.experience),
        )

    async def update_player_result(
        self, server_id: str, user_id: str, *, rating: float, experience: int, won: bool
    ) -> None:
        await self._db.execute(
            "UPDATE players SET rating = ?, experience = ?, wins = wins + ?, losses = losses + ? "
            "WHERE server_id = ? AND user_id = ?",
            (rating, experience, int(won), int(not won), server_id, user_id),
        )

    async def player(self, server_id: str, user_id: str) -> PlayerRow | None:
        """The player as this transaction sees it (the rating to update)."""
        cursor = await self._db.execute(_PLAYER_SQL, (server_id, user_id))
        row = await cursor.fetchone()
        return PlayerRow(**dict(row)) if row else None

    async def mark_announced(self, match_id: int, version: int, now: float = 0.0) -> None:
        """Version ``version`` of the match was shown in its channel at ``now`` (never goes
        back to an older version)."""
        await self._db.execute(
            "INSERT INTO match_announcements (match_id, version, shown_at) VALUES (?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, "
            "shown_at = excluded.shown_at WHERE excluded.version > version",
            (match_id, version, now),
        )


async def _set_wal(connection: aiosqlite.Connection) -> None:
    """Switch to WAL. SQLite answers "database is locked" at once, without waiting for the busy
    timeout, while another connection is switching a fresh file too: retry for a while."""
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.01
    while True:
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.2)


def migration_statements(sql: str) -> list[str]:
    """Split a migration into statements (they contain no semicolons inside strings)."""
    body = "\n".join(line for line in sql.splitlines() if not line.strip().startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]
