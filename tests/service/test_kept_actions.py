"""A player's action is tried on the match this process keeps in memory, with no read: two
services on one database file (two processes) show that what the other changed meanwhile is
never overwritten. An action the kept match refuses, or whose save finds the version moved, is
done again on the match read from the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.models import User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock, public, start_match


@pytest.fixture
async def other_store(db_path: Path) -> AsyncIterator[Store]:
    """Another process's store on the same database."""
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
def services(
    store: Store, other_store: Store, clock: FakeClock
) -> tuple[TableService, TableService]:
    def made(on: Store) -> TableService:
        return TableService(on, settings=Settings(), dice=seeded_dice(3), clock=clock, images=False)

    return made(store), made(other_store)


async def stored(store: Store) -> tuple[int, int]:
    """The match's version and actions logged, as the store has them."""
    row = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
    assert row is not None
    return row.version, len(await store.matches.actions(row.id))


async def on_turn(service: TableService) -> tuple[User, User]:
    """(the player to act, the other) at the match as ``service`` reads it (and keeps it)."""
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    players = (ALICE, BOB)
    return players[table.match.turn], players[1 - table.match.turn]


async def test_an_action_the_kept_match_refuses_is_done_on_the_match_read(
    services: tuple[TableService, TableService], store: Store
) -> None:
    first, second = services
    await start_match(first, PLACE, ALICE, BOB)
    mover, other = await on_turn(first)  # the first keeps the match: `mover` to move
    table = await second.table(PLACE)
    assert table is not None and table.match.phase == "move"
    public(await second.matches.move(PLACE, mover, table.match.legal_plays()[0].notation))
    moved = await stored(store)

    # In the first's memory `other` can't roll yet; in the store they can, and do.
    public(await first.matches.roll(PLACE, other))
    version, logged = await stored(store)
    assert (version, logged) == (moved[0] + 1, moved[1] + 1)
    now = await first.table(PLACE)
    assert now is not None and now.row.version == version


async def test_an_action_on_an_old_version_is_not_saved_but_done_on_the_match_read(
    services: tuple[TableService, TableService], store: Store
) -> None:
    first, second = services
    await start_match(first, PLACE, ALICE, BOB)
    mover, other = await on_turn(first)
    table = await first.table(PLACE)
    assert table is not None
    public(await first.matches.move(PLACE, mover, table.match.legal_plays()[0].notation))
    roller, _ = await on_turn(first)  # the first keeps the match: `other` to roll
    assert roller == other

    # Meanwhile the other process plays a turn each: `other` is to roll again.
    for player in (other, mover):
        public(await second.matches.roll(PLACE, player))
        table = await second.table(PLACE)
        assert table is not None
        if table.match.phase == "move":
            play = table.match.legal_plays()[0].notation
            public(await second.matches.move(PLACE, player, play))
    assert await on_turn(second) == (other, mover)
    played = await stored(store)
    table = await second.table(PLACE)
    assert table is not None and table.match.phase == "roll"
    position = table.match.position

    # The roll is legal in the first's old memory too: its save finds the version moved and
    # writes nothing; the roll is made again on the match read, from the position played to.
    public(await first.matches.roll(PLACE, other))
    version, logged = await stored(store)
    assert (version, logged) == (played[0] + 1, played[1] + 1)
    now = await first.table(PLACE)
    assert now is not None and now.match.position == position and now.match.phase != "roll"
