"""The bot's turn against the real GNU Backgammon when a worker dies or hangs while it thinks:
the player's command says the bot couldn't play, the match stays as it was, and the channel's
next command (``!board``) makes the bot play."""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.gnubg import installed
from bot.gnubg.api import TurnChoice
from bot.service.models import ENGINE_ID, ENGINE_USER, Reply
from bot.service.table import Table, TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, PLACE
from tests.service.driver import FakeClock, public

pytestmark = [
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(120),
]

COULD_NOT = "could not take its turn"

if installed():
    from bot.gnubg.engine import GnubgEngine


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine() -> AsyncIterator[GnubgEngine]:
    engine = GnubgEngine(Settings(engine_workers=1))
    await engine.start()
    yield engine
    await engine.close()


@pytest_asyncio.fixture(loop_scope="module")
async def service(tmp_path: Path, engine: GnubgEngine) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "table.sqlite3")
    service = TableService(
        store,
        settings=Settings(),
        dice=seeded_dice(8),
        clock=FakeClock(),
        images=False,
        engine=engine,
    )
    yield service
    service.close()
    await store.close()


async def table_now(service: TableService) -> Table:
    table = await service.table(PLACE)
    assert table is not None
    return table


async def to_alices_move(service: TableService) -> Table:
    """A 3-point match against the bot (expert), played by Alice up to a move of hers."""
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3 expert"))
    while (table := await table_now(service)).match.phase != "move":
        assert table.row.player_ids[table.match.turn or 0] != ENGINE_ID
        public(await service.matches.roll(PLACE, ALICE))
    return table


def bot_seat(table: Table) -> int:
    return table.row.player_ids.index(ENGINE_ID)


async def move_while_the_bot_fails(
    service: TableService, engine: GnubgEngine, sabotage: Callable[[], Awaitable[None]]
) -> None:
    """Alice moves with the engine sabotaged; the turn passes to the bot, which fails."""
    before = await to_alices_move(service)
    alice = 1 - bot_seat(before)
    play = before.match.legal_plays()[0].notation
    await sabotage()
    replies = await service.matches.move(PLACE, ALICE, play)
    texts = [reply.text for reply in replies]
    failures = [reply for reply in replies if COULD_NOT in reply.text]
    assert len(failures) == 1, texts
    [failure] = failures
    assert not failure.private  # the channel sees why the game waits
    assert failure.text.startswith("GNU Backgammon could not take its turn. GNU Backgammon "), texts
    assert "Try again" not in failure.text  # it tries again by itself
    assert "`!board`" in failure.text
    # Alice's move was carried out and shown; the bot did nothing.
    assert any(reply.board_viewer is not None or reply.announces for reply in replies), texts
    after = await table_now(service)
    expected = before.match.move(alice, play)
    assert after.match.position_id() == expected.position_id()
    assert after.match.turn == bot_seat(after)
    assert after.match.record == expected.record[: len(after.match.record)]
    # Saved: Alice's move, and the bot's roll if it failed choosing its play (dice rolled stay
    # rolled), nothing else.
    assert after.row.version - before.row.version == (2 if after.match.phase == "move" else 1)


async def the_next_command_makes_the_bot_play(
    service: TableService, engine: GnubgEngine
) -> list[Reply]:
    stuck = await table_now(service)
    replies = public(await service.matches.board(PLACE, ALICE))
    assert not any(COULD_NOT in reply.text for reply in replies), [r.text for r in replies]
    table = await service.latest_table(PLACE)
    assert table is not None
    assert table.match.action_count > stuck.match.action_count
    if table.row.status == "playing":
        assert table.match.turn != bot_seat(table)  # Alice's turn again
    assert len(engine.play_pool.pids()) == 1
    return replies


async def test_a_worker_killed_while_the_bot_thinks(
    service: TableService, engine: GnubgEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    killed: list[int] = []
    take_turn = engine.take_turn

    async def killed_first(*args: Any, **options: Any) -> TurnChoice:
        if not killed:  # the first time only: SIGKILL the worker, then ask it
            [pid] = engine.play_pool.pids()
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        return await take_turn(*args, **options)

    async def sabotage() -> None:
        monkeypatch.setattr(engine, "take_turn", killed_first)

    restarts = engine.play_pool.restarts
    await move_while_the_bot_fails(service, engine, sabotage)
    assert killed and engine.play_pool.restarts == restarts + 1
    replies = await the_next_command_makes_the_bot_play(service, engine)
    assert killed[0] not in engine.play_pool.pids()
    assert replies


async def test_a_hung_worker_is_stopped_and_the_bot_plays_later(
    service: TableService, engine: GnubgEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.gnubg import worker
    from tests.service import gnubg_stuck

    async def sabotage() -> None:
        [pid] = engine.play_pool.pids()
        hung.append(pid)
        monkeypatch.setattr(worker, "take_turn", gnubg_stuck.choose_play_for_ever)
        monkeypatch.setattr(engine, "timeout", 1.0)

    hung: list[int] = []
    await move_while_the_bot_fails(service, engine, sabotage)
    monkeypatch.undo()
    await the_next_command_makes_the_bot_play(service, engine)
    assert hung[0] not in engine.play_pool.pids()  # the hung one was killed


async def test_the_hung_worker_reply_says_how_long_it_waited(
    service: TableService, engine: GnubgEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.gnubg import worker
    from tests.service import gnubg_stuck

    before = await to_alices_move(service)
    monkeypatch.setattr(worker, "take_turn", gnubg_stuck.choose_play_for_ever)
    monkeypatch.setattr(engine, "timeout", 1.0)
    replies = await service.matches.move(PLACE, ALICE, before.match.legal_plays()[0].notation)
    [failure] = [reply.text for reply in replies if COULD_NOT in reply.text]
    assert failure == (
        "GNU Backgammon could not take its turn. GNU Backgammon thought for more than 1 s and "
        "was stopped; it has been restarted. The game waits for it: the bot tries again at the "
        "next command here, e.g. `!board`."
    )
