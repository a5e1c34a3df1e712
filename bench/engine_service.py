"""The gnubg engine service as the bot calls it: through the worker pool, from the event loop.

Per level: choose_play and cube_advice wall time per call (median, p95, max) over self-play
positions; hint_plays (five plays at 2-ply, gnubg's own hint's first play first) and evaluate
at 2-ply; worker start time and RSS (from /proc). Sequential calls, one play worker, as one bot
move is. Prints figures; no asserts.
Run: python bench/engine_service.py [--positions N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import event_loop
from bot.gnubg.api import LEVELS, Level, Query
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.samples import cases
from bot.settings import Settings


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def figures(name: str, seconds: list[float]) -> str:
    """``name``, the count, the median, p95 and max of ``seconds``, in milliseconds."""
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{name:<34} n={len(ms):<4} median {statistics.median(ms):7.1f} ms   "
        f"p95 {p95:7.1f} ms   max {ms[-1]:7.1f} ms"
    )


async def timed(calls: list[Callable[[], Awaitable[object]]]) -> list[float]:
    seconds = []
    for call in calls:
        start = time.perf_counter()
        await call()
        seconds.append(time.perf_counter() - start)
    return seconds


async def main(count: int) -> None:
    engine = GnubgEngine(Settings(engine_workers=1, engine_timeout_seconds=30.0))
    start = time.perf_counter()
    await engine.play_pool.start()
    print(f"worker start (spawn, import gnubg, nets): {time.perf_counter() - start:.2f} s")
    rolled = [case.query() for case in cases(seed=2024, count=count)]
    before_roll = [case for case in cases(seed=2025, count=count, rolled=False)]
    # Only cube decisions the player on roll may take (not Crawford, not the opponent's cube).
    cube_queries = [
        case.query()
        for case in before_roll
        if not case.context.crawford and case.context.owner != "them"
    ]
    print(
        f"{len(rolled)} rolled positions, {len(cube_queries)} cube positions (self-play, "
        "money and match states)"
    )
    for name, level in LEVELS.items():

        def play(query: Query, level: Level = level) -> Awaitable[object]:
            return engine.choose_play(query, level)

        def cube(query: Query, level: Level = level) -> Awaitable[object]:
            return engine.cube_advice(query, level)

        await engine.choose_play(rolled[0], level)  # settings change: cache cleared once
        print(figures(f"{name} choose_play", await timed([partial(play, q) for q in rolled])))
        print(figures(f"{name} cube_advice", await timed([partial(cube, q) for q in cube_queries])))
    hints = rolled[: max(20, count // 5)]
    print(
        figures(
            "hint_plays five at 2-ply",
            await timed([partial(engine.hint_plays, q, count=5, plies=2) for q in hints]),
        )
    )
    print(
        figures(
            "evaluate at 2-ply (rolled)",
            await timed([partial(engine.evaluate, q, plies=2) for q in hints]),
        )
    )
    for pid in engine.play_pool.pids():
        print(f"worker {pid} RSS {rss_mb(pid):.0f} MB")
    await engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    event_loop.run(main(parser.parse_args().positions))
