"""Where a bot play's time goes, end to end: the bot's process and its gnubg worker.

A person (random legal plays, seeded; takes every double, accepts every resignation) plays
5-point world-class matches against the bot in one channel, board images on, as in
``bench/bot_turn.py``. Each of the person's commands after which the bot played is one play.
Three measurements of the same plays:

* **The bot's process, by profile**: cProfile around each command on the event loop's thread,
  and around each board drawn in the renderer's thread; every function's own time is put in
  one part by its file (parse and the service, rules, store, render, encode, IPC, asyncio). A
  profile slows Python code down, so the parts are scaled to the CPU the same process spends
  per play in a run without it (``time.process_time``, all its threads).
* **The worker, by timing**: each request the engine sends is timed inside the worker (wall
  time and CPU), and the CPU of each call into gnubg there: the search (``find_best_move``,
  ``evaluate``, the ``hint`` and ``eval`` text commands), emptying the cache, settings. The rest
  of the request's CPU is the worker's own Python (decoding the IDs, legal plays, reading
  gnubg's answers, capturing its output); its wall time less its CPU, waiting for a core.
* **IPC**: each request's time in the bot's pool (a bot's turn may be two requests at once, on
  two workers) less the worker's time on it (submitting, pickling, the pipe, the worker's
  wake-up and the result's way back); pickling alone is timed (CPU) on the same values in the
  bot's process. Before the plays, the pool's round trip around a request that keeps the worker
  busy 0 and 40 ms.

Prints per play (the mean, milliseconds); no asserts.

Run: python bench/profile_play.py [--turns N] [--no-images] [--detail N]
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import event_loop
from bot.gnubg.api import Engine
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.pool import WorkerPool
from bot.render import render_board
from bot.service.matches import presentation as images
from bot.service.models import ENGINE_USER, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

PERSON = User("1", "alice")
LEVEL = "worldclass"
# The engine's requests (module-level functions the worker runs), by module.
REQUESTS = {
    "bot.gnubg.worker": (
        "take_turn",
        "choose_play",
        "cube_advice",
        "resignation_answer",
        "hint_plays",
        "rate_play",
        "evaluate",
    ),
    "bot.gnubg.mwc": ("match_winning_chance",),
}
SEARCHES = frozenset({"find_best_move", "find_best_moves", "evaluate"})

# -- the worker's side (these run in the gnubg worker) ----------------------------------------


class _Timed:
    """gnubg's module with every call timed into ``spent`` by kind."""

    def __init__(self, real: Any, spent: dict[str, float]) -> None:
        self._real = real
        self._spent = spent

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._real, name)
        if not callable(found):
            return found

        def timed(*args: Any) -> Any:
            start = time.thread_time()
            try:
                return found(*args)
            finally:
                self._spent[_kind(name, args)] += time.thread_time() - start

        return timed


def _kind(name: str, args: tuple[Any, ...]) -> str:
    if name in SEARCHES:
        return "gnubg search"
    if name == "command":
        line = str(args[0]) if args else ""
        if line.startswith(("hint", "eval")):
            return "gnubg search (text commands)"
        if "cache" in line:
            return "gnubg cache emptied"
        return "gnubg settings"
    return "gnubg other calls"


_records: list[dict[str, float]] = []


def instrument() -> int:
    """Time this worker's requests and its gnubg calls from now on (idempotent)."""
    import importlib

    if isinstance(sys.modules["gnubg"], _Timed):
        return 0
    spent: dict[str, float] = defaultdict(float)
    sys.modules["gnubg"] = cast(Any, _Timed(sys.modules["gnubg"], spent))
    depth = [0]
    for module_name, names in REQUESTS.items():
        module = importlib.import_module(module_name)
        for name in names:
            setattr(module, name, _recorded(getattr(module, name), spent, depth))
    return 1


def _recorded(
    function: Callable[..., Any], spent: dict[str, float], depth: list[int]
) -> Callable[..., Any]:
    @functools.wraps(function)
    def recorded(*args: Any) -> Any:
        if depth[0]:
            return function(*args)
        depth[0] += 1
        # gnubg's work since the last request ended: the worker's idle time (its cache emptied)
        _records.append({"idle": sum(spent.values())})
        spent.clear()
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return function(*args)
        finally:
            depth[0] -= 1
            total, cpu = time.perf_counter() - start, time.thread_time() - cpu
            _records.append({"request": total, "request cpu": cpu, **spent})
            spent.clear()

    return recorded


