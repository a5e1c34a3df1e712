"""Races between a tournament's own steps: two hosts' polls starting it at once (the one that
lost said the tournament 'could not start' and was cancelled, while the other had started it),
and a knockout result fixed as the next round is paired (checked in the fix's transaction)."""

from __future__ import annotations

import pytest

from bot.console import SERVER
from bot.store import Store
from bot.store import tournaments as db
from tests.service.tournaments.test_tournaments import HOME, Table, created, names


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
        stale = await table.store.tournaments.due_to_start(table.clock())  # by the other host...
        assert [row.name for row in stale] == ["Dawn"]
        started = await table.service.due()  # ... before this host started it
        assert sum("starts: 4 players" in reply.text for _, reply in started) == 1, started

        async def as_read_before(tournaments: db.Tournaments, now: float) -> list[db.TournamentRow]:
            return stale

        monkeypatch.setattr(db.Tournaments, "due_to_start", as_read_before)
        lost = await other.service.due()
        assert not any("could not start" in reply.text for _, reply in lost), lost
        row = await table.store.tournaments.latest(SERVER)
        assert row is not None and row.status == "running"
    finally:
        other.service.close()
        await other.store.close()


async def test_a_knockout_result_is_fixed_only_until_the_next_round_is_paired(table: Table) -> None:
    tid = await created(table, "Cup knockout 1", names(4))
    await table.say(f"#{HOME} org: !tournament start")
    first = (await table.store.tournaments.pairings(tid))[0]
    await table.finish(first.channel_id or "")
    fixed = await table.say(f"#{HOME} org: !tournament Cup result 1.1 @p1 appeal")
    assert "1.1" in fixed and "fixed: appeal" in fixed, fixed
    await table.play_round(tid)  # round 1 over: the final is paired
    before = await table.store.tournaments.pairings(tid)
    log = await table.store.tournaments.log(tid)
    refused = await table.say(f"#{HOME} org: !tournament Cup result 1.2 @p2 appeal")
    assert "The next round is paired already" in refused, refused
    assert await table.store.tournaments.pairings(tid) == before
    assert await table.store.tournaments.log(tid) == log
