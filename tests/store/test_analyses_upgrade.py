"""Migration 007 on a database at schema 5 (the schema-4 fixture moved to 5 by migration 5 alone):
the analyses tables come empty, the matches stay, and analyses of them are stored and averaged."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.store import PlayerFigures, Store
from bot.store.migrate import legacy_migrations as migrations
from bot.store.migrate import migration_statements
from bot.store.players import MatchCounts
from tests.store.fixtures.make_schema4 import FIXTURE, SERVER


def at_schema_5(path: Path) -> None:
    """Copy the schema-4 fixture to ``path`` and apply migration 5 only, as that bot did."""
    shutil.copy(FIXTURE, path)
    [sql] = [sql for number, sql in migrations() if number == 5]
    with sqlite3.connect(path) as connection:
        for statement in migration_statements(sql):
            connection.execute(statement)
        connection.execute("PRAGMA user_version = 5")
    connection.close()


@pytest.fixture
async def upgraded(tmp_path: Path) -> Store:
    path = tmp_path / "schema5.sqlite3"
    at_schema_5(path)
    with sqlite3.connect(path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert "match_actions" in tables and "analyses" not in tables
    connection.close()
    return await Store.open(path)


async def test_the_upgrade_adds_empty_analyses_and_keeps_the_matches(upgraded: Store) -> None:
    try:
        assert await upgraded.schema_version() == migrations()[-1][0] >= 7
        assert await upgraded.fetch_all("SELECT * FROM analyses") == []
        assert await upgraded.fetch_all("SELECT * FROM analysis_players") == []
        assert await upgraded.players.match_counts(SERVER, "1001") == MatchCounts(
            finished=1, aborted=1, playing=1
        )
    finally:
        await upgraded.close()


async def test_an_upgraded_match_is_analysed_stored_and_averaged(upgraded: Store) -> None:
    try:
        match_id = await upgraded.matches.latest_finished(SERVER, "finished")
        assert match_id is not None
        row = await upgraded.matches.get(match_id)
        assert row is not None
        async with upgraded.transaction() as tx:
            await tx.analyses.queue(match_id, 2, 10.0)
        assert await upgraded.analyses.waiting() == 1
        async with upgraded.transaction() as tx:
            taken = await tx.analyses.claim("host", 11.0, lease=60.0)
        assert taken is not None and (taken.match_id, taken.worker) == (match_id, "host")
        async with upgraded.transaction() as tx:
            await tx.analyses.fail(match_id, "the worker crashed", 12.0)
        failed = await upgraded.analyses.get(match_id)
        assert failed is not None and (failed.status, failed.error) == (
            "failed",
            "the worker crashed",
        )
        async with upgraded.transaction() as tx:
            await tx.analyses.queue(match_id, 2, 13.0)  # asked again
        queued = await upgraded.analyses.get(match_id)
        assert queued is not None and (queued.status, queued.error, queued.started_at) == (
            "queued",
            None,
            None,
        )
        figures = [
            PlayerFigures(0, row.player0_id, 5.0, 10.0, 90),
            PlayerFigures(1, row.player1_id, 8.0, 16.0, 110),
        ]
        async with upgraded.transaction() as tx:
            await tx.analyses.finish(match_id, SERVER, '{"plies": 2}', figures, 14.0)
        done = await upgraded.analyses.get(match_id)
        assert done is not None and (done.status, done.result, done.finished_at) == (
            "done",
            '{"plies": 2}',
            14.0,
        )
        assert await upgraded.analyses.players(match_id) == figures
        async with upgraded.transaction() as tx:
            await tx.analyses.queue(match_id, 1, 15.0)  # a done analysis stays as it is
        assert await upgraded.analyses.get(match_id) == done
        assert await upgraded.analyses.waiting() == 0
        summary = await upgraded.players.pr_summary(SERVER, row.player1_id)
        assert summary is not None and (summary.matches, summary.decisions, summary.pr) == (
            1,
            110,
            8.0,
        )
        assert await upgraded.players.pr_summary(SERVER, "nobody") is None
    finally:
        await upgraded.close()
