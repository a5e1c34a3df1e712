"""The console on a test database that the tournament tests play through."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from tests.service.tournaments.test_tournaments import Table


@pytest.fixture
async def table(db_path: Path | str) -> AsyncIterator[Table]:
    store = await Store.open(db_path)
    try:
        yield Table(store)
    finally:
        await store.close()
