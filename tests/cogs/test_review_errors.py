"""``!review errors`` through the real bot on the wire (:mod:`tests.cogs.wire`): one message with
its own page buttons, which a player's press turns in place."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.service.models import Place
from bot.service.review.pages import ERRORS_PER_PAGE, is_error, shown
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, SEED, Person, Wire, start
from tests.service.driver import FakeClock
from tests.service.fake_analyst import FakeAnalyst, result
from tests.service.review.test_review import THRICE

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
PAGE = re.compile(r"page (\d+)/(\d+)")
PAGES = -(-sum(is_error(d) for d in shown(THRICE)) // ERRORS_PER_PAGE)


@pytest.fixture
async def wire(store: Store, settings: Settings, clock: FakeClock) -> AsyncIterator[Wire]:
    """alice and bob's 1-point match, resigned, analysed with the fixture's game three times."""
    analyst = FakeAnalyst(replace(result(), decisions=THRICE))
    service = TableService(
        store,
        settings=replace(settings, analysis_auto=True),
        dice=seeded_dice(SEED),
        clock=clock,
        engine=analyst,
    )
    wire = await start(service, settings, ALICE, BOB, CAROL)
    await wire.type(ALICE, f"!challenge <@{BOB.id}> 1")
    await wire.type(BOB, "!accept")
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    people = {str(person.id): person for person in (ALICE, BOB)}
    resigning = people[table.row.player_ids[table.match.turn]]
    await wire.type(resigning, "!resign")
    await wire.type(BOB if resigning == ALICE else ALICE, "!accept")
    yield wire
    await wire.close()
    service.close()


def page_of(content: str) -> tuple[int, int]:
    found = PAGE.search(content)
    assert found, content
    return int(found[1]), int(found[2])


def button(custom_ids: list[str], word: str) -> str:
    [found] = [c for c in custom_ids if c.startswith(f"bg:review{word}:e")]
    return found


async def test_one_message_whose_buttons_turn_its_pages(wire: Wire) -> None:
    assert PAGES >= 3
    [listing] = await wire.type(CAROL, "!review errors 1")
    assert page_of(listing.content) == (1, PAGES) and len(listing.content) < 2000
    assert sorted(c.split(":")[1] for c in listing.custom_ids) == sorted(
        ["reviewfirst", "reviewprevious", "reviewnext", "reviewlast"]
    )
    assert all(c.endswith(":e1.0") for c in listing.custom_ids)

    # the players' presses: the same message, its next page and the next page's keys
    sent = await wire.press(ALICE, listing, button(listing.custom_ids, "next"))
    assert sent == [] or all(m.id == listing.id for m in sent)
    assert page_of(listing.content) == (2, PAGES)
    assert all(c.endswith(":e1.1") for c in listing.custom_ids)

    sent = await wire.press(BOB, listing, button(listing.custom_ids, "last"))
    assert sent == [] or all(m.id == listing.id for m in sent)
    assert page_of(listing.content) == (PAGES, PAGES)
    [refused] = await wire.press(BOB, listing, button(listing.custom_ids, "next"))
    assert refused.ephemeral is True and "last page" in refused.content
    assert page_of(listing.content) == (PAGES, PAGES) and listing.custom_ids
    # (a watcher's press gives them an ephemeral copy: tests/service/review/test_review.py;
    # discord.py gives an ephemeral message's buttons a 15-minute timer this wire would await)