def busy(seconds: float) -> tuple[float, float]:
    """Keep the worker's core busy for ``seconds`` (as a search does): when it started, ended."""
    start = time.time()
    while time.time() < start + seconds:
        pass
    return start, time.time()


def collect() -> list[dict[str, float]]:
    """The timings recorded in this worker since the last collect."""
    out = list(_records)
    _records.clear()
    return out


# -- the bot's process --------------------------------------------------------------------------

# The parts of the bot's process, each by marks in ``file:function`` (the first that matches).
PARTS = (
    ("asyncio and other", ("concurrent/futures/thread.py",)),  # the renderer's thread pool
    ("rules", ("bot/rules/",)),
    ("store", ("bot/store/", "sqlalchemy", "sqlite3", "aiosqlite")),
    ("encode (PNG)", ("PngImagePlugin", "ImageFile.py", "zlib", "ImagingEncoder")),
    ("render", ("bot/render/", "PIL/", "ImagingCore", "ImagingDraw", "ImagingFont")),
    ("IPC (bot side)", ("concurrent/futures", "multiprocessing", "pickle", "bot/gnubg/")),
    ("parse and service", ("bot/service/", "bot/cogs/", "bot/text", "bot/settings")),
)

OTHER = "asyncio and other"
# Where a function's own part is the caller's: Python's builtins and small helpers.
_SHARED = ("~:", "/dataclasses.py", "/functools.py", "/enum.py", "/typing.py", "/abc.py", "/re/")
_LOOP = ("asyncio", "selectors", "select.epoll", "threading", "socket")

Func = tuple[str, int, str]


def part_of(where: str) -> str:
    for name, marks in PARTS:
        if any(mark in where for mark in marks):
            return name
    return OTHER


def _where(func: Func) -> str:
    return f"{func[0]}:{func[2]}"


def _shared(func: Func) -> bool:
    where = _where(func)
    return any(mark in where for mark in _SHARED) and not any(mark in where for mark in _LOOP)


def own_times(profile: cProfile.Profile) -> dict[str, float]:
    """Own time (seconds) of every function in ``profile`` by ``file:function``, a builtin's
    or a small helper's given to its callers' parts (by the time each call took)."""
    profile.create_stats()
    stats: dict[Func, tuple[Any, ...]] = getattr(profile, "stats", {})
    out: dict[str, float] = defaultdict(float)

    def give(func: Func, seconds: float, depth: int) -> None:
        callers: dict[Func, tuple[Any, ...]] = stats.get(func, (0, 0, 0, 0, {}))[4]
        if not _shared(func) or depth > 6 or not callers:
            out[_where(func)] += seconds
            return
        total = sum(row[2] for row in callers.values()) or 1.0
        for caller, row in callers.items():
            give(caller, seconds * row[2] / total, depth + 1)

    for func, row in stats.items():
        give(func, row[2], 0)
    return out


def parts(profile: cProfile.Profile) -> dict[str, float]:
    """Own time (seconds) of every function in ``profile``, summed by :data:`PARTS`."""
    out: dict[str, float] = defaultdict(float)
    for where, own in own_times(profile).items():
        out[part_of(where)] += own
    return out


def top(profiles: list[cProfile.Profile], part: str, count: int) -> list[tuple[str, float]]:
    """The ``count`` functions of ``part`` with the most own time."""
    found = [
        (where, own)
        for profile in profiles
        for where, own in own_times(profile).items()
        if part_of(where) == part
    ]
    return sorted(found, key=lambda item: -item[1])[:count]


