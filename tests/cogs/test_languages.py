"""Through discord.py, on the fake Discord: a German user's ``/move`` with an illegal play is
refused in German (ephemeral), and a German user's press too; a typed command speaks the
server's language (``!settings language``), whatever the typing user's locale, and so does
what discord.py can't read of it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service.models import Place
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, Person, Sent, Wire, start
from tests.e2e.components import walk

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
MOD = Person(300000000000000004, "mod", moderator=True)
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings)
    yield wire
    await wire.close()


def only(sent: list[Sent]) -> Sent:
    assert len(sent) == 1, [message.content for message in sent]
    return sent[0]


async def players(wire: Wire) -> tuple[Person, Person]:
    """The player to move after the opening roll, and the other."""
    await wire.slash(ALICE, "challenge", opponent=BOB, length="3")
    await wire.slash(BOB, "accept")
    return await players_of(wire)


async def test_a_german_users_illegal_move_is_refused_in_german(wire: Wire) -> None:
    mover, _ = await players(wire)
    wire.locale = "de"
    refused = only(await wire.slash(mover, "move", play="24/30"))
    assert refused.ephemeral
    assert refused.content == (
        "Das ist kein Zug: es gibt keinen Punkt 30 (1-24) (du hast '24/30' eingegeben). "
        "`/move` listet deine legalen Züge."
    )
    wire.locale = "es-ES"
    assert only(await wire.slash(mover, "move", play="24/30")).content.startswith(
        "Eso no es un movimiento: no existe la punta 30 (1-24)"
    )
    wire.locale = "ja"  # a locale the bot doesn't speak: the server's language, English
    assert only(await wire.slash(mover, "move", play="24/30")).content.startswith(
        "That is not a move"
    )


async def test_a_typed_command_speaks_the_servers_language(wire: Wire) -> None:
    _, other = await players(wire)
    refused = only(await wire.type(ALICE, "!settings language it"))
    assert "Only moderators" in refused.content
    wire.locale = "el"  # the moderator's own locale: the reply to the setting is in Italian
    chosen = only(await wire.slash(MOD, "settings", what="language it"))
    assert chosen.content == "I comandi scritti su questo server ora ricevono risposte in Italiano."
    wire.locale = "en-US"
    typed = only(await wire.type(other, "!roll"))
    assert typed.content.startswith("Non tocca a te tirare: si aspetta che")
    slashed = only(await wire.slash(other, "roll"))  # the user's own locale: English
    assert slashed.content.startswith("It's not your turn to roll")
    unread = only(await wire.type(other, "!stats nobody"))  # what discord.py can't read
    assert unread.content == (
        "Non trovo il membro 'nobody' qui: menzionalo, ad es. @nome. Uso: `!stats [@user]`"
    )


async def test_a_german_users_press_is_answered_in_german(wire: Wire) -> None:
    mover, other = await players(wire)
    table = await wire.bot.service.table(PLACE)
    assert table is not None
    play = table.match.legal_plays()[0].notation
    asked = only(await wire.slash(mover, "move", play=play))
    [roll] = [custom_id for custom_id in asked.custom_ids if custom_id.split(":")[1] == "roll"]
    wire.locale = "de"
    board = only(await wire.press(other, asked, roll))
    assert f"{other.name} würfelt " in board.content and "ist am Zug mit" in board.content


def labels(message: Sent) -> list[str]:
    return [c["label"] for c in walk(message.data.get("components") or []) if "custom_id" in c]


async def test_buttons_are_labelled_in_the_language_of_their_message(wire: Wire) -> None:
    wire.locale = "de"  # a German user's challenge: its message and its buttons are German
    challenge = only(await wire.slash(ALICE, "challenge", opponent=BOB, length="3"))
    assert labels(challenge) == ["Annehmen", "Absagen"]
    assert challenge.custom_ids[0].startswith("bg:accept:")  # the ids stay what they were
    await wire.press(BOB, challenge, challenge.custom_ids[0])
    mover, other = await players_of(wire)
    wire.locale = "tr"  # a Turkish resignation: its Accept and Reject are Turkish
    assert labels(only(await wire.slash(mover, "resign"))) == ["Kabul et", "Reddet"]
    await wire.type(other, "!reject")
    only(await wire.slash(MOD, "settings", what="language es"))
    wire.locale = "en-US"  # a typed command's buttons speak the server's language
    assert labels(only(await wire.type(mover, "!resign"))) == ["Aceptar", "Rechazar"]


async def players_of(wire: Wire) -> tuple[Person, Person]:
    """The player on roll of the match being played, and the other."""
    table = await wire.bot.service.table(PLACE)
    assert table is not None and table.match.turn is not None
    return (ALICE, BOB) if table.row.player_ids[table.match.turn] == str(ALICE.id) else (BOB, ALICE)
