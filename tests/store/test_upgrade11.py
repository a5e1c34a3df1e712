"""A database written at schema 11 by the code before the store moved to SQLAlchemy
(tests/store/fixtures/make_schema11.py) opens with today's code and everything in it reads back
and carries on: the live matches, ratings, dice counters, timers, analyses, threads."""

from __future__ import annotations

import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from bot.store.schema import SCHEMA_VERSION
from tests.service.driver import FakeClock, take_turn
from tests.store.fixtures.make_schema11 import (
    AMY,
    CAL,
    DICE_KEY,
    FIXTURE,
    LIVE,
    OPEN,
    SERVER,
)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    path = tmp_path / "schema11.sqlite3"
    shutil.copy(FIXTURE, path)
    store = await Store.open(path)
    yield store
    await store.close()


async def test_everything_reads_back(store: Store) -> None:
    assert await store.schema_version() == SCHEMA_VERSION
    board = await store.players.leaderboard(SERVER)
    assert len(board) == 3 and all(p.wins + p.losses > 0 for p in board)
    assert await store.players.rank(SERVER, board[0].user_id) == (1, 3)
    counts = await store.dice.counts(SERVER)
    assert counts.dice >= 2 * counts.rolls > 100 and counts.doubles > 0
    summary = await store.players.pr_summary(SERVER, AMY.id)
    assert summary is not None and (summary.matches, summary.decisions) == (1, 100)
    failed = [await store.analyses.get(match_id) for match_id in range(1, 6)]
    assert sorted(row.status for row in failed if row is not None) == ["done", "failed"]
    assert [m.channel_id for m in await store.matches.threaded(SERVER, "lobby")] == ["thread-1"]
    live = await store.matches.playing(SERVER, LIVE.channel_id)
    assert live is not None
    timer = await store.matches.timer(live.id)
    assert timer is not None and timer.banks is not None
    announcement = await store.matches.announcement(live.id)
    assert announcement is not None
    assert announcement[0] == live.version
    assert announcement[1] == pytest.approx(timer.turn_started_at)
    assert (
        await store.matches.unannounced() != []
    )  # the matches never shown (the fixture had no Discord)
    challenge = await store.challenges.open(SERVER, OPEN.channel_id)
    assert challenge is not None and challenge.match_length == 7


async def test_the_live_match_goes_on(store: Store) -> None:
    service = TableService(
        store,
        settings=Settings(match_threads=False),
        dice=seeded_dice(1),
        dice_key=DICE_KEY,
        clock=FakeClock(),
        images=False,
    )
    try:
        before = await service.table(LIVE)
        assert before is not None and before.row.status == "playing"
        rng = random.Random(9)
        for _ in range(6):
            await take_turn(service, LIVE, (AMY, CAL), rng, double_rate=0.0)
        after = await service.table(LIVE)
        assert after is not None and after.row.version > before.row.version
        assert after.match.action_count > before.match.action_count
    finally:
        service.close()
