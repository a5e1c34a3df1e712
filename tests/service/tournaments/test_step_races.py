"""Races between a tournament's own steps: two hosts' polls starting it at once (the one that
lost said the tournament 'could not start' and was cancelled, while the other had started it),
and a knockout result fixed as the next round is paired (checked in the fix's transaction)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select

from bot.console import SERVER
from bot.service.models import Reply
from bot.store import Store, schema
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


async def test_a_round_whose_pairing_another_host_decided_opens_the_others(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round's matches start in one transaction, from the snapshot its pairing wrote: when
    another host decided one pairing meanwhile, that one gets no match and the others still
    start, each on its own, with nothing left behind."""
    tid = await created(table, "Dusk knockout 1", names(8))
    rounds = table.service.tournaments.rounds
    opening = rounds.open_matches

    opened_first: list[bool] = []

    async def after_a_decision(tournament_id: int, threads: Any) -> list[Reply]:
        [first, *_] = await table.store.tournaments.pairings(tournament_id)
        if first.decided_at is not None:  # a later call (the adapter's): as it is
            return await opening(tournament_id, threads)
        async with table.store.transaction() as tx:  # the other host's organiser, just before
            assert await tx.tournaments.decide(
                first, winner=first.first, points=(0, 0), reason="walkover", now=table.clock()
            )
        said = await opening(tournament_id, threads)
        opened_first.extend(
            p.match_id is not None for p in await table.store.tournaments.pairings(tournament_id)
        )
        return said

    monkeypatch.setattr(rounds, "open_matches", after_a_decision)
    said = await table.say(f"#{HOME} org: !tournament start")
    pairings = await table.store.tournaments.pairings(tid)
    assert opened_first == [False, True, True, True], said  # by that call, not a later one
    assert [p.match_id is None for p in pairings] == [True, False, False, False], said
    assert len(await table.open_channels(tid)) == 3
    matches = await table.store.fetch_all(select(schema.matches.c.id))
    assert sorted(row[0] for row in matches) == sorted(p.match_id or 0 for p in pairings[1:])


async def test_a_pairing_decided_or_a_tournament_stopped_is_not_opened(table: Table) -> None:
    """``open_pairing`` checks what an opener's kept snapshot may have missed."""
    tid = await created(table, "Noon knockout 1", names(4))
    await table.say(f"#{HOME} org: !tournament start")
    first, second = await table.store.tournaments.pairings(tid)
    async with table.store.transaction() as tx:
        await tx.tournaments.decide(
            first, winner=first.first, points=(0, 0), reason="walkover", now=table.clock()
        )
        assert not await tx.tournaments.open_pairing(replace(first, match_id=None), 99, "x", None)
        await tx.tournaments.set_status(tid, ("running",), status="paused")
        unopened = replace(second, match_id=None)
        assert not await tx.tournaments.open_pairing(unopened, 98, "y", None)
        await tx.tournaments.set_status(tid, ("paused",), status="running")
        assert not await tx.tournaments.open_pairing(unopened, 98, "y", None)  # opened already


@pytest.mark.parametrize(("age", "opened_at_once"), [(0.0, 0), (31.0, 4)])
async def test_a_kept_snapshot_opens_a_round_only_while_it_is_new(
    table: Table, monkeypatch: pytest.MonkeyPatch, age: float, opened_at_once: int
) -> None:
    """The snapshot a round's pairing wrote stands for the opening that follows at once; one
    older than ``KEPT_SECONDS`` is read again (here a kept one says the tournament is over)."""
    await created(table, "Eve knockout 1", names(8))
    rounds = table.service.tournaments.rounds
    opening = rounds.open_matches
    opened: list[int] = []

    async def with_a_kept_snapshot(tournament_id: int, threads: Any) -> list[Reply]:
        snapshot = await rounds.snapshot(tournament_id)
        over = replace(snapshot, row=replace(snapshot.row, status="finished"))
        monkeypatch.setitem(rounds._kept, tournament_id, (table.clock() - age, over))
        said = await opening(tournament_id, threads)
        pairings = await table.store.tournaments.pairings(tournament_id)
        opened.append(sum(p.match_id is not None for p in pairings))
        return said

    monkeypatch.setattr(rounds, "open_matches", with_a_kept_snapshot)
    await table.say(f"#{HOME} org: !tournament start")
    assert opened[0] == opened_at_once
