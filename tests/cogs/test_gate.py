"""Rate limits and the bot's permissions, before any command runs (dpytest, a fake clock).

dpytest keeps no text of a message with a file, so board messages are told by their PNG.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.cogs.replies import NO_ATTACH, user_of
from bot.discord_bot import BackgammonBot, bot_intents
from bot.service.commands.limits import RECENT_SECONDS, Limiter
from bot.service.models import ENGINE_USER, Place
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.fakes import ALICE, BOB, CAROL, FakeInteraction
from tests.service.driver import FakeClock


@pytest.fixture
def limiter_clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
async def bot(
    service: TableService,
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    limiter_clock: FakeClock,
) -> AsyncIterator[BackgammonBot]:
    monkeypatch.chdir(tmp_path)  # dpytest writes each sent file into the working directory
    intents = bot_intents()
    intents.members = True
    bot = BackgammonBot(service, settings, intents=intents, limiter=Limiter(clock=limiter_clock))
    await bot._async_setup_hook()
    dpytest.configure(bot, members=["alice", "bob", "carol", "dave"])
    await bot.setup_hook()
    yield bot
    await dpytest.empty_queue()


def table_place() -> Place:
    channel = dpytest.get_config().channels[0]
    return Place(str(channel.guild.id), str(channel.id))


def drain() -> list[discord.Message]:
    messages = []
    while not dpytest.sent_queue.empty():
        messages.append(dpytest.get_message())
    return messages


async def deny(channel: discord.TextChannel, **permissions: bool) -> None:
    # On @everyone: dpytest files an override for a member under a type discord.py ignores.
    await dpytest.set_permission_overrides(channel.guild.default_role, channel, **permissions)


def is_board(message: discord.Message) -> bool:
    return [a.filename for a in message.attachments] == ["board.png"]


async def start_match(service: TableService) -> tuple[Any, Any, Any]:
    alice, bob, carol, _ = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> 3", member=alice)
    await dpytest.message("!accept", member=bob)
    drain()
    return alice, bob, carol


async def next_player_command(service: TableService, members: dict[str, Any]) -> None:
    table = await service.table(table_place())
    assert table is not None and table.match.turn is not None
    member = members[table.row.player_ids[table.match.turn]]
    if table.match.phase == "move":
        await dpytest.message(f"!move {table.match.legal_plays()[0].notation}", member=member)
    else:
        await dpytest.message("!roll", member=member)


async def test_a_flood_from_a_non_player_gets_two_replies_and_the_players_all_theirs(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock
) -> None:
    alice, bob, carol = await start_match(service)
    members = {str(alice.id): alice, str(bob.id): bob}
    spam_replies: list[discord.Message] = []
    player_replies: list[list[discord.Message]] = []
    for n in range(100):  # 100 commands in 0.3 s, half of them asking for a board image
        await dpytest.message("!board" if n % 2 else "!roll", member=carol)
        spam_replies += drain()
        limiter_clock.advance(0.003)
        if n % 10 == 9:
            await next_player_command(service, members)
            player_replies.append(drain())
    assert len(spam_replies) <= 2
    assert len(player_replies) == 10
    assert all(len(sent) == 1 and is_board(sent[0]) for sent in player_replies)

    limiter_clock.advance(10)  # then carol is answered again
    await dpytest.message("!pips", member=carol)
    [pips] = drain()
    assert pips.content.startswith("Pips:")


async def test_a_player_playing_fast_is_never_refused(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock
) -> None:
    alice, bob, _ = await start_match(service)
    members = {str(alice.id): alice, str(bob.id): bob}
    for _ in range(40):  # a move every half second
        await next_player_command(service, members)
        [sent] = drain()
        assert is_board(sent)
        limiter_clock.advance(0.5)


async def test_a_player_past_the_limit_is_told_once(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock
) -> None:
    alice, _, _ = await start_match(service)
    for _ in range(8):
        await dpytest.message("!pips", member=alice)
    assert len(drain()) == 8
    for _ in range(5):
        await dpytest.message("!pips", member=alice)
    [slow] = drain()
    assert slow.content.startswith("Slow down: at most 8 commands in 4 seconds.")


async def test_at_most_three_challenges_per_ten_minutes_per_server(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock, clock: FakeClock
) -> None:
    alice, bob, carol, dave = dpytest.get_config().members
    for target in (bob, carol, dave):
        await dpytest.message(f"!challenge <@{target.id}>", member=alice)
        assert "challenges" in drain()[0].content
        await dpytest.message("!cancel", member=alice)
        drain()
        limiter_clock.advance(11)
        clock.advance(11)
    await dpytest.message(f"!challenge <@{bob.id}>", member=alice)
    [refusal] = drain()
    assert refusal.content == (
        "You can send at most 3 challenges in 10 minutes on this server: try again in 10 minutes."
    )
    assert await service.open_challenge(table_place()) is None
    clock.advance(600)
    await dpytest.message(f"!challenge <@{bob.id}>", member=alice)
    assert " challenges bob" in drain()[0].content


async def test_games_against_the_bot_are_not_counted_as_challenges(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock, clock: FakeClock
) -> None:
    alice, bob, _, _ = dpytest.get_config().members
    place = table_place()
    for _ in range(5):  # the engine is not available here: each start is refused all the same
        await service.challenge(place, user_of(alice), ENGINE_USER, "1")
    for n in range(3):
        await dpytest.message(f"!challenge <@{bob.id}>", member=alice)
        assert " challenges bob" in drain()[0].content, n
        await dpytest.message("!cancel", member=alice)
        drain()
        limiter_clock.advance(11)


async def test_without_attach_files_board_is_refused_and_moves_go_as_text(
    bot: BackgammonBot, service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, _ = await start_match(service)
    channel = dpytest.get_config().channels[0]
    await deny(channel, attach_files=False)
    send = bot.http.send_message

    async def like_discord(channel_id: int, *, params: Any) -> Any:
        channel = bot.get_channel(channel_id)  # noqa: F841 (dpytest reads its caller's `channel`)
        if params.files:  # dpytest uploads anything; Discord refuses without Attach Files
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "no files")
        return await send(channel_id, params=params)

    monkeypatch.setattr(bot.http, "send_message", like_discord)
    before = await service.table(table_place())
    await dpytest.message("!board", member=alice)
    [refusal] = drain()
    assert refusal.content.startswith("I can't run `!board` here: I need the Attach Files ")
    assert "or use `/board`" in refusal.content

    members = {str(alice.id): alice, str(bob.id): bob}
    await next_player_command(service, members)
    [text] = drain()
    assert text.attachments == [] and text.content.endswith(NO_ATTACH)
    after = await service.table(table_place())
    assert before is not None and after is not None and after.row.version > before.row.version
    assert await service.unannounced() == []  # the text told the players


async def test_without_send_messages_nothing_runs_and_the_user_hears_it_privately(
    bot: BackgammonBot, service: TableService
) -> None:
    alice, bob, _ = await start_match(service)
    table = await service.table(table_place())
    channel = dpytest.get_config().channels[0]
    await deny(channel, send_messages=False)
    members = {str(alice.id): alice, str(bob.id): bob}
    await next_player_command(service, members)
    [told] = drain()
    assert isinstance(told.channel, discord.DMChannel)
    assert "I need the Send Messages permission in this channel" in told.content
    after = await service.table(table_place())
    assert table is not None and after is not None and after.row.version == table.row.version
    await next_player_command(service, members)
    assert drain() == []  # told once in a while, not at every command


async def test_a_slash_flood_is_limited_by_the_tree_and_every_interaction_answered(
    service: TableService, settings: Settings, limiter_clock: FakeClock
) -> None:
    bot = BackgammonBot(service, settings, limiter=Limiter(clock=limiter_clock))

    def slash(member: Any, name: str) -> FakeInteraction:
        interaction = FakeInteraction(member)
        interaction.type = discord.InteractionType.application_command  # type: ignore[attr-defined]
        interaction.command = SimpleNamespace(qualified_name=name)
        return interaction

    check = bot.tree.interaction_check
    carol = [slash(CAROL, "board") for _ in range(50)]
    allowed = [await check(interaction) for interaction in carol]  # type: ignore[arg-type]
    assert allowed == [True, True] + [False] * 48
    for interaction in carol[2:]:  # never "This interaction failed": each is told to wait
        [told] = interaction.everything_sent
        assert told["ephemeral"] is True
        assert told["content"] == (
            "Slow down: at most 2 commands in 10 seconds. Try again in 10 seconds."
        )

    place = Place(str(carol[0].guild_id), str(carol[0].channel_id))
    await service.challenge(place, user_of(ALICE), user_of(BOB), "3")
    bot.gate.changed(place)
    alice = [slash(ALICE, "pips") for _ in range(10)]
    allowed = [await check(interaction) for interaction in alice]  # type: ignore[arg-type]
    assert allowed == [True] * 8 + [False] * 2
    for interaction in alice[8:]:
        [told] = interaction.everything_sent
        assert told["ephemeral"] is True and told["content"].startswith("Slow down")

    moderator = [slash(CAROL, "void") for _ in range(20)]
    for interaction in moderator:
        interaction.permissions = discord.Permissions(manage_messages=True)
    assert [await check(i) for i in moderator] == [True] * 20  # type: ignore[arg-type]
    bot.owner_id = CAROL.id
    owner = [slash(CAROL, "sync") for _ in range(20)]
    for interaction in owner:
        interaction.client = bot
    assert [await check(i) for i in owner] == [True] * 20  # type: ignore[arg-type]


async def test_the_players_of_a_match_just_ended_stay_players_for_a_while(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock, clock: FakeClock
) -> None:
    alice, bob, carol, _ = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> 1", member=alice)
    await dpytest.message("!accept", member=bob)
    await dpytest.message("!resign", member=alice)
    await dpytest.message("!accept", member=bob)
    drain()
    assert await service.table(table_place()) is None  # over: alice resigned
    limiter_clock.advance(11)
    for command in ("!stats", "!export", "!leaderboard", "!score", "!rematch"):
        await dpytest.message(command, member=bob)
        assert drain(), command  # answered: five in a row from a player
    for _ in range(5):
        await dpytest.message("!leaderboard", member=carol)
    assert len(drain()) == 2  # a watcher as before
    clock.advance(RECENT_SECONDS + 1)
    limiter_clock.advance(RECENT_SECONDS + 1)
    bot.gate.changed(table_place())
    for _ in range(5):
        await dpytest.message("!leaderboard", member=bob)
    assert len(drain()) == 2  # and then a watcher again


async def test_the_owner_and_moderators_are_never_dropped(
    bot: BackgammonBot, service: TableService, limiter_clock: FakeClock
) -> None:
    alice, _, carol, dave = dpytest.get_config().members
    bot.owner_id = alice.id
    for _ in range(12):
        await dpytest.message("!leaderboard", member=alice)
    assert len(drain()) == 12
    channel = dpytest.get_config().channels[0]
    moderators = dpytest.backend.make_role(
        "moderators", channel.guild, permissions=discord.Permissions(manage_messages=True).value
    )
    await dpytest.add_role(dave, moderators)
    for _ in range(12):
        await dpytest.message("!leaderboard", member=dave)
    assert len(drain()) == 12
    for _ in range(12):
        await dpytest.message("!leaderboard", member=carol)
    assert len(drain()) == 2
