"""A process killed at any commit of a tournament leaves it where the next process carries it
on: each run kills the console right after its k-th commit (a BaseException nothing catches,
as a kill -9 leaves the database), restarts a new service on the same database, and drives it
by poll ticks and the players alone. Every run must end with the standings and champion of a
run with no crash, for the three formats.

Each commit is labelled by the tournament step that made it (start, pairing, opening, result,
finishing; a match's own moves are ``play``). By default the slow tests kill a seeded sample
that covers every step over the three formats, and one run per format on PostgreSQL;
``CRASH_POINTS=all`` kills at every commit of every format on SQLite (about 150 runs, 2.5
minutes): ``CRASH_POINTS=all pytest -m slow tests/service/tournaments/test_crashes.py``."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.console import SERVER
from bot.rules import tournaments as rules
from bot.service.models import Place
from bot.service.models import Table as MatchTable
from bot.service.tournaments.state import Snapshot
from bot.store import Store, Transaction
from bot.store import tournaments as db
from tests.postgres import PostgresServer
from tests.service.tournaments.test_tournaments import HOME, Table

RUNS_AT_MOST = 400  # ticks and player actions before a run is called stuck
# The step of a tournament each function of bot/service/tournaments commits for.
STEPS = {
    "create": "signup",
    "join": "signup",
    "begin": "start",
    "next_round": "pairing",
    "_start": "opening",
    "_told_waiting": "opening",
    "_match_ended": "result",
    "decide_by_organiser": "result",
    "_finish": "finishing",
    "remove": "removal",  # the organiser's: the forfeit, the withdrawal and the log at once
}
KILLED_STEPS = ("start", "pairing", "opening", "result", "finishing", "removal")


def step_of_caller() -> str:
    """The tournament step whose commit this is: a removal, else the innermost function of
    the tournament code on the stack; ``play`` for a match's own."""
    names = []
    frame = sys._getframe(1)
    while frame is not None:
        if "bot/service/tournaments/" in frame.f_code.co_filename:
            names.append(frame.f_code.co_name)
        frame = frame.f_back  # type: ignore[assignment]
    if "remove" in names:
        return STEPS["remove"]
    return next((STEPS[name] for name in names if name in STEPS), "play")


class Killed(BaseException):
    """The process dies here: nothing after the commit runs."""


class Crashing:
    """``store.transaction`` counted: the ``at``-th commit is followed by a kill. ``steps``:
    the step each commit was made by."""

    def __init__(self, store: Store) -> None:
        self.commits = 0
        self.steps: list[str] = []
        self.at: int | None = None
        self._transaction = store.transaction
        store.transaction = self.transaction  # type: ignore[method-assign]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._transaction() as tx:
            yield tx
        self.commits += 1
        self.steps.append(step_of_caller())
        if self.commits == self.at:
            self.at = None
            raise Killed


FORMATS = {
    "knockout": ("Cup knockout 1", 5),  # three byes in round 1
    "swiss": ("Open swiss 3 rounds 1", 5),  # a bye each round; p4 is removed in round 2
    "roundrobin": ("League roundrobin 1", 4),
}
REMOVED = {"swiss": ("p4", 2)}  # who the organiser removes, and in which round


def winner_of(names: tuple[str, str]) -> str:
    """Who wins a match, the same in every run: the lower player number."""
    return min(names, key=lambda name: int(name.removeprefix("p")))


class Run:
    """One tournament from creation to its end, by the players and the poll, restarted at the
    kill."""

    def __init__(self, table: Table, crashing: Crashing, removed: tuple[str, int] | None) -> None:
        self.table = table
        self.crashing = crashing
        self.removed = removed
        self.kills = 0

    async def step(self, work: Awaitable[object]) -> None:
        try:
            await work
        except Killed:
            self.kills += 1
            self.table.restart()

    async def say(self, line: str) -> None:
        await self.step(self.table.say(line))

    async def tournament(self) -> db.TournamentRow | None:
        return await self.table.store.tournaments.latest(SERVER)

    async def play(self, terms: str, players: int) -> db.TournamentRow:
        names = [f"p{n}" for n in range(1, players + 1)]
        while await self.tournament() is None:
            await self.say(f"#{HOME} org: !tournament create {terms}")
        row = await self.tournament()
        assert row is not None
        for name in names:
            joined = {e.user_id for e in await self.table.store.tournaments.entrants(row.id)}
            if name not in joined:
                await self.say(f"#{HOME} {name}: !join")
        for _ in range(RUNS_AT_MOST):
            row = await self.table.store.tournaments.get(row.id)
            assert row is not None
            if row.status == "signup":
                await self.say(f"#{HOME} org: !tournament start")
            elif row.status == "finished":
                return row
            elif await self.removing(row):
                assert self.removed is not None
                await self.say(f"#{HOME} org: !tournament remove @{self.removed[0]} gone")
            elif not await self.act(row.id):
                await self.say("~ 1m")  # nothing for the players to do: the poll's turn
        raise AssertionError(f"stuck: {row}")

    async def removing(self, row: db.TournamentRow) -> bool:
        """Whether the player to remove is to be removed now: as soon as their round is
        paired, before anyone plays in it."""
        if self.removed is None or row.round < self.removed[1]:
            return False
        entrants = await self.table.store.tournaments.entrants(row.id)
        return any(e.name == self.removed[0] and not e.withdrawn for e in entrants)

    async def act(self, tournament_id: int) -> bool:
        """One action of a player in an open match of the tournament; False when none waits."""
        for pairing in await self.table.store.tournaments.pairings(tournament_id):
            if pairing.decided_at is not None or pairing.channel_id is None:
                continue
            place = Place(SERVER, pairing.channel_id)
            table = await self.table.service.table(place)
            if table is None or table.row.id != pairing.match_id:
                continue
            await self.step(self.move(pairing.channel_id or "", table))
            return True
        return False

    async def move(self, channel: str, table: MatchTable) -> None:
        match = table.match
        winner = winner_of(table.plain)
        seat = table.plain.index(winner)
        say = self.table.say
        if match.phase == "resigned":
            await say(f"#{channel} {winner}: !accept")
        elif match.turn == 1 - seat:
            await say(f"#{channel} {table.plain[1 - seat]}: !resign")
        elif match.phase == "move":
            await say(f"#{channel} {winner}: !move {match.legal_plays()[0].notation}")
        else:
            await say(f"#{channel} {winner}: !roll")


