"""The repository on the snapshot-and-log layout: what a save writes, what a load reads."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.service.matches import reading as reading_module
from bot.service.models import Place
from bot.service.records import storage
from bot.service.table import TableService, seeded_dice
from bot.store import Store
from bot.store.schema import matches
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock, play_out, public, start_match, take_turn


async def test_a_save_appends_its_actions_and_a_small_snapshot(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 5)
    rng = random.Random(3)
    for _ in range(150):
        if not await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.0):
            break
        table = await service.table(PLACE)
        if table is None:
            break
        row = table.row
        log = await store.matches.actions(row.id)
        assert [seq for seq, _ in log] == list(range(table.match.action_count))
        assert row.snapshot is not None and len(row.snapshot) < 2048
        assert "actions" not in row.state and len(row.state) < 400


async def test_a_restart_reads_the_snapshot_and_never_replays(
    db_path: Path, store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = TableService(store, dice=seeded_dice(2), clock=clock, images=False)
    await start_match(first, PLACE, ALICE, BOB, 3)
    for _ in range(40):
        await take_turn(first, PLACE, (ALICE, BOB), random.Random(1), double_rate=0.0)
    before = await first.table(PLACE)
    assert before is not None

    def no_replay(*args: object) -> None:
        raise AssertionError("a load replayed the log")

    monkeypatch.setattr(storage, "replay", no_replay)
    again = TableService(store, dice=seeded_dice(2), clock=clock, images=False)
    after = await again.table(PLACE)
    assert after is not None
    assert after.match.snapshot() == before.match.snapshot()
    assert after.match.legal_plays() == before.match.legal_plays()


async def test_a_row_without_a_snapshot_is_replayed_once_and_given_one(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    await take_turn(service, PLACE, (ALICE, BOB), random.Random(1), double_rate=0.0)
    table = await service.table(PLACE)
    assert table is not None
    async with store.transaction() as tx:  # as a row migrated from the old layout
        await tx.execute(update(matches).where(matches.c.id == table.row.id).values(snapshot=None))
    service.repository.forget(table.row.id)
    again = await service.table(PLACE)
    assert again is not None and again.match.snapshot() == table.match.snapshot()
    row = await store.matches.get(table.row.id)
    assert row is not None and row.snapshot is not None and row.version == table.row.version


async def test_the_export_replays_the_whole_log(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 1)
    await play_out(service, PLACE, (ALICE, BOB), seed=4)
    [export] = public(await service.matches.export(PLACE, ALICE))
    assert export.file is not None
    mat = export.file.data.decode()
    assert " 1 point match" in mat and "Game 1" in mat and "Wins" in mat


async def test_the_match_cache_is_bounded_by_bytes(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading_module, "MATCH_BYTES_KEPT", 30_000)
    for n in range(12):
        await start_match(service, Place("guild", f"c{n}"), ALICE, BOB, 3)
    repository = service.repository
    assert 1 <= len(repository.match_cache) < 12
    assert repository.cached_bytes <= 30_000 or len(repository.match_cache) == 1
    assert repository.cached_bytes == sum(
        storage.footprint(kept.match) for kept in repository.match_cache.values()
    )


async def test_the_kept_table_is_the_table_as_last_saved_or_read(
    service: TableService, store: Store
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 5)
    rng = random.Random(5)
    for _ in range(6):
        assert await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0.0)
        kept = service.repository.kept_playing(PLACE)
        assert kept is not None  # as the command's save left it, before any read
        saved = kept.table
        table = await service.table(PLACE)
        assert table is not None
        assert saved.row == table.row and saved.timer == table.timer
        assert saved.match.action_count == table.match.action_count
        assert saved.plain == table.plain
    # The same state read again (a reminder written behind the process's back): its row and
    # timer as read now, the match and its plays as kept.
    assert saved.timer is not None and not saved.timer.reminded
    async with store.transaction() as tx:
        assert await tx.matches.mark_reminded(saved.row.id, saved.timer.turn_started_at)
    again = await service.table(PLACE)
    assert again is not None and again.timer is not None and again.timer.reminded
    kept = service.repository.kept_playing(PLACE)
    assert kept is not None and kept.table.timer == again.timer and kept.match is saved.match
