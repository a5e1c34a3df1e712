"""Two real ``python -m bot`` processes, as on two hosts: the bot's two shards split between
them (``SHARD_COUNT=2``, ``SHARD_IDS`` 0 and 1), one PostgreSQL database shared, one server on
each shard of the fake Discord. Each plays its own server's match; one is killed (SIGKILL) and
started again, and its match goes on from the database while the other's never stopped; nothing
is lost and nothing is announced twice."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import (
    is_png,
    legal_play,
    one_reply,
    play_and_get_roll_buttons,
    start_match,
    turn_in,
)
from tests.postgres import PostgresServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


def general(fake: FakeDiscord, guild_id: int) -> int:
    [channel] = [c for c in fake.channels if fake.guild_of(c) == guild_id]
    return channel


async def test_two_processes_share_one_postgresql_and_a_kill_loses_nothing(
    fake: FakeDiscord, postgres: PostgresServer, tmp_path: Path
) -> None:
    servers = [fake.add_guild(shard=(0, 2)), fake.add_guild(shard=(1, 2))]
    channels = [general(fake, server) for server in servers]
    url = await postgres.new_database()
    shared = {"SHARD_COUNT": "2", "DICE_KEY": secrets.token_hex(32)}
    bots = []
    for shard in (0, 1):
        workdir = tmp_path / f"host-{shard}"
        workdir.mkdir()
        bots.append(BotProcess(fake, workdir, url, shared | {"SHARD_IDS": str(shard)}))
    try:
        for bot in bots:
            await bot.start()
        for shard, bot in enumerate(bots):
            await bot.wait_for_log(f"shards {shard} of 2", timeout=20)

        turns = [await start_match(fake, channel) for channel in channels]
        for channel, turn in zip(channels, turns, strict=True):
            await play_and_get_roll_buttons(fake, channel, turn)

        await bots[1].kill()  # the host of shard 1 goes down mid-match
        board = await one_reply(fake, turns[0].other, "!board", channels[0])
        assert f"{turns[0].other.name}: `!roll` or `!double`" in board.content  # shard 0 plays on

        await bots[1].start()
        board = await one_reply(fake, turns[1].other, "!board", channels[1])
        assert is_png(board)
        assert f"{turns[1].other.name}: `!roll` or `!double`" in board.content, board.content
        for channel, turn in zip(channels, turns, strict=True):
            rolled = await one_reply(fake, turn.other, "!roll", channel)
            after = turn_in(fake, rolled, (turn.mover, turn.other))
            assert after.mover == turn.other
            play = await legal_play(fake, after.mover, channel)
            moved = await one_reply(fake, after.mover, f"!move {play}", channel)
            assert f"{after.mover.name} plays" in moved.content, moved.content

        for channel in channels:
            said = [m.content for m in fake.bot_messages(channel)]
            assert not [text for text in said if "Re-posted" in text], said
        assert fake.unknown_routes == []
        for bot in bots:
            assert "Traceback" not in bot.output()
    finally:
        for bot in bots:
            await bot.stop()
