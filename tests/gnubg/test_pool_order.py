"""The order in which WorkerPool serves waiting requests: the bot's turns first, first come first
served within a priority, nobody overtaken for ever, a match's worker kept while it keeps up.

The workers here run nothing: each request is held until the test finishes it, so every step
of the order is seen (no processes, no clocks)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from bot.gnubg.api import ADVICE_PRIORITY, TURN_PRIORITY, EngineFailure
from bot.gnubg.pool import WorkerPool
from bot.i18n.gnubg import CLOSED


def named(name: str) -> str:
    return name


class Held(Executor):
    """A worker that runs nothing: each request waits until :meth:`finish`."""

    def __init__(self, slot: int) -> None:
        self.slot = slot
        self.running: list[tuple[str, Future[Any]]] = []
        self.served: list[str] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.running.append((str(args[0]) if args else fn.__name__, future))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for _, future in self.running:
            future.cancel()

    def now(self) -> str | None:
        return self.running[-1][0] if self.running else None

    def finish(self) -> None:
        name, future = self.running.pop()
        self.served.append(name)
        future.set_result(name)


class Workers:
    """The held workers of one pool, by slot."""

    def __init__(self) -> None:
        self.made: list[Held] = []

    def __call__(self, initializer: Callable[[], None]) -> Executor:
        held = Held(len(self.made))
        self.made.append(held)
        return held

    def now(self) -> list[str | None]:
        return [held.now() for held in self.made]


async def until(condition: Callable[[], bool]) -> None:
    """Let the event loop run until ``condition`` holds (a few rounds: nothing here waits)."""
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the pool never got there")


Tasks = list[asyncio.Task[str]]


def asking(pool: WorkerPool, *requests: tuple[str, int, int | None]) -> Tasks:
    """Each (name, priority, affinity) asked of ``pool`` in order, as tasks."""
    tasks = []
    for name, priority, affinity in requests:
        call: Coroutine[Any, Any, str] = pool.call(
            named, name, timeout=10, priority=priority, affinity=affinity
        )
        tasks.append(asyncio.create_task(call))
    return tasks


async def one_by_one(pool: WorkerPool, workers: Workers, count: int) -> list[str]:
    """Finish what the single worker runs ``count`` times: the order it served them."""
    held = workers.made[0]
    for _ in range(count):
        await until(lambda: held.now() is not None)
        held.finish()
    await until(lambda: pool.waiting == 0 and held.now() is None)
    return held.served


TURN, ADVICE = TURN_PRIORITY, ADVICE_PRIORITY


async def test_bot_turns_first_then_first_come_first_served() -> None:
    workers = Workers()
    pool = WorkerPool(1, executor=workers)
    [busy] = asking(pool, ("busy", ADVICE, None))
    await until(lambda: workers.now() == ["busy"])
    waiting = asking(
        pool,
        ("hint 1", ADVICE, None),
        ("turn 1", TURN, 4),
        ("eval", ADVICE, 7),
        ("turn 2", TURN, None),
        ("hint 2", ADVICE, None),
        ("turn 3", TURN, 9),
    )
    await until(lambda: pool.waiting == 6)
    served = await one_by_one(pool, workers, 7)
    assert served == ["busy", "turn 1", "turn 2", "turn 3", "hint 1", "eval", "hint 2"]
    assert [await task for task in [busy, *waiting]] == [
        "busy",
        "hint 1",
        "turn 1",
        "eval",
        "turn 2",
        "hint 2",
        "turn 3",
    ]


async def test_a_hint_is_overtaken_by_a_bounded_number_of_turns() -> None:
    workers = Workers()
    pool = WorkerPool(1, executor=workers, overtakes=2)
    asking(pool, ("busy", TURN, None))
    await until(lambda: workers.now() == ["busy"])
    asking(pool, ("hint", ADVICE, None), *((f"turn {n}", TURN, n) for n in range(1, 4)))
    await until(lambda: pool.waiting == 4)
    # Turns keep coming while it waits: after two have gone first, the hint's turn has come.
    served: list[str] = []
    held = workers.made[0]
    for more in range(4, 8):
        held.finish()
        await until(lambda: held.now() is not None)
        asking(pool, (f"turn {more}", TURN, more))
        served.append(held.now() or "")
    assert served == ["turn 1", "turn 2", "hint", "turn 3"]


async def test_the_default_bound_grows_with_the_workers() -> None:
    assert WorkerPool(1).overtakes == 8 and WorkerPool(3).overtakes == 24


async def test_the_first_in_line_waits_for_its_own_busy_worker() -> None:
    workers = Workers()
    pool = WorkerPool(2, executor=workers)
    asking(pool, ("a", TURN, 0), ("b", TURN, 1))
    await until(lambda: workers.now() == ["a", "b"])
    asking(pool, ("c", TURN, 2))  # 2 % 2: worker 0's, and first in line there
    await until(lambda: pool.waiting == 1)
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", None])
    assert pool.waiting == 1  # worker 1 stays idle: c waits for its match's worker
    workers.made[0].finish()
    await until(lambda: workers.now() == ["c", None])


async def test_a_worker_with_nothing_of_its_own_takes_one_waiting_behind_others() -> None:
    workers = Workers()
    pool = WorkerPool(2, executor=workers)
    asking(pool, ("a", TURN, 0), ("b", TURN, 1))
    await until(lambda: workers.now() == ["a", "b"])
    asking(pool, ("c", TURN, 0), ("d", TURN, 2), ("e", TURN, 4))  # all for worker 0
    await until(lambda: pool.waiting == 3)
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", "d"])  # the first behind c: it gives up waiting
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", "e"])
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", None])  # c still waits for worker 0
    workers.made[0].finish()
    await until(lambda: workers.now() == ["c", None])


async def test_a_free_worker_serves_its_own_requests_before_others() -> None:
    workers = Workers()
    pool = WorkerPool(2, executor=workers)
    asking(pool, ("a", TURN, 0), ("b", TURN, 1))
    await until(lambda: workers.now() == ["a", "b"])
    asking(pool, ("c", TURN, 0), ("d", TURN, 0), ("e", TURN, 1), ("f", ADVICE, 1))
    await until(lambda: pool.waiting == 4)
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", "e"])  # its own, though d came first
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", "d"])  # a turn waiting elsewhere before advice
    workers.made[1].finish()
    await until(lambda: workers.now() == ["a", "f"])


async def test_a_request_for_any_worker_takes_an_idle_one_at_once() -> None:
    workers = Workers()
    pool = WorkerPool(2, executor=workers)
    asking(pool, ("a", TURN, 0), ("c", TURN, 0))
    await until(lambda: workers.now() == ["a", None] and pool.waiting == 1)
    asking(pool, ("anywhere", ADVICE, None))
    await until(lambda: workers.now() == ["a", "anywhere"])


def sent(workers: Workers) -> list[list[str]]:
    """What each held worker was given and has not finished, in its order."""
    return [[name for name, _ in held.running] for held in workers.made]


def finish_first(held: Held) -> None:
    """The worker answers the request it serves (the first of those it holds)."""
    name, future = held.running.pop(0)
    held.served.append(name)
    future.set_result(name)


async def test_a_busy_worker_holds_its_next_request_only_when_none_is_idle() -> None:
    workers = Workers()
    pool = WorkerPool(2, executor=workers, depth=2)
    asking(pool, ("a", TURN, None))
    await until(lambda: sent(workers) == [["a"], []])
    asking(pool, ("b", TURN, None))
    await until(lambda: sent(workers) == [["a"], ["b"]])  # the idle worker, not a's pipe
    asking(pool, ("c", ADVICE, None), ("d", TURN, None))
    await until(lambda: sent(workers) == [["a", "c"], ["b", "d"]])  # no worker idle: the pipes
    asking(pool, ("e", ADVICE, None), ("f", TURN, 1), ("g", TURN, None))
    await until(lambda: pool.waiting == 3)
    finish_first(workers.made[1])
    await until(lambda: sent(workers) == [["a", "c"], ["d", "f"]])  # its own turn first
    finish_first(workers.made[0])
    await until(lambda: sent(workers) == [["c", "g"], ["d", "f"]])  # a turn before advice
    finish_first(workers.made[1])
    await until(lambda: sent(workers) == [["c", "g"], ["f", "e"]] and pool.waiting == 0)


async def test_a_waiting_request_given_up_is_no_longer_served() -> None:
    workers = Workers()
    pool = WorkerPool(1, executor=workers)
    asking(pool, ("busy", TURN, None))
    await until(lambda: workers.now() == ["busy"])
    [gone, kept] = asking(pool, ("gone", TURN, None), ("kept", ADVICE, None))
    await until(lambda: pool.waiting == 2)
    gone.cancel()
    await until(lambda: pool.waiting == 1)
    assert await one_by_one(pool, workers, 2) == ["busy", "kept"]
    assert await kept == "kept"


async def test_requests_waiting_at_close_end_politely() -> None:
    workers = Workers()
    pool = WorkerPool(1, executor=workers)
    asking(pool, ("busy", TURN, None))
    await until(lambda: workers.now() == ["busy"])
    [waiting] = asking(pool, ("waiting", ADVICE, 3))
    await until(lambda: pool.waiting == 1)
    await pool.close()
    with pytest.raises(EngineFailure, match=CLOSED.en):
        await waiting


async def test_a_priority_below_zero_is_refused() -> None:
    pool = WorkerPool(1, executor=Workers())
    with pytest.raises(ValueError, match="priorities are 0"):
        await pool.call(named, "x", timeout=1, priority=-1)
