"""The bot's turn split over two workers (``GnubgEngine.take_turn``): the cube decision in the
match's worker and the play for the roll that follows searched in another idle one at once;
the one combined request when the pool is busy, and a failure of either is the turn's.

The workers here run nothing: each request is held until the test answers it, so which
requests went where is seen (no processes, no clocks). ``test_turn_request.py`` checks the
answers against real gnubg; ``test_a_turn_split_over_two_workers_chooses_as_one_request``
(slow) does here."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
import pytest_asyncio

from bot.gnubg.api import LEVELS, EngineFailure, Query, TurnChoice
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.pool import WorkerPool
from bot.rules.randomplay import random_states
from bot.settings import Settings
from tests.gnubg.test_turn_request import STATES, states_before_a_searched_roll

LEVEL = LEVELS["worldclass"]
KEY = 7  # the match's worker: slot 1 of 2


class Asked(Executor):
    """A worker that runs nothing: each request waits until the test answers it."""

    def __init__(self) -> None:
        self.running: list[tuple[str, tuple[Any, ...], Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.running.append((fn.__name__, args, future))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for *_, future in self.running:
            future.cancel()

    def answer(self, value: Any) -> None:
        self.running.pop(0)[2].set_result(value)

    def fail(self) -> None:
        self.running.pop(0)[2].set_exception(BrokenProcessPool("crashed"))


class Workers:
    """The asked workers of one pool, by slot (a replaced one is appended)."""

    def __init__(self) -> None:
        self.made: list[Asked] = []

    def __call__(self, initializer: Callable[[], None]) -> Executor:
        self.made.append(Asked())
        return self.made[-1]

    def asked(self, slot: int) -> bool:
        return len(self.made) > slot and bool(self.made[slot].running)

    def both_asked(self) -> bool:
        return len(self.made) == 2 and all(asked.running for asked in self.made)

    def requests(self) -> list[list[tuple[str, tuple[Any, ...]]]]:
        return [[(name, args) for name, args, _ in asked.running] for asked in self.made]


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("never got there")


def engine_on(workers: Workers) -> GnubgEngine:
    engine = GnubgEngine(Settings(engine_workers=2))
    engine.play_pool = WorkerPool(2, executor=workers)
    return engine


def before_a_roll(length: int) -> tuple[Query, str]:
    """A state where the player on roll may double (or, 1 point, may not) and its roll's ID."""
    for match in random_states(3, length):
        player = match.turn
        if player is None or match.phase != "roll":
            continue
        rolled = match.roll(player)
        if rolled.turn == player and (length == 1 or match.can_double(player)):
            return Query.of(match, KEY), rolled.gnubg_id()
    raise AssertionError("no such state")


async def test_with_two_idle_workers_the_play_is_searched_beside_the_cube_decision() -> None:
    workers = Workers()
    engine = engine_on(workers)
    query, rolled = before_a_roll(5)
    turn = asyncio.create_task(engine.take_turn(query, LEVEL, rolled=rolled))
    await until(workers.both_asked)
    searched = Query(rolled, match_key=KEY)
    assert workers.requests() == [
        [("choose_play", (searched, LEVEL))],
        [("take_turn", (query, LEVEL, True, None))],  # the match's own worker
    ]
    workers.made[0].answer("24/18 13/11")  # the search ends first: the turn waits for the cube
    await asyncio.sleep(0)
    assert not turn.done()
    workers.made[1].answer(TurnChoice())
    assert await turn == TurnChoice(play="24/18 13/11")
    assert engine.play_pool.idle == 2


@pytest.mark.parametrize("choice", [TurnChoice(double=True), TurnChoice(resign=2)])
async def test_a_double_or_a_resignation_throws_the_search_away(choice: TurnChoice) -> None:
    workers = Workers()
    engine = engine_on(workers)
    query, rolled = before_a_roll(5)
    turn = asyncio.create_task(engine.take_turn(query, LEVEL, rolled=rolled))
    await until(workers.both_asked)
    workers.made[1].answer(choice)
    assert await turn == choice
    assert engine.play_pool.idle == 1  # the search goes on by itself, then frees its worker
    workers.made[0].answer("24/18 13/11")
    await until(lambda: engine.play_pool.idle == 2)


async def test_a_busy_pool_asks_the_one_combined_request() -> None:
    workers = Workers()
    engine = engine_on(workers)
    query, rolled = before_a_roll(5)
    other = asyncio.create_task(engine.hint_plays(Query(query.gnubg_id, match_key=KEY + 1)))
    await until(lambda: workers.asked(0))  # another channel's request, slot 0
    turn = asyncio.create_task(engine.take_turn(query, LEVEL, rolled=rolled))
    await until(lambda: workers.asked(1))
    await asyncio.sleep(0)
    assert workers.requests()[1] == [("take_turn", (query, LEVEL, True, rolled))]
    assert len(workers.requests()[0]) == 1
    workers.made[1].answer(TurnChoice(play="24/18 13/11"))
    assert await turn == TurnChoice(play="24/18 13/11")
    workers.made[0].answer(())
    await other


