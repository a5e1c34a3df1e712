"""The Discord bot with its PostgreSQL server stopped, then started again: its deadline poll
says so in one log line (not a traceback every 5 seconds), a command and a button press get
one line each, and once
the server is back the poll posts what fell due and says that it answers again."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.i18n.core import ENGLISH
from bot.i18n.errors import DATABASE_DOWN
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import SEED, Person, Sent, Wire, start
from tests.postgres import PostgresServer
from tests.service.driver import FakeClock

pytestmark = pytest.mark.slow

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
POLL = 0.05
OTHER = 902  # a channel with a challenge waiting


async def test_the_poll_says_once_that_the_database_is_down_and_carries_on(
    stoppable_postgres: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    server = stoppable_postgres
    store = await Store.open(await server.new_database())
    settings = Settings(match_threads=False, deadline_poll_seconds=POLL)
    clock = FakeClock()
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), clock=clock)
    wire: Wire = await start(service, settings, ALICE, BOB)
    bot = wire.bot
    refused: list[Sent] = []
    pressed: list[str] = []

    async def ready() -> None:  # the wire's bot is never told it is ready
        pass

    async def outage() -> None:
        """The poll running all along: the server stops, a command comes, the server starts
        again and a reminder falls due."""
        poll = asyncio.create_task(bot._watch_deadlines())
        try:
            server.halt()
            await asyncio.sleep(20 * POLL)
            refused.extend(await wire.type(ALICE, "!board"))
            await wire.press(BOB, challenge, challenge.custom_ids[0])
            pressed.append(wire.responses[-1]["data"]["content"])
        finally:
            server.resume()
        clock.advance(settings.reminder_hours * 3600 + 1)
        await asyncio.sleep(20 * POLL)
        poll.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await poll

    try:
        await bot.stop_deadlines()  # the test runs the poll itself, on the wire
        bot.wait_until_ready = ready  # type: ignore[method-assign]
        await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
        await wire.type(BOB, "!accept")
        wire.add_channel(OTHER, "other")
        [challenge] = await wire.type(ALICE, f"!challenge <@{BOB.id}> 1", channel=OTHER)
        caplog.set_level(logging.WARNING)
        posted = await wire.run(outage())
        assert [message.content for message in refused] == [DATABASE_DOWN(ENGLISH)]
        assert pressed == [DATABASE_DOWN(ENGLISH)]  # a button too
        said = [record.getMessage() for record in caplog.records]
        assert len([text for text in said if "not answering" in text]) == 1, said
        assert [text for text in said if text.startswith("Deadlines: the database is not")]
        assert said.count("The database answers again") == 1
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
        assert [message.content for message in posted if "Reminder" in message.content]
    finally:
        await wire.close()
        service.close()
        await store.close()
