from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.driver import FakeClock

ALICE = User("1001", "alice")
BOB = User("1002", "bob")
CAROL = User("1003", "carol")
PLACE = Place("guild", "channel")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(database: Path | str) -> Path | str:
    """The test's database: a SQLite file, then a PostgreSQL database (tests/conftest.py)."""
    return database


@pytest.fixture
async def store(db_path: Path | str) -> AsyncIterator[Store]:
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
def service(store: Store, clock: FakeClock) -> TableService:
    return TableService(store, settings=Settings(), dice=seeded_dice(42), clock=clock, images=False)