class Calls:
    """The engine, timing each call in the bot's process and pickling its values."""

    def __init__(self, engine: GnubgEngine) -> None:
        self.engine = engine
        self.seconds = 0.0
        self.pickling = 0.0
        self.count = 0
        self.bytes = 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.engine, name)
        if not name.startswith(("take_turn", "cube_advice", "resignation_answer")):
            return found

        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            answer = await found(*args, **kwargs)
            self.seconds += time.perf_counter() - start
            self.count += 1
            start = time.thread_time()
            sent = pickle.dumps((name, args, kwargs), pickle.HIGHEST_PROTOCOL)
            back = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
            pickle.loads(sent)
            pickle.loads(back)
            self.pickling += time.thread_time() - start
            self.bytes += len(sent) + len(back)
            return answer

        return timed


class Trips:
    """Each request's way through the pool in the bot's process (submit to answer read), while
    ``on``: the bot's turn may be two requests at once on two workers, so IPC is this less the
    workers' time on them, not the engine call's time."""

    def __init__(self, workers: WorkerPool) -> None:
        self.on = False
        self.seconds = 0.0
        run = workers._run

        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await run(*args, **kwargs)
            finally:
                if self.on:
                    self.seconds += time.perf_counter() - start

        vars(workers)["_run"] = timed


class Profiled:
    """cProfile of the renderer's thread: each board drawn, profiled there."""

    def __init__(self) -> None:
        self.profile = cProfile.Profile(time.thread_time)
        self.on = False
        self.real = render_board

    def __call__(self, *args: Any, **kwargs: Any) -> bytes:
        if not self.on:
            return self.real(*args, **kwargs)
        self.profile.enable()
        try:
            return self.real(*args, **kwargs)
        finally:
            self.profile.disable()


def next_command(
    match: Any, service: TableService, place: Place, rng: random.Random
) -> Callable[[], Awaitable[list[Reply]]]:
    """The person's next command (chosen here, outside what is timed)."""
    if match.phase == "move":
        return partial(
            service.matches.move, place, PERSON, rng.choice(match.legal_plays()).notation
        )
    if match.phase == "roll":
        return partial(service.matches.roll, place, PERSON)
    if match.phase == "doubled":
        return partial(service.matches.take, place, PERSON)
    return partial(service.matches.accept, place, PERSON)  # the bot's resignation


Around = Callable[[Callable[[], Awaitable[list[Reply]]]], Awaitable[None]]


async def plays(
    service: TableService, calls: Calls, place: Place, turns: int, seed: int, around: Around
) -> None:
    """``turns`` commands after which the bot played, each run through ``around``."""
    rng = random.Random(seed)
    done = 0
    while done < turns:
        await service.matches.challenge(place, PERSON, ENGINE_USER, f"5 {LEVEL}")
        while (table := await service.table(place)) is not None and done < turns:
            before = calls.count
            await around(next_command(table.match, service, place, rng))
            done += calls.count > before
        if await service.table(place) is not None:
            await service.matches.abort(place, PERSON)


async def round_trips(workers: WorkerPool, seconds: float, count: int = 100) -> str:
    """The pool's way to a worker and back around a request that keeps it busy ``seconds``:
    medians of the request's start less its submission, and of its answer's arrival less its
    end (wall clocks of the two processes)."""
    there, back = [], []
    for _ in range(count):
        sent = time.time()
        start, end = await workers.call(busy, seconds, timeout=30)
        back.append(time.time() - end)
        there.append(start - sent)
    return (
        f"to the worker {statistics.median(there) * 1000:.3f} ms, "
        f"back {statistics.median(back) * 1000:.3f} ms"
    )


