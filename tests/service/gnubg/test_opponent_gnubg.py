"""One short match against the real GNU Backgammon (bot.gnubg.engine, in worker processes):
the service's turn flow with real answers. Skipped where gnubg or the engine module is absent."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import AsyncIterator

import pytest

from bot.gnubg import installed
from bot.gnubg.api import Engine
from bot.service.models import ENGINE_ID, ENGINE_USER
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, PLACE
from tests.service.driver import FakeClock, public

pytestmark = pytest.mark.skipif(
    not installed() or importlib.util.find_spec("bot.gnubg.engine") is None,
    reason="needs gnubg and bot.gnubg.engine",
)


@pytest.fixture
async def engine() -> AsyncIterator[Engine]:
    from bot.gnubg.engine import make_engine  # type: ignore[import-not-found, unused-ignore]

    engine: Engine = make_engine(Settings(engine_workers=1))
    await engine.start()
    yield engine
    await engine.close()


@pytest.mark.timeout(120)
async def test_a_one_point_match_against_gnubg(
    store: Store, clock: FakeClock, engine: Engine
) -> None:
    service = TableService(
        store, settings=Settings(), dice=seeded_dice(21), clock=clock, images=False, engine=engine
    )
    public(await service.challenge(PLACE, ALICE, ENGINE_USER, "1 expert tutor"))
    [hint] = await service.hint(PLACE, ALICE)
    assert hint.private and hint.text.startswith(("Best plays", "You can't double"))
    rng = random.Random(21)
    steps = 0
    while (table := await service.table(PLACE)) is not None:
        match = table.match
        assert match.turn is not None and table.row.player_ids[match.turn] != ENGINE_ID
        if match.phase == "roll":
            replies = await service.roll(PLACE, ALICE)
        elif match.phase == "move":
            replies = await service.move(PLACE, ALICE, rng.choice(match.legal_plays()).notation)
        else:
            replies = await service.accept(PLACE, ALICE)  # its resignation
        assert not any("could not take its turn" in reply.text for reply in public(replies))
        steps += 1
        assert steps < 300
    finished = await service.latest_table(PLACE)
    assert finished is not None and finished.row.status == "finished"
