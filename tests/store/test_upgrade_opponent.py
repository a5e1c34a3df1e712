"""The schema-4 fixture (tests/store/fixtures) opened with today's code also gets migration 6:
every match keeps being rated as before (money games never), none is against the engine, and
no challenge allows hints."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.store import Store
from tests.store.fixtures.make_schema4 import FIXTURE, SERVER


async def test_migration_6_gives_old_rows_the_terms_they_were_played_on(tmp_path: Path) -> None:
    path = tmp_path / "upgraded.sqlite3"
    shutil.copy(FIXTURE, path)
    store = await Store.open(path)
    try:
        assert await store.schema_version() >= 6
        rows = await store.fetch_all("SELECT channel_id, match_length, rated FROM matches")
        rated = {str(row[0]): (int(row[1]), int(row[2])) for row in rows}
        assert rated["money"] == (0, 0)
        assert rated["finished"][1] == rated["live"][1] == 1
        live = await store.matches.playing(SERVER, "live")
        assert live is not None
        assert (live.engine_level, live.tutor, live.hints, live.rated) == (None, 0, 0, 1)
        challenge = await store.challenges.open(SERVER, "open")
        assert challenge is not None and challenge.hints == 0
        assert await store.matches.against_engine() == []
        assert await store.players.against_engine(SERVER, "1001") == []
        async with store.transaction() as tx:  # the new columns take their values
            await tx.matches.set_terms(
                live.id, engine_level="expert", tutor=True, hints=True, rated=False
            )
        [row] = await store.matches.against_engine()
        assert (row.id, row.engine_level, row.tutor, row.hints, row.rated) == (
            live.id,
            "expert",
            1,
            1,
            0,
        )
    finally:
        await store.close()