async def main(turns: int, draw: bool, detail: int) -> None:
    settings = Settings(analysis_auto=False)
    engine = GnubgEngine(settings)
    await engine.start()
    workers = engine.play_pool
    for seconds in (0.0, 0.04):
        trip = await round_trips(workers, seconds)
        print(f"IPC around a request of {seconds * 1000:.0f} ms (the median of 100): {trip}")
    for slot in range(workers.size):
        await workers.call(instrument, timeout=30, affinity=slot)
    calls = Calls(engine)
    renderer = Profiled()
    vars(images)["render_board"] = renderer  # the images module draws through it
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = TableService(
            store, settings=settings, dice=seeded_dice(5), images=draw, engine=cast(Engine, calls)
        )
        await service.warm_up()
        trips = Trips(workers)

        async def plain(command: Callable[[], Awaitable[list[Reply]]]) -> None:
            await command()

        # The CPU per play without a profiler, then the same plays' shares with one.
        await plays(service, calls, Place("bench", "warm"), 5, 99, plain)
        for slot in range(workers.size):
            await workers.call(collect, timeout=30, affinity=slot)
        calls.seconds = calls.pickling = 0.0
        calls.count = calls.bytes = 0
        trips.on = True
        cpu, wall = time.process_time(), time.perf_counter()
        await plays(service, calls, Place("bench", "plain"), turns, 1, plain)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        trips.on = False
        requests = calls.count
        engine_seconds, pickling, sent = calls.seconds, calls.pickling, calls.bytes
        worker: dict[str, float] = defaultdict(float)
        for slot in range(workers.size):
            for record in await workers.call(collect, timeout=30, affinity=slot):
                for key, value in record.items():
                    worker[key] += value

        main_profile = cProfile.Profile(time.thread_time)

        async def profiled(command: Callable[[], Awaitable[list[Reply]]]) -> None:
            main_profile.enable()
            try:
                await command()
            finally:
                main_profile.disable()

        renderer.on = True
        await plays(service, calls, Place("bench", "profiled"), turns, 1, profiled)
        renderer.on = False
        service.close()
        await store.close()
    await engine.close()
    report(
        turns,
        requests,
        cpu,
        wall,
        engine_seconds,
        trips.seconds,
        pickling,
        sent,
        worker,
        main_profile,
        renderer,
        detail,
    )


def report(
    turns: int,
    requests: int,
    cpu: float,
    wall: float,
    engine_seconds: float,
    trip_seconds: float,
    pickling: float,
    sent: int,
    worker: dict[str, float],
    main_profile: cProfile.Profile,
    renderer: Profiled,
    detail: int,
) -> None:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000 / turns:7.2f} ms"

    shares = parts(main_profile)
    for name, seconds in parts(renderer.profile).items():
        shares[name] += seconds
    profiled = sum(shares.values())
    print(
        f"{turns} bot plays at {LEVEL} (5-point matches, 1 channel), {requests} engine requests "
        f"({requests / turns:.2f} a play); per play, the mean:"
    )
    print(f"  wall time of the person's command with the bot's play {ms(wall)}")
    print(f"  the bot's process, CPU (all threads, no profiler)     {ms(cpu)}")
    for name, seconds in sorted(shares.items(), key=lambda item: -item[1]):
        print(f"    {name:<28} {ms(cpu * seconds / profiled)}  ({seconds / profiled:5.1%})")
        if detail:
            for where, own in top([main_profile, renderer.profile], name, detail):
                print(f"        {where[-60:]:<60} {ms(cpu * own / profiled)}")
    inside = worker.pop("request", 0.0)
    inside_cpu = worker.pop("request cpu", 0.0)
    idle = worker.pop("idle", 0.0)
    print(f"  engine calls, wall time in the bot's process          {ms(engine_seconds)}")
    print(f"  the requests in the pool (at once where a turn is two) {ms(trip_seconds)}")
    print(f"    IPC (submit, pipe, wake-ups, both ways)      {ms(trip_seconds - inside)}")
    print(
        f"      of which pickling, both ends               {ms(pickling)}  "
        f"({sent / max(requests, 1):.0f} bytes a request)"
    )
    print(f"    the worker, serving the requests             {ms(inside)}")
    print(f"      waiting for a core (wall less CPU)         {ms(inside - inside_cpu)}")
    print(f"      CPU                                        {ms(inside_cpu)}")
    for name, seconds in sorted(worker.items(), key=lambda item: -item[1]):
        print(f"        {name:<34} {ms(seconds)}")
    label = "the worker's own Python"
    print(f"        {label:<34} {ms(inside_cpu - sum(worker.values()))}")
    print(f"    the worker after answering (cache emptied)   {ms(idle)} CPU, off the reply's path")
    print(f"  load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--no-images", action="store_true", help="no board PNG in the replies")
    parser.add_argument("--detail", type=int, default=0, help="the N costliest functions a part")
    arguments = parser.parse_args()
    event_loop.run(main(arguments.turns, not arguments.no_images, arguments.detail))
