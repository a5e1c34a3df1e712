"""``/move``'s autocomplete and button presses answered through the interaction itself, as
Discord sends them to a real bot (:mod:`tests.cogs.wire`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.cogs import presses
from bot.cogs.table import TableCog
from bot.service.models import Decision, Place
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, Person, Sent, Wire, start

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
PEOPLE = {str(person.id): person for person in (ALICE, BOB)}
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE, BOB, CAROL)
    yield wire
    await wire.close()


async def started(wire: Wire) -> Sent:
    """alice challenges bob, bob accepts; returns the challenge as it was seen."""
    [challenge] = await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    seen = challenge.as_seen()
    await wire.type(BOB, "!accept")
    return seen


async def whose_turn(wire: Wire) -> Person:
    table = await wire.bot.service.table(PLACE)
    assert table is not None and table.match.turn is not None
    return PEOPLE[table.row.player_ids[table.match.turn]]


async def to_roll_question(wire: Wire) -> tuple[Person, Sent]:
    """Typed moves until someone is asked to roll or double; who is asked, and the message."""
    service = wire.bot.service
    while (pending := await service.pending_decision(PLACE)) is None:
        table = await service.table(PLACE)
        assert table is not None
        mover = await whose_turn(wire)
        await wire.type(mover, f"!move {table.match.legal_plays()[0].notation}")
    assert pending.decision is Decision.TURN
    asked = wire.last()
    assert asked.custom_ids
    return PEOPLE[pending.user_id], asked


async def autocomplete(wire: Wire, user: Person, current: str) -> list[str]:
    """What Discord shows ``user`` typing ``current`` in /move's play."""
    choices = await wire.autocomplete(user, "move", "play", current)
    assert all(choice["name"] == choice["value"] for choice in choices)  # sent exactly as shown
    return [choice["value"] for choice in choices]


def only_buttons_removed(responses: list[dict[str, Any]]) -> None:
    """The responses are one update of the pressed message taking its buttons, nothing else."""
    [response] = responses
    assert response["type"] == 7  # the pressed message, updated
    assert response["data"]["components"] == []
    assert not {"content", "embeds", "attachments"} & set(response["data"])


def roll_button(message: Sent) -> str:
    [custom_id] = [c for c in message.custom_ids if c.split(":")[1] == "roll"]
    return custom_id


# -- autocomplete -------------------------------------------------------------------------------


async def test_the_mover_gets_the_legal_plays_and_a_choice_is_accepted(wire: Wire) -> None:
    await started(wire)
    mover = await whose_turn(wire)
    table = await wire.bot.service.table(PLACE)
    assert table is not None
    legal = [play.notation for play in table.match.legal_plays()]
    offered = await autocomplete(wire, mover, "")
    assert offered == legal[:25] and offered
    choice = offered[-1]
    [sent] = await wire.slash(mover, "move", play=choice)
    assert not sent.ephemeral, sent.content
    assert choice in sent.content


async def test_the_choices_are_filtered_by_what_was_typed(wire: Wire) -> None:
    await started(wire)
    mover = await whose_turn(wire)
    table = await wire.bot.service.table(PLACE)
    assert table is not None
    first = table.match.legal_plays()[0].notation.split()[0]
    start_point = first.split("/")[0]
    offered = await autocomplete(wire, mover, f"{start_point}/")
    assert offered and all(f"{start_point}/" in play for play in offered)


async def test_other_players_and_watchers_get_nothing(wire: Wire) -> None:
    await started(wire)
    mover = await whose_turn(wire)
    other = BOB if mover == ALICE else ALICE
    assert await autocomplete(wire, other, "") == []
    assert await autocomplete(wire, CAROL, "") == []


async def test_nothing_is_offered_where_no_move_is_due(wire: Wire) -> None:
    assert await autocomplete(wire, ALICE, "13/") == []  # no match here
    await started(wire)
    asked, _ = await to_roll_question(wire)
    assert await autocomplete(wire, asked, "") == []  # to roll, not to move


async def test_the_autocomplete_does_not_wait_for_the_channels_lock(wire: Wire) -> None:
    await started(wire)
    mover = await whose_turn(wire)
    async with wire.bot.service.locks.held(PLACE):  # a command of the channel, still running
        offered = await asyncio.wait_for(autocomplete(wire, mover, ""), timeout=1)
    assert offered


def test_move_is_the_command_whose_play_autocompletes() -> None:
    app = TableCog.move.app_command
    assert app is not None
    options = {p.name: p for p in app.parameters}
    assert options["play"].autocomplete


# -- presses answered through the interaction -----------------------------------------------


async def test_a_press_updates_the_pressed_message_then_follows_up_with_the_board(
    wire: Wire,
) -> None:
    await started(wire)
    roller, asked = await to_roll_question(wire)
    before = len(wire.responses)
    sent = await wire.press(roller, asked, roll_button(asked))
    # its buttons go, in the response itself (not deferred, no later edit of it)
    only_buttons_removed(wire.responses[before:])
    assert asked.custom_ids == [] and wire.original_edits == []
    [board] = sent
    assert board.via == "followup" and "rolls" in board.content
    assert board.attachments == ["board.png"]


async def test_the_wrong_player_is_answered_in_the_response_and_the_buttons_stay(
    wire: Wire,
) -> None:
    await started(wire)
    roller, asked = await to_roll_question(wire)
    other = BOB if roller == ALICE else ALICE
    before = len(wire.responses)
    [refusal] = await wire.press(other, asked, roll_button(asked))
    assert refusal.via == "response"  # the response itself, no followup
    assert refusal.ephemeral is True and refusal.content.startswith("Not your decision")
    assert [response["type"] for response in wire.responses[before:]] == [4]  # no update
    assert asked.custom_ids


async def test_a_stale_press_loses_its_buttons_and_is_told(wire: Wire) -> None:
    challenge = await started(wire)  # as a screen that missed the edit removing its buttons
    accept = next(c for c in challenge.custom_ids if c.split(":")[1] == "accept")
    before = len(wire.responses)
    [told] = await wire.press(BOB, challenge, accept)
    only_buttons_removed(wire.responses[before:])
    assert told.via == "followup" and told.ephemeral is True and "out of date" in told.content


async def test_a_slow_press_is_deferred_then_its_message_edited(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presses, "DEFER_AFTER", 0)
    await started(wire)
    roller, asked = await to_roll_question(wire)
    before = len(wire.responses)
    sent = await wire.press(roller, asked, roll_button(asked))
    assert wire.responses[before:] == [{"type": 6}]  # deferred, the message not yet updated
    [edit] = wire.original_edits  # then its buttons go by an edit of the @original
    assert edit["components"] == [] and "content" not in edit
    assert asked.custom_ids == []
    assert [message.content for message in sent if "rolls" in message.content]
