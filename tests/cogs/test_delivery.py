"""Replies that can't go out as asked: text without the board, one retry, a re-post at start."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.cogs.replies import NO_ATTACH, TOO_LARGE, LiveButtons, deliver
from bot.discord_bot import REPOSTED, BackgammonBot, bot_intents
from bot.service.models import Decision, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.fakes import PLACE, SEED, FakeMessage

BOARD = Reply("alice rolls 6-5.", image=b"\x89PNG...", announces=(1, 2))


def http_error(status: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x")
    if status == 403:
        return discord.Forbidden(response, "Missing Permissions")  # type: ignore[arg-type]
    if status >= 500:
        return discord.DiscordServerError(response, "Bad Gateway")  # type: ignore[arg-type]
    return discord.HTTPException(response, "Payload Too Large")  # type: ignore[arg-type]


class Channel:
    """A ``send`` that fails with the given statuses first, then succeeds."""

    def __init__(self, *failures: int) -> None:
        self.failures = list(failures)
        self.calls: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> FakeMessage:
        self.calls.append(kwargs)
        if self.failures:
            raise http_error(self.failures.pop(0))
        return FakeMessage()


@pytest.mark.parametrize(("status", "note"), [(403, NO_ATTACH), (413, TOO_LARGE)])
async def test_a_refused_upload_goes_again_as_text(status: int, note: str) -> None:
    channel = Channel(status)
    assert await deliver(channel.send, BOARD) is not None
    first, second = channel.calls
    assert "files" in first and "files" not in second
    assert second["content"] == f"{BOARD.text}\n{note}"


async def test_without_attach_files_the_text_goes_at_once() -> None:
    channel = Channel()
    assert await deliver(channel.send, BOARD, attach=False) is not None
    [only] = channel.calls
    assert "files" not in only and only["content"].endswith(NO_ATTACH)


async def test_a_server_error_is_tried_once_more_with_fresh_files() -> None:
    channel = Channel(502)
    assert await deliver(channel.send, BOARD) is not None
    first, second = channel.calls
    assert first["files"][0] is not second["files"][0]  # a used file can't be sent again


async def test_a_reply_that_keeps_failing_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    channel = Channel(500, 500, 500)
    with caplog.at_level(logging.WARNING):
        assert await deliver(channel.send, BOARD) is None
    assert len(channel.calls) == 2
    assert any("Could not send a reply (500" in message for message in caplog.messages)


async def test_a_text_refused_is_not_retried() -> None:
    channel = Channel(403)
    assert await deliver(channel.send, Reply("Pips: ...")) is None
    assert len(channel.calls) == 1


class Announced:
    def __init__(self) -> None:
        self.marked: list[tuple[int, int]] = []

    async def pending_decision(self, place: Place) -> None:
        return None

    async def mark_announced(self, match_id: int, version: int) -> None:
        self.marked.append((match_id, version))


async def test_a_sent_status_is_marked_announced_a_failed_one_not() -> None:
    service = Announced()
    live = LiveButtons(service)  # type: ignore[arg-type]
    later = Reply("bob moves.", announces=(1, 3))
    other = Reply("carol rolls.", announces=(2, 9))
    await live.update(PLACE, [(BOARD, FakeMessage()), (later, FakeMessage()), (other, None)])
    assert service.marked == [(1, 3)]


async def test_live_buttons_keep_the_most_recent_channels_only() -> None:
    live = LiveButtons(Announced(), kept=3)  # type: ignore[arg-type]
    places = [Place("g", str(n)) for n in range(5)]
    for place in places:
        asked = Reply("?", decision=Decision.TURN, decision_for="1")
        await live.update(place, [(asked, FakeMessage())])  # type: ignore[list-item]
    assert live.size == 3
    assert live.message_id(places[0]) is None and live.message_id(places[1]) is None
    assert all(live.message_id(place) is not None for place in places[2:])


async def test_the_live_buttons_are_bounded_by_default() -> None:
    live = LiveButtons(Announced())  # type: ignore[arg-type]
    asked = Reply("?", decision=Decision.TURN, decision_for="1")
    for n in range(10_001):
        await live.update(Place("g", str(n)), [(asked, FakeMessage())])  # type: ignore[list-item]
    assert live.size == 10_000


# -- re-posting after a restart ----------------------------------------------------------------


@pytest.fixture
async def service(store: Store, settings: Settings) -> AsyncIterator[TableService]:
    # No images: dpytest keeps no text of a message with a file.
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    yield service
    service.close()


@pytest.fixture
async def bot(
    service: TableService, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[BackgammonBot]:
    monkeypatch.chdir(tmp_path)
    intents = bot_intents()
    intents.members = True
    bot = BackgammonBot(service, settings, intents=intents)
    await bot._async_setup_hook()
    dpytest.configure(bot, members=["alice", "bob"])
    await bot.setup_hook()
    yield bot
    await dpytest.empty_queue()


def table_place() -> Place:
    channel = dpytest.get_config().channels[0]
    return Place(str(channel.guild.id), str(channel.id))


async def test_a_match_whose_message_failed_is_re_posted_once_at_start(
    bot: BackgammonBot, service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> 1", member=alice)
    await dpytest.message("!accept", member=bob)
    await dpytest.empty_queue()
    assert await service.unannounced() == []

    async def down(*args: Any, **kwargs: Any) -> Any:
        raise http_error(503)

    table = await service.table(table_place())
    assert table is not None and table.match.turn is not None
    mover = {str(alice.id): alice, str(bob.id): bob}[table.row.player_ids[table.match.turn]]
    command = (
        f"!move {table.match.legal_plays()[0].notation}" if table.match.phase == "move" else "!roll"
    )
    with monkeypatch.context() as patch:
        patch.setattr(bot.http, "send_message", down)
        await dpytest.message(command, member=mover)  # done, but nobody hears of it
    assert dpytest.sent_queue.empty()
    [(place, match_id, version)] = await service.unannounced()
    assert (place, match_id) == (table_place(), table.row.id) and version > table.row.version

    await bot.on_ready()  # the next start
    message = dpytest.get_message()
    assert REPOSTED in message.content
    assert dpytest.sent_queue.empty()
    assert await service.unannounced() == []
    await bot.on_ready()  # a reconnect re-posts nothing
    assert dpytest.sent_queue.empty()


async def test_the_re_post_says_so_and_keeps_the_buttons(
    bot: BackgammonBot, service: TableService
) -> None:
    alice, bob = dpytest.get_config().members
    place = table_place()
    await service.challenge(place, User(str(alice.id), "alice"), User(str(bob.id), "bob"), "1")
    await service.accept(place, User(str(bob.id), "bob"))  # as if the bot stopped right here
    assert await bot.repost_unannounced() == 1
    message = dpytest.get_message()
    table = await service.table(place)
    assert table is not None and table.match.turn is not None
    mover = table.row.player_ids[table.match.turn]
    assert message.content.startswith(f"<@{mover}> {REPOSTED} ")
    if await service.pending_decision(place) is not None:  # a roll to make: buttons again
        assert message.components
    assert await service.unannounced() == []


async def test_matches_of_other_shards_are_left_to_them(
    bot: BackgammonBot, service: TableService
) -> None:
    elsewhere = Place("123456789", "987654321")  # a server this process does not see
    await service.challenge(elsewhere, User("1", "a"), User("2", "b"), "1")
    await service.accept(elsewhere, User("2", "b"))
    assert await bot.repost_unannounced() == 0
    assert dpytest.sent_queue.empty()
    assert len(await service.unannounced()) == 1
