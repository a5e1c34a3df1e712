"""``!analysis``: jobs in the background, one at a time, stored results, progress, restarts, the
automatic analysis of a finished match and the PR in ``!stats`` (with a fake analyst)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.gnubg.api import EngineFailure
from bot.i18n.gnubg import CRASHED
from bot.service.gnubg.analysis import LEASE_SECONDS
from bot.service.models import AnalysisQueued, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, play_out, public, start_match, take_turn
from tests.service.fake_analyst import FakeAnalyst, player, result

QUIET = Settings(analysis_auto=False, analysis_plies=1)


def make(
    store: Store, clock: FakeClock, engine: FakeAnalyst | None = None, settings: Settings = QUIET
) -> TableService:
    return TableService(
        store, settings=settings, dice=seeded_dice(42), clock=clock, images=False, engine=engine
    )


@pytest.fixture
def analyst() -> FakeAnalyst:
    return FakeAnalyst()


@pytest.fixture
async def service(
    store: Store, clock: FakeClock, analyst: FakeAnalyst
) -> AsyncIterator[TableService]:
    service = make(store, clock, analyst)
    yield service
    await service.analyses.stop()


async def finish_match(
    service: TableService,
    place: Place = PLACE,
    seed: int = 1,
    users: tuple[User, User] = (ALICE, BOB),
) -> int:
    await start_match(service, place, *users, 1)
    await play_out(service, place, users, seed)
    table = await service.latest_table(place)
    assert table is not None and table.row.status == "finished"
    return table.row.id


async def outcome(service: TableService, reply: Reply) -> tuple[list[str], Reply]:
    """Follow a job to its end: the progress texts seen, and the final message."""
    assert reply.job is not None
    seen: list[str] = []
    async for update in service.follow(reply.job):
        if update.job is None:
            return seen, update
        seen.append(update.text)
    raise AssertionError("the job ended without a final message")


async def test_asked_once_analysed_in_the_background_then_answered_at_once(
    service: TableService, analyst: FakeAnalyst
) -> None:
    match_id = await finish_match(service)
    analyst.hold = asyncio.Event()
    [reply] = public(await service.gnubg.analysis(PLACE, CAROL))
    assert reply.job is not None and f"match #{match_id}" in reply.text
    assert "next in line" in reply.text
    await analyst.started.wait()
    updates = service.follow(reply.job)
    running = await anext(updates)
    assert running.job == reply.job
    assert running.text == (
        f"GNU Backgammon is analysing match #{match_id} (alice vs bob) at 1-ply: game 0 of 1 done…"
    )
    analyst.hold.set()
    later = [update async for update in updates]
    final = later[-1]
    assert final.job is None and all(update.job == reply.job for update in later[:-1])
    text = final.text
    assert f"**Analysis of match #{match_id} (alice vs bob)**: a 1-point match" in text
    assert "**alice**: PR 6.5, error rate 13.0 mEMG over 100 decisions (Advanced)." in text
    assert "**bob**: PR 11.2" in text or "**bob**: PR 11.3" in text
    assert "Checker play: 90 decisions, 4 errors (1 blunder), 13.5 mEMG a decision." in text
    assert "Cube: 10 decisions, 1 error (0 blunders), 3.2 mEMG a decision." in text
    assert "luck-adjusted match-winning chance 97.5%." in text
    assert text.count("game 1, move 3 (6-4): 24/14; better 13/3 (costs 0.200 ??)") == 2
    [(mat, plies, jacoby)] = analyst.calls
    assert plies == 1 and not jacoby
    assert "alice" in mat and "bob" in mat and " Game 1" in mat

    [again] = public(await service.gnubg.analysis(PLACE, CAROL, f"#{match_id}"))
    assert again.job is None and again.text == final.text
    assert len(analyst.calls) == 1  # stored: the engine is not asked again


async def test_concurrent_asks_share_one_job(service: TableService, analyst: FakeAnalyst) -> None:
    match_id = await finish_match(service)
    analyst.hold = asyncio.Event()
    replies = await asyncio.gather(
        service.gnubg.analysis(PLACE, ALICE),
        service.gnubg.analysis(PLACE, BOB),
        service.gnubg.analysis(PLACE, CAROL, str(match_id)),
    )
    handles = {reply.job for [reply] in replies}
    assert len(handles) == 1 and None not in handles
    await analyst.started.wait()
    [joined] = await service.gnubg.analysis(PLACE, ALICE)
    assert joined.job in handles and "analysing" in joined.text
    analyst.hold.set()
    finals = await asyncio.gather(*(outcome(service, reply) for [reply] in replies))
    assert len({final.text for _, final in finals}) == 1
    assert len(analyst.calls) == 1


async def test_jobs_run_one_at_a_time_in_order(service: TableService, analyst: FakeAnalyst) -> None:
    first = await finish_match(service, PLACE, seed=1)
    other = Place(PLACE.server_id, "other")
    second = await finish_match(service, other, seed=2)
    analyst.hold = asyncio.Event()
    [one] = await service.gnubg.analysis(PLACE, ALICE)
    [two] = await service.gnubg.analysis(other, ALICE)
    assert "1 analysis ahead" in two.text and f"#{second}" in two.text
    analyst.hold.set()
    _, done_one = await outcome(service, one)
    _, done_two = await outcome(service, two)
    assert f"#{first}" in done_one.text and f"#{second}" in done_two.text
    assert analyst.most_at_once == 1 and len(analyst.calls) == 2


async def test_a_stop_puts_the_job_back_and_the_next_start_takes_it(
    store: Store, clock: FakeClock
) -> None:
    held = FakeAnalyst()
    held.hold = asyncio.Event()
    first = make(store, clock, held)
    match_id = await finish_match(first)
    await first.gnubg.analysis(PLACE, ALICE)
    await held.started.wait()
    await first.analyses.stop()  # the bot stops mid-analysis
    first.close()
    row = await first.store.analyses.get(match_id)
    assert row is not None and (row.status, row.worker) == ("queued", None)

    fresh = FakeAnalyst()
    second = make(store, clock, fresh)
    assert await second.resume_analyses() == 1
    _, final = await outcome(second, Reply("", job=AnalysisQueued(match_id, "en")))
    assert "**Analysis of match" in final.text and len(fresh.calls) == 1
    row = await second.store.analyses.get(match_id)
    assert row is not None and row.status == "done"
    await second.analyses.stop()


async def test_a_waiting_job_is_taken_by_the_next_ask(store: Store, clock: FakeClock) -> None:
    held = FakeAnalyst()
    held.hold = asyncio.Event()
    first = make(store, clock, held)
    await finish_match(first)
    await first.gnubg.analysis(PLACE, ALICE)
    await held.started.wait()
    await first.analyses.stop()

    fresh = FakeAnalyst()
    second = make(store, clock, fresh)
    [reply] = await second.gnubg.analysis(PLACE, ALICE)
    _, final = await outcome(second, reply)
    assert "**Analysis of match" in final.text and len(fresh.calls) == 1
    await second.analyses.stop()


async def progress_written(service: TableService, match_id: int) -> None:
    """Wait until the first progress report of a running job reached the store."""
    for _ in range(500):
        row = await service.store.analyses.get(match_id)
        if row is not None and row.games_total:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no progress was written")


@pytest.fixture
async def other_host(db_path: Path | str) -> AsyncIterator[Store]:
    """The same database as ``store``, through a connection of its own, as another host has."""
    other = await Store.open(db_path)
    yield other
    await other.close()


async def test_a_job_whose_host_died_is_taken_once_its_lease_lapses(
    store: Store, other_host: Store, clock: FakeClock
) -> None:
    held = FakeAnalyst()
    held.hold = asyncio.Event()
    dying = make(store, clock, held)
    match_id = await finish_match(dying)
    public(await dying.gnubg.analysis(PLACE, ALICE))
    await held.started.wait()  # ... and this host is never heard of again
    await progress_written(dying, match_id)

    fresh = FakeAnalyst()
    survivor = make(other_host, clock, fresh)
    updates = survivor.follow(AnalysisQueued(match_id, "en"))
    seen = await anext(updates)
    assert seen.text == (
        f"GNU Backgammon is analysing match #{match_id} (alice vs bob) at 1-ply: game 0 of 1 done…"
    )
    clock.advance(LEASE_SECONDS - 1)
    await survivor.due()
    assert fresh.calls == []  # the lease still holds
    clock.advance(2)
    await survivor.due()
    final = [update async for update in updates][-1]
    assert "**Analysis of match" in final.text and len(fresh.calls) == 1
    row = await survivor.store.analyses.get(match_id)
    assert row is not None and row.status == "done" and row.worker is None

    held.hold.set()  # the first host was only slow: its result changes nothing
    await dying.analyses.stop()
    assert len(held.calls) == 1
    row = await survivor.store.analyses.get(match_id)
    assert row is not None and row.status == "done"
    await survivor.analyses.stop()


async def test_two_hosts_share_the_queue(store: Store, other_host: Store, clock: FakeClock) -> None:
    """Jobs asked on one host are taken by whichever host is free: each runs one at a time,
    every job runs once, and a follower on the asking host sees them through to the end."""
    here, there = FakeAnalyst(), FakeAnalyst()
    here.hold, there.hold = asyncio.Event(), asyncio.Event()
    asking = make(store, clock, here)
    helping = make(other_host, clock, there)
    places = [Place(PLACE.server_id, f"table-{n}") for n in range(3)]
    replies = []
    for n, place in enumerate(places):
        await finish_match(asking, place, seed=n + 1)
        [reply] = await asking.gnubg.analysis(place, CAROL)
        replies.append(reply)
    await here.started.wait()
    assert "2 analyses ahead" in (await asking.gnubg.analysis(places[2], ALICE))[0].text
    await helping.due()  # the other host's poll finds the jobs waiting
    await there.started.wait()
    assert len(here.calls) == len(there.calls) == 1
    followed = asyncio.gather(*(outcome(asking, reply) for reply in replies))
    here.hold.set()
    there.hold.set()
    for _ in range(5):  # the asking host's poll: it sees the other host's jobs end
        await asyncio.sleep(0.01)
        await asking.due()
        await helping.due()
    finals = await followed
    assert all("**Analysis of match" in final.text for _, final in finals)
    assert len(here.calls) + len(there.calls) == 3
    assert here.most_at_once == there.most_at_once == 1
    await asking.analyses.stop()
    await helping.analyses.stop()


async def test_a_match_that_ends_starts_its_analysis(
    store: Store, clock: FakeClock, analyst: FakeAnalyst
) -> None:
    service = make(store, clock, analyst, Settings(analysis_auto=True))
    match_id = await finish_match(service, seed=3)
    row = await service.store.analyses.get(match_id)
    assert row is not None and row.status in ("queued", "running", "done")
    _, final = await outcome(service, Reply("", job=AnalysisQueued(match_id, "en")))
    assert f"**Analysis of match #{match_id}" in final.text and len(analyst.calls) == 1
    [asked] = await service.gnubg.analysis(PLACE, ALICE)
    assert asked.job is None and asked.text == final.text
    await service.analyses.stop()


async def test_the_chart_is_attached(
    store: Store, clock: FakeClock, analyst: FakeAnalyst, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[tuple[tuple[str, str], int | None]] = []

    def chart(
        analysis: object, names: tuple[str, str], *, winner: int | None, language: str
    ) -> bytes:
        drawn.append((names, winner))
        return b"\x89PNG chart"

    monkeypatch.setattr("bot.service.gnubg.analysis.chart_png", chart)
    match_id = await finish_match(make(store, clock, analyst))
    service = TableService(store, settings=QUIET, clock=clock, engine=analyst)
    [reply] = await service.gnubg.analysis(PLACE, ALICE)
    _, final = await outcome(service, reply)
    assert final.file is not None and final.file.filename == f"analysis-{match_id}.png"
    row = await store.matches.get(match_id)
    assert row is not None and row.winner is not None
    assert final.file.data == b"\x89PNG chart" and drawn == [(("alice", "bob"), row.winner)]
    await service.analyses.stop()
    service.close()


async def test_the_command_that_ends_a_match_shows_the_analysis_starting(
    store: Store, clock: FakeClock, analyst: FakeAnalyst
) -> None:
    service = make(store, clock, analyst, Settings(analysis_auto=True))
    await start_match(service, PLACE, ALICE, BOB, 1)
    table = await service.table(PLACE)
    assert table is not None
    loser: int | None = table.match.on_roll
    users = (ALICE, BOB)
    while (table := await service.table(PLACE)) is not None and table.match.phase != "move":
        await take_turn(service, PLACE, users, random.Random(0), double_rate=0)
    assert table is not None
    loser = table.match.turn
    assert loser is not None
    public(await service.matches.resign(PLACE, users[loser], "single"))
    replies = public(await service.matches.accept(PLACE, users[1 - loser]))
    assert replies[0].job is None and "wins" in replies[0].text
    assert replies[-1].job is not None and "analyse" in replies[-1].text
    _, final = await outcome(service, replies[-1])
    assert "**Analysis of match" in final.text
    await service.analyses.stop()


async def test_no_automatic_analysis_when_off_or_without_the_engine(
    store: Store, clock: FakeClock
) -> None:
    for engine, settings in ((FakeAnalyst(), QUIET), (None, Settings(analysis_auto=True))):
        service = make(store, clock, engine, settings)
        place = Place("guild", f"off-{engine is None}")
        await start_match(service, place, ALICE, BOB, 1)
        table = await service.table(place)
        assert table is not None
        loser = table.match.turn
        assert loser is not None
        while (table := await service.table(place)) is not None and table.match.phase != "move":
            await take_turn(service, place, (ALICE, BOB), random.Random(0), double_rate=0)
        assert table is not None and table.match.turn is not None
        loser = table.match.turn
        public(await service.matches.resign(place, (ALICE, BOB)[loser], "single"))
        replies = public(await service.matches.accept(place, (ALICE, BOB)[1 - loser]))
        assert [reply.job for reply in replies] == [None]
        assert await service.store.analyses.get(table.row.id) is None


async def test_the_engine_unavailable_is_one_line(store: Store, clock: FakeClock) -> None:
    service = make(store, clock, None)
    await finish_match(service)
    [reply] = await service.gnubg.analysis(PLACE, ALICE)
    assert reply.private and "\n" not in reply.text and "isn't installed" in reply.text


async def test_a_failure_says_so_and_the_job_can_be_asked_again(
    service: TableService, analyst: FakeAnalyst
) -> None:
    match_id = await finish_match(service)
    analyst.failure = EngineFailure(CRASHED.said(), retry=True)
    [reply] = await service.gnubg.analysis(PLACE, ALICE)
    _, final = await outcome(service, reply)
    assert final.text == (
        f"The analysis of match #{match_id} failed: GNU Backgammon crashed while thinking; it has "
        f"been restarted. Ask again with `!analysis {match_id}`."
    )
    row = await service.store.analyses.get(match_id)
    assert row is not None and row.status == "failed"
    analyst.failure = None
    [again] = await service.gnubg.analysis(PLACE, ALICE)
    assert again.job is not None
    _, final = await outcome(service, again)
    assert "**Analysis of match" in final.text and len(analyst.calls) == 2


async def test_an_unexpected_error_gets_an_id(service: TableService, analyst: FakeAnalyst) -> None:
    await finish_match(service)
    analyst.failure = RuntimeError("boom")
    [reply] = await service.gnubg.analysis(PLACE, ALICE)
    _, final = await outcome(service, reply)
    assert "failed: something went wrong (error " in final.text


async def test_which_match(service: TableService, store: Store) -> None:
    async def refusal(*args: str) -> str:
        [reply] = await service.gnubg.analysis(PLACE, ALICE, *args)
        assert reply.private and reply.job is None
        return reply.text

    assert "No match has finished at this table yet" in await refusal()
    await start_match(service, PLACE, ALICE, BOB, 1)
    table = await service.table(PLACE)
    assert table is not None
    assert f"The match here (#{table.row.id}) is still being played" in await refusal()
    assert f"Match #{table.row.id} is still being played" in await refusal(str(table.row.id))
    assert "'twelve' is not a match number" in await refusal("twelve")
    assert await refusal("99") == "There is no match #99 on this server."
    public(await service.matches.abort(PLACE, ALICE))
    public(await service.matches.abort(PLACE, BOB))
    assert f"Match #{table.row.id} was aborted" in await refusal(f"#{table.row.id}")
    elsewhere = Place("another guild", "channel")
    other = await finish_match(service, elsewhere)
    assert await refusal(str(other)) == f"There is no match #{other} on this server."


async def test_stats_show_the_average_pr(store: Store, clock: FakeClock) -> None:
    analyst = FakeAnalyst()
    service = make(store, clock, analyst)
    for seed, pr in ((1, (4.0, 9.0)), (2, (10.0, 3.0))):
        analyst.result = result(pr)
        await finish_match(service, PLACE, seed=seed)
        [reply] = await service.gnubg.analysis(PLACE, ALICE)
        await outcome(service, reply)
    [stats] = await service.server.stats(PLACE, CAROL, ALICE)
    assert stats.text.endswith("PR 7.0 over 2 analysed matches (200 decisions).")
    [stats] = await service.server.stats(PLACE, CAROL, BOB)
    assert stats.text.endswith("PR 6.0 over 2 analysed matches (200 decisions).")
    await service.analyses.stop()


async def test_a_pr_over_too_few_decisions_counts_nowhere_and_sends_no_chart(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match claimed after a move (alice 1 decision, PR 200: one blunder; bob none) keeps
    out of ``!stats`` and stores no figures; its message has no chart; a rated match after
    it counts alone."""
    drawn: list[object] = []

    def draw(*a: object, **k: object) -> bytes:
        drawn.append(a)
        return b"png"

    monkeypatch.setattr("bot.service.gnubg.analysis.chart_png", draw)
    analyst = FakeAnalyst()
    service = TableService(store, settings=QUIET, clock=clock, engine=analyst)
    short = result((200.0, 0.0))
    alice = replace(player("alice", 200.0), checker_decisions=1, cube_decisions=0)
    bob = replace(player("bob", 0.0), checker_decisions=0, cube_decisions=0)
    analyst.result = replace(short, players=(alice, bob))
    first = await finish_match(service, PLACE, seed=1)
    [reply] = await service.gnubg.analysis(PLACE, ALICE)
    _, final = await outcome(service, reply)
    assert final.file is None and drawn == []
    assert "Too few decisions for a PR: **alice** 1, **bob** 0 (10 needed)" in final.text
    assert await service.store.analyses.players(first) == []
    [stats] = await service.server.stats(PLACE, CAROL, ALICE)
    assert "PR" not in stats.text
    analyst.result = result((4.0, 9.0))
    await finish_match(service, PLACE, seed=2)
    [reply] = await service.gnubg.analysis(PLACE, ALICE)
    _, final = await outcome(service, reply)
    assert final.file is not None and len(drawn) == 1
    [stats] = await service.server.stats(PLACE, CAROL, ALICE)
    assert stats.text.endswith("PR 4.0 over 1 analysed match (100 decisions).")
    await service.analyses.stop()
    service.close()


async def test_a_claimed_match_is_analysed_as_far_as_it_went(
    store: Store, clock: FakeClock, analyst: FakeAnalyst
) -> None:
    service = make(store, clock, analyst, Settings(analysis_auto=True))
    await start_match(service, PLACE, ALICE, BOB, 3)
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    waiting = (ALICE, BOB)[1 - table.match.turn]
    clock.advance(25 * 3600)
    replies = public(await service.matches.claim(PLACE, waiting))
    assert "claims the match" in replies[0].text and replies[-1].job is not None
    _, final = await outcome(service, replies[-1])
    assert f"**Analysis of match #{table.row.id}" in final.text
    [(mat, _, _)] = analyst.calls
    assert " Game 1" in mat
    await service.analyses.stop()
