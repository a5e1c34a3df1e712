"""A thread per match from Discord: opened from the challenge's message when it is accepted, the
match's messages posted there, the permission that lacks said once, the setting obeyed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.cogs.presses import ButtonPresses
from bot.cogs.replies import LiveButtons
from bot.cogs.table import TableCog
from bot.cogs.threads import _TOLD as told
from bot.cogs.threads import (
    ARCHIVE_MINUTES,
    UNUSED_THREAD,
    DiscordThreads,
    no_thread_text,
)
from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.fakes import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GUILD_ID,
    ME,
    PLACE,
    SEED,
    FakeCtx,
    FakeInteraction,
    FakeMessage,
)
from tests.service.driver import FakeClock

THREAD_ID = 7777
THREAD = Place(str(GUILD_ID), str(THREAD_ID))
ALL = discord.Permissions.text() | discord.Permissions(view_channel=True)
NO_THREADS = ALL & ~discord.Permissions(create_public_threads=True)


class FakeChannel:
    """A text channel (or, with another ``kind``, a thread or a forum) that records messages
    and the threads opened in it."""

    def __init__(
        self,
        channel_id: int = CHANNEL_ID,
        *,
        kind: discord.ChannelType = discord.ChannelType.text,
        perms: discord.Permissions = ALL,
        fails: discord.HTTPException | None = None,
    ) -> None:
        self.id = channel_id
        self.type = kind
        self.guild = SimpleNamespace(id=GUILD_ID, me=ME)
        self.perms = perms
        self.fails = fails
        self.sent: list[dict[str, Any]] = []
        self.opened: list[dict[str, Any]] = []

    def permissions_for(self, member: Any) -> discord.Permissions:
        assert member is ME
        return self.perms

    async def create_thread(self, **kwargs: Any) -> SimpleNamespace:
        self.opened.append(kwargs)
        if self.fails is not None:
            raise self.fails
        return SimpleNamespace(id=THREAD_ID)

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        self.sent.append({"content": content, **kwargs})
        return FakeMessage(channel=self)


class FakeClient:
    def __init__(self, *channels: FakeChannel) -> None:
        self.channels = {channel.id: channel for channel in channels}

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        return self.channels.get(channel_id)

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> FakeChannel:
        assert kwargs == {"guild_id": GUILD_ID}
        return self.channels[channel_id]


def http_error(status: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    kind = discord.Forbidden if status == 403 else discord.HTTPException
    return kind(response, "refused")


@pytest.fixture(autouse=True)
def nobody_told() -> None:
    """Each test starts as a new process would: no channel told of a missing permission."""
    told.clear()


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return replace(settings, match_threads=True)


@pytest.fixture
async def service(
    store: Store, settings: Settings, clock: FakeClock
) -> AsyncIterator[TableService]:
    service = TableService(
        store, settings=settings, dice=seeded_dice(SEED), clock=clock, images=False
    )
    yield service
    service.close()


class Table:
    """The cog and the presses over one service, with a fake client of ``channels``."""

    def __init__(self, service: TableService, *channels: FakeChannel) -> None:
        self.service = service
        self.client = FakeClient(*channels)
        self.live = LiveButtons(service)
        self.cog = TableCog(service, self.live)
        self.presses = ButtonPresses(service, self.live)

    def ctx(self, author: Any, *, channel_id: int = CHANNEL_ID) -> FakeCtx:
        ctx = FakeCtx(author, slash=False, channel_id=channel_id)
        ctx.bot = self.client  # type: ignore[attr-defined]
        ctx.message = FakeMessage(channel=self.client.channels.get(channel_id))  # type: ignore[assignment]
        return ctx

    async def challenge(self) -> FakeCtx:
        ctx = self.ctx(ALICE)
        bob = User(str(BOB.id), BOB.display_name)
        await self.cog.run(ctx, lambda place, user: self.service.challenge(place, user, bob, "1"))
        return ctx

    async def press(self, user: Any, action: str, message: FakeMessage) -> FakeInteraction:
        pending = await self.service.pending_decision(PLACE)
        assert pending is not None
        interaction = FakeInteraction(user, message=message)
        interaction.client = self.client  # type: ignore[attr-defined]
        await self.presses(interaction, action, pending.key)  # type: ignore[arg-type]
        return interaction


async def test_accepting_opens_a_thread_from_the_challenge_and_plays_there(
    service: TableService,
) -> None:
    channel, thread = FakeChannel(), FakeChannel(THREAD_ID, kind=discord.ChannelType.public_thread)
    table = Table(service, channel, thread)
    ctx = await table.challenge()
    challenge_message = table.live.message(PLACE, (await service.pending_decision(PLACE)).key)  # type: ignore[union-attr]
    assert challenge_message is not None
    pressed = await table.press(BOB, "accept", FakeMessage(channel=channel))
    [opened] = channel.opened
    assert opened == {
        "name": "alice vs bob · 1 point",
        "message": challenge_message,  # the challenge's, known from its buttons
        "auto_archive_duration": ARCHIVE_MINUTES,
    }
    # The press is answered in the channel with a pointer; the board goes to the thread.
    [pointer] = pressed.followup.sent
    assert pointer["content"] == (
        f"bob accepts alice's challenge. The match is played in its thread: <#{THREAD_ID}>"
    )
    [status] = thread.sent
    assert "Dice commitment" in status["content"]
    assert not channel.sent and len(ctx.sent) == 1  # the challenge only
    match = await service.table(THREAD)
    assert match is not None and match.row.parent_channel_id == str(CHANNEL_ID)
    # The channel's question is gone with its buttons; the thread's are remembered there.
    assert table.live.message_id(PLACE) is None
    pending = await service.pending_decision(THREAD)
    assert ("view" in status) is (pending is not None)
    assert (table.live.message_id(THREAD) is not None) is (pending is not None)


async def test_a_typed_accept_after_a_restart_hangs_the_thread_from_the_command(
    service: TableService,
) -> None:
    channel, thread = FakeChannel(), FakeChannel(THREAD_ID, kind=discord.ChannelType.public_thread)
    table = Table(service, channel, thread)
    await table.challenge()
    table.live = LiveButtons(service)  # a restart forgets the challenge's message
    table.cog = TableCog(service, table.live)
    ctx = table.ctx(BOB)
    await TableCog.accept.callback(table.cog, ctx)  # type: ignore[arg-type]
    assert channel.opened[0]["message"] is ctx.message
    assert [sent["content"].split(":")[0] for sent in ctx.sent] == [
        "bob accepts alice's challenge. The match is played in its thread"
    ]
    assert len(thread.sent) == 1


async def test_the_result_goes_to_the_channel_too(service: TableService) -> None:
    channel, thread = FakeChannel(), FakeChannel(THREAD_ID, kind=discord.ChannelType.public_thread)
    table = Table(service, channel, thread)
    await table.challenge()
    await table.press(BOB, "accept", FakeMessage(channel=channel))
    match = await service.table(THREAD)
    assert match is not None
    resigner, other = (ALICE, BOB) if match.match.turn == 0 else (BOB, ALICE)
    in_thread = table.ctx(resigner, channel_id=THREAD_ID)
    await table.cog.run(in_thread, lambda place, user: service.resign(place, user, "single"))
    answer = table.ctx(other, channel_id=THREAD_ID)
    await table.cog.run(answer, service.accept)
    assert "wins" in answer.sent[-1]["content"]
    [result] = channel.sent
    assert result["content"] == (
        f"{other.display_name} beats {resigner.display_name} 1-0 in a 1-point match. "
        f"(<#{THREAD_ID}>)"
    )


async def test_missing_permission_is_said_once_and_the_match_stays(
    service: TableService,
) -> None:
    channel = FakeChannel(perms=NO_THREADS)
    table = Table(service, channel)
    await table.challenge()
    pressed = await table.press(BOB, "accept", FakeMessage(channel=channel))
    notice, status = (sent["content"] for sent in pressed.followup.sent)
    assert notice == no_thread_text(["Create Public Threads"])
    assert "Dice commitment" in status
    assert channel.opened == [] and await service.table(PLACE) is not None
    # Once per process and channel: a new opener (a new login's) doesn't say it again.
    opener = DiscordThreads(table.client, table.live)  # type: ignore[arg-type]
    again = await opener.open(PLACE, "x vs y · 3 points", None)
    assert again.thread is None and again.notice is None
    other = FakeChannel(CHANNEL_ID + 1, perms=NO_THREADS)
    fresh = DiscordThreads(FakeClient(other), table.live)  # type: ignore[arg-type]
    first = await fresh.open(Place(PLACE.server_id, str(other.id)), "x vs y · 3 points", None)
    assert first.thread is None and first.notice is not None  # another channel: told there


async def test_refused_by_discord_is_said_and_other_failures_play_in_place() -> None:
    for status, said in ((403, True), (500, False)):
        channel = FakeChannel(fails=http_error(status))
        opener = DiscordThreads(
            FakeClient(channel),  # type: ignore[arg-type]
            LiveButtons(None),  # type: ignore[arg-type]
            origin=FakeMessage(channel=channel),  # type: ignore[arg-type]
        )
        opened = await opener.open(PLACE, "a vs b · 1 point", None)
        assert opened.thread is None and (opened.notice is not None) is said
        # From a message first; a 5xx is tried once more as a thread alone.
        assert len(channel.opened) == (1 if status == 403 else 2)


async def test_no_message_known_opens_a_thread_alone() -> None:
    channel = FakeChannel()
    other = FakeMessage(channel=FakeChannel(4242))  # another channel's message is no origin
    opener = DiscordThreads(
        FakeClient(channel),  # type: ignore[arg-type]
        LiveButtons(None),  # type: ignore[arg-type]
        origin=other,  # type: ignore[arg-type]
    )
    opened = await opener.open(PLACE, "a vs b · money", None)
    assert opened.thread == THREAD
    assert channel.opened == [
        {
            "name": "a vs b · money",
            "type": discord.ChannelType.public_thread,
            "auto_archive_duration": ARCHIVE_MINUTES,
        }
    ]


@pytest.mark.parametrize(
    "kind", [discord.ChannelType.public_thread, discord.ChannelType.forum, None]
)
async def test_threads_forums_and_dms_play_in_place(kind: discord.ChannelType | None) -> None:
    channels = [] if kind is None else [FakeChannel(kind=kind)]
    opener = DiscordThreads(FakeClient(*channels), LiveButtons(None))  # type: ignore[arg-type]
    opened = await opener.open(PLACE, "a vs b · 1 point", None)
    assert opened.thread is None and opened.notice is None
    dm = await opener.open(Place("dm", "555"), "a vs b · 1 point", None)
    assert dm.thread is None and dm.notice is None


async def test_setting_off_opens_no_thread(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    service = TableService(
        store,
        settings=replace(settings, match_threads=False),
        dice=seeded_dice(SEED),
        clock=clock,
        images=False,
    )
    channel = FakeChannel()
    table = Table(service, channel)
    await table.challenge()
    pressed = await table.press(BOB, "accept", FakeMessage(channel=channel))
    [status] = pressed.followup.sent
    assert "Dice commitment" in status["content"]
    assert channel.opened == [] and await service.table(PLACE) is not None
    service.close()


class FakeThread:
    """A thread the opener opened: deleted, or (without Manage Threads) told and archived."""

    def __init__(self, *, deletable: bool = True) -> None:
        self.id = THREAD_ID
        self.type = discord.ChannelType.public_thread
        self.deletable = deletable
        self.deleted = False
        self.sent: list[str] = []
        self.archived = False

    async def delete(self) -> None:
        if not self.deletable:
            raise http_error(403)
        self.deleted = True

    async def send(self, content: str) -> None:
        self.sent.append(content)

    async def edit(self, *, archived: bool) -> None:
        self.archived = archived


async def test_an_unused_thread_is_deleted_or_archived() -> None:
    for deletable in (True, False):
        thread = FakeThread(deletable=deletable)
        client = FakeClient()
        client.channels[THREAD_ID] = thread  # type: ignore[assignment]
        opener = DiscordThreads(client, LiveButtons(None))  # type: ignore[arg-type]
        await opener.discard(THREAD)
        assert thread.deleted is deletable
        assert thread.sent == ([] if deletable else [UNUSED_THREAD])
        assert thread.archived is not deletable
    channel = FakeChannel()  # never a channel, whatever it is asked
    opener = DiscordThreads(FakeClient(channel), LiveButtons(None))  # type: ignore[arg-type]
    await opener.discard(PLACE)
    assert channel.sent == []
