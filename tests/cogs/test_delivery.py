"""Replies that can't go out as asked: text without the board, one retry, a re-post at start.

Through :mod:`tests.cogs.wire`: the bot's own channel ``send`` and Discord's refusals of it."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Mapping

import pytest

from bot.cogs.replies import LiveButtons
from bot.cogs.sending import MESSAGE_LIMIT, deliver
from bot.discord_bot import REPOSTED
from bot.i18n.core import ENGLISH, LANGUAGES, Language
from bot.i18n.posting import NO_ATTACH_BOARD, TOO_LARGE_BOARD
from bot.service.models import Decision, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, SEED, SEND, Person, Wire, start

BOARD = Reply("alice rolls 6-5.", image=b"\x89PNG...", announces=(1, 2))
ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def service(store: Store, settings: Settings) -> AsyncIterator[TableService]:
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    yield service
    service.close()


@contextlib.asynccontextmanager
async def restarted(store: Store, settings: Settings) -> AsyncIterator[tuple[Wire, TableService]]:
    """The bot started again: a new service on the same database, on a wire of its own."""
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    wire = await start(service, settings, ALICE, BOB)
    try:
        yield wire, service
    finally:
        await wire.close()
        service.close()


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE, BOB)
    yield wire
    await wire.close()


@pytest.mark.parametrize(
    ("status", "note"), [(403, NO_ATTACH_BOARD("en")), (413, TOO_LARGE_BOARD("en"))]
)
async def test_a_refused_upload_goes_again_as_text(wire: Wire, status: int, note: str) -> None:
    wire.refuse(SEND, status)
    assert await deliver(wire.channel.send, BOARD) is not None
    first, second = wire.calls_of(SEND)
    assert first.files and not second.files
    assert second.json["content"] == f"{BOARD.text}\n{note}"
    assert wire.last().content == f"{BOARD.text}\n{note}" and wire.last().attachments == []


async def test_a_long_reply_goes_in_messages_in_order_the_board_buttons_and_ping_on_the_last(
    wire: Wire,
) -> None:
    # A long run of automatic turns (a closed-out player who can't move, turn after turn).
    lines = [f"Turn {n}: alice rolls 6-5 and can't move; bob rolls 3-1." for n in range(90)]
    text = "\n".join([*lines, "Match over: bob wins 1-0."])
    reply = Reply(
        text,
        image=b"\x89PNG...",
        mention=(str(BOB.id),),
        decision=Decision.REMATCH,
        decision_for=str(BOB.id),
        decision_key=None,
    )
    assert len(text) > MESSAGE_LIMIT
    assert await deliver(wire.channel.send, reply) is not None
    calls = wire.calls_of(SEND)
    assert len(calls) >= 2
    contents = [call.json["content"] for call in calls]
    assert all(len(content) <= MESSAGE_LIMIT for content in contents)
    lead = f"<@{BOB.id}> "
    assert contents[-1].startswith(lead)
    said = "\n".join([*contents[:-1], contents[-1].removeprefix(lead)])
    assert said == text  # nothing lost, nothing cut mid-line, in order
    assert contents[-1].endswith("Match over: bob wins 1-0.")
    assert [bool(call.files) for call in calls] == [False] * (len(calls) - 1) + [True]
    assert all(not call.json["allowed_mentions"].get("users") for call in calls[:-1])
    assert calls[-1].json["allowed_mentions"]["users"] == [BOB.id]


async def test_without_attach_files_the_text_goes_at_once(wire: Wire) -> None:
    assert await deliver(wire.channel.send, BOARD, attach=False) is not None
    [only] = wire.calls_of(SEND)
    assert not only.files and only.json["content"].endswith(NO_ATTACH_BOARD("en"))


async def test_a_server_error_is_tried_once_more_with_fresh_files(wire: Wire) -> None:
    wire.refuse(SEND, 502)
    assert await deliver(wire.channel.send, BOARD) is not None
    first, second = wire.calls_of(SEND)
    assert first.files[0] is not second.files[0]  # a used file can't be sent again
    assert second.blobs == [("board.png", BOARD.image)]
    assert wire.last().blobs == {"board.png": BOARD.image}


async def test_a_reply_that_keeps_failing_is_logged_not_raised(
    wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    wire.refuse(SEND, 500, 500, 500)
    with caplog.at_level(logging.WARNING):
        assert await deliver(wire.channel.send, BOARD) is None
    assert len(wire.calls_of(SEND)) == 2
    assert any("Could not send a reply (500" in message for message in caplog.messages)


async def test_a_text_refused_is_not_retried(wire: Wire) -> None:
    wire.refuse(SEND, 403)
    assert await deliver(wire.channel.send, Reply("Pips: ...")) is None
    assert len(wire.calls_of(SEND)) == 1


class Announced:
    def __init__(self) -> None:
        self.marked: list[tuple[int, int]] = []

    async def pending_decision(self, place: Place) -> None:
        return None

    async def mark_all_announced(
        self, shown: Mapping[int, int], messages: Mapping[int, str] | None = None
    ) -> None:
        self.marked += shown.items()


async def test_a_sent_status_is_marked_announced_a_failed_one_not(wire: Wire) -> None:
    service = Announced()
    live = LiveButtons(service)  # type: ignore[arg-type]
    later = Reply("bob moves.", announces=(1, 3))
    other = Reply("carol rolls.", announces=(2, 9))
    sent = [(BOARD, await wire.post()), (later, await wire.post()), (other, None)]
    await live.update(PLACE, sent)
    assert service.marked == [(1, 3)]


async def test_live_buttons_keep_the_most_recent_channels_only(wire: Wire) -> None:
    live = LiveButtons(Announced(), kept=3)  # type: ignore[arg-type]
    places = [Place("g", str(n)) for n in range(5)]
    for place in places:
        asked = Reply("?", decision=Decision.TURN, decision_for="1")
        await live.update(place, [(asked, await wire.post("?"))])
    assert live.size == 3
    assert live.message_id(places[0]) is None and live.message_id(places[1]) is None
    assert all(live.message_id(place) is not None for place in places[2:])


async def test_the_live_buttons_are_bounded_by_default(wire: Wire) -> None:
    live = LiveButtons(Announced())  # type: ignore[arg-type]
    asked = Reply("?", decision=Decision.TURN, decision_for="1")
    message = await wire.post("?")  # the same message each time: only the places count
    for n in range(10_001):
        await live.update(Place("g", str(n)), [(asked, message)])
    assert live.size == 10_000


# -- re-posting after a restart ----------------------------------------------------------------


async def test_a_match_whose_message_failed_is_re_posted_once_at_start(
    wire: Wire, service: TableService, store: Store, settings: Settings
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 1")
    await wire.type(BOB, "!accept")
    assert await service.unannounced() == []

    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    mover = {str(ALICE.id): ALICE, str(BOB.id): BOB}[table.row.player_ids[table.match.turn]]
    command = (
        f"!move {table.match.legal_plays()[0].notation}" if table.match.phase == "move" else "!roll"
    )
    wire.refuse(SEND, *[503] * 20)  # Discord down for a while
    assert await wire.type(mover, command) == []  # done, but nobody hears of it
    assert wire.calls_of(SEND)[-1].status == 503
    wire.allow()
    assert await service.unannounced() == []  # while it runs, the reply may be on its way

    async with restarted(store, settings) as (again, later):  # the next start
        [(place, match_id, version)] = await later.unannounced()
        assert (place, match_id) == (PLACE, table.row.id) and version > table.row.version
        [message] = await again.run(again.bot.on_ready())
        assert REPOSTED in message.content
        assert await later.unannounced() == []
        assert await again.run(again.bot.on_ready()) == []  # a reconnect re-posts nothing


async def test_a_match_played_while_the_bot_connects_is_not_re_posted(
    wire: Wire, service: TableService
) -> None:
    """Players may play before the bot's on_ready (it waits for the servers): their replies
    announce the match, so the start's re-post leaves it alone."""
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 1")
    wire.refuse(SEND, *[503] * 20)  # the reply is still on its way
    assert await wire.type(BOB, "!accept") == []
    wire.allow()
    assert await wire.run(wire.bot.on_ready()) == []


