"""``/tournament``'s autocomplete through Discord (:mod:`tests.cogs.wire`): the verbs and a new
tournament's formats as the organiser types them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.cogs.table import TableCog
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import Person, Wire, start

ALICE = Person(300000000000000001, "alice")


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE)
    yield wire
    await wire.close()


def test_the_tournament_command_autocompletes_what() -> None:
    app = TableCog.tournament.app_command
    assert app is not None
    options = {p.name: p for p in app.parameters}
    assert options["what"].autocomplete and not options["what"].required


async def test_the_verbs_and_formats_are_offered_as_typed(wire: Wire) -> None:
    verbs = await wire.autocomplete(ALICE, "tournament", "what", "re")
    assert [(c["name"], c["value"]) for c in verbs] == [
        ("report", "report"),
        ("resume", "resume"),
        ("remove @user reason", "remove"),
        ("result 2.3 @winner reason", "result"),
    ]
    formats = await wire.autocomplete(ALICE, "tournament", "what", "create Spring")
    assert formats[0]["value"] == "create Spring knockout 3"
