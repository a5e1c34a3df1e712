"""A thread per match from Discord: opened from the challenge's message when it is accepted, the
match's messages posted there, the permission that lacks said once, the setting obeyed.

Through :mod:`tests.cogs.wire`: threads are opened, posted in, deleted and archived by REST
calls, which Discord may refuse."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import discord
import pytest

from bot.cogs.replies import LiveButtons
from bot.cogs.threads import _TOLD as told
from bot.cogs.threads import (
    ARCHIVE_MINUTES,
    DiscordThreads,
    no_thread_text,
)
from bot.i18n.posting import UNUSED_THREAD
from bot.service.languages import Languages
from bot.service.models import Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import (
    CHANNEL_ID,
    DELETE_CHANNEL,
    EDIT_CHANNEL,
    GUILD_ID,
    SEED,
    SEND,
    THREAD_ALONE,
    THREAD_FROM_MESSAGE,
    Person,
    Sent,
    Wire,
    start,
)
from tests.service.driver import FakeClock


def languages_of(wire: Wire) -> Languages:
    return wire.bot.service.server.languages


ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
OTHER_ID = 300000000000004242
THREAD_ID = 300000000000007777
THREAD = Place(str(GUILD_ID), str(THREAD_ID))


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


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE, BOB)
    yield wire
    await wire.close()


async def challenge(wire: Wire) -> Sent:
    """alice challenges bob to 1 point by a typed command; the challenge's message."""
    [message] = await wire.type(ALICE, f"!challenge <@{BOB.id}> 1")
    assert message.custom_ids
    return message


async def accept(wire: Wire, message: Sent) -> list[Sent]:
    [accept_id] = [c for c in message.custom_ids if c.split(":")[1] == "accept"]
    return await wire.press(BOB, message, accept_id)


def thread_opened(wire: Wire) -> Place:
    [thread] = wire.guild.threads
    return Place(str(GUILD_ID), str(thread.id))


def thread_calls(wire: Wire) -> int:
    return len(wire.calls_of(THREAD_FROM_MESSAGE) + wire.calls_of(THREAD_ALONE))


async def test_accepting_opens_a_thread_from_the_challenge_and_plays_there(
    wire: Wire, service: TableService
) -> None:
    message = await challenge(wire)
    pressed = await accept(wire, message)
    [opened] = wire.calls_of(THREAD_FROM_MESSAGE)
    assert opened.ids == {"channel_id": CHANNEL_ID, "message_id": message.id}  # the challenge's
    assert opened.json["name"] == "alice vs bob · 1 point"
    assert opened.json["auto_archive_duration"] == ARCHIVE_MINUTES
    thread = thread_opened(wire)
    # The press is answered in the channel with a pointer; the board goes to the thread.
    pointer, status = pressed
    assert pointer.via == "followup" and pointer.channel_id == CHANNEL_ID
    assert pointer.content == (
        f"bob accepts alice's challenge. The match is played in its thread: <#{thread.channel_id}>"
    )
    assert status.channel_id == int(thread.channel_id) and status.via == "channel"
    assert "Dice commitment" in status.content
    posted = [call.ids["channel_id"] for call in wire.calls_of(SEND)]
    assert posted == [CHANNEL_ID, int(thread.channel_id)]  # the challenge, then the status only
    match = await service.table(thread)
    assert match is not None and match.row.parent_channel_id == str(CHANNEL_ID)
    # The channel's question is gone with its buttons; the thread's are remembered there.
    live = wire.bot.live
    assert live.message_id(PLACE) is None
    pending = await service.pending_decision(thread)
    assert bool(status.custom_ids) is (pending is not None)
    assert (live.message_id(thread) is not None) is (pending is not None)


async def test_a_typed_accept_after_a_restart_hangs_the_thread_from_the_command(
    wire: Wire, service: TableService, settings: Settings
) -> None:
    await challenge(wire)
    await wire.close()
    restarted = await start(service, settings, ALICE, BOB)  # it forgets the challenge's message
    try:
        sent = await restarted.type(BOB, "!accept")
        [opened] = restarted.calls_of(THREAD_FROM_MESSAGE)
        assert opened.ids["message_id"] == restarted.typed[-1]  # the typed command's
        in_channel = [m for m in sent if m.channel_id == CHANNEL_ID]
        assert [m.content.split(":")[0] for m in in_channel] == [
            "bob accepts alice's challenge. The match is played in its thread"
        ]
        thread = thread_opened(restarted)
        assert len(restarted.in_channel(int(thread.channel_id))) == 1
    finally:
        await restarted.close()


async def test_the_result_goes_to_the_channel_too(wire: Wire, service: TableService) -> None:
    await accept(wire, await challenge(wire))
    thread = thread_opened(wire)
    match = await service.table(thread)
    assert match is not None
    resigner, other = (ALICE, BOB) if match.match.turn == 0 else (BOB, ALICE)
    here = int(thread.channel_id)
    await wire.type(resigner, "!resign single", channel=here)
    before = len(wire.in_channel(CHANNEL_ID))
    answer = await wire.type(other, "!accept", channel=here)
    assert "wins" in [m for m in answer if m.channel_id == here][-1].content
    [result] = wire.in_channel(CHANNEL_ID)[before:]
    assert result.content == (
        f"{other.name} beats {resigner.name} 1-0 in a 1-point match. (<#{here}>)"
    )