async def standings(store: Store, row: db.TournamentRow) -> list[tuple[object, ...]]:
    pairings = await store.tournaments.pairings(row.id)
    snapshot = Snapshot(row, tuple(await store.tournaments.entrants(row.id)), tuple(pairings))
    table = rules.standings(
        snapshot.format, snapshot.values, snapshot.results, withdrawn=snapshot.withdrawn
    )
    return [
        (s.rank, s.name, s.match_points, s.wins, s.losses, s.buchholz, s.points_difference)
        for s in table
    ] + [("champion", row.champion_id)]


async def played(
    where: Path | str, fmt: str, kill_at: int | None
) -> tuple[list[tuple[object, ...]], list[str]]:
    """The standings a run ends with, and the step of each of its commits."""
    store = await Store.open(where)
    try:
        crashing = Crashing(store)
        crashing.at = kill_at
        run = Run(Table(store), crashing, REMOVED.get(fmt))
        terms, players = FORMATS[fmt]
        row = await run.play(terms, players)
        assert run.kills == (kill_at is not None), (kill_at, crashing.commits)
        return await standings(store, row), crashing.steps
    finally:
        await store.close()


def kill_points(fmt: str, steps: list[str]) -> list[int]:
    """Every commit with ``CRASH_POINTS=all``; else one commit (seeded) of each of two steps,
    the formats taking turns so that the three cover every step."""
    if os.environ.get("CRASH_POINTS") == "all":
        return list(range(1, len(steps) + 1))
    turn = sorted(FORMATS).index(fmt)
    wanted = [KILLED_STEPS[(2 * turn + n) % len(KILLED_STEPS)] for n in range(2)]
    rng = random.Random(fmt)
    return [
        rng.choice([k for k, step in enumerate(steps, start=1) if step == kind]) for kind in wanted
    ]


async def crashed_runs(
    fmt: str, database: Callable[[str], Awaitable[Path | str]], points: Callable[..., list[int]]
) -> None:
    expected, steps = await played(await database("clean"), fmt, None)
    assert {*KILLED_STEPS} - {"removal"} <= set(steps), steps
    assert ("removal" in steps) == (fmt in REMOVED), steps
    failed = []
    for k in points(fmt, steps):
        try:
            got, _ = await played(await database(f"killed{k}"), fmt, k)
        except AssertionError as error:
            failed.append(f"kill after commit {k} ({steps[k - 1]}): {error}")
            continue
        if got != expected:
            failed.append(f"kill after commit {k} ({steps[k - 1]}): {got} != {expected}")
    assert not failed, "\n".join(failed)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(FORMATS))
async def test_a_kill_at_any_commit_ends_with_the_same_standings(tmp_path: Path, fmt: str) -> None:
    async def sqlite(name: str) -> Path:
        return tmp_path / f"{name}.sqlite3"

    await crashed_runs(fmt, sqlite, kill_points)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(FORMATS))
async def test_a_kill_on_postgresql_ends_with_the_same_standings(
    postgres: PostgresServer, fmt: str
) -> None:
    def one(fmt: str, steps: list[str]) -> list[int]:  # a result's commit: the next round owed
        return [max(k for k, step in enumerate(steps, start=1) if step == "result")]

    await crashed_runs(fmt, postgres.new_database, one)


@pytest.mark.parametrize("step", ["start", "result"])
async def test_the_poll_carries_on_a_tournament_killed_between_two_commits(
    tmp_path: Path, step: str
) -> None:
    """The issue's cases: killed between the start's commit and round 1's pairing ("round 0
    of 2" for ever), and between a round's last result and the next pairing."""

    def first(fmt: str, steps: list[str]) -> list[int]:
        return [steps.index(step) + 1]

    async def sqlite(name: str) -> Path:
        return tmp_path / f"{name}.sqlite3"

    await crashed_runs("knockout", sqlite, first)
