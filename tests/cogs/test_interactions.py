"""``/move``'s autocomplete and button presses answered through the interaction itself."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord import app_commands

from bot.cogs import presses
from bot.cogs.presses import ButtonPresses
from bot.cogs.replies import LiveButtons
from bot.cogs.table import TableCog
from bot.service.models import Decision
from bot.service.table import TableService
from tests.cogs.fakes import ALICE, BOB, CAROL, PLACE, FakeCtx, FakeInteraction, FakeMember

PEOPLE = {str(person.id): person for person in (ALICE, BOB)}


@pytest.fixture
def cog(service: TableService) -> TableCog:
    return TableCog(service, LiveButtons(service))


async def started(cog: TableCog) -> None:
    await TableCog.challenge.callback(cog, FakeCtx(ALICE), BOB, length="3")  # type: ignore[arg-type]
    await TableCog.accept.callback(cog, FakeCtx(BOB))  # type: ignore[arg-type]


async def whose_turn(service: TableService) -> FakeMember:
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    return PEOPLE[table.row.player_ids[table.match.turn]]


async def to_roll_question(cog: TableCog) -> FakeMember:
    """Typed moves until someone is asked to roll or double; returns who is asked."""
    service = cog.service
    while (pending := await service.pending_decision(PLACE)) is None:
        table = await service.table(PLACE)
        assert table is not None
        mover = await whose_turn(service)
        await TableCog.move.callback(  # type: ignore[arg-type]
            cog, FakeCtx(mover), play=table.match.legal_plays()[0].notation
        )
    assert pending.decision is Decision.TURN
    return PEOPLE[pending.user_id]


def move_autocomplete(cog: TableCog) -> Any:
    [parameter] = [p for p in TableCog.move.app_command.parameters if p.name == "play"]
    return parameter._Parameter__parent.autocomplete  # type: ignore[attr-defined]


async def autocomplete(cog: TableCog, user: FakeMember, current: str) -> list[str]:
    """What discord.py's tree would answer: the autocomplete of /move's play, bound to the cog."""
    interaction = FakeInteraction(user)
    choices: list[app_commands.Choice[str]] = await move_autocomplete(cog)(
        cog, interaction, current
    )
    assert all(choice.name == choice.value for choice in choices)  # sent exactly as shown
    return [choice.value for choice in choices]


# -- autocomplete -------------------------------------------------------------------------------


async def test_the_mover_gets_the_legal_plays_and_a_choice_is_accepted(cog: TableCog) -> None:
    await started(cog)
    mover = await whose_turn(cog.service)
    table = await cog.service.table(PLACE)
    assert table is not None
    legal = [play.notation for play in table.match.legal_plays()]
    offered = await autocomplete(cog, mover, "")
    assert offered == legal[:25] and offered
    choice = offered[-1]
    ctx = FakeCtx(mover)
    await TableCog.move.callback(cog, ctx, play=choice)  # type: ignore[arg-type]
    [sent] = ctx.sent
    assert not sent.get("ephemeral"), sent["content"]
    assert choice in sent["content"]


async def test_the_choices_are_filtered_by_what_was_typed(cog: TableCog) -> None:
    await started(cog)
    mover = await whose_turn(cog.service)
    table = await cog.service.table(PLACE)
    assert table is not None
    first = table.match.legal_plays()[0].notation.split()[0]
    start = first.split("/")[0]
    offered = await autocomplete(cog, mover, f"{start}/")
    assert offered and all(f"{start}/" in play for play in offered)


async def test_other_players_and_watchers_get_nothing(cog: TableCog) -> None:
    await started(cog)
    mover = await whose_turn(cog.service)
    other = BOB if mover == ALICE else ALICE
    assert await autocomplete(cog, other, "") == []
    assert await autocomplete(cog, CAROL, "") == []


async def test_nothing_is_offered_where_no_move_is_due(cog: TableCog) -> None:
    assert await autocomplete(cog, ALICE, "13/") == []  # no match here
    await started(cog)
    asked = await to_roll_question(cog)
    assert await autocomplete(cog, asked, "") == []  # to roll, not to move


async def test_the_autocomplete_does_not_wait_for_the_channels_lock(cog: TableCog) -> None:
    await started(cog)
    mover = await whose_turn(cog.service)
    async with cog.service.locks.held(PLACE):  # a command of the channel, still running
        offered = await asyncio.wait_for(autocomplete(cog, mover, ""), timeout=1)
    assert offered


def test_move_is_the_command_whose_play_autocompletes() -> None:
    options = {p.name: p for p in TableCog.move.app_command.parameters}
    assert options["play"].autocomplete


# -- presses answered through the interaction -----------------------------------------------


async def test_a_press_updates_the_pressed_message_then_follows_up_with_the_board(
    cog: TableCog,
) -> None:
    await started(cog)
    roller = await to_roll_question(cog)
    pending = await cog.service.pending_decision(PLACE)
    assert pending is not None
    interaction = FakeInteraction(roller)
    await ButtonPresses(cog.service, cog.live)(interaction, "roll", pending.key)  # type: ignore[arg-type]
    assert interaction.response.edited == [{"view": None}]  # its buttons go, in the response
    assert not interaction.response.deferred and interaction.original_edits == []
    [board] = interaction.followup.sent
    assert "rolls" in board["content"] and board["files"]


async def test_the_wrong_player_is_answered_in_the_response_and_the_buttons_stay(
    cog: TableCog,
) -> None:
    await started(cog)
    roller = await to_roll_question(cog)
    other = BOB if roller == ALICE else ALICE
    pending = await cog.service.pending_decision(PLACE)
    assert pending is not None
    interaction = FakeInteraction(other)
    await ButtonPresses(cog.service, cog.live)(interaction, "roll", pending.key)  # type: ignore[arg-type]
    [refusal] = interaction.response.sent
    assert refusal["ephemeral"] is True and refusal["content"].startswith("Not your decision")
    assert interaction.response.edited == [] and interaction.followup.sent == []


async def test_a_stale_press_loses_its_buttons_and_is_told(cog: TableCog) -> None:
    await started(cog)
    interaction = FakeInteraction(BOB)
    await ButtonPresses(cog.service, cog.live)(interaction, "accept", "c1")  # type: ignore[arg-type]
    assert interaction.response.edited == [{"view": None}]
    [told] = interaction.followup.sent
    assert told["ephemeral"] is True and "out of date" in told["content"]


async def test_a_slow_press_is_deferred_then_its_message_edited(
    cog: TableCog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presses, "DEFER_AFTER", 0)
    await started(cog)
    roller = await to_roll_question(cog)
    pending = await cog.service.pending_decision(PLACE)
    assert pending is not None
    interaction = FakeInteraction(roller)
    await ButtonPresses(cog.service, cog.live)(interaction, "roll", pending.key)  # type: ignore[arg-type]
    assert interaction.response.deferred
    assert interaction.original_edits == [{"view": None}]
    assert interaction.response.edited == []
    assert [sent["content"] for sent in interaction.followup.sent if "rolls" in sent["content"]]
