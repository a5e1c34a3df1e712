"""Rate limits and the bot's permissions, before any command runs (:mod:`tests.cogs.wire`, a
fake clock): typed commands, slash commands, the channel's permissions and direct messages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.i18n.posting import NO_ATTACH_BOARD
from bot.service.commands.limits import RECENT_SECONDS, Limiter
from bot.service.models import ENGINE_USER, Place, User
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, OPEN_DM, SEND, Person, Sent, Wire, start
from tests.service.driver import FakeClock

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
DAVE = Person(300000000000000004, "dave")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
PLAYERS = {str(person.id): person for person in (ALICE, BOB)}


def user(person: Person) -> User:
    return User(str(person.id), person.name)


@pytest.fixture
def limiter_clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
async def wire(
    service: TableService, settings: Settings, limiter_clock: FakeClock
) -> AsyncIterator[Wire]:
    limiter = Limiter(clock=limiter_clock)
    wire = await start(service, settings, ALICE, BOB, CAROL, DAVE, limiter=limiter)
    yield wire
    await wire.close()


def is_board(message: Sent) -> bool:
    return message.attachments == ["board.png"]


async def start_match(wire: Wire) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    await wire.type(BOB, "!accept")


async def next_player_command(wire: Wire, service: TableService) -> list[Sent]:
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    member = PLAYERS[table.row.player_ids[table.match.turn]]
    if table.match.phase == "move":
        return await wire.type(member, f"!move {table.match.legal_plays()[0].notation}")
    return await wire.type(member, "!roll")


async def test_a_flood_from_a_non_player_gets_two_replies_and_the_players_all_theirs(
    wire: Wire, service: TableService, limiter_clock: FakeClock
) -> None:
    await start_match(wire)
    spam_replies: list[Sent] = []
    player_replies: list[list[Sent]] = []
    for n in range(100):  # 100 commands in 0.3 s, half of them asking for a board image
        spam_replies += await wire.type(CAROL, "!board" if n % 2 else "!roll")
        limiter_clock.advance(0.003)
        if n % 10 == 9:
            player_replies.append(await next_player_command(wire, service))
    assert len(spam_replies) <= 2
    assert len(player_replies) == 10
    assert all(len(sent) == 1 and is_board(sent[0]) for sent in player_replies)

    limiter_clock.advance(10)  # then carol is answered again
    [pips] = await wire.type(CAROL, "!pips")
    assert pips.content.startswith("Pips:")


async def test_a_player_playing_fast_is_never_refused(
    wire: Wire, service: TableService, limiter_clock: FakeClock
) -> None:
    await start_match(wire)
    for _ in range(40):  # a move every half second
        [sent] = await next_player_command(wire, service)
        assert is_board(sent)
        limiter_clock.advance(0.5)


async def test_a_player_past_the_limit_is_told_once(wire: Wire, limiter_clock: FakeClock) -> None:
    await start_match(wire)
    answered = [message for _ in range(8) for message in await wire.type(ALICE, "!pips")]
    assert len(answered) == 8
    [slow] = [message for _ in range(5) for message in await wire.type(ALICE, "!pips")]
    assert slow.content.startswith("Slow down: at most 8 commands in 4 seconds.")


async def test_at_most_three_challenges_per_ten_minutes_per_server(
    wire: Wire, service: TableService, limiter_clock: FakeClock, clock: FakeClock
) -> None:
    for target in (BOB, CAROL, DAVE):
        assert "challenges" in (await wire.type(ALICE, f"!challenge <@{target.id}>"))[0].content
        await wire.type(ALICE, "!cancel")
        limiter_clock.advance(11)
        clock.advance(11)
    [refusal] = await wire.type(ALICE, f"!challenge <@{BOB.id}>")
    assert refusal.content == (
        "You can send at most 3 challenges in 10 minutes on this server: try again in 10 minutes."
    )
    assert await service.open_challenge(PLACE) is None
    clock.advance(600)
    assert " challenges bob" in (await wire.type(ALICE, f"!challenge <@{BOB.id}>"))[0].content


async def test_games_against_the_bot_are_not_counted_as_challenges(
    wire: Wire, service: TableService, limiter_clock: FakeClock, clock: FakeClock
) -> None:
    for _ in range(5):  # the engine is not available here: each start is refused all the same
        await service.matches.challenge(PLACE, user(ALICE), ENGINE_USER, "1")
    for n in range(3):
        said = await wire.type(ALICE, f"!challenge <@{BOB.id}>")
        assert " challenges bob" in said[0].content, n
        await wire.type(ALICE, "!cancel")
        limiter_clock.advance(11)


async def test_without_attach_files_board_is_refused_and_moves_go_as_text(
    wire: Wire, service: TableService
) -> None:
    await start_match(wire)
    wire.deny(wire.channel, attach_files=False)  # Discord then refuses any upload here (403)
    before = await service.table(PLACE)
    [refusal] = await wire.type(ALICE, "!board")
    assert refusal.content.startswith("I can't run `!board` here: I need the Attach Files ")
    assert "or use `/board`" in refusal.content

    [text] = await next_player_command(wire, service)
    assert text.attachments == [] and text.content.endswith(NO_ATTACH_BOARD("en"))
    assert [call.status for call in wire.calls_of(SEND)[-2:]] == [403, 200]  # tried, refused
    after = await service.table(PLACE)
    assert before is not None and after is not None and after.row.version > before.row.version
    assert await service.unannounced() == []  # the text told the players


async def test_without_send_messages_nothing_runs_and_the_user_hears_it_privately(
    wire: Wire, service: TableService
) -> None:
    await start_match(wire)
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    mover = PLAYERS[table.row.player_ids[table.match.turn]]
    wire.deny(wire.channel, send_messages=False)
    [told] = await next_player_command(wire, service)
    [dm] = wire.calls_of(OPEN_DM)
    assert int(dm.json["recipient_id"]) == mover.id  # a direct message to them
    assert told.channel_id != CHANNEL_ID
    assert "I need the Send Messages permission in this channel" in told.content
    after = await service.table(PLACE)
    assert after is not None and after.row.version == table.row.version
    assert await next_player_command(wire, service) == []  # told once in a while, not each time


async def test_a_slash_flood_is_limited_by_the_tree_and_every_interaction_answered(
    wire: Wire, service: TableService
) -> None:
    slow = "Slow down: at most 2 commands in 10 seconds. Try again in 10 seconds."
    carol = [await wire.slash(CAROL, "board") for _ in range(50)]
    assert all(len(sent) == 1 for sent in carol)  # never "This interaction failed"
    allowed = [sent[0].content != slow for sent in carol]
    assert allowed == [True, True] + [False] * 48
    for [told] in carol[2:]:  # each is told to wait, for them alone
        assert told.ephemeral is True and told.via == "response"
        assert told.content == slow

    await service.matches.challenge(PLACE, user(ALICE), user(BOB), "3")
    wire.bot.gate.changed(PLACE)
    alice = [await wire.slash(ALICE, "pips") for _ in range(10)]
    assert all(len(sent) == 1 for sent in alice)
    allowed = [not sent[0].content.startswith("Slow down") for sent in alice]
    assert allowed == [True] * 8 + [False] * 2
    for [told] in alice[8:]:
        assert told.ephemeral is True and told.content.startswith("Slow down")

    moderator = replace(CAROL, moderator=True)  # Manage Messages in the channel
    wire.join(moderator)
    voids = [await wire.slash(moderator, "void") for _ in range(20)]
    assert all(len(sent) == 1 for sent in voids)
    assert not [sent for sent in voids if sent[0].content.startswith("Slow down")]
    wire.join(CAROL)  # no longer a moderator
    wire.bot.owner_id = CAROL.id
    # (``sync``, the owner's command, is typed only: any slash command of the owner's shows it)
    owned = [await wire.slash(CAROL, "leaderboard") for _ in range(20)]
    assert all(len(sent) == 1 for sent in owned)
    assert not [sent for sent in owned if sent[0].content.startswith("Slow down")]


async def test_the_players_of_a_match_just_ended_stay_players_for_a_while(
    wire: Wire, service: TableService, limiter_clock: FakeClock, clock: FakeClock
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 1")
    await wire.type(BOB, "!accept")
    await wire.type(ALICE, "!resign")
    await wire.type(BOB, "!accept")
    assert await service.table(PLACE) is None  # over: alice resigned
    limiter_clock.advance(11)
    for command in ("!stats", "!export", "!leaderboard", "!score", "!rematch"):
        assert await wire.type(BOB, command), command  # answered: five in a row from a player
    watched = [message for _ in range(5) for message in await wire.type(CAROL, "!leaderboard")]
    assert len(watched) == 2  # a watcher as before
    clock.advance(RECENT_SECONDS + 1)
    limiter_clock.advance(RECENT_SECONDS + 1)
    wire.bot.gate.changed(PLACE)
    again = [message for _ in range(5) for message in await wire.type(BOB, "!leaderboard")]
    assert len(again) == 2  # and then a watcher again


async def test_the_owner_and_moderators_are_never_dropped(
    wire: Wire, limiter_clock: FakeClock
) -> None:
    wire.bot.owner_id = ALICE.id
    owned = [message for _ in range(12) for message in await wire.type(ALICE, "!leaderboard")]
    assert len(owned) == 12
    moderator = replace(DAVE, moderator=True)  # given the role that may Manage Messages
    wire.join(moderator)
    moderated = [m for _ in range(12) for m in await wire.type(moderator, "!leaderboard")]
    assert len(moderated) == 12
    watched = [message for _ in range(12) for message in await wire.type(CAROL, "!leaderboard")]
    assert len(watched) == 2
