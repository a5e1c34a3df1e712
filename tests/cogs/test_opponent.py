"""Games against GNU Backgammon from Discord: ``!challenge @<this bot>`` and
``/challenge opponent:<this bot>`` start one at once; other bots stay refused; ``!hint`` is
private; a turn the bot owed at startup is taken and posted. Through :mod:`tests.cogs.wire`."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

from bot.service.commands.limits import Limiter
from bot.service.models import ENGINE_ID, Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import BOT_ID, CHANNEL_ID, GUILD_ID, SEED, Person, Sent, Wire, start
from tests.service.driver import FakeClock
from tests.service.fake_engine import FakeEngine

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
ME = Person(BOT_ID, "gammonbot", bot=True)  # this bot, as a user option names it
ROBOT = Person(300000000000000555, "robot", bot=True)  # another bot of the server
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
async def service(
    store: Store, settings: Settings, clock: FakeClock, engine: FakeEngine
) -> AsyncIterator[TableService]:
    service = TableService(
        store,
        settings=settings,
        dice=seeded_dice(SEED),
        clock=clock,
        images=False,
        engine=engine,
    )
    yield service
    service.close()


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    wire = await start(service, settings, ALICE, BOB, ROBOT, limiter=limiter)
    yield wire
    await wire.close()


def texts(sent: list[Sent]) -> list[str]:
    return [message.content for message in sent]


async def test_prefix_challenge_of_this_bot_starts_a_match_at_once(
    wire: Wire, service: TableService
) -> None:
    said = texts(await wire.type(ALICE, f"!challenge <@{BOT_ID}> 3 expert"))
    assert said, "the match starts in the reply"
    assert all(f"<@{BOT_ID}>" not in text for text in said)  # the bot is never pinged
    table = await service.table(PLACE)
    assert table is not None and table.row.player_ids == (str(ALICE.id), ENGINE_ID)
    assert table.row.engine_level == "expert"
    assert table.match.turn == 0  # the bot has taken its turn if it had one


async def test_the_word_bot_in_discord_challenges_me(wire: Wire, service: TableService) -> None:
    assert await wire.type(ALICE, "!challenge bot 3 worldclass"), "the match starts in the reply"
    table = await service.table(PLACE)
    assert table is not None and table.row.player_ids == (str(ALICE.id), ENGINE_ID)
    assert table.row.engine_level == "worldclass"


async def test_a_member_named_nowhere_is_still_not_found(wire: Wire) -> None:
    [text] = texts(await wire.type(ALICE, "!challenge nobody 3"))
    assert "I can't find the member 'nobody'" in text


async def test_slash_challenge_of_this_bot_starts_a_match(
    wire: Wire, service: TableService
) -> None:
    sent = await wire.slash(ALICE, "challenge", opponent=ME, length="1 tutor")
    assert sent and "alice vs GNU Backgammon (advanced)" in sent[0].content
    assert "with the tutor" in sent[0].content
    assert sent[0].via == "response" and not sent[0].ephemeral
    table = await service.table(PLACE)
    assert table is not None and table.row.tutor == 1


async def test_other_bots_are_still_refused(wire: Wire, service: TableService) -> None:
    [refusal] = await wire.slash(ALICE, "challenge", opponent=ROBOT, length="3")
    assert refusal.ephemeral is True and "Bots don't play here" in refusal.content
    assert await service.table(PLACE) is None


async def test_hint_is_ephemeral(wire: Wire) -> None:
    await wire.slash(ALICE, "challenge", opponent=ME, length="3")
    sent = await wire.slash(ALICE, "hint")
    assert len(sent) == 1 and sent[0].ephemeral is True


async def test_a_turn_owed_at_startup_is_taken_and_posted(
    wire: Wire, service: TableService, engine: FakeEngine
) -> None:
    engine.failures = 1000
    said = texts(await wire.type(ALICE, f"!challenge <@{BOT_ID}> 3"))
    table = await service.table(PLACE)
    assert table is not None
    while table.match.turn == 0:  # hand the bot its turn; it fails to take it
        if table.match.phase == "roll":
            said += texts(await wire.type(ALICE, "!roll"))
        else:
            play = table.match.legal_plays()[0].notation
            said += texts(await wire.type(ALICE, f"!move {play}"))
        table = await service.table(PLACE)
        assert table is not None
    assert any("could not take its turn" in text for text in said)
    engine.failures = 0
    resumed, posted = await wire.outcome(wire.bot.resume_engine_turns())
    assert resumed == 1
    assert any("GNU Backgammon" in text for text in texts(posted))
    table = await service.table(PLACE)
    assert table is not None and table.match.turn == 0
    assert await service.unannounced() == []
