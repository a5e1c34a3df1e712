"""``python -m bot copy-db``: a SQLite database (the schema-11 fixture, with a row in every table)
copied into PostgreSQL, checked, and played on there; and what it refuses."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.rules.glicko import Rating
from bot.service.models import Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store, schema
from bot.store.copy import copy_rows, counts, generated_ids
from bot.store.dailies import DailySetting
from bot.store.puzzles import Rated
from tests.postgres import PostgresServer
from tests.service.driver import FakeClock, start_match, take_turn
from tests.service.tournaments.test_tournaments import Table, created, names
from tests.store.fixtures.make_schema11 import AMY, BEN, CAL, DICE_KEY, FIXTURE, LIVE, SERVER

pytestmark = pytest.mark.slow


def copy_db(
    tmp_path: Path, *args: str, key: bytes | None = DICE_KEY
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BACKGAMMON_", "DICE_KEY"))}
    if key is not None:
        env["DICE_KEY"] = key.hex()
    return subprocess.run(
        [sys.executable, "-m", "bot", "copy-db", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "source.sqlite3"
    shutil.copy(FIXTURE, path)
    return path


async def test_a_sqlite_database_moves_into_postgresql_and_plays_on(
    tmp_path: Path, source: Path, postgres: PostgresServer
) -> None:
    url = await postgres.new_database()
    original = source.read_bytes()
    done = copy_db(tmp_path, str(source), url)
    assert done.returncode == 0, done.stderr
    # The source, at an older schema, is read through an upgraded copy: copy-db writes nothing
    # to it.
    assert "is at schema version 11: copied from an upgraded temporary copy" in done.stdout
    assert source.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source.sqlite3"]
    assert "5 matches" in done.stdout and "419 match_actions" in done.stdout
    assert "5 replayed from their logs to their snapshots" in done.stdout
    assert "needs the same dice key" in done.stdout

    old, new = await Store.open(source), await Store.open(url)
    try:
        assert await counts(new) == await counts(old)
        assert await new.players.leaderboard(SERVER) == await old.players.leaderboard(SERVER)
        service = TableService(
            new,
            settings=Settings(match_threads=False),
            dice=seeded_dice(2),
            dice_key=DICE_KEY,
            clock=FakeClock(),
            images=False,
        )
        try:
            before = await service.table(LIVE)
            assert before is not None
            rng = random.Random(4)
            for _ in range(4):
                await take_turn(service, LIVE, (AMY, CAL), rng, double_rate=0.0)
            after = await service.table(LIVE)
            assert after is not None and after.row.version > before.row.version
            # New rows get ids after the copied ones.
            await start_match(service, Place(SERVER, "after-the-copy"), BEN, CAL, 1)
            started = await new.matches.playing(SERVER, "after-the-copy")
            assert started is not None and started.id == 6
        finally:
            service.close()
    finally:
        await old.close()
        await new.close()


async def test_what_copy_db_refuses(tmp_path: Path, source: Path, postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    missing_key = copy_db(tmp_path, str(source), url, key=None)
    assert missing_key.returncode == 1
    assert "dice key is needed" in missing_key.stderr and "Traceback" not in missing_key.stderr
    wrong_key = copy_db(tmp_path, str(source), url, key=b"another key, 16 bytes at least")
    assert wrong_key.returncode == 1 and "is not the one" in wrong_key.stderr
    assert copy_db(tmp_path, str(source), url).returncode == 0
    again = copy_db(tmp_path, str(source), url)
    assert again.returncode == 1
    assert "is not empty (it holds 1 meta, 4 players, 5 matches)" in again.stderr
    assert "Traceback" not in again.stderr
    nothing = copy_db(tmp_path, str(tmp_path / "nothing.sqlite3"), url)
    assert nothing.returncode == 1 and "there is no database" in nothing.stderr
    assert not (tmp_path / "nothing.sqlite3").exists()
    usage = copy_db(tmp_path, str(source))
    assert usage.returncode == 2 and "usage: python -m bot copy-db SOURCE DEST" in usage.stderr


async def test_every_generated_id_goes_on_after_the_copied_ones(
    tmp_path: Path, source: Path, postgres: PostgresServer
) -> None:
    """A copy of a database with rows in every table (a table added later must get rows here
    too): on PostgreSQL each id sequence hands out ids after the copied ones, and tournaments,
    challenges and matches are created on the copy at once (tournaments failed on their primary
    key until the sequences caught up)."""
    old = await Store.open(source)
    try:
        await _fill_every_table(old)
        held = await counts(old)
        assert all(held.values()), {name: n for name, n in held.items() if not n}
        new = await Store.open(await postgres.new_database())
        try:
            await copy_rows(old, new)
            assert await counts(new) == held
            for id_column in generated_ids():
                owner, name = id_column.table.name, id_column.name
                highest = await new.fetch_one(text(f"SELECT MAX({name}) FROM {owner}"))
                after = await new.fetch_one(
                    text(f"SELECT nextval(pg_get_serial_sequence('{owner}', '{name}'))")
                )
                assert highest is not None and after is not None
                assert after[0] > highest[0], owner
            copy = Table(new)
            tournament = await created(copy, "Next knockout 1", names(2))
            assert "Final" in await copy.say("#lobby org: !tournament start")
            assert await copy.open_channels(tournament)
            assert "challenges" in await copy.say("#elsewhere amy: !challenge @ben 1")
        finally:
            await new.close()
    finally:
        await old.close()


async def _fill_every_table(store: Store) -> None:
    """Add to the schema-11 fixture what it has no rows of: a tournament played to its end, a
    drill, a puzzle answered and a server's puzzle, a puzzle storm, a daily puzzle posted and
    answered, and a record against GNU
    Backgammon."""
    table = Table(store)
    tournament = await created(table, "Spring knockout 1", names(4))
    await table.say("#lobby org: !tournament start")
    for _ in range(2):
        await table.play_round(tournament)
    async with store.transaction() as tx:
        await tx.execute(
            schema.engine_records.insert(),
            [{"server_id": SERVER, "user_id": AMY.id, "level": "expert", "wins": 1}],
        )
        await tx.execute(schema.drills.insert(), [_DRILL])
        shown = await tx.puzzles.show(SERVER, AMY.id, "0123456789ab", 10.0)
        await tx.puzzles.record_answer(shown, "8/5 6/5", True, 0.0, 20.0)
        rated = Rated(Rating(1600.0, 300.0), 20.0, 1)
        await tx.puzzles.rate_player(SERVER, AMY.id, "amy", rated)
        await tx.puzzles.rate_puzzle("0123456789ab", rated, True)
        await tx.puzzles.add_server_puzzles(
            [
                {
                    "server_id": SERVER,
                    "puzzle": "0123456789ab",
                    "data": "{}",
                    "first_rating": 1500.0,
                    "match_id": 1,
                    "created_at": 5.0,
                }
            ]
        )
        storm = await tx.storms.start(SERVER, "lobby", AMY.id, "amy", 30.0, 210.0, "0123456789ab")
        assert storm is not None
        await tx.storms.finish(storm.id, 210.0)
        daily = DailySetting(SERVER, "lobby", 9 * 60, 40.0, AMY.id, 30.0)
        await tx.dailies.set(daily)
        post = await tx.dailies.claim(daily, 40.0 + 86400.0, "1970-01-01", "0123456789ab", 41.0)
        assert post is not None
        assert await tx.dailies.answer(post, AMY.id, "8/5 6/5", True, 0.0, 42.0)


_DRILL = {
    "server_id": SERVER,
    "user_id": AMY.id,
    "match_id": 1,
    "decision": 3,
    "game": 1,
    "move": 2,
    "kind": "checker",
    "gnubg_id": "4HPwATDgc/ABMA:cIkgAAAAAAAA",
    "dice": 31,
    "played": "24/21",
    "best": "8/5 6/5",
    "loss": 0.2,
    "skill": "very bad",
    "plies": 2,
    "due_at": 0.0,
    "created_at": 0.0,
}
