from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import SEED
from tests.service.driver import FakeClock


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # Matches played in the channel, as before threads: tests/cogs/test_threads.py has them on;
    # a message per reply, as before table messages: tests/cogs/test_layout.py has them on.
    return Settings(database=tmp_path / "bot.sqlite3", match_threads=False, table_layout=False)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[Store]:
    store = await Store.open(settings.database)
    yield store
    await store.close()


@pytest.fixture
async def service(
    store: Store, settings: Settings, clock: FakeClock
) -> AsyncIterator[TableService]:
    service = TableService(store, settings=settings, dice=seeded_dice(SEED), clock=clock)
    yield service
    service.close()
