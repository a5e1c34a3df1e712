"""What a command costs the database, counted statement by statement through the store: a typed
``!move`` reads once (the match with its timer) and writes in one transaction; the per-command
paths never scan a table that grows with history."""

from __future__ import annotations

import asyncio
import io
import random
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from bot.console import SERVER, Console, ConsoleClock
from bot.gnubg.review_text import review
from bot.service.models import ENGINE_USER, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from bot.store.dailies import LEASE
from tests.gnubg.test_review_text import fixture
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.console_lines import said
from tests.service.driver import FakeClock, play_out, start_match
from tests.service.fake_analyst import FakeAnalyst, result
from tests.service.puzzles.test_puzzles import answer_of, awaited
from tests.store.counters import history_service, live_history

PLACE = Place("guild", "counted")


@dataclass
class Statements:
    seen: list[str] = field(default_factory=list)

    def __call__(self, sql: str) -> None:
        self.seen.append(" ".join(sql.split()))

    @property
    def reads(self) -> list[str]:
        return [sql for sql in self.seen if sql.upper().startswith("SELECT")]

    @property
    def transactions(self) -> int:
        return sum(sql.upper().startswith("BEGIN") for sql in self.seen)

    @property
    def commits(self) -> int:
        return sum(sql.upper() == "COMMIT" for sql in self.seen)


@pytest.fixture
async def counted(tmp_path: Path) -> AsyncIterator[tuple[TableService, Store]]:
    store = await Store.open(tmp_path / "counted.sqlite3")
    service = TableService(
        store,
        settings=Settings(match_threads=False),
        dice=seeded_dice(3),
        clock=FakeClock(),
        images=False,
    )
    yield service, store
    service.close()
    await store.close()


async def test_a_typed_move_reads_nothing_and_writes_once(
    counted: tuple[TableService, Store],
) -> None:
    """A player's action on the match this process keeps is carried out with no read: its save
    checks the version (tests/service/test_kept_actions.py)."""
    service, store = counted
    for n in range(8):  # history elsewhere on the server: it must cost nothing here
        await start_match(service, Place(PLACE.server_id, f"old-{n}"), ALICE, CAROL, 1)
        await play_out(service, Place(PLACE.server_id, f"old-{n}"), (ALICE, CAROL), n)
    await start_match(service, PLACE, ALICE, BOB, 5)
    rng = random.Random(1)
    moves = 0
    while moves < 10:
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        user = (ALICE, BOB)[table.match.turn]
        if table.match.phase == "move":
            line = f"!move {rng.choice(table.match.legal_plays()).notation}"
        else:
            line = "!roll"
        statements = Statements()
        await store.trace(statements)
        replies = await service.run(PLACE, user, line, users=lambda word: None)
        await store.trace(None)
        assert replies and not replies[0].private, replies
        assert statements.reads == [], statements.reads
        assert statements.transactions == statements.commits == 1, statements.seen
        moves += line.startswith("!move")


async def test_a_roll_press_reads_the_match_once_and_writes_once(
    counted: tuple[TableService, Store],
) -> None:
    """The press's check of the question asked and the roll read the match once, under the
    channel's lock."""
    service, store = counted
    await start_match(service, PLACE, ALICE, BOB, 5)
    read = service.pending_decision
    presses = 0
    while presses < 3:
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        if table.match.phase == "move":  # typed: no button plays a roll
            user = (ALICE, BOB)[table.match.turn]
            await service.matches.move(PLACE, user, table.match.legal_plays()[0].notation)
            continue
        pending = await read(PLACE)
        assert pending is not None and pending.decision.value == "turn"
        action = "roll"
        presses += 1
        presser = ALICE if pending.user_id == ALICE.id else BOB
        statements = Statements()
        await store.trace(statements)
        pressed = await service.press(PLACE, presser, action, pending.key)
        await store.trace(None)
        assert pressed.closed and not pressed.replies[0].private, pressed.replies
        assert len(statements.reads) == 1, statements.reads
        assert statements.transactions == statements.commits == 1, statements.seen


