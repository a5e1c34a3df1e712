"""Two hosts' polls start one tournament at its start time at once: it starts once, and the poll
that lost says nothing (it said the tournament 'could not start' and was cancelled, while the
other host had started it)."""

from __future__ import annotations

import pytest

from bot.console import SERVER
from bot.store import Store
from bot.store import tournaments as db
from tests.service.tournaments.test_tournaments import HOME, Table, names


async def test_the_poll_that_lost_the_start_says_nothing(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = await table.say(f"#{HOME} org: !tournament create Dawn knockout 1 start 1h")
    assert "opens a tournament" in said, said
    for name in names(4):
        assert "joins" in await table.say(f"#{HOME} {name}: !join")
    other = Table(await Store.open(table.store.address))  # a second host on the database
    try:
        for host in (table, other):
            host.clock.advance(3_700)
        stale = await db.due_to_start(table.store, table.clock())  # read by the other host...
        assert [row.name for row in stale] == ["Dawn"]
        started = await table.service.due()  # ... before this host started it
        assert sum("starts: 4 players" in reply.text for _, reply in started) == 1, started

        async def as_read_before(store: Store, now: float) -> list[db.TournamentRow]:
            return stale

        monkeypatch.setattr(db, "due_to_start", as_read_before)
        lost = await other.service.due()
        assert not any("could not start" in reply.text for _, reply in lost), lost
        row = await db.latest(table.store, SERVER)
        assert row is not None and row.status == "running"
    finally:
        other.service.close()
        await other.store.close()