def named(name: str) -> str:
    return name


async def test_a_search_beside_starts_only_where_two_workers_are_idle_and_none_waits() -> None:
    workers = Workers()
    pool = WorkerPool(3, executor=workers)
    search = pool.call_if_idle(named, "search", timeout=10, leave=0)
    assert search is not None  # the last idle worker, the match's own (slot 0) left idle
    await until(lambda: workers.asked(2))
    workers.made[2].answer("search")
    assert await search == "search"
    # the caller's own worker busy: nothing started
    mine = asyncio.create_task(pool.call(named, "mine", timeout=10, affinity=0))
    await until(lambda: workers.asked(0))
    assert pool.call_if_idle(named, "search", timeout=10, leave=0) is None
    # a request waiting (for its own busy worker, slots 1 and 2 idle): nothing started
    queued = asyncio.create_task(pool.call(named, "queued", timeout=10, affinity=0))
    await until(lambda: pool.waiting == 1)
    assert pool.call_if_idle(named, "search", timeout=10, leave=1) is None
    assert workers.requests()[1:] == [[], []]
    workers.made[0].answer("mine")
    await until(lambda: len(workers.requests()[0]) == 1 and pool.waiting == 0)
    workers.made[0].answer("queued")
    assert [await mine, await queued] == ["mine", "queued"]
    # no affinity: the first idle worker is left for the caller
    search = pool.call_if_idle(named, "search", timeout=10)
    assert search is not None
    await until(lambda: workers.asked(2))
    workers.made[2].answer("search")
    await search
    assert pool.idle == 3


async def test_where_the_bot_may_not_double_the_turn_is_one_request() -> None:
    workers = Workers()
    engine = engine_on(workers)
    query, rolled = before_a_roll(1)  # a 1-point match: no cube
    turn = asyncio.create_task(engine.take_turn(query, LEVEL, rolled=rolled))
    await until(lambda: workers.asked(0) or workers.asked(1))
    await asyncio.sleep(0)
    assert workers.requests() == [[], [("take_turn", (query, LEVEL, True, rolled))]]
    workers.made[1].answer(TurnChoice(play="8/5 6/5"))
    assert await turn == TurnChoice(play="8/5 6/5")


@pytest.mark.parametrize("failing", ["search", "cube"])
async def test_a_failure_of_either_request_is_the_turns(failing: str) -> None:
    workers = Workers()
    engine = engine_on(workers)
    query, rolled = before_a_roll(5)
    turn = asyncio.create_task(engine.take_turn(query, LEVEL, rolled=rolled))
    await until(workers.both_asked)
    search, cube = workers.made[0], workers.made[1]
    if failing == "search":
        search.fail()
        cube.answer(TurnChoice())
    else:
        search.answer("24/18 13/11")
        cube.fail()
    with pytest.raises(EngineFailure) as failure:
        await turn
    assert failure.value.retry  # the turn is tried again, as after today's crashes
    assert engine.play_pool.restarts == 1
    await until(lambda: engine.play_pool.idle == 2)


# -- against real gnubg -----------------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def two_workers() -> AsyncIterator[GnubgEngine]:
    engine = GnubgEngine(Settings(engine_workers=2, engine_timeout_seconds=30.0))
    await engine.play_pool.start()
    yield engine
    await engine.close()


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("level", ["worldclass", "beginner"])
async def test_a_turn_split_over_two_workers_chooses_as_one_request(
    engine: GnubgEngine, two_workers: GnubgEngine, level: str
) -> None:
    chosen = LEVELS[level]
    pool = two_workers.play_pool
    split = 0
    for match, rolled in states_before_a_searched_roll(STATES):
        before = Query.of(match, match_key=1)
        await until_idle(pool)
        calls = sum(pool.calls())
        two = await two_workers.take_turn(before, chosen, rolled=rolled.gnubg_id())
        split += sum(pool.calls()) - calls == 2
        one = await engine.take_turn(before, chosen, rolled=rolled.gnubg_id())  # one worker
        assert two == one, match.gnubg_id()
    assert split == STATES  # every state's turn was split: both workers were idle


async def until_idle(pool: WorkerPool) -> None:
    """Wait for a search thrown away to end (a real one: milliseconds)."""
    for _ in range(1000):
        if pool.idle == pool.size:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the pool stayed busy")