async def test_the_re_post_says_so_and_keeps_the_buttons(
    service: TableService, store: Store, settings: Settings
) -> None:
    alice, bob = User(str(ALICE.id), "alice"), User(str(BOB.id), "bob")
    await service.matches.challenge(PLACE, alice, bob, "1")
    await service.matches.accept(PLACE, bob)  # as if the bot stopped right here
    async with restarted(store, settings) as (wire, later):
        reposted, sent = await wire.outcome(wire.bot.repost_unannounced())
        assert reposted == 1
        [message] = sent
        table = await later.table(PLACE)
        assert table is not None and table.match.turn is not None
        mover = table.row.player_ids[table.match.turn]
        assert message.content.startswith(f"<@{mover}> {REPOSTED} ")
        if await later.pending_decision(PLACE) is not None:  # a roll to make: buttons again
            assert message.custom_ids
        assert await later.unannounced() == []


async def test_matches_of_other_shards_are_left_to_them(
    service: TableService, store: Store, settings: Settings
) -> None:
    elsewhere = Place("123456789", "987654321")  # a server this process does not see
    await service.matches.challenge(elsewhere, User("1", "a"), User("2", "b"), "1")
    await service.matches.accept(elsewhere, User("2", "b"))
    async with restarted(store, settings) as (wire, later):
        reposted, sent = await wire.outcome(wire.bot.repost_unannounced())
        assert reposted == 0 and sent == []
        assert len(await later.unannounced()) == 1


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_note_of_a_board_left_out_speaks_the_replys_language(
    wire: Wire, language: Language
) -> None:
    reply = dataclasses.replace(BOARD, language=language)
    assert await deliver(wire.channel.send, reply, attach=False) is not None
    wire.refuse(SEND, 413)
    assert await deliver(wire.channel.send, reply) is not None
    notes = [call.json["content"].removeprefix(f"{BOARD.text}\n") for call in wire.calls_of(SEND)]
    assert notes[0] == NO_ATTACH_BOARD(language) and notes[-1] == TOO_LARGE_BOARD(language)
    assert (notes[0] == NO_ATTACH_BOARD(ENGLISH)) is (language == ENGLISH)