async def test_missing_permission_is_said_once_and_the_match_stays(
    wire: Wire, service: TableService
) -> None:
    wire.deny(wire.channel, create_public_threads=False)
    pressed = await accept(wire, await challenge(wire))
    notice, status = (message.content for message in pressed)
    assert notice == no_thread_text(["Create Public Threads"], "en")
    assert "Dice commitment" in status
    assert thread_calls(wire) == 0 and await service.table(PLACE) is not None
    # Once per process and channel: a new opener (a new login's) doesn't say it again.
    opener = DiscordThreads(wire.bot, wire.bot.live, languages_of(wire))
    again = await opener.open(PLACE, "x vs y · 3 points", None)
    assert again.thread is None and again.notice is None
    other = wire.add_channel(OTHER_ID, "other")
    wire.deny(other, create_public_threads=False)
    fresh = DiscordThreads(wire.bot, wire.bot.live, languages_of(wire))
    await languages_of(wire).choose(PLACE.server_id, "de", 0.0)  # said in the server's language
    first = await fresh.open(Place(PLACE.server_id, str(OTHER_ID)), "x vs y · 3 points", None)
    assert first.thread is None  # another channel: told there
    assert first.notice == no_thread_text(["Create Public Threads"], "de")
    assert first.notice.startswith("Ich kann Matches hier keinen eigenen Thread geben")


async def test_refused_by_discord_is_said_and_other_failures_play_in_place(wire: Wire) -> None:
    origin = await wire.post("a challenge")
    for status, said in ((403, True), (500, False)):
        before = thread_calls(wire)
        wire.refuse(THREAD_FROM_MESSAGE, status)
        wire.refuse(THREAD_ALONE, status)
        opener = DiscordThreads(wire.bot, LiveButtons(None), languages_of(wire), origin=origin)  # type: ignore[arg-type]
        opened = await opener.open(PLACE, "a vs b · 1 point", None)
        assert opened.thread is None and (opened.notice is not None) is said
        # From a message first; a 5xx is tried once more as a thread alone.
        assert thread_calls(wire) - before == (1 if status == 403 else 2)
        wire.allow()


async def test_no_message_known_opens_a_thread_alone(wire: Wire) -> None:
    wire.add_channel(OTHER_ID, "other")
    other = await wire.post("elsewhere", channel=OTHER_ID)  # another channel's: no origin
    opener = DiscordThreads(wire.bot, LiveButtons(None), languages_of(wire), origin=other)  # type: ignore[arg-type]
    opened = await opener.open(PLACE, "a vs b · money", None)
    assert opened.thread == thread_opened(wire)
    assert wire.calls_of(THREAD_FROM_MESSAGE) == []
    [alone] = wire.calls_of(THREAD_ALONE)
    assert alone.ids == {"channel_id": CHANNEL_ID}
    assert {key: alone.json[key] for key in ("name", "type", "auto_archive_duration")} == {
        "name": "a vs b · money",
        "type": discord.ChannelType.public_thread.value,
        "auto_archive_duration": ARCHIVE_MINUTES,
    }


@pytest.mark.parametrize(
    "kind", [discord.ChannelType.public_thread, discord.ChannelType.forum, None]
)
async def test_threads_forums_and_dms_play_in_place(
    wire: Wire, kind: discord.ChannelType | None
) -> None:
    if kind is not None:
        wire.add_channel(OTHER_ID, "elsewhere", kind=kind)
    opener = DiscordThreads(wire.bot, LiveButtons(None), languages_of(wire))  # type: ignore[arg-type]
    opened = await opener.open(Place(str(GUILD_ID), str(OTHER_ID)), "a vs b · 1 point", None)
    assert opened.thread is None and opened.notice is None
    dm = await opener.open(Place("dm", "555"), "a vs b · 1 point", None)
    assert dm.thread is None and dm.notice is None
    assert thread_calls(wire) == 0


async def test_setting_off_opens_no_thread(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    off = replace(settings, match_threads=False)
    service = TableService(store, settings=off, dice=seeded_dice(SEED), clock=clock, images=False)
    wire = await start(service, off, ALICE, BOB)
    try:
        [status] = await accept(wire, await challenge(wire))
        assert "Dice commitment" in status.content and status.channel_id == CHANNEL_ID
        assert thread_calls(wire) == 0 and await service.table(PLACE) is not None
    finally:
        await wire.close()
        service.close()


async def test_an_unused_thread_is_deleted_or_archived(wire: Wire) -> None:
    for deletable in (True, False):
        wire.add_channel(THREAD_ID, "unused", kind=discord.ChannelType.public_thread)
        if not deletable:
            wire.refuse(DELETE_CHANNEL, 403)  # no Manage Threads
        calls = len(wire.calls)
        opener = DiscordThreads(wire.bot, LiveButtons(None), languages_of(wire))  # type: ignore[arg-type]
        await opener.discard(THREAD)
        made = [(call.route, call.status) for call in wire.calls[calls:]]
        if deletable:
            assert made == [(DELETE_CHANNEL, 200)]
            assert wire.bot.get_channel(THREAD_ID) is None
        else:
            assert made == [(DELETE_CHANNEL, 403), (SEND, 200), (EDIT_CHANNEL, 200)]
            assert wire.last().content == UNUSED_THREAD("en")
            assert wire.last().channel_id == THREAD_ID
            assert wire.calls[-1].json == {"archived": True}
    calls = len(wire.calls)
    opener = DiscordThreads(wire.bot, LiveButtons(None), languages_of(wire))  # type: ignore[arg-type]
    await opener.discard(PLACE)  # never a channel, whatever it is asked
    assert wire.calls[calls:] == []
