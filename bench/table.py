"""Whole matches through the table service: C channels at once, images rendered.

Prints commands/s, p50 and p99 milliseconds per command and peak RSS for C = 1, 50, 500 (each in
its own process so the RSS figures don't mix). Run: python bench/table.py [--channels C ...]
(bench/stores.py runs it on SQLite and PostgreSQL, in one process and in two).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import event_loop
from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.store import Store

LENGTH = 1


async def play_channel(service: TableService, n: int, latencies: list[float], think: float) -> None:
    place = Place("bench", f"channel-{n}")
    users = (User(f"a{n}", f"amy{n}"), User(f"b{n}", f"ben{n}"))
    rng = random.Random(n)

    async def timed(coro: Awaitable[object]) -> None:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        start = time.perf_counter()
        await coro
        latencies.append(time.perf_counter() - start)

    await timed(service.matches.challenge(place, users[0], users[1], LENGTH))
    await timed(service.matches.accept(place, users[1]))
    while True:
        table = await service.table(place)
        if table is None:
            return
        match = table.match
        user = users[match.turn or 0]
        if match.phase == "roll":
            await timed(
                service.matches.double(place, user)
                if rng.random() < 0.05
                else service.matches.roll(place, user)
            )
        elif match.phase == "move":
            await timed(service.matches.move(place, user, rng.choice(match.legal_plays()).notation))
        elif match.phase == "doubled":
            await timed(service.matches.take(place, user))
        else:
            await timed(service.matches.reject(place, user))


async def run(
    channels: int,
    think: float,
    *,
    database: str | None = None,
    images: bool = True,
    first: int = 0,
    as_json: bool = False,
) -> None:
    """Play ``channels`` channels (numbered from ``first``) on ``database`` (default: a new
    SQLite file) and print the figures."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(database or Path(folder) / "bench.sqlite3")
        service = TableService(store, dice=seeded_dice(1), images=images)
        await service.warm_up()
        latencies: list[float] = []
        cpu = time.process_time()
        start = time.perf_counter()
        await asyncio.gather(
            *(play_channel(service, n, latencies, think) for n in range(first, first + channels))
        )
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        service.close()
        await store.close()
    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if as_json:
        figures = {"commands": len(latencies), "seconds": elapsed, "p50": p50, "p99": p99}
        figures["cpu"] = cpu  # the process's, while it played (no start-up, no imports)
        ended = time.time()  # wall-clock: comparable across processes
        print(json.dumps(figures | {"started": ended - elapsed, "ended": ended}), flush=True)
        return
    mode = f"think {think:g} s" if think else "flat out  "
    print(
        f"{channels:4d} channels, {mode}: {len(latencies):6d} commands in {elapsed:6.1f} s = "
        f"{len(latencies) / elapsed:6.0f} commands/s; p50 {p50 * 1e3:6.1f}"
        f" ms, p99 {p99 * 1e3:6.1f} ms; peak RSS {rss_mb:5.0f} MB",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--channels", type=int, nargs="*", default=[1, 50, 500])
    parser.add_argument(
        "--think",
        type=float,
        nargs="*",
        default=[0.0, 1.0],
        help="mean seconds a player waits before each command (0 = flat out)",
    )
    parser.add_argument("--db", help="a SQLite path or postgresql:// URL (default: a new file)")
    parser.add_argument("--no-images", action="store_true", help="draw no board images")
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.in_process:
        event_loop.run(
            run(
                args.channels[0],
                args.think[0],
                database=args.db,
                images=not args.no_images,
                first=args.first,
                as_json=args.json,
            )
        )
        return
    print(f"{LENGTH}-point matches with board images; each line is a fresh process.")
    print(
        "'flat out': each channel sends its next command the moment the reply comes (the "
        "most the service does);\n'think T s': a player waits T seconds on average (random) "
        "before each command, as people do."
    )
    for think in args.think:
        for channels in args.channels:
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--in-process",
                    "--channels",
                    str(channels),
                    "--think",
                    str(think),
                ],
                check=True,
            )


if __name__ == "__main__":
    main()
