"""Games against GNU Backgammon from Discord: ``!challenge @<this bot>`` (dpytest) and
``/challenge opponent:<this bot>`` start one at once; other bots stay refused; ``!hint`` is
private; a turn the bot owed at startup is taken and posted."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import discord.ext.test as dpytest
import pytest
from discord.ext import commands

from bot.cogs.replies import LiveButtons
from bot.cogs.table import TableCog
from bot.discord_bot import BackgammonBot, bot_intents
from bot.service.commands.limits import Limiter
from bot.service.models import ENGINE_ID, Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.fakes import ALICE, ME, PLACE, SEED, FakeCtx, FakeMember
from tests.service.driver import FakeClock
from tests.service.fake_engine import FakeEngine


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
async def bot(
    service: TableService, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[BackgammonBot]:
    monkeypatch.chdir(tmp_path)
    intents = bot_intents()
    intents.members = True
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    bot = BackgammonBot(service, settings, intents=intents, limiter=limiter)
    await bot._async_setup_hook()
    dpytest.configure(bot, members=["alice", "bob"])
    await bot.setup_hook()
    yield bot
    await dpytest.empty_queue()


def table_place() -> Place:
    channel = dpytest.get_config().channels[0]
    return Place(str(channel.guild.id), str(channel.id))


def texts() -> list[str]:
    out = []
    while not dpytest.sent_queue.empty():
        out.append(dpytest.get_message().content or "")
    return out


async def test_prefix_challenge_of_this_bot_starts_a_match_at_once(
    bot: BackgammonBot, service: TableService
) -> None:
    alice = dpytest.get_config().members[0]
    assert bot.user is not None
    await dpytest.message(f"!challenge <@{bot.user.id}> 3 expert", member=alice)
    said = texts()
    assert said, "the match starts in the reply"
    assert all(f"<@{bot.user.id}>" not in text for text in said)  # the bot is never pinged
    table = await service.table(table_place())
    assert table is not None and table.row.player_ids == (str(alice.id), ENGINE_ID)
    assert table.row.engine_level == "expert"
    assert table.match.turn == 0  # the bot has taken its turn if it had one


async def test_the_word_bot_in_discord_challenges_me(
    bot: BackgammonBot, service: TableService
) -> None:
    alice = dpytest.get_config().members[0]
    await dpytest.message("!challenge bot 3 worldclass", member=alice)
    assert texts(), "the match starts in the reply"
    table = await service.table(table_place())
    assert table is not None and table.row.player_ids == (str(alice.id), ENGINE_ID)
    assert table.row.engine_level == "worldclass"


async def test_a_member_named_nowhere_is_still_not_found(bot: BackgammonBot) -> None:
    with pytest.raises(commands.MemberNotFound):
        await dpytest.message("!challenge nobody 3", member=0)
    [text] = texts()
    assert "I can't find the member 'nobody'" in text


async def test_slash_challenge_of_this_bot_starts_a_match(service: TableService) -> None:
    cog = TableCog(service, LiveButtons(service))
    ctx = FakeCtx(ALICE)
    await TableCog.challenge.callback(cog, ctx, ME, length="1 tutor")  # type: ignore[arg-type]
    assert ctx.sent and "alice vs GNU Backgammon (advanced)" in ctx.sent[0]["content"]
    assert "with the tutor" in ctx.sent[0]["content"]
    table = await service.table(PLACE)
    assert table is not None and table.row.tutor == 1


async def test_other_bots_are_still_refused(service: TableService) -> None:
    cog = TableCog(service, LiveButtons(service))
    ctx = FakeCtx(ALICE)
    robot = FakeMember(555, "robot", bot=True)
    await TableCog.challenge.callback(cog, ctx, robot, length="3")  # type: ignore[arg-type]
    assert ctx.sent[0]["ephemeral"] is True and "Bots don't play here" in ctx.sent[0]["content"]
    assert await service.table(PLACE) is None


async def test_hint_is_ephemeral(service: TableService) -> None:
    cog = TableCog(service, LiveButtons(service))
    await TableCog.challenge.callback(cog, FakeCtx(ALICE), ME, length="3")  # type: ignore[arg-type]
    ctx = FakeCtx(ALICE)
    await TableCog.hint.callback(cog, ctx)  # type: ignore[attr-defined]
    assert len(ctx.sent) == 1 and ctx.sent[0]["ephemeral"] is True


async def test_a_turn_owed_at_startup_is_taken_and_posted(
    bot: BackgammonBot, service: TableService, engine: FakeEngine
) -> None:
    alice = dpytest.get_config().members[0]
    assert bot.user is not None
    engine.failures = 1000
    await dpytest.message(f"!challenge <@{bot.user.id}> 3", member=alice)
    place = table_place()
    table = await service.table(place)
    assert table is not None
    while table.match.turn == 0:  # hand the bot its turn; it fails to take it
        if table.match.phase == "roll":
            await dpytest.message("!roll", member=alice)
        else:
            await dpytest.message(f"!move {table.match.legal_plays()[0].notation}", member=alice)
        table = await service.table(place)
        assert table is not None
    assert any("could not take its turn" in text for text in texts())
    engine.failures = 0
    assert await bot.resume_engine_turns() == 1
    assert any("GNU Backgammon" in text for text in texts())
    table = await service.table(place)
    assert table is not None and table.match.turn == 0
    assert await service.unannounced() == []
