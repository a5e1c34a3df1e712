"""A match's action log and snapshot in the store (schema 5)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import StaleMatchError, Store, StoreError
from bot.store.matches import TimerRow


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    store = await Store.open(database)
    async with store.transaction() as tx:
        await tx.players.ensure("s", "a", "alice", 0.0)
        await tx.players.ensure("s", "b", "bob", 0.0)
    yield store
    await store.close()


async def new_match(store: Store) -> int:
    async with store.transaction() as tx:
        match_id = (
            await tx.matches.create("s", "c", ("a", "b"), 3, '{"k": 1}', 1.0, snapshot='{"n": 0}')
        ).id
        await tx.matches.append_actions(match_id, 0, ['{"a": 0}'])
    return match_id


async def test_a_save_that_keeps_the_status_leaves_it_out_of_the_update(store: Store) -> None:
    match_id = await new_match(store)
    seen: list[str] = []
    await store.trace(seen.append)
    async with store.transaction() as tx:
        await tx.matches.save(
            match_id, 1, snapshot='{"n": 1}', status=None, now=2.0, abort_offered_by=1
        )
    await store.trace(None)
    updates = [sql.split("UPDATE matches SET", 1)[1] for sql in seen if "UPDATE matches SET" in sql]
    assert len(updates) == 1
    assert "status" not in updates[0].split("WHERE", 1)[0]  # SQLite's indexes on it untouched
    row = await store.matches.get(match_id)
    assert row is not None
    assert (row.status, row.version, row.snapshot, row.abort_offered_by, row.last_action_at) == (
        "playing",
        2,
        '{"n": 1}',
        1,
        2.0,
    )


async def test_a_save_appends_actions_and_rewrites_the_snapshot_only(store: Store) -> None:
    match_id = await new_match(store)
    async with store.transaction() as tx:
        version = await tx.matches.save(match_id, 1, snapshot='{"n": 1}', status="playing", now=2.0)
        await tx.matches.append_actions(match_id, 1, ['{"a": 1}'])
    async with store.transaction() as tx:
        version = await tx.matches.save(
            match_id,
            version,
            snapshot='{"n": 3}',
            status="finished",
            now=3.0,
            winner=1,
            ending="played",
        )
        await tx.matches.append_actions(match_id, 2, ['{"a": 2}', '{"a": 3}'])
        await tx.matches.append_actions(match_id, 4, [])
        assert len(await tx.matches.actions(match_id)) == 4
    row = await store.matches.get(match_id)
    assert row is not None
    assert (row.state, row.snapshot, row.version, row.status, row.winner) == (
        '{"k": 1}',
        '{"n": 3}',
        3,
        "finished",
        1,
    )
    assert await store.matches.actions(match_id) == [
        (0, '{"a": 0}'),
        (1, '{"a": 1}'),
        (2, '{"a": 2}'),
        (3, '{"a": 3}'),
    ]
    assert await store.matches.actions(match_id + 1) == []


async def test_a_stale_save_appends_nothing(store: Store) -> None:
    match_id = await new_match(store)
    with pytest.raises(StaleMatchError):
        async with store.transaction() as tx:
            await tx.matches.append_actions(match_id, 1, ['{"a": "lost"}'])
            await tx.matches.save(match_id, 7, snapshot='{"n": "lost"}', status="playing", now=2.0)
    row = await store.matches.get(match_id)
    assert row is not None and row.snapshot == '{"n": 0}' and row.version == 1
    assert await store.matches.actions(match_id) == [(0, '{"a": 0}')]


async def test_an_action_number_is_written_once(store: Store) -> None:
    match_id = await new_match(store)
    for first, actions in ((0, ['{"a": "again"}']), (0, ['{"a": 0}', '{"a": 1}'])):
        with pytest.raises(StoreError, match=f"match {match_id}: can't log actions {first}-"):
            async with store.transaction() as tx:
                await tx.matches.append_actions(match_id, first, actions)
    assert await store.matches.actions(match_id) == [(0, '{"a": 0}')]


async def test_a_rebuilt_snapshot_is_stored_without_a_new_version(store: Store) -> None:
    async with store.transaction() as tx:
        match_id = (await tx.matches.create("s", "c", ("a", "b"), 3, '{"k": 1}', 1.0)).id
    row = await store.matches.playing("s", "c")
    assert row is not None and row.snapshot is None
    async with store.transaction() as tx:
        assert not await tx.matches.store_snapshot(match_id, 2, '{"n": "stale"}')
        assert await tx.matches.store_snapshot(match_id, 1, '{"n": 0}')
    row = await store.matches.get(match_id)
    assert row is not None and (row.snapshot, row.version) == ('{"n": 0}', 1)
    assert [r.snapshot for r in await store.matches.unannounced()] == ['{"n": 0}']


async def test_a_save_with_the_state_alone_keeps_the_snapshot(store: Store) -> None:
    """The layout before schema 5 still saves (the whole record in ``state``)."""
    match_id = await new_match(store)
    async with store.transaction() as tx:
        await tx.matches.save(
            match_id, 1, state='{"k": 2}', status="aborted", now=2.0, ending="unreadable"
        )
    row = await store.matches.latest("s", "c")
    assert row is not None and (row.state, row.snapshot) == ('{"k": 2}', '{"n": 0}')


async def test_a_save_whose_log_disagrees_writes_nothing(store: Store) -> None:
    """On PostgreSQL the save, its actions and its timer are one statement: the log's refusal
    is named as the log's, and the match and its timer are left as they were."""
    match_id = await new_match(store)
    with pytest.raises(StoreError, match=f"match {match_id}: can't log actions 0-0"):
        async with store.transaction() as tx:
            await tx.matches.save(match_id, 1, snapshot='{"n": "lost"}', status="playing", now=2.0)
            await tx.matches.append_actions(match_id, 0, ['{"a": "again"}'])
            await tx.matches.write_timer(TimerRow(match_id, 2.0, False, None, None, None))
    row = await store.matches.get(match_id)
    assert row is not None and row.snapshot == '{"n": 0}' and row.version == 1
    assert await store.matches.actions(match_id) == [(0, '{"a": 0}')]
    assert await store.matches.timer(match_id) is None


@pytest.mark.parametrize("read_first", [False, True])
async def test_a_stale_save_writes_nothing_with_it(store: Store, read_first: bool) -> None:
    """Alone (one statement, no transaction of its own on PostgreSQL) or after a read (inside
    BEGIN … COMMIT), a save at a version no longer there takes its other writes back."""
    match_id = await new_match(store)
    with pytest.raises(StaleMatchError):
        async with store.transaction() as tx:
            if read_first:
                assert await tx.matches.get(match_id) is not None
            await tx.matches.write_timer(TimerRow(match_id, 2.0, False, None, None, None))
            await tx.matches.save(match_id, 7, snapshot='{"n": "lost"}', status="playing", now=2.0)
            await tx.matches.append_actions(match_id, 1, ['{"a": "lost"}'])
    row = await store.matches.get(match_id)
    assert row is not None and row.snapshot == '{"n": 0}' and row.version == 1
    assert await store.matches.actions(match_id) == [(0, '{"a": 0}')]
    assert await store.matches.timer(match_id) is None
