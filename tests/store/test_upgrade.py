"""A database written by the bot at schema 4 (tests/store/fixtures/make_schema4.py) opens with
today's code: migration 5 moves every match's actions from its state into the action log."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.rules import Match
from bot.service.records import storage
from bot.store import Store
from bot.store.migrate import legacy_migrations as migrations
from bot.store.players import MatchCounts
from tests.store.fixtures.make_schema4 import DICE_KEY, FIXTURE, SERVER


def old_rows() -> dict[int, dict[str, Any]]:
    """The fixture's match rows as schema 4 holds them."""
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True) as connection:
        connection.row_factory = sqlite3.Row
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 4
        rows = {row["id"]: dict(row) for row in connection.execute("SELECT * FROM matches")}
    connection.close()
    return rows


@pytest.fixture
async def upgraded(tmp_path: Path) -> Store:
    path = tmp_path / "upgraded.sqlite3"
    shutil.copy(FIXTURE, path)
    return await Store.open(path)


async def test_the_fixture_holds_what_the_upgrade_must_carry() -> None:
    rows = old_rows()
    by_channel = {row["channel_id"]: row for row in rows.values()}
    assert {c: (r["status"], r["ending"]) for c, r in by_channel.items()} == {
        "finished": ("finished", "played"),
        "money": ("finished", "played"),
        "live": ("playing", None),
        "damaged": ("aborted", "unreadable"),
    }
    live = Match.from_data(json.loads(by_channel["live"]["state"]), dice_key=DICE_KEY)
    assert live.game_number >= 3 and live.phase != "over" and max(live.score) > 0
    assert json.loads(by_channel["live"]["state"])["dice"]["kind"] == "keyed"
    assert json.loads(by_channel["money"]["state"])["options"]["beavers"]


async def test_every_match_log_replays_to_the_match_its_old_state_gave(upgraded: Store) -> None:
    try:
        assert await upgraded.schema_version() == migrations()[-1][0]
        for match_id, old in old_rows().items():
            row = await upgraded.matches.get(match_id)
            assert row is not None and row.snapshot is None
            assert (row.version, row.status, row.last_action_at) == (
                old["version"],
                old["status"],
                old["last_action_at"],
            )
            log = await upgraded.matches.actions(match_id)
            if old["ending"] == "unreadable":  # damaged before: left exactly as it was
                assert row.state == old["state"] and log == []
                continue
            assert "actions" not in json.loads(row.state)
            before = Match.from_data(json.loads(old["state"]), dice_key=DICE_KEY)
            after = storage.replay(row.state, log, DICE_KEY)
            assert after.to_data() == before.to_data()
            assert after.record == before.record
            assert after.snapshot() == before.snapshot()
            assert len(log) == before.action_count > 0
    finally:
        await upgraded.close()


async def test_an_upgraded_match_plays_on_through_the_new_layout(upgraded: Store) -> None:
    """The repository's first load of a migrated row: replay, store the snapshot, then play on
    with snapshot saves; the rows a schema-4 reader knew still read."""
    try:
        row = await upgraded.matches.playing(SERVER, "live")
        assert row is not None and row.snapshot is None
        replayed = storage.replay(row.state, await upgraded.matches.actions(row.id), DICE_KEY)
        async with upgraded.transaction() as tx:
            assert await tx.matches.store_snapshot(
                row.id, row.version, storage.snapshot_text(replayed)
            )
        row = await upgraded.matches.get(row.id)
        assert row is not None and row.snapshot is not None
        loaded = storage.restore(row.state, row.snapshot, DICE_KEY)
        player = loaded.turn
        assert player is not None
        after = (
            loaded.roll(player)
            if loaded.phase == "roll"
            else loaded.move(player, loaded.legal_plays()[0].notation)
        )
        changes = storage.changes(after, loaded.action_count)
        async with upgraded.transaction() as tx:
            await tx.matches.save(
                row.id, row.version, snapshot=changes.snapshot, status="playing", now=2e9
            )
            await tx.matches.append_actions(row.id, changes.first_seq, changes.actions)
        log = await upgraded.matches.actions(row.id)
        assert storage.replay(row.state, log, DICE_KEY).snapshot() == after.snapshot()
        assert [r.id for r in await upgraded.matches.unannounced()] == [row.id]
        challenge = await upgraded.challenges.open(SERVER, "open")
        assert challenge is not None and challenge.match_length == 7
        assert await upgraded.players.match_counts(SERVER, "1001") == MatchCounts(
            finished=1, aborted=1, playing=1
        )
    finally:
        await upgraded.close()


async def test_opening_the_upgraded_file_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "twice.sqlite3"
    shutil.copy(FIXTURE, path)
    store = await Store.open(path)
    first = await store.fetch_all("SELECT * FROM match_actions ORDER BY match_id, seq")
    await store.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == migrations()[-1][0]
        again = await store.fetch_all("SELECT * FROM match_actions ORDER BY match_id, seq")
        assert [tuple(r) for r in again] == [tuple(r) for r in first] and len(first) > 400
    finally:
        await store.close()
