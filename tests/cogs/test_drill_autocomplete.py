"""``/drill``'s autocomplete through Discord (:mod:`tests.cogs.wire`): the answers of the drill
awaiting the user, sent as shown, and a choice taken reaches the drill as if typed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from bot.cogs.table import TableCog
from bot.rules.position import Position
from bot.service.review.drills import drill_rows
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import Store, schema
from bot.store.drills import DrillRow
from tests.cogs.wire import GUILD_ID, Person, Wire, start
from tests.service.review.test_review import DECISIONS

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
SERVER = str(GUILD_ID)


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE, BOB, CAROL)
    yield wire
    await wire.close()


async def shown(store: Store, person: Person, kind: str) -> DrillRow:
    """``person``'s first drill of ``kind`` (made from the analysed decisions of a real game),
    shown: it awaits their answer."""
    async with store.transaction() as tx:
        await tx.drills.add(drill_rows(SERVER, 1, (str(ALICE.id), str(BOB.id)), DECISIONS, 2, 0.0))
    d = schema.drills
    row = await store.fetch_one(
        select(d)
        .where(d.c.user_id == str(person.id), d.c.kind == kind)
        .order_by(d.c.decision)
        .limit(1)
    )
    assert row is not None
    async with store.transaction() as tx:
        return await tx.drills.mark_shown(DrillRow(**row._mapping), 1.0)


async def autocomplete(wire: Wire, user: Person, current: str) -> list[str]:
    """What Discord shows ``user`` typing ``current`` in /drill's what."""
    choices = await wire.autocomplete(user, "drill", "what", current)
    assert all(choice["name"] == choice["value"] for choice in choices)  # sent exactly as shown
    return [choice["value"] for choice in choices]


def test_drill_is_a_command_whose_answer_autocompletes() -> None:
    app = TableCog.drill.app_command
    assert app is not None
    options = {p.name: p for p in app.parameters}
    assert options["what"].autocomplete and not options["what"].required


async def test_a_checker_drill_offers_its_legal_plays(wire: Wire, store: Store) -> None:
    drill = await shown(store, ALICE, "checker")
    assert drill.dice is not None
    position = Position.from_position_id(drill.gnubg_id.partition(":")[0])
    legal = [play.notation for play in position.legal_plays(*divmod(drill.dice, 10))]
    assert await autocomplete(wire, ALICE, "") == legal[:25]
    start_point = legal[0].split("/")[0]
    narrowed = await autocomplete(wire, ALICE, f"{start_point}/")
    assert narrowed and all(f"{start_point}/" in play for play in narrowed)
    # nobody else sees them
    assert await autocomplete(wire, BOB, "") == ["stats"]
    assert await autocomplete(wire, CAROL, "") == ["stats"]


async def test_a_cube_drills_choice_is_answered_as_if_typed(wire: Wire, store: Store) -> None:
    await shown(store, BOB, "cube")
    assert await autocomplete(wire, BOB, "") == ["double", "no double"]
    [choice] = await autocomplete(wire, BOB, "no")
    [sent] = await wire.slash(BOB, "drill", what=choice)
    assert "You said **no double**" in sent.content, sent.content
    assert await autocomplete(wire, BOB, "") == ["stats"]  # answered: none awaits now