# Tables that grow with every match ever played (or every player): no per-command, periodic or
# startup statement may walk them (SQLite's plan says SCAN); each must find its rows by an index
# (SEARCH).
GROWING = (
    "matches",
    "match_actions",
    "challenges",
    "rating_changes",
    "analyses",
    "analysis_players",
    "match_timers",
    "match_announcements",
    "players",
    "engine_records",
    "tournaments",
    "tournament_entrants",
    "tournament_matches",
    "tournament_log",
    "drills",
    "puzzle_players",
    "puzzle_ratings",
    "server_puzzles",
    "puzzle_answers",
    "puzzle_dailies",
    "daily_posts",
)


async def test_no_statement_of_play_or_of_the_deadline_poll_scans_a_growing_table(
    counted: tuple[TableService, Store], tmp_path: Path
) -> None:
    service, store = counted
    for n in range(3):  # history, so that a scan would have rows to walk
        await start_match(service, Place(PLACE.server_id, f"old-{n}"), ALICE, CAROL, 1)
        await play_out(service, Place(PLACE.server_id, f"old-{n}"), (ALICE, CAROL), n)
    statements = Statements()
    await store.trace(statements)
    await service.run(PLACE, ALICE, "!challenge <@1002> 3", users=lambda word: BOB)
    await service.run(PLACE, BOB, "!accept", users=lambda word: None)
    rng = random.Random(2)
    for _ in range(12):
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        user = (ALICE, BOB)[table.match.turn]
        if table.match.phase == "move":
            line = f"!move {rng.choice(table.match.legal_plays()).notation}"
        elif table.match.phase == "roll":
            line = "!roll"
        else:
            line = "!take"
        await service.run(PLACE, user, line, users=lambda word: None)
    await service.run(PLACE, CAROL, "!board", users=lambda word: None)
    await service.due()
    await store.trace(None)
    assert len(statements.seen) > 50
    assert_no_scans(statements, tmp_path / "counted.sqlite3")


async def test_no_statement_of_stats_the_leaderboard_or_startup_scans_a_growing_table(
    tmp_path: Path,
) -> None:
    """``!stats`` and ``!leaderboard`` read counters and an index of the ranked players; at
    start, the matches to re-post and those the engine may owe a turn in come from the index of
    the matches being played, and the analyses waiting from the index of unfinished ones."""
    path = tmp_path / "history.sqlite3"
    store = await Store.open(path)
    clock = FakeClock()
    service = history_service(store, clock, 3)
    try:
        await live_history(service, clock, PLACE.server_id)  # every way a match ends
        statements = Statements()
        await store.trace(statements)
        for user in (ALICE, BOB, CAROL, ENGINE_USER):
            [stats] = await service.server.stats(PLACE, ALICE, user)
            [board] = await service.server.leaderboard(PLACE, user)
        assert "By level (won-lost)" in stats.text and "3. carol" in board.text
        clock.advance(1)  # the next start: a new service on the same database
        assert await TableService(store, clock=clock, images=False).unannounced()
        assert await store.matches.against_engine()
        assert await store.analyses.waiting() == 0
        await store.trace(None)
        assert len(statements.reads) >= 11, statements.seen
        assert_no_scans(statements, path)
    finally:
        service.close()
        await store.close()


def assert_no_scans(statements: Statements, path: Path) -> None:
    """No statement seen walks a table of :data:`GROWING` (by SQLite's plan of it)."""
    scans = {}
    with sqlite3.connect(path) as raw:
        for sql in set(statements.seen):
            if not sql.upper().startswith(("SELECT", "UPDATE", "INSERT", "DELETE")):
                continue
            plan = raw.execute(f"EXPLAIN QUERY PLAN {sql}", [None] * sql.count("?")).fetchall()
            walked = [
                step[3] for step in plan if re.match(rf"SCAN ({'|'.join(GROWING)})\b", step[3])
            ]
            if walked:
                scans[sql] = walked
    raw.close()
    assert scans == {}, "\n".join(f"{sql}\n  {steps}" for sql, steps in scans.items())


