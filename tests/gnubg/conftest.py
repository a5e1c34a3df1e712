from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.gnubg.engine import GnubgEngine
from bot.settings import Settings


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine() -> AsyncIterator[GnubgEngine]:
    """One engine (one play worker) per test module: workers start once."""
    engine = GnubgEngine(Settings(engine_workers=1, engine_timeout_seconds=30.0))
    await engine.play_pool.start()
    yield engine
    await engine.close()
