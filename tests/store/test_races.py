"""Two processes racing on one database: on one match (the version check in the UPDATE lets
exactly one writer through per version, and the log stays gapless) and on one player's rating
(read then written: no result is lost), on the queue of analyses (each job is taken by
exactly one), and on a new tournament's name (made once while it is open). Both databases;
each process is a real ``python``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import AnalysisRecords, Store

pytestmark = pytest.mark.slow
COUNT = 60


def race(database: Path | str, kinds: tuple[str, str]) -> list[int]:
    return [int(out) for out in raced(database, kinds)]


def raced(database: Path | str, kinds: tuple[str, str]) -> list[str]:
    """What each of two racers printed."""
    racers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.store.racer", str(database), kind, str(COUNT)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for kind in kinds
    ]
    printed = []
    for racer in racers:
        out, err = racer.communicate(timeout=120)
        assert racer.returncode == 0, err
        printed.append(out.strip())
    return printed


async def seeded(database: Path | str) -> Store:
    store = await Store.open(database)
    async with store.transaction() as tx:
        await tx.ensure_player("s", "a", "alice", 0.0)
        await tx.ensure_player("s", "b", "bob", 0.0)
        await tx.create_match("s", "c", ("a", "b"), 3, "{}", 0.0)
    return store


async def test_two_processes_racing_on_one_match(database: Path | str) -> None:
    store = await seeded(database)
    try:
        stale = race(database, ("match", "match"))
        row = await store.match(1)
        assert row is not None and row.version == 1 + 2 * COUNT
        logged = await store.match_actions(1)
        assert [seq for seq, _ in logged] == list(range(2 * COUNT))
        assert sum(stale) >= 0  # how often each lost a race: the machine decides
    finally:
        await store.close()


async def test_two_processes_racing_on_two_ratings(database: Path | str) -> None:
    """Each process rates its own matches between the same two players, the winners the other
    way round: no result is lost and neither waits on the other for ever."""
    store = await seeded(database)
    try:
        race(database, ("rating-ab", "rating-ba"))
        for user_id in ("a", "b"):
            player = await store.player("s", user_id)
            assert player is not None
            assert (player.rating, player.wins, player.losses, player.experience) == (
                1500,
                COUNT,
                COUNT,
                2 * COUNT,
            ), user_id
    finally:
        await store.close()


async def test_two_processes_writing_the_same_two_players_in_opposite_orders(
    database: Path | str,
) -> None:
    """Challenges between the same two players from two processes, each naming them the other
    way round: both players' rows are written in one order, so neither process deadlocks."""
    store = await seeded(database)
    try:
        race(database, ("names-ab", "names-ba"))
        made = await store.fetch_all("SELECT COUNT(*) FROM challenges")
        assert made[0][0] == 2 * COUNT
    finally:
        await store.close()


async def test_two_processes_taking_jobs_from_one_queue(database: Path | str) -> None:
    """Two hosts empty one queue of analyses at once: every job is taken, none twice (without
    the row lock of the claim, PostgreSQL lets both take one job: checked)."""
    store = await seeded(database)
    records = AnalysisRecords(store)
    try:
        jobs = []
        for n in range(2 * COUNT):
            async with store.transaction() as tx:
                jobs.append(await tx.create_match("s", f"job-{n}", ("a", "b"), 1, "{}", 0.0))
            await records.queue(jobs[-1], 2, float(n), asked_by=None)
        taken = [
            [int(job) for job in out.split(",") if job] for out in raced(database, ("jobs", "jobs"))
        ]
        assert sorted(taken[0] + taken[1]) == sorted(jobs)
        assert await records.waiting() == 0
    finally:
        await store.close()


async def test_two_processes_creating_tournaments_of_the_same_names(database: Path | str) -> None:
    """Two hosts create the same tournament names at once: each name is made exactly once
    (the check of open names runs under the server's row, held by the creating transaction)."""
    store = await seeded(database)
    try:
        made = race(database, ("tournaments", "tournaments"))
        assert sum(made) == COUNT
        rows = await store.fetch_all("SELECT name FROM tournaments")
        assert sorted(row[0] for row in rows) == sorted(f"T{n}" for n in range(COUNT))
    finally:
        await store.close()
