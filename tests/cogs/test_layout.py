"""One message per table (``TABLE_LAYOUT``), through discord.py's own code on the wire: the
board, the words and the buttons in one layout message (IS_COMPONENTS_V2), edited by typed
commands and, in their response, by presses; a new one when the turn passes to a player who
must be pinged (an edit notifies nobody); the same one after a restart."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cogs.layout import TEXT_LIMIT, folded, is_table_reply, table_view, text_of
from bot.i18n.posting import NO_ATTACH_BOARD
from bot.service.commands.limits import Limiter
from bot.service.keys import MatchKey
from bot.service.models import Decision, Place, Reply
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, EDIT, GUILD_ID, PNG, SEND, Person, Sent, Wire, start
from tests.e2e.components import COMPONENTS_V2, CONTAINER, media_urls, texts, walk

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
PEOPLE = {str(person.id): person for person in (ALICE, BOB)}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(database=tmp_path / "bot.sqlite3", match_threads=False, table_layout=True)


async def started(service: TableService, settings: Settings) -> Wire:
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)  # a command a second
    return await start(service, settings, ALICE, BOB, limiter=limiter)


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await started(service, settings)
    yield wire
    await wire.close()


def components_of(view: discord.ui.LayoutView) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = view.to_components()  # type: ignore[no-untyped-call]
    return found


def table_text(sent: Sent) -> str:
    return "\n".join(texts(sent.data["components"]))


def assert_table(sent: Sent, *, buttons: bool | None = None) -> None:
    """``sent`` is a table message: one container of words, the board and maybe buttons."""
    assert sent.data["flags"] & COMPONENTS_V2
    assert sent.content == "" and not sent.data.get("embeds")
    [container] = sent.data["components"]
    assert container["type"] == CONTAINER
    assert media_urls(sent.data["components"]) == ["attachment://board.png"]
    assert sent.attachments == ["board.png"] and sent.blobs["board.png"].startswith(PNG)
    if buttons is not None:
        assert bool(sent.custom_ids) == buttons, sent.custom_ids


async def to_act(service: TableService) -> tuple[Person, str]:
    """Who acts now, and the command that does it (a roll, or the first legal play)."""
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    person = PEOPLE[table.row.player_ids[table.match.turn]]
    if table.match.phase == "move":
        return person, f"!move {table.match.legal_plays()[0].notation}"
    assert table.match.phase == "roll", table.match.phase
    return person, "!roll"


def edits_of(wire: Wire, message_id: int, since: int) -> list[dict[str, Any]]:
    return [c.json for c in wire.calls_of(EDIT)[since:] if c.ids["message_id"] == message_id]


async def test_typed_commands_edit_the_table_until_the_turn_passes_to_the_other_player(
    wire: Wire, service: TableService
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    [table] = await wire.type(BOB, "!accept")
    assert_table(table)
    assert (await service.table_message(1)) == (str(table.id), 1)  # kept for a restart
    new_tables = edited = 0
    for _ in range(12):
        person, command = await to_act(service)
        before = len(wire.calls_of(EDIT))
        sent = await wire.type(person, command)
        if sent:  # the turn passed: the other player is pinged by a message of their own
            [table] = sent
            assert_table(table)
            [pinged] = {str(p.id) for p in PEOPLE.values()} - {str(person.id)}
            assert table_text(table).startswith(f"<@{pinged}>"), table_text(table)
            assert table.request["allowed_mentions"]["users"] == [int(pinged)]
            new_tables += 1
        else:  # the same player acts next: the table shows it, one edit with the new board
            [edit] = edits_of(wire, table.id, before)
            assert len(wire.calls_of(EDIT)) == before + 1
            assert edit["flags"] & COMPONENTS_V2
            assert wire.messages[table.id].files == ["board.png"]
            assert_table(wire.messages[table.id])
            text = table_text(wire.messages[table.id])
            assert f"<@{PEOPLE[next(iter(PEOPLE))].id}>" not in text or str(person.id) in text
            edited += 1
        stored = await service.table_message(1)
        assert stored is not None and stored[0] == str(table.id)
    assert edited >= 4 and new_tables >= 4, (edited, new_tables)


async def test_a_press_shows_the_next_state_in_its_response_and_a_replaced_question_loses_buttons(
    wire: Wire, service: TableService
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    await wire.type(BOB, "!accept")
    person, command = await to_act(service)
    [table] = await wire.type(person, command)  # the first play: the other player to roll
    assert_table(table, buttons=True)
    roll = next(i for i in table.custom_ids if ":roll:" in i)
    roller, _ = await to_act(service)
    responses, edits = len(wire.responses), len(wire.calls_of(EDIT))
    assert await wire.press(roller, table, roll) == []  # no followup, no new message
    [response] = wire.responses[responses:]
    assert response["type"] == 7  # the pressed message updated: the press's one call
    assert len(wire.calls_of(EDIT)) == edits
    shown = wire.messages[table.id]
    assert_table(shown, buttons=False)  # a play is typed or chosen from /move
    assert f"{roller.name} to move" in table_text(shown), table_text(shown)

    # The player to move plays; the next one doubles instead of rolling: the take or drop is
    # a new message pinging the doubled player, and the Roll/Double message loses its buttons
    # but keeps its board and words.
    _, play = await to_act(service)
    [asked] = await wire.type(roller, play)
    assert_table(asked, buttons=True)
    doubler, _ = await to_act(service)
    edits = len(wire.calls_of(EDIT))
    [double] = await wire.type(doubler, "!double")
    assert_table(double, buttons=True)
    assert any(":take:" in i for i in double.custom_ids), double.custom_ids
    [taken_off] = edits_of(wire, asked.id, edits)
    assert_table(wire.messages[asked.id], buttons=False)
    assert texts(taken_off["components"]) == texts(asked.data["components"])


async def test_a_restarted_bot_edits_the_same_table_message(
    wire: Wire, service: TableService, settings: Settings
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    await wire.type(BOB, "!accept")
    person, command = await to_act(service)
    [table] = await wire.type(person, command)
    roller, _ = await to_act(service)
    await wire.close()

    again = await started(service, settings)  # a new process: nothing in memory
    again.messages.update(wire.messages)  # Discord keeps them
    again.order.extend(wire.order)
    try:
        assert await again.type(roller, "!roll") == []
        [edit] = [c for c in again.calls_of(EDIT) if c.ids["message_id"] == table.id]
        assert edit.json["flags"] & COMPONENTS_V2
        assert f"{roller.name} to move" in table_text(again.messages[table.id])
    finally:
        await again.close()


async def test_a_slash_command_answers_with_a_table_message_that_typed_commands_then_edit(
    wire: Wire, service: TableService
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    await wire.type(BOB, "!accept")
    person, command = await to_act(service)
    [answer] = await wire.slash(person, "move", play=command.removeprefix("!move "))
    assert answer.via == "response"
    assert_table(answer, buttons=True)
    stored = await service.table_message(1)
    assert stored is not None and stored[0] == str(answer.id)
    roller, _ = await to_act(service)
    assert await wire.type(roller, "!roll") == []
    assert f"{roller.name} to move" in table_text(wire.messages[answer.id])


def test_a_play_and_the_bots_answer_fold_into_one_table_state() -> None:
    told = Reply("alice plays 4-3: 24/21 24/20.\nGNU Backgammon is thinking…", announces=(1, 2))
    board = Reply(
        "GNU Backgammon plays 3-1: 24/23 24/21.\nalice to move 5-5.",
        image=PNG,
        board_viewer=0,
        announces=(1, 3),
        mention=("7",),
    )
    assert is_table_reply(board) and not is_table_reply(told)
    [one] = folded([told, board])
    assert one.text == f"{told.text}\n{board.text}"
    assert one.announces == (1, 3) and one.mention == ("7",) and one.image == PNG
    # Words of another match, an end, or words with no board after them stay as they are.
    other = Reply("bob plays.", announces=(2, 5))
    assert folded([other, board]) == [other, board]
    end = Reply("alice wins.", image=PNG, board_viewer=0, decision=Decision.REMATCH)
    assert folded([told, end]) == [told, end]
    assert folded([board, told]) == [board, told]


def test_the_layout_holds_the_words_the_board_and_the_buttons() -> None:
    reply = Reply(
        "bob: `!roll` or `!double`.",
        image=PNG,
        board_viewer=1,
        announces=(1, 3),
        mention=("300000000000000002",),
        decision=Decision.TURN,
        decision_key=MatchKey(1, 3),
    )
    components = components_of(table_view(reply))
    kinds = [c["type"] for c in walk(components)]
    assert kinds == [17, 10, 12, 1, 2, 2], kinds
    assert texts(components) == ["<@300000000000000002> bob: `!roll` or `!double`."]
    assert [c["type"] for c in walk(components_of(table_view(reply, buttons=False)))] == [
        17,
        10,
        12,
    ]


def test_a_table_text_too_long_keeps_its_end_and_its_ping() -> None:
    lines = [f"Turn {n}: alice can't move; bob rolls 3-1 and plays 6/5 6/3." for n in range(120)]
    reply = Reply(
        "\n".join([*lines, "bob: `!roll` or `!double`."]),
        image=PNG,
        mention=("300000000000000002",),
    )
    shown = text_of(reply)
    assert len(shown) <= TEXT_LIMIT
    assert shown.startswith("<@300000000000000002> …\n")
    assert shown.endswith("bob: `!roll` or `!double`.")
    assert shown.split("\n")[1] in lines  # whole lines only


async def test_the_board_asked_again_is_posted_anew_and_becomes_the_table(
    wire: Wire, service: TableService
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    await wire.type(BOB, "!accept")
    person, command = await to_act(service)
    [table] = await wire.type(person, command)
    assert_table(table, buttons=True)
    roller, _ = await to_act(service)
    edits = len(wire.calls_of(EDIT))
    [board] = await wire.type(roller, "!board")  # nothing changed: near the one who asked
    assert_table(board, buttons=False)
    assert len(wire.calls_of(EDIT)) == edits
    stored = await service.table_message(1)
    assert stored is not None and stored[0] == str(board.id)
    assert await wire.type(roller, "!roll") == []
    assert f"{roller.name} to move" in table_text(wire.messages[board.id])
    # The Roll and Double of the older table message went with the question they asked.
    assert_table(wire.messages[table.id], buttons=False)
    assert table_text(wire.messages[table.id]) == table_text(table)


async def test_without_attach_files_the_moves_go_as_words_the_old_way(
    wire: Wire, service: TableService
) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 3")
    [table] = await wire.type(BOB, "!accept")
    wire.deny(wire.channel, attach_files=False)
    edits, sends = len(wire.calls_of(EDIT)), len(wire.calls_of(SEND))
    person, command = await to_act(service)
    [text] = await wire.type(person, command)
    assert not text.data["flags"] & COMPONENTS_V2
    assert text.attachments == [] and text.content.endswith(NO_ATTACH_BOARD("en"))
    assert len(wire.calls_of(EDIT)) == edits  # the table message is left as it was
    # tried with the board once, refused, then the words alone: no layout tried in vain first
    assert [call.status for call in wire.calls_of(SEND)[sends:]] == [403, 200]
    assert wire.messages[table.id].files == ["board.png"]
