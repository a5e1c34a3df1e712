"""Writing matches: a new match, each change saved (its snapshot, the actions appended, the
timer, the dice tally, the rating of a result, the players' counters of a match that ended) in
one transaction, and a match ended; the clocks (a timer's next state, a flag fallen) and the
dice tally that go with each save. The
rest of the service writes matches only through :class:`Repository`, so a change in how a match
is stored touches this module and :mod:`bot.service.matches.reading` alone. The store stays the
truth: a match kept in memory is used only while its row has not changed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from bot.i18n import play as say
from bot.i18n import reports as words
from bot.i18n.core import Language, Said
from bot.i18n.reports import UNITS
from bot.rules.errors import excerpt
from bot.rules.events import Event, OpeningRoll, Rolled
from bot.rules.match import Match
from bot.rules.notation import decimal_number
from bot.rules.state import evolved
from bot.rules.text import bank_text
from bot.service.matches.reading import (
    MATCH_BYTES_KEPT,
    NAMES_KEPT,
    DamagedMatch,
    DamagedRecord,
    MatchReader,
    require_seat,
)
from bot.service.models import Place, Table, User, engine_seat_of
from bot.service.records import storage
from bot.service.records.durations import UNIT_SECONDS
from bot.service.records.rating import record_claim, record_result
from bot.store import ChallengeRow, MatchRow, StaleMatchError, Transaction
from bot.store.matches import TimerRow
from bot.store.players import Ending

# Time in a match: the reminder of a player who hasn't acted, and the optional clock.
#
# Pure functions over :class:`~bot.store.matches.TimerRow` values;
# :mod:`bot.service.matches.repository` writes them in the transaction that saves the match,
# :mod:`bot.service.matches.deadlines` acts on those that fall due.
#
# The clock is the one of backgammon sites: each player has a bank (the challenge's time per point
# times the match length); each decision first gets a free ``delay``, then the bank of the player
# to act runs; a player whose bank runs out loses the match.
CLOCK_WORD = "clock"
MAX_CLOCK_SECONDS = 3600.0  # an hour per point: longer is correspondence play, no clock needed
MIN_CLOCK_SECONDS = 10.0
_TIME = re.compile(r"^([\d.]+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?$")


class ClockTermsError(ValueError):
    """A clock typed in a challenge that can't be read; ``said`` quotes it (worded in the
    language of whoever typed it)."""

    def __init__(self, said: Said) -> None:
        super().__init__(str(said))
        self.said = said


def read_clock(text: str) -> float:
    """Seconds per point from ``2m``, ``90s``, ``1.5 min`` or ``2`` (minutes)."""
    found = _TIME.match(text.strip().lower())
    number = decimal_number(found[1]) if found else None
    if found is None or number is None:
        raise ClockTermsError(say.CLOCK_NOT_A_TIME.said(quoted=excerpt(text)))
    seconds = number * UNIT_SECONDS[(found[2] or "m")[0]]
    if not MIN_CLOCK_SECONDS <= seconds <= MAX_CLOCK_SECONDS:
        raise ClockTermsError(
            say.CLOCK_OUT_OF_RANGE.said(
                quoted=excerpt(text),
                least=UNITS["second"].said(2, count=f"{MIN_CLOCK_SECONDS:g}"),
                most=UNITS["minute"].said(2, count=f"{MAX_CLOCK_SECONDS / 60:g}"),
            )
        )
    return seconds


def _runs(match: Match, engine_seat: int | None) -> int | None:
    """The seat whose bank runs now: the player to act, unless nobody or the engine is."""
    turn = match.turn
    return None if turn is None or turn == engine_seat or match.is_over else turn


def first_timer(
    match_id: int,
    match: Match,
    now: float,
    *,
    clock_seconds: float | None,
    delay: float,
    engine_seat: int | None = None,
) -> TimerRow:
    """The timer of a match created at ``now`` (a clock of ``clock_seconds`` per point)."""
    if clock_seconds is None or match.length == 0:
        return TimerRow(match_id, now, False, None, None, None)
    bank = clock_seconds * match.length
    timer = TimerRow(match_id, now, False, (bank, bank), delay, None)
    return _with_flag(timer, _runs(match, engine_seat))


def _with_flag(timer: TimerRow, running: int | None) -> TimerRow:
    if timer.banks is None or timer.delay is None or running is None:
        return evolved(timer, flag_at=None)
    return evolved(timer, flag_at=timer.turn_started_at + timer.delay + timer.banks[running])


@dataclass(frozen=True, slots=True)
class ClockReading:
    """A match's clock at some moment: what is left of each bank; ``running``: the seat whose
    decision is under way (its ``delay_left`` first, then its bank), None when no bank runs
    (GNU Backgammon to act)."""

    banks: tuple[float, float]
    running: int | None
    delay_left: float


def clock_reading(timer: TimerRow | None, match: Match, now: float) -> ClockReading | None:
    """The clock of ``match`` at ``now`` (None: it has none): the bank of the player to act
    less the time it has run past the delay."""
    if timer is None or timer.banks is None or timer.delay is None:
        return None
    banks = timer.banks
    running = match.turn if timer.flag_at is not None else None
    if running is None:
        return ClockReading(banks, None, 0.0)
    elapsed = max(0.0, now - timer.turn_started_at)
    left = max(0.0, banks[running] - max(0.0, elapsed - timer.delay))
    banks = (left, banks[1]) if running == 0 else (banks[0], left)
    return ClockReading(banks, running, max(0.0, timer.delay - elapsed))


def clock_line(names: tuple[str, str], reading: ClockReading, *, language: Language) -> str:
    """``Clock: alice 9:41 · bob 10:00 (alice's runs after 15 s of delay)``."""
    banks = " · ".join(f"{names[seat]} {bank_text(reading.banks[seat])}" for seat in (0, 1))
    running = reading.running
    if running is None:
        return words.CLOCK(language, banks=banks)
    if reading.delay_left > 0:
        seconds = math.ceil(reading.delay_left)
        return words.CLOCK_DELAY(language, banks=banks, name=names[running], seconds=seconds)
    return words.CLOCK_RUNNING(language, banks=banks, name=names[running])


def flagged(timer: TimerRow | None, now: float) -> bool:
    """The player to act has run out of time by ``now``."""
    return timer is not None and timer.flag_at is not None and now >= timer.flag_at


def next_timer(
    timer: TimerRow, before: Match, after: Match, now: float, *, engine_seat: int | None = None
) -> TimerRow:
    """The timer once the player to act in ``before`` acted at ``now``, making ``after``: their
    bank pays for the time past the delay, and the next decision begins (not yet reminded)."""
    banks = timer.banks
    acted = _runs(before, engine_seat)
    if banks is not None and timer.delay is not None and acted is not None:
        used = max(0.0, now - timer.turn_started_at - timer.delay)
        left = max(0.0, banks[acted] - used)
        banks = (left, banks[1]) if acted == 0 else (banks[0], left)
    started = evolved(timer, turn_started_at=now, reminded=False, banks=banks)
    return _with_flag(started, _runs(after, engine_seat))


@dataclass(frozen=True, slots=True)
class DiceTally:
    """Dice seen in some events: ``faces[n - 1]`` showed ``n``; two-dice ``rolls``, and the
    ``doubles`` among them."""

    faces: tuple[int, int, int, int, int, int]
    rolls: int
    doubles: int


def tally_dice(events: Iterable[Event]) -> DiceTally:
    """Every die rolled in ``events``: both dice of each roll, one die per player of each
    opening roll (a tie's too)."""
    faces = [0] * 6
    rolls = doubles = 0
    for event in events:
        if isinstance(event, OpeningRoll):
            for die in event.dice:
                faces[die - 1] += 1
        elif isinstance(event, Rolled):
            first, second = event.dice
            faces[first - 1] += 1
            faces[second - 1] += 1
            rolls += 1
            doubles += first == second
    return DiceTally((faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]), rolls, doubles)


