"""A bot turn queued behind many others, in Discord: the person's move is answered at once with
the queue's message, that message is edited when the bot has played, and the bot's turn is
posted as a new message with the person's buttons and ping. Through :mod:`tests.cogs.wire`."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

from bot.i18n.core import ENGLISH
from bot.i18n.gnubg import QUEUE_DONE
from bot.service.commands.limits import Limiter
from bot.service.gnubg.opponent import queued_text
from bot.service.models import ENGINE_ID, PRIVATE_SERVER, Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import BOT_ID, CHANNEL_ID, EDIT, GUILD_ID, SEED, SEND, Person, Wire, start
from tests.service.driver import FakeClock
from tests.service.fake_engine import FakeEngine

ALICE = Person(300000000000000001, "alice")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def service(
    store: Store, settings: Settings, clock: FakeClock
) -> AsyncIterator[TableService]:
    service = TableService(
        store,
        settings=settings,
        dice=seeded_dice(SEED),
        clock=clock,
        images=False,
        engine=FakeEngine(),
    )
    service.opponent.queue_limit = 0  # every bot turn is queued, as when many are under way
    yield service
    service.close()


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    wire = await start(service, settings, ALICE, limiter=limiter)
    yield wire
    await wire.close()


async def test_a_queued_turn_is_posted_when_the_bot_has_played(
    wire: Wire, service: TableService
) -> None:
    await wire.type(ALICE, "!challenge bot 3")
    while True:  # up to alice's move (the bot's turns queued and taken on the way)
        table = await service.table(PLACE)
        assert table is not None and table.row.player_ids[table.match.turn or 0] != ENGINE_ID
        if table.match.phase == "move":
            break
        await wire.type(ALICE, "!roll" if table.match.phase == "roll" else "!take")
    play = table.match.legal_plays()[0].notation

    moved, queued, turn = await wire.type(ALICE, f"!move {play}")
    assert "alice plays" in moved.content
    assert queued.request["content"] == queued_text(0, language=ENGLISH)  # as sent: the turn queued
    assert queued.content == QUEUE_DONE("en")  # as it reads now: edited once the bot had played
    [edit] = [call for call in wire.calls_of(EDIT) if call.ids["message_id"] == queued.id]
    assert edit.json["content"] == QUEUE_DONE("en")
    assert "GNU Backgammon" in turn.content and turn.content.startswith(f"<@{ALICE.id}>")
    assert turn.custom_ids  # alice's buttons: roll (or double)
    after = await service.table(PLACE)
    assert after is not None and after.match.turn == 0
    assert await service.unannounced() == []  # the bot's turn was shown


async def test_in_the_bots_dm_a_queued_turn_answers_the_interaction_not_the_channel(
    wire: Wire, service: TableService
) -> None:
    """A user install's DM (the bot may be no member there): the bot's turn, once played,
    follows in the interaction that handed it the turn, never in the channel."""
    me = Person(BOT_ID, "gammonbot", bot=True)
    await wire.slash_in(None, ALICE, "challenge", opponent=me, length="3")
    place = Place(PRIVATE_SERVER, str(ALICE.id + 1))  # her DM with the bot, as the wire has it
    while True:
        table = await service.table(place)
        assert table is not None and table.row.player_ids[table.match.turn or 0] != ENGINE_ID
        if table.match.phase == "move":
            break
        await wire.slash_in(None, ALICE, "roll" if table.match.phase == "roll" else "take")
    play = table.match.legal_plays()[0].notation
    posted = len(wire.calls_of(SEND))

    moved, queued, turn = await wire.slash_in(None, ALICE, "move", play=play)
    assert "alice plays" in moved.content and queued.content == QUEUE_DONE("en")
    assert "GNU Backgammon" in turn.content and turn.custom_ids
    assert turn.via == "followup"
    assert len(wire.calls_of(SEND)) == posted  # no channel message
    assert await service.unannounced() == []
