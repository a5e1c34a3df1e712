"""The players' counters (schema 14) hold what the queries before them computed from the whole
history: kept as matches end and analyses are stored (every way the bot ends them), filled by
migration 014 for a database with a history (one at schema 13 of either kind, and the schema-11
SQLite fixture), and written by the bulk history of bench/history.py."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy import select, text

from bot.service.models import ENGINE_ID
from bot.store import PlayerFigures, Store
from bot.store.history import (
    History,
    PastAnalysis,
    PastChallenge,
    PastMatch,
    PastRating,
)
from bot.store.players import Ending
from bot.store.schema import SCHEMA_VERSION, matches
from tests.service.driver import FakeClock
from tests.store.counters import (
    back_to_schema_13,
    counted,
    history_service,
    live_history,
    recounted,
)
from tests.store.fixtures.make_schema11 import FIXTURE, SERVER

WON_BY_U0 = (("u0", 1500.0, 1508.0), ("u1", 1500.0, 1492.0))
WON_BY_U2 = (("u2", 1500.0, 1508.0), ("u1", 1492.0, 1484.0))


async def test_the_counters_follow_every_way_a_match_ends(database: Path | str) -> None:
    store = await Store.open(database)
    clock = FakeClock()
    service = history_service(store, clock, 5)
    try:
        await live_history(service, clock, "guild")
        endings = await store.fetch_all(
            select(matches.c.status, matches.c.ending).where(matches.c.server_id == "guild")
        )
        assert {tuple(row) for row in endings} == {
            ("finished", "played"),
            ("finished", "claimed"),
            ("finished", "time"),
            ("aborted", "aborted"),
            ("aborted", "voided"),
            ("playing", None),
        }
        now = await counted(store, "guild")
        assert now == await recounted(store, "guild")
        alice = now["1001"]
        assert alice.counts.finished >= 4 and alice.counts.aborted >= 1
        assert alice.counts.playing == 2 and alice.pr is not None
        assert now[ENGINE_ID].against_engine and now[ENGINE_ID].counts.aborted == 1
    finally:
        service.close()
        await store.close()


async def test_migration_14_fills_the_counters_of_a_database_with_a_history(
    database: Path | str,
) -> None:
    store = await Store.open(database)
    clock = FakeClock()
    service = history_service(store, clock, 6)
    try:
        await live_history(service, clock, "guild")
        kept = await counted(store, "guild")
        await back_to_schema_13(store)
    finally:
        service.close()
        await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        filled = await counted(store, "guild")
        assert filled == kept == await recounted(store, "guild")
    finally:
        await store.close()


async def test_the_schema_11_fixture_gets_its_counters(tmp_path: Path) -> None:
    path = tmp_path / "schema11.sqlite3"
    shutil.copy(FIXTURE, path)
    store = await Store.open(path)
    try:
        filled = await counted(store, SERVER)
        assert filled == await recounted(store, SERVER)
        assert sum(record.counts.finished for record in filled.values()) >= 2
        assert any(record.pr is not None for record in filled.values())
    finally:
        await store.close()


async def test_a_history_written_in_bulk_counts_as_one_lived(database: Path | str) -> None:
    store = await Store.open(database)
    try:
        users = [(f"u{n}", f"user {n}") for n in range(4)]
        async with store.transaction() as tx:
            await tx.players.ensure_all("s", [*users, (ENGINE_ID, "GNU Backgammon")], 0.0)
            ids = await History(tx).add_matches(
                [
                    past("u0", "u1", "finished", 0, ratings=WON_BY_U0),
                    past("u1", "u2", "finished", 1, ratings=WON_BY_U2),
                    past("u2", "u3", "aborted", None),
                    past("u3", ENGINE_ID, "finished", 1, level="expert"),
                    past("u3", ENGINE_ID, "finished", 0, level="expert", analysed=True),
                    past("u0", "u3", "finished", 0, analysed=True),
                ],
            )
            await History(tx).add_challenges(
                [
                    PastChallenge("s", f"c{n}", "u0", "u1", 3, n, n + 600.0, status)
                    for n, status in enumerate(("declined", "cancelled", "expired"))
                ],
            )
        assert len(set(ids)) == 6
        async with store.transaction() as tx:  # a match the bot itself creates and ends after
            match_id = (await tx.matches.create("s", "live", ("u0", "u2"), 3, "{}", 1.0)).id
            await tx.matches.save(match_id, 1, status="aborted", now=2.0, ending="aborted")
            await tx.players.count_endings([Ending("s", ("u0", "u2"), "aborted", None, None)])
        assert await counted(store, "s") == await recounted(store, "s")
        board = await store.players.leaderboard("s")
        assert [(p.user_id, p.wins, p.losses, p.rating) for p in board] == [
            ("u0", 1, 0, 1508),  # tied with u2: by name
            ("u2", 1, 0, 1508),
            ("u1", 0, 2, 1484),
        ]
        assert await store.players.rank("s", "u1") == (3, 3)
        changes = await store.fetch_all("SELECT COUNT(*) FROM rating_changes")
        assert changes[0][0] == 4
        for table, rows in (
            ("challenges", 3),
            ("match_actions", 12),
            ("analyses", 2),
            ("analysis_players", 4),
        ):
            assert (await store.fetch_all(f"SELECT COUNT(*) FROM {table}"))[0][0] == rows, table
    finally:
        await store.close()


def past(
    a: str,
    b: str,
    status: str,
    winner: int | None,
    *,
    ratings: tuple[tuple[str, float, float], ...] = (),
    level: str | None = None,
    analysed: bool = False,
) -> PastMatch:
    players = (
        PastAnalysis(
            2,
            "{}",
            (PlayerFigures(0, a, 5.5, 11.0, 60), PlayerFigures(1, b, 8.25, 16.5, 58)),
        )
        if analysed
        else None
    )
    return PastMatch(
        "s",
        f"{a}-{b}",
        (a, b),
        3,
        "{}",
        "{}",
        ['{"action": "roll"}', '{"action": "move"}'],
        status,
        winner,
        "played" if status == "finished" else "aborted",
        0.0,
        1.0,
        engine_level=level,
        rated=bool(ratings),
        ratings=tuple(PastRating(user, before, after, 0) for user, before, after in ratings),
        analysis=players,
    )


async def test_migration_18_takes_out_the_figures_of_matches_too_short_to_rate(
    database: Path | str,
) -> None:
    """A schema-16 database holds the figures of a match claimed after a move (one decision,
    PR 200; none, PR 0) in its rows and counters: migration 018 takes them out of both."""
    store = await Store.open(database)
    clock = FakeClock()
    service = history_service(store, clock, 7)
    try:
        await live_history(service, clock, "guild")
        kept = await counted(store, "guild")
        claimed = await store.matches.latest("guild", "claimed")
        assert claimed is not None and claimed.status == "finished"
        short = [
            PlayerFigures(seat, user_id, 200.0 if seat else 0.0, 400.0 if seat else 0.0, seat)
            for seat, user_id in enumerate(claimed.player_ids)
        ]
        async with store.transaction() as tx:
            await tx.analyses.queue(claimed.id, 2, 0.0)
        async with store.transaction() as tx:
            await tx.analyses.finish(claimed.id, "guild", "{}", short, 1.0)  # as the bot before did
        assert await counted(store, "guild") != kept
        async with store.transaction() as tx:
            await tx.execute(
                text(
                    "PRAGMA user_version = 16"
                    if store.is_sqlite
                    else "UPDATE meta SET value = '16' WHERE name = 'schema_version'"
                )
            )
    finally:
        service.close()
        await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.analyses.players(claimed.id) == []
        assert await counted(store, "guild") == kept == await recounted(store, "guild")
    finally:
        await store.close()
