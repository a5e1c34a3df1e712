"""One short match against the real GNU Backgammon (bot.gnubg.engine, in worker processes):
the service's turn flow with real answers. Skipped where gnubg or the engine module is absent."""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.gnubg import installed
from bot.gnubg.api import Engine, Level, Query, TurnChoice
from bot.gnubg.session import Situation
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
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "1 expert tutor"))
    [hint] = await service.gnubg.hint(PLACE, ALICE)
    assert hint.private and hint.text.startswith(("Best plays", "You can't double"))
    await alice_plays_it_out(service, random.Random(21))
    finished = await service.latest_table(PLACE)
    assert finished is not None and finished.row.status == "finished"


async def alice_plays_it_out(service: TableService, rng: random.Random) -> None:
    """Alice plays random legal plays, takes its doubles and accepts its resignations until the
    match ends; the bot never fails to take its turn."""
    steps = 0
    while (table := await service.table(PLACE)) is not None:
        match = table.match
        assert match.turn is not None and table.row.player_ids[match.turn] != ENGINE_ID
        if match.phase == "roll":
            replies = await service.matches.roll(PLACE, ALICE)
        elif match.phase == "move":
            replies = await service.matches.move(
                PLACE, ALICE, rng.choice(match.legal_plays()).notation
            )
        elif match.phase == "doubled":
            replies = await service.matches.take(PLACE, ALICE)
        else:
            replies = await service.matches.accept(PLACE, ALICE)  # its resignation
        assert not any("could not take its turn" in reply.text for reply in public(replies))
        steps += 1
        assert steps < 300


@pytest.mark.timeout(180)
async def test_each_bot_turn_is_one_search_its_own_request_in_its_matchs_worker(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gnubg's own calls, counted inside the workers, for each decision of the bot at world
    class: its roll's play searched once (``find_best_move``) with the cube decision before it,
    in the same request or, both workers idle here, beside it in the other worker (then thrown
    away when the bot doubles or resigns); the match's own requests in its worker."""
    from bot.gnubg.engine import GnubgEngine
    from tests.gnubg import counting

    engine = GnubgEngine(Settings(engine_workers=2))
    await engine.start()
    pool = engine.play_pool
    turns: list[tuple[Query, bool, str | None, TurnChoice, Counter[str], list[int]]] = []
    take_turn = engine.take_turn

    async def tally() -> Counter[str]:
        """Both workers' counts (each waits for its worker: a search thrown away ends first)."""
        total: Counter[str] = Counter()
        for slot in range(pool.size):
            total += await pool.call(counting.counts, timeout=10, affinity=slot)
        return total

    async def counted(
        query: Query, level: Level, *, may_resign: bool = True, rolled: str | None = None
    ) -> TurnChoice:
        before, calls = await tally(), pool.calls()
        choice = await take_turn(query, level, may_resign=may_resign, rolled=rolled)
        served = [now - then for now, then in zip(pool.calls(), calls, strict=True)]
        turns.append((query, may_resign, rolled, choice, await tally() - before, served))
        return choice

    try:
        for slot in range(pool.size):
            await pool.call(counting.install, timeout=10, affinity=slot)
        monkeypatch.setattr(engine, "take_turn", counted)
        service = TableService(
            store,
            settings=Settings(),
            dice=seeded_dice(5),
            clock=clock,
            images=False,
            engine=engine,
        )
        public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3 worldclass"))
        row = await store.matches.playing(PLACE.server_id, PLACE.channel_id)
        assert row is not None
        await alice_plays_it_out(service, random.Random(5))
    finally:
        await engine.close()
    searched = split = 0
    mine = row.id % 2
    for query, may_resign, rolled, choice, gnubg, served in turns:
        before_roll = Situation.of(query).dice is None
        # the turn's own request in the match's worker; the search beside it in the other
        assert served[mine] == 1 and served[1 - mine] in (0, 1), (query, served)
        beside = served[1 - mine]
        assert not beside or rolled is not None, (query, served)
        split += beside
        if choice.resign or (before_roll and (rolled is None or choice.double)):
            # a 0-ply evaluation (resign?), a 1-ply one (gnubg's market window) and the cube
            # analysed only inside that window; no search but one thrown away beside it
            assert gnubg["find_best_move"] == beside, (query, gnubg)
            assert gnubg["evaluate 1-ply"] <= 1 and gnubg["command hint"] <= 1, (query, gnubg)
            continue
        # its play, then a 0-ply evaluation after it when it may resign after its roll
        assert before_roll or rolled is None, (query, rolled)
        assert gnubg["find_best_move"] == 1, (query, gnubg)
        assert gnubg["evaluate 2-ply"] == 0, (query, gnubg)
        if before_roll:  # resigning weighed before the roll (0-ply), then the roll's play
            assert gnubg["evaluate 0-ply"] == int(may_resign), (query, gnubg)
            assert gnubg["evaluate 1-ply"] <= 1 and gnubg["command hint"] <= 1, (query, gnubg)
        else:
            assert gnubg["evaluate 0-ply"] == int(may_resign), (query, gnubg)
        searched += 1
    # The roll's position came with the cube decision (beside it or not), never asked again
    # (a rolled position is asked alone when the roll was automatic, no cube to turn).
    asked = {query.gnubg_id for query, *_ in turns}
    carried = [rolled for _, _, rolled, choice, *_ in turns if rolled and choice.play]
    assert carried and not asked & set(carried)
    assert searched > 10
    assert split  # one channel: both workers idle at each turn asked with its roll