__all__ = [
    "MATCH_BYTES_KEPT",
    "NAMES_KEPT",
    "Arranged",
    "DamagedMatch",
    "DamagedRecord",
    "MatchReader",
    "MatchTerms",
    "Repository",
    "Table",
    "require_seat",
]


@dataclass(frozen=True, slots=True)
class MatchTerms:
    """What a match is played for and with, beside its rules: the engine's level when it holds
    a seat, the tutor, ``!hint``, and whether the result is rated."""

    engine_level: str | None = None
    tutor: bool = False
    hints: bool = False
    rated: bool = True


@dataclass(frozen=True, slots=True)
class Arranged:
    """A match started with no challenge to answer (a tournament's pairing): its players, the
    match, and the thread it is played in (None: the channel itself)."""

    players: tuple[User, User]
    match: Match
    thread: Place | None = None


class Repository(MatchReader):
    """Matches read (see :class:`MatchReader`) and written."""

    # -- writing ------------------------------------------------------------------------------

    async def create_match(
        self,
        place: Place,
        challenge: ChallengeRow,
        accepter: User,
        match: Match,
        *,
        thread: Place | None = None,
    ) -> Table:
        """Start ``match`` from the accepted ``challenge``, in one transaction, at ``place``
        or in its ``thread``. A challenge with hints, or in a DM, starts an unrated match."""
        ids = (challenge.challenger_id, challenge.challenged_id)
        hints = bool(challenge.hints)
        rated = match.length > 0 and not hints and not place.private
        terms = MatchTerms(hints=hints, rated=rated)
        async with self.store.transaction() as tx:
            await tx.players.ensure(place.server_id, accepter.id, accepter.name, self._clock())
            await tx.challenges.close(challenge.id, "accepted")
            started = await self._insert(
                tx, place, ids, match, terms, thread, clock_seconds=challenge.clock_seconds
            )
        self.remember(place, accepter)
        return await self._created(thread or place, started, match)

    async def create_engine_match(
        self,
        place: Place,
        user: User,
        engine: User,
        match: Match,
        terms: MatchTerms,
        *,
        thread: Place | None = None,
    ) -> Table:
        """Start ``match`` between ``user`` (player 0) and the engine at once, in one
        transaction (no challenge to answer), at ``place`` or in its ``thread``."""
        ids = (user.id, engine.id)
        async with self.store.transaction() as tx:
            players = [(user.id, user.name), (engine.id, engine.name)]
            await tx.players.ensure_all(place.server_id, players, self._clock())
            started = await self._insert(tx, place, ids, match, terms, thread)
        self.remember(place, user, engine)
        return await self._created(thread or place, started, match)

    async def create_arranged_matches(
        self,
        place: Place,
        arranged: Sequence[Arranged],
        terms: MatchTerms,
        *,
        clock_seconds: float | None = None,
        also: Callable[[Transaction, list[int]], Awaitable[bool]] | None = None,
    ) -> list[Table]:
        """Start each of ``arranged`` at once (a tournament's round), at ``place`` or in its
        thread, in one transaction: the players, the timers and the dice tally written once for
        all. ``also(tx, match ids)`` runs in it: when it returns False (another process got
        there first) nothing is written and :class:`StaleMatchError` is raised."""
        users = {user.id: user.name for match in arranged for user in match.players}
        async with self.store.transaction() as tx:
            await tx.players.ensure_all(place.server_id, list(users.items()), self._clock())
            started = [
                await self._row(
                    tx,
                    place,
                    (match.players[0].id, match.players[1].id),
                    match.match,
                    terms,
                    match.thread,
                    clock_seconds=clock_seconds,
                )
                for match in arranged
            ]
            await tx.matches.write_timers([timer for _, timer in started])
            rolled = [event for match in arranged for event in match.match.record]
            await _count_dice(tx, place.server_id, rolled)
            if also is not None and not await also(tx, [row.id for row, _ in started]):
                raise StaleMatchError("the pairing was opened meanwhile")
        tables = []
        for match, written in zip(arranged, started, strict=True):
            self.remember(place, *match.players)
            tables.append(await self._created(match.thread or place, written, match.match))
        return tables

    async def _insert(
        self,
        tx: Transaction,
        place: Place,
        ids: tuple[str, str],
        match: Match,
        terms: MatchTerms,
        thread: Place | None,
        *,
        clock_seconds: float | None = None,
    ) -> tuple[MatchRow, TimerRow]:
        """Write a new match, its terms, first timer and opening dice; its row and timer."""
        row, timer = await self._row(
            tx, place, ids, match, terms, thread, clock_seconds=clock_seconds
        )
        await tx.matches.write_timer(timer)
        await _count_dice(tx, place.server_id, match.record)
        return row, timer

    async def _row(
        self,
        tx: Transaction,
        place: Place,
        ids: tuple[str, str],
        match: Match,
        terms: MatchTerms,
        thread: Place | None,
        *,
        clock_seconds: float | None = None,
    ) -> tuple[MatchRow, TimerRow]:
        """Write a new match, its terms and opening actions; its row and first timer (not
        written yet)."""
        written = storage.changes(match, 0)  # the opening rolls made already
        row = await tx.matches.create(
            place.server_id,
            (thread or place).channel_id,
            ids,
            match.length,
            storage.state_text(match),
            self._clock(),
            snapshot=written.snapshot,
            engine_level=terms.engine_level,
            tutor=terms.tutor,
            hints=terms.hints,
            rated=terms.rated,
            parent_channel_id=None if thread is None else place.channel_id,
        )
        await tx.matches.append_actions(row.id, written.first_seq, written.actions)
        timer = first_timer(
            row.id,
            match,
            self._clock(),
            clock_seconds=clock_seconds,
            delay=self._settings.clock_delay_seconds,
            engine_seat=engine_seat_of(ids),
        )
        return row, timer

    async def _created(
        self, place: Place, started: tuple[MatchRow, TimerRow], match: Match
    ) -> Table:
        """The table of a match just started: its row and timer as written (no read back)."""
        row, timer = started
        names = await self.names(place, row.player_ids)
        self._keep(Table(row, storage.compact(match), names, timer))
        return Table(row, match, names, timer)

    async def save(
        self,
        table: Table,
        match: Match,
        *,
        touch: bool = True,
        abort_offered_by: int | None = None,
    ) -> Table:
        """Write ``match`` as the new state of ``table`` (rated if it just ended): the table as
        it now stands. ``touch``: the players acted (the claim clock starts again, the reminder
        and the clock count from now); a player whose clock ran out can't act (see
        :meth:`time_out`)."""
        now = self._clock()
        status = "finished" if match.is_over else "playing"
        row = table.row
        written = storage.changes(match, table.match.action_count)
        timer = table.timer
        if timer is not None and touch:
            timer = next_timer(
                timer, table.match, match, now, engine_seat=engine_seat_of(row.player_ids)
            )
        async with self.store.transaction() as tx:
            version = await tx.matches.save(
                row.id,
                row.version,
                snapshot=written.snapshot,
                status=None if status == row.status else status,  # (kept: cheaper to write)
                now=now,
                winner=match.winner,
                ending="played" if match.is_over else None,
                abort_offered_by=abort_offered_by,
                touch=touch,
            )
            await tx.matches.append_actions(row.id, written.first_seq, written.actions)
            if match.is_over:
                await tx.matches.drop_timer(row.id)
                timer = None
            elif timer is not None and touch:
                await tx.matches.write_timer(timer)
            if match.is_over and match.winner is not None and match.length > 0 and row.rated:
                await record_result(
                    tx, row.server_id, row.player_ids, match.winner, row.id, match.length
                )
            if match.is_over:
                await tx.players.count_endings([Ending.of(row, status, match.winner)])
            # Last: every match of the server adds to this one row, which stays locked (on
            # PostgreSQL) from here to the commit.
            await _count_dice(tx, row.server_id, match.record[len(table.match.record) :])
        row = evolved(
            row,
            version=version,
            snapshot=written.snapshot,
            status=status,
            winner=match.winner,
            ending="played" if match.is_over else None,
            abort_offered_by=abort_offered_by,
            last_action_at=now if touch else row.last_action_at,
        )
        self._keep(Table(row, storage.compact(match), table.plain, timer))
        return Table(row, match, table.plain, timer)

    async def end(
        self,
        table: Table,
        *,
        status: str,
        ending: str,
        winner: int | None = None,
        chance: float | None = None,
        also: Callable[[Transaction], Awaitable[object]] | None = None,
    ) -> Table:
        """End ``table``'s match as it stands: ``aborted`` (unrated), or ``finished`` with a
        ``winner`` (rated unless a money game; by the expected result when the winner claimed
        it with ``chance`` to win it from here). ``also(tx)`` runs in the same transaction (a
        tournament's result, written with the match's end or not at all). Returns the table as
        it now stands."""
        rated = table.match.length if winner is not None and table.row.rated else 0
        now = self._clock()
        version = await self._close(
            table.row,
            status=status,
            ending=ending,
            winner=winner,
            rated=rated,
            chance=chance,
            also=also,
        )
        row = replace(
            table.row,
            version=version,
            status=status,
            ending=ending,
            winner=winner,
            last_action_at=now,
        )
        return Table(row, table.match, table.plain, None)

    async def time_out(self, table: Table, *, language: Language) -> str | None:
        """The news for the channel when the player to act at ``table`` ran out of time on the
        clock before acting: the match, ended on time (None while they have time left)."""
        if not flagged(table.timer, self._clock()):
            return None
        return (await self.end_on_time(table, language=language))[1]

    async def end_on_time(self, table: Table, *, language: Language) -> tuple[Table, str]:
        """End ``table``'s match: the player to act ran out of time and loses it. Returns the
        table as it now stands and the line that says so."""
        loser = table.match.turn
        assert loser is not None  # only a match waiting on someone has a flag
        ended = await self.end(table, status="finished", ending="time", winner=1 - loser)
        rated = say.RATED_NOTE(language) if table.row.rated and table.match.length > 0 else ""
        return ended, words.OUT_OF_TIME(
            language, loser=table.names[loser], winner=table.names[1 - loser], rated=rated
        )

    async def _close(
        self,
        row: MatchRow,
        *,
        status: str,
        ending: str,
        winner: int | None = None,
        rated: int = 0,
        chance: float | None = None,
        also: Callable[[Transaction], Awaitable[object]] | None = None,
    ) -> int:
        """Close a match row without changing its record; ``rated``: the length to rate.
        Returns the row's new version."""
        async with self.store.transaction() as tx:
            version = await tx.matches.save(
                row.id,
                row.version,
                status=status,
                now=self._clock(),
                winner=winner,
                ending=ending,
            )
            if winner is not None and rated > 0 and chance is not None:
                await record_claim(tx, row.server_id, row.player_ids, winner, row.id, rated, chance)
            elif winner is not None and rated > 0:
                await record_result(tx, row.server_id, row.player_ids, winner, row.id, rated)
            await tx.players.count_endings([Ending.of(row, status, winner)])
            await tx.matches.drop_timer(row.id)
            if also is not None:
                await also(tx)
        self.forget(row.id)
        return version

    async def void_damaged(self, row: MatchRow) -> None:
        """End a match that can't be read (see :class:`DamagedMatch`): void, unrated."""
        await self._close(row, status="aborted", ending="unreadable")


async def _count_dice(tx: Transaction, server_id: str, events: Iterable[Event]) -> None:
    tally = tally_dice(events)
    if tally.rolls or any(tally.faces):  # (a move rolls none: no dice repository made for it)
        await tx.dice.add(server_id, tally.faces, tally.rolls, tally.doubles)