async def test_the_analysis_queue_walks_no_growing_table(tmp_path: Path) -> None:
    """Asking, taking, following and finishing analyses, and the poll that looks at the queue,
    find their jobs by the index of unfinished ones, however many are done."""
    store = await Store.open(tmp_path / "queue.sqlite3")
    analyst = FakeAnalyst()
    clock = FakeClock()
    service = TableService(
        store,
        settings=Settings(match_threads=False, analysis_auto=False, analysis_plies=1),
        dice=seeded_dice(3),
        clock=clock,
        images=False,
        engine=analyst,
    )
    try:
        places = [Place(PLACE.server_id, f"old-{n}") for n in range(4)]
        for n, place in enumerate(places):
            await start_match(service, place, ALICE, CAROL, 1)
            await play_out(service, place, (ALICE, CAROL), n)
        await follow_to_the_end(service, places[0])  # history: a done analysis
        statements = Statements()
        await store.trace(statements)
        analyst.hold = asyncio.Event()
        [first] = await service.gnubg.analysis(places[1], ALICE)
        await analyst.started.wait()
        [second] = await service.gnubg.analysis(places[2], BOB)
        await service.due()
        clock.advance(1_000)
        await service.due()
        analyst.hold.set()
        for reply in (first, second):
            assert reply.job is not None
            _ = [update async for update in service.follow(reply.job)]
        await service.resume_analyses()
        await store.trace(None)
        taken = [sql for sql in statements.seen if "ORDER BY analyses.requested_at" in sql]
        assert len(taken) >= 3, statements.seen  # two jobs taken, then none left
        assert_no_scans(statements, tmp_path / "queue.sqlite3")
    finally:
        await service.analyses.stop()
        service.close()
        await store.close()


async def follow_to_the_end(service: TableService, place: Place) -> None:
    [reply] = await service.gnubg.analysis(place, ALICE)
    if reply.job is not None:
        _ = [update async for update in service.follow(reply.job)]


async def test_tournaments_reviews_and_drills_walk_no_growing_table(tmp_path: Path) -> None:
    """With a finished tournament and analysed matches behind it: a new tournament's commands,
    its rounds through the deadline poll, ``!stats``, ``!review`` and ``!drill`` find their rows
    by key or index, however long the history."""
    path = tmp_path / "rooms.sqlite3"
    store = await Store.open(path)
    game = review(
        [fixture("match3-game1.txt")], money=False, mwc_games=[fixture("match3-game1-mwc.txt")]
    )
    analyst = FakeAnalyst(replace(result(), decisions=tuple(game)))
    clock = ConsoleClock(1_790_000_000.0)
    service = TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(4),
        clock=clock,
        images=False,
        engine=analyst,
    )
    out = io.StringIO()
    console = Console(service, out, images=None, as_json=False, clock=clock)

    async def finish_round(name: str) -> None:
        channels = [
            p.channel_id
            for p in await store.tournaments.undecided()
            if p.channel_id is not None and p.second is not None
        ]
        for channel in channels:
            table = await service.table(Place(SERVER, channel))
            assert table is not None and table.match.turn is not None
            turn = table.match.turn
            await said(console, out, f"#{channel} {table.plain[turn]}: !resign")
            await said(console, out, f"#{channel} {table.plain[1 - turn]}: !accept")

    try:
        for name in ("Old", "New"):  # a finished tournament: history
            await said(console, out, f"org: !tournament create {name} knockout 1")
            for player in ("ann", "ben", "cid", "dot"):
                await said(console, out, f"{player}: !join {name}")
            statements = Statements()
            await store.trace(statements)
            await said(console, out, f"org: !tournament {name} start")
            await said(console, out, f"ann: !tournament {name}")
            await finish_round(name)
            await said(console, out, "~ 10s")
            await finish_round(name)
            await said(console, out, f"ann: !tournament {name} report")
        for line in ("ann: !stats", "ann: !review", "ann: !review errors", "ann: !drill"):
            await said(console, out, line)
        await said(console, out, "ann: !drill stats")
        await store.trace(None)
        assert "is over" in out.getvalue() and len(statements.reads) > 30
        assert_no_scans(statements, path)
    finally:
        service.close()
        await store.close()


