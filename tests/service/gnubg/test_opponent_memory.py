"""The bot's turn is carried out on the match kept in memory (no read under the lock) while it
is still the version the engine was asked about, as a person's action is; two services on one
database file (two processes) never both take one turn, and a version moved with no action
still gets the turn."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service.models import ENGINE_USER, Reply
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, PLACE
from tests.service.driver import FakeClock, public
from tests.service.fake_engine import FakeEngine
from tests.service.gnubg.test_opponent import act_allowing_bot, person_to_act


def made(store: Store, clock: FakeClock, engine: FakeEngine) -> TableService:
    return TableService(
        store, settings=Settings(), dice=seeded_dice(11), clock=clock, images=False, engine=engine
    )


@pytest.fixture
async def other_store(db_path: Path) -> AsyncIterator[Store]:
    """Another process's store on the same database."""
    store = await Store.open(db_path)
    yield store
    await store.close()


async def up_to_the_persons_move(service: TableService, rng: random.Random) -> None:
    while (table := await service.table(PLACE)) is not None and table.match.phase != "move":
        await act_allowing_bot(service, rng)


async def stored(store: Store) -> tuple[int, int]:
    """The match's version and actions logged, as the store has them."""
    row = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
    assert row is not None
    return row.version, len(await store.matches.actions(row.id))


async def thinking(
    store: Store, clock: FakeClock, rng: random.Random
) -> tuple[TableService, FakeEngine, asyncio.Event, asyncio.Task[list[Reply]]]:
    """A service whose person's move handed the bot its turn, its engine paused while it
    thinks: the service, its engine, what lets the engine answer, and the move's command."""
    engine = FakeEngine()
    first = made(store, clock, engine)
    public(await first.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    await up_to_the_persons_move(first, rng)
    release = engine.pause_next()
    handing = asyncio.create_task(act_allowing_bot(first, rng))
    await asyncio.wait_for(engine.paused.wait(), 5)
    return first, engine, release, handing


async def test_a_move_handing_the_bot_its_turn_reads_no_match(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = made(store, clock, FakeEngine())
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3"))
    rng = random.Random(3)
    await up_to_the_persons_move(service, rng)
    reads: list[Any] = []
    real = store.matches.with_timer

    async def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args)
        return await real(*args, **kwargs)

    table = await service.table(PLACE)
    assert table is not None
    before = await stored(store)
    monkeypatch.setattr(store.matches, "with_timer", counted)
    play = rng.choice(table.match.legal_plays()).notation
    public(await service.matches.move(PLACE, ALICE, play))  # hands the bot its turn
    assert reads == []  # the person's move and the bot's turn acted on the match kept
    after = await stored(store)
    assert after[1] > before[1] + 1  # the person's play and the bot's turn both logged
    await person_to_act(service)


async def test_a_turn_another_process_took_while_the_bot_thought_is_not_written(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    rng = random.Random(5)
    first, engine, release, handing = await thinking(store, clock, rng)

    # While the first thinks, another process takes the bot's turn and the person plays on.
    second = made(other_store, clock, FakeEngine())
    assert list(await second.resume_engine()) == [PLACE]
    await act_allowing_bot(second, rng)
    taken = await stored(store)

    release.set()
    await asyncio.wait_for(handing, 5)
    assert engine.calls == ["take_turn"]  # the first thought about the turn once
    assert await stored(store) == taken  # and wrote nothing
    now = await first.table(PLACE)
    assert now is not None and now.row.version == taken[0]
    await person_to_act(first)


async def test_a_version_moved_with_no_action_still_gets_the_bots_turn(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    first, _, release, handing = await thinking(store, clock, random.Random(7))

    # Another process writes the row (a new version) without acting: the first's save is
    # refused, it reads the match again, finds the same actions and takes its turn.
    row = await other_store.matches.playing(PLACE.server_id, PLACE.channel_id)
    assert row is not None
    async with other_store.transaction() as tx:
        await tx.matches.save(row.id, row.version, status="playing", now=clock(), touch=False)
    moved = await stored(store)

    release.set()
    replies = await asyncio.wait_for(handing, 5)
    assert any("GNU Backgammon" in reply.text for reply in replies)
    version, logged = await stored(store)
    assert version == moved[0] + 1 and logged > moved[1]
    await person_to_act(first)
