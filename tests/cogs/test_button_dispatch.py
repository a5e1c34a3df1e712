"""Button presses through discord.py's own dispatch, on every kind of message that has buttons.

discord.py stores the view sent with a slash command's response under that message's id, and a
press then goes to the stored view first: these tests send and press through the real library
(only HTTP is faked, in :mod:`tests.cogs.wire`), so such a trap shows as an unanswered press.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cogs import sending
from bot.discord_bot import BackgammonBot
from bot.i18n.core import ENGLISH
from bot.i18n.play import OUT_OF_DATE, OUT_OF_DATE_CHALLENGE
from bot.service.models import Decision, Pending, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, SEED, Person, Sent, Wire

PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
PEOPLE = {str(person.id): person for person in (ALICE, BOB, CAROL)}

STALE, STALE_CHALLENGE = OUT_OF_DATE(ENGLISH), OUT_OF_DATE_CHALLENGE(ENGLISH)


async def open_bot(path: Path, settings: Settings) -> tuple[Wire, Store]:
    store = await Store.open(path)
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), images=False)
    bot = BackgammonBot(service, settings)
    await bot._async_setup_hook()
    await bot.setup_hook()
    wire = Wire(bot)
    wire.join(ALICE, BOB, CAROL)
    return wire, store


@pytest.fixture
async def wire(tmp_path: Path, settings: Settings) -> AsyncIterator[Wire]:
    wire, store = await open_bot(tmp_path / "wire.sqlite3", settings)
    yield wire
    wire.bot.service.close()
    await store.close()


async def pending(wire: Wire) -> Pending:
    question = await wire.bot.service.pending_decision(PLACE)
    assert question is not None
    return question


def with_buttons(sent: list[Sent]) -> Sent:
    [message] = [message for message in sent if message.custom_ids]
    return message


def button(message: Sent, action: str) -> str:
    [custom_id] = [c for c in message.custom_ids if c.split(":")[1] == action]
    return custom_id


def answered_publicly(sent: list[Sent]) -> None:
    assert sent, "the press was not answered"
    assert not any(message.ephemeral for message in sent), [m.content for m in sent]


async def challenge(wire: Wire) -> Sent:
    """alice challenges bob by a typed command: the reply to a prefix command."""
    return with_buttons(await wire.type(ALICE, f"!challenge <@{BOB.id}> 3"))


async def to_turn(wire: Wire) -> Sent:
    """Play on (typed moves) until a message asks someone to roll or double; returns it."""
    service = wire.bot.service
    while True:
        question = await service.pending_decision(PLACE)
        if question is not None:
            assert question.decision is Decision.TURN
            return wire.last()
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        mover = PEOPLE[table.row.player_ids[table.match.turn]]
        await wire.type(mover, f"!move {table.match.legal_plays()[0].notation}")


async def started(wire: Wire) -> Sent:
    message = await challenge(wire)
    answered_publicly(await wire.press(BOB, message, button(message, "accept")))
    turn = await to_turn(wire)
    assert turn.custom_ids
    return turn


async def test_a_reply_to_a_prefix_command(wire: Wire) -> None:
    message = await challenge(wire)
    assert message.via == "channel"
    key = (await pending(wire)).key
    assert message.custom_ids == [f"bg:accept:{key}", f"bg:decline:{key}"]
    sent = await wire.press(BOB, message, f"bg:accept:{key}")
    answered_publicly(sent)
    # The response updates the pressed message: the answered question loses its buttons.
    assert wire.responses[-1]["type"] == 7
    assert wire.responses[-1]["data"]["components"] == []
    assert message.custom_ids == []
    assert [m.via for m in sent] == ["followup"]  # the new board
    assert await wire.bot.service.table(PLACE) is not None


async def test_the_response_to_a_slash_command(wire: Wire) -> None:
    turn = await started(wire)
    roller = PEOPLE[(await pending(wire)).user_id]
    [asked] = await wire.slash(roller, "double")
    assert asked.via == "response" and asked.custom_ids  # take / drop on the response itself
    taker = PEOPLE[(await pending(wire)).user_id]
    answered_publicly(await wire.press(taker, asked, button(asked, "take")))
    assert (await wire.bot.service.table(PLACE)) is not None
    assert turn.custom_ids == []  # the older question's buttons went when it was answered


async def test_the_followup_of_a_deferred_slash_command(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(wire)
    monkeypatch.setattr(sending, "DEFER_AFTER", 0)
    roller = PEOPLE[(await pending(wire)).user_id]
    [asked] = await wire.slash(roller, "double")
    assert asked.via == "followup" and asked.custom_ids
    assert wire.responses[-1] == {"type": 5}  # deferred with "thinking..."
    taker = PEOPLE[(await pending(wire)).user_id]
    answered_publicly(await wire.press(taker, asked, button(asked, "drop")))


async def test_the_followup_of_a_press(wire: Wire) -> None:
    turn = await started(wire)
    roller = PEOPLE[(await pending(wire)).user_id]
    asked = with_buttons(await wire.press(roller, turn, button(turn, "double")))
    assert asked.via == "followup"
    taker = PEOPLE[(await pending(wire)).user_id]
    answered_publicly(await wire.press(taker, asked, button(asked, "take")))
    assert asked.custom_ids == []


async def test_a_message_from_before_a_restart(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "restart.sqlite3"
    first, store = await open_bot(path, settings)
    message = await challenge(first)
    first.bot.service.close()
    await store.close()

    second, store = await open_bot(path, settings)  # a new process: nothing in memory
    try:
        sent = await second.press(BOB, message, button(message, "accept"))
        answered_publicly(sent)
        table = await second.bot.service.table(PLACE)
        assert table is not None and table.names == ("alice", "bob")
    finally:
        second.bot.service.close()
        await store.close()


async def test_an_old_challenges_accept_is_out_of_date(wire: Wire) -> None:
    old = await challenge(wire)
    seen = old.as_seen()  # a screen that missed the edit removing the buttons
    await wire.type(ALICE, "!cancel")
    newer = with_buttons(await wire.type(ALICE, f"!challenge <@{BOB.id}> money"))
    [refusal] = await wire.press(BOB, seen, button(seen, "accept"))
    assert refusal.ephemeral and refusal.content == STALE_CHALLENGE
    assert await wire.bot.service.table(PLACE) is None
    assert newer.custom_ids  # still open, with its own buttons


async def test_an_old_turns_roll_is_out_of_date(wire: Wire) -> None:
    turn = (await started(wire)).as_seen()
    roller = PEOPLE[(await pending(wire)).user_id]
    await wire.slash(roller, "roll")
    await to_turn(wire)
    while (await pending(wire)).user_id != str(roller.id):
        other = PEOPLE[(await pending(wire)).user_id]
        await wire.type(other, "!roll")
        await to_turn(wire)
    before = await pending(wire)
    [refusal] = await wire.press(roller, turn, button(turn, "roll"))
    assert refusal.ephemeral and refusal.content == STALE
    assert await pending(wire) == before


async def test_the_wrong_player_is_told_and_the_buttons_stay(wire: Wire) -> None:
    message = await challenge(wire)
    [refusal] = await wire.press(CAROL, message, button(message, "accept"))
    assert refusal.ephemeral and refusal.content == "Not your decision: waiting for bob."
    assert message.custom_ids  # still there for bob


async def test_a_button_of_the_old_format_is_answered(wire: Wire) -> None:
    message = await challenge(wire)
    row = message.data["components"][0]["components"]
    row[0]["custom_id"] = "bg:challenge:accept"  # as sent before the ids carried a key
    [refusal] = await wire.press(BOB, message, "bg:challenge:accept")
    assert refusal.ephemeral and refusal.content == STALE
    assert await wire.bot.service.table(PLACE) is None


async def test_a_failing_press_gets_an_apology(
    wire: Wire, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    message = await challenge(wire)

    async def broken(place: Place) -> None:
        raise RuntimeError("store gone")

    monkeypatch.setattr(wire.bot.service.views, "pending_decision", broken)
    [apology] = await wire.press(BOB, message, button(message, "accept"))
    assert apology.ephemeral and apology.content.startswith("Sorry, something went wrong (error ")
    assert any(record.exc_info for record in caplog.records)


def test_people_have_snowflake_ids() -> None:
    # Mentions resolve only for ids of 15 to 20 digits, as Discord's are.
    assert all(15 <= len(str(person.id)) <= 20 for person in PEOPLE.values())
    assert User(str(ALICE.id), ALICE.name).id in PEOPLE


async def test_a_non_player_pressing_again_and_again_is_told_to_slow_down(wire: Wire) -> None:
    message = await challenge(wire)
    answers = []
    for _ in range(20):
        answers += await wire.press(CAROL, message, button(message, "accept"))
    assert len(answers) == 20  # every press answered (else "This interaction failed")
    assert all(answer.ephemeral for answer in answers)
    slowed = [answer for answer in answers if answer.content.startswith("Slow down")]
    assert len(slowed) >= 18  # past the watcher's rate: told how long to wait, for them alone
    [started] = [m for m in await wire.press(BOB, message, button(message, "accept"))]
    assert "bob accepts" in started.content  # the challenged player is not held up