async def test_puzzles_walk_no_growing_table(tmp_path: Path) -> None:
    """With players' answers behind them: ``!puzzle``, its answer, ``rating``, ``top``,
    ``misses`` and the autocomplete find their rows by key or index."""
    path = tmp_path / "puzzles.sqlite3"
    store = await Store.open(path)
    service = TableService(store, clock=FakeClock(), images=False)
    try:
        for user in (ALICE, BOB, CAROL, ALICE):  # history
            await service.run(PLACE, user, "!puzzle", users=lambda word: None)
            _, puzzle = await awaited(store, user)
            await service.run(
                PLACE, user, f"!puzzle {answer_of(puzzle, False)}", users=lambda word: None
            )
        statements = Statements()
        await store.trace(statements)
        await service.run(PLACE, ALICE, "!puzzle", users=lambda word: None)
        await service.puzzles.puzzle_choices(PLACE, ALICE, "")
        _, puzzle = await awaited(store)
        for line in (f"!puzzle {answer_of(puzzle, True)}", "!puzzle rating", "!puzzle top"):
            await service.run(PLACE, ALICE, line, users=lambda word: None)
        await service.run(PLACE, BOB, "!puzzle misses", users=lambda word: None)
        await store.trace(None)
        assert len(statements.seen) > 10
        assert_no_scans(statements, path)
    finally:
        service.close()
        await store.close()


async def test_the_daily_puzzle_walks_no_growing_table(tmp_path: Path) -> None:
    """With days of daily posts and answers behind it: the deadline poll (the settings due, the
    day's choice checked against the server's past dailies, the claim, yesterday's share, the
    unsent posts claimed again, marked sent), the
    setting, ``!puzzle daily``, its answer and its autocomplete find their rows by key or
    index."""
    path = tmp_path / "daily.sqlite3"
    store = await Store.open(path)
    clock = FakeClock(1_800_000_000.0)  # 08:00 UTC
    service = TableService(store, clock=clock, images=False)

    async def run(user: User, line: str) -> None:
        await service.run(PLACE, user, line, users=lambda word: None)

    try:
        for server in ("other", PLACE.server_id):  # another server's dailies: history too
            place = Place(server, PLACE.channel_id)
            await service.puzzles.puzzle(place, ALICE, "daily #daily 09:00", manager=True)
        for day in range(4):
            clock.now = 1_800_003_600.0 + day * 86400
            await service.due()
            for user in (ALICE, BOB, CAROL):
                await run(user, "!puzzle daily 13/7 8/7")
                await run(user, "!puzzle daily double")
        statements = Statements()
        await store.trace(statements)
        clock.advance(86400)
        assert len(await service.due()) == 2
        clock.advance(LEASE)  # never marked sent: claimed again and posted
        again = await service.due()
        assert len(again) == 2
        await service.sent(reply for _, reply in again)
        await run(ALICE, "!puzzle daily #daily 10:00 Europe/Paris")
        await run(ALICE, "!puzzle daily")
        await service.puzzles.puzzle_choices(PLACE, ALICE, "daily ")
        for line in ("!puzzle daily 13/7 8/7", "!puzzle daily double", "!puzzle daily take"):
            await run(BOB, line)
        await store.trace(None)
        assert len(statements.seen) > 15
        assert_no_scans(statements, path)
    finally:
        service.close()
        await store.close()
