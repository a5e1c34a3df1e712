"""The store's side of deadlines and dice (schema 8): each playing match's timer (when its
decision began, whether its player was reminded, a clock's banks and flag time), challenges'
clocks, and each server's dice counters.

Plain functions over a :class:`~bot.store.database.Store` or
:class:`~bot.store.database.Transaction`, like :mod:`bot.store.opponent`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.database import Store, Transaction
from bot.store.rows import ChallengeRow, MatchRow


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
_TIMER_COLUMNS = "match_id, turn_started_at, reminded, bank0, bank1, delay, flag_at"


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
    banks = timer.banks or (None, None)
    await tx.execute(
        f"INSERT OR REPLACE INTO match_timers ({_TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            timer.match_id,
            timer.turn_started_at,
            int(timer.reminded),
            *banks,
            timer.delay,
            timer.flag_at,
        ),
    )


async def drop_timer(tx: Transaction, match_id: int) -> None:
    """The match ended: no deadline is left."""
    await tx.execute("DELETE FROM match_timers WHERE match_id = ?", (match_id,))


async def mark_reminded(tx: Transaction, match_id: int, turn_started_at: float) -> bool:
    """Note the reminder of the decision that began at ``turn_started_at``; False when that
    decision is over already (or its player was reminded)."""
    changed = await tx.execute(
        "UPDATE match_timers SET reminded = 1 "
        "WHERE match_id = ? AND turn_started_at = ? AND reminded = 0",
        (match_id, turn_started_at),
    )
    return changed == 1


_JOINED_TIMER = ", ".join(f"t.{column} AS t_{column}" for column in _TIMER_COLUMNS.split(", "))


async def match_with_timer(
    store: Store, server_id: str, channel_id: str, *, latest: bool
) -> tuple[MatchRow, TimerRow | None] | None:
    """The channel's match being played (or, with ``latest``, its newest one) and its timer,
    in one read."""
    # The playing one by its own (unique, partial) index: no walk back through a history.
    which = "ORDER BY m.id DESC LIMIT 1" if latest else "AND m.status = 'playing'"
    row = await store.fetch_one(
        f"SELECT m.*, {_JOINED_TIMER} FROM matches m "
        "LEFT JOIN match_timers t ON t.match_id = m.id "
        f"WHERE m.server_id = ? AND m.channel_id = ? {which}",
        (server_id, channel_id),
    )
    if row is None:
        return None
    values = dict(row)
    timer = tuple(values.pop(f"t_{column}") for column in _TIMER_COLUMNS.split(", "))
    return MatchRow(**values), (_timer(timer) if timer[0] is not None else None)


async def timer_of(store: Store, match_id: int) -> TimerRow | None:
    row = await store.fetch_one(
        f"SELECT {_TIMER_COLUMNS} FROM match_timers WHERE match_id = ?", (match_id,)
    )
    return _timer(tuple(row)) if row else None


async def due_reminders(store: Store, started_before: float) -> list[MatchRow]:
    """Playing matches whose decision began before ``started_before`` and whose player was not
    yet reminded of it."""
    rows = await store.fetch_all(
        "SELECT m.* FROM match_timers t JOIN matches m ON m.id = t.match_id "
        "WHERE t.reminded = 0 AND t.turn_started_at <= ? AND m.status = 'playing' ORDER BY m.id",
        (started_before,),
    )
    return [MatchRow(**dict(row)) for row in rows]


async def due_flags(store: Store, now: float) -> list[MatchRow]:
    """Playing matches whose player to act ran out of time by ``now``."""
    rows = await store.fetch_all(
        "SELECT m.* FROM match_timers t JOIN matches m ON m.id = t.match_id "
        "WHERE t.flag_at IS NOT NULL AND t.flag_at <= ? AND m.status = 'playing' ORDER BY m.id",
        (now,),
    )
    return [MatchRow(**dict(row)) for row in rows]


async def set_challenge_clock(tx: Transaction, challenge_id: int, seconds: float) -> None:
    await tx.execute(
        "UPDATE challenges SET clock_seconds = ? WHERE id = ?", (seconds, challenge_id)
    )


async def add_dice(
    tx: Transaction, server_id: str, faces: Sequence[int], rolls: int, doubles: int
) -> None:
    """Add dice to the server's counters (one statement, whatever the count)."""
    if not any(faces) and not rolls:
        return
    await tx.execute(
        "INSERT INTO dice_counts (server_id, face1, face2, face3, face4, face5, face6, rolls, "
        "doubles) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (server_id) DO UPDATE SET "
        "face1 = face1 + excluded.face1, face2 = face2 + excluded.face2, "
        "face3 = face3 + excluded.face3, face4 = face4 + excluded.face4, "
        "face5 = face5 + excluded.face5, face6 = face6 + excluded.face6, "
        "rolls = rolls + excluded.rolls, doubles = doubles + excluded.doubles",
        (server_id, *faces, rolls, doubles),
    )


async def dice_counts(store: Store, server_id: str) -> DiceCounts:
    row = await store.fetch_one(
        "SELECT face1, face2, face3, face4, face5, face6, rolls, doubles FROM dice_counts "
        "WHERE server_id = ?",
        (server_id,),
    )
    if row is None:
        return NO_DICE
    values = [int(value) for value in row]
    faces = (values[0], values[1], values[2], values[3], values[4], values[5])
    return DiceCounts(faces, values[6], values[7])


async def expired_challenges(store: Store, now: float) -> list[ChallengeRow]:
    """Open challenges past their time, not yet closed as expired."""
    rows = await store.fetch_all(
        "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ? ORDER BY id", (now,)
    )
    return [ChallengeRow(**dict(row)) for row in rows]
