"""``!puzzle daily #channel 09:00`` in Discord names a text channel of this server where the bot
may post: anything else gets one short refusal and sets nothing. The bot's poll marks the day's
post sent once Discord took it; a post Discord refused is posted again after the lease. Through
:mod:`tests.cogs.wire`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from bot.i18n.puzzles import DAILY_ADMINS_ONLY
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import Store
from bot.store.dailies import LEASE
from tests.cogs.wire import GUILD_ID, SEND, Person, Sent, Wire, start
from tests.service.driver import FakeClock

ADMIN = Person(300000000000000001, "alice", moderator=True)
MEMBER = Person(300000000000000002, "bob")
DAILY_ID, CATEGORY_ID, CLOSED_ID, FORUM_ID = 905, 906, 907, 908


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ADMIN, MEMBER)
    wire.add_channel(DAILY_ID, "daily")
    wire.add_channel(CATEGORY_ID, "games", kind=discord.ChannelType.category)
    wire.add_channel(FORUM_ID, "ideas", kind=discord.ChannelType.forum)
    wire.deny(wire.add_channel(CLOSED_ID, "announcements"), send_messages=False)
    yield wire
    await wire.close()


def said(sent: list[Sent]) -> str:
    [message] = sent
    return message.content


@pytest.mark.parametrize(
    ("channel", "refusal"),
    [
        (f"<#{CATEGORY_ID}>", f"<#{CATEGORY_ID}> is not a text channel of this server"),
        (f"<#{FORUM_ID}>", f"<#{FORUM_ID}> is not a text channel of this server"),
        ("<#123456789012345678>", "<#123456789012345678> is not a text channel of this server"),
        ("#nowhere", "#nowhere is not a text channel of this server"),
        (f"<#{CLOSED_ID}>", f"I can't post in <#{CLOSED_ID}>: I need the Send Messages permission"),
    ],
)
async def test_a_channel_the_bot_cannot_post_in_is_refused(
    wire: Wire, store: Store, channel: str, refusal: str
) -> None:
    text = said(await wire.type(ADMIN, f"!puzzle daily {channel} 09:00"))
    assert refusal in text and len(text) < 200, text
    assert await store.dailies.setting(str(GUILD_ID)) is None


async def test_a_german_admin_is_refused_in_german(wire: Wire, store: Store) -> None:
    wire.locale = "de"
    text = said(await wire.slash(ADMIN, "puzzle", what=f"daily <#{CLOSED_ID}> 09:00"))
    assert f"Ich kann in <#{CLOSED_ID}> nicht posten: ich brauche dort die Berechtigung" in text
    assert await store.dailies.setting(str(GUILD_ID)) is None


@pytest.mark.parametrize("channel", [f"<#{DAILY_ID}>", "#daily"])
async def test_a_text_channel_of_the_server_is_set_by_its_id(
    wire: Wire, store: Store, channel: str
) -> None:
    text = said(await wire.type(ADMIN, f"!puzzle daily {channel} 09:00"))
    assert f"The daily puzzle will be posted in <#{DAILY_ID}> every day at 09:00" in text, text
    setting = await store.dailies.setting(str(GUILD_ID))
    assert setting is not None and setting.channel_id == str(DAILY_ID)


async def test_a_member_is_told_only_admins_set_it(wire: Wire, store: Store) -> None:
    assert DAILY_ADMINS_ONLY("en") in said(
        await wire.type(MEMBER, f"!puzzle daily <#{CATEGORY_ID}> 09:00")
    )
    assert await store.dailies.setting(str(GUILD_ID)) is None


async def test_the_post_discord_refused_goes_again_after_the_lease_and_is_then_marked_sent(
    wire: Wire, store: Store, clock: FakeClock
) -> None:
    said(await wire.type(ADMIN, f"!puzzle daily <#{DAILY_ID}> 09:00"))
    clock.now = 1_800_003_600.0  # 09:00 UTC
    wire.refuse(SEND, 500, 500)  # the bot tries twice, then gives up on this message
    assert await wire.run(wire.bot.post_due()) == []
    post = await store.dailies.last_post(str(GUILD_ID))
    assert post is not None and post.sent_at is None
    assert await wire.run(wire.bot.post_due()) == []  # the claim holds until its lease ends
    clock.advance(LEASE)
    [message] = await wire.run(wire.bot.post_due())
    assert message.channel_id == DAILY_ID and "**Daily puzzle of" in message.content
    post = await store.dailies.last_post(str(GUILD_ID))
    assert post is not None and post.sent_at == clock.now
    clock.advance(LEASE)
    assert await wire.run(wire.bot.post_due()) == []
