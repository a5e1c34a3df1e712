"""One long match through the table service: does a command cost more as the match grows?

Plays a 25-point match (board images on, as the bot runs) between two seeded random players and
prints the median and p99 time of the first and the last 200 commands, the bytes the match row
holds per action and the largest row, and the time from a restart (a new service on the same
database, nothing cached) to the first reply, measured once a player has half the points.
Goals: last 200 within 1.2x of the first 200; bytes per action constant; restart under 50 ms.
Run: python bench/long_match.py [--length 25] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path

from bot.service.models import Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.store import Store

PLACE = Place("bench", "long")
USERS = (User("a", "amy"), User("b", "ben"))
WINDOW = 200


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def row_bytes(store: Store) -> int:
    row = await store.fetch_one(
        "SELECT length(state) FROM matches WHERE server_id = ? AND channel_id = ? "
        "ORDER BY id DESC LIMIT 1",
        (PLACE.server_id, PLACE.channel_id),
    )
    return int(row[0]) if row else 0


async def run(length: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.sqlite3"
        store = await Store.open(path)
        service = TableService(store, dice=seeded_dice(seed))
        await service.warm_up()
        rng = random.Random(seed)
        times: list[float] = []
        sizes: list[int] = []
        restart_ms: tuple[float, float] | None = None

        async def timed(command: Awaitable[list[Reply]]) -> None:
            start = time.perf_counter()
            await command
            times.append(time.perf_counter() - start)
            sizes.append(await row_bytes(store))

        await timed(service.challenge(PLACE, USERS[0], USERS[1], length))
        await timed(service.accept(PLACE, USERS[1]))
        while (table := await service.table(PLACE)) is not None:
            match = table.match
            user = USERS[match.turn or 0]
            if restart_ms is None and max(match.score) >= length // 2:
                restart_ms = await restart(path, seed)
            if match.phase == "roll":
                double = match.can_double(match.on_roll) and rng.random() < 0.01
                await timed((service.double if double else service.roll)(PLACE, user))
            elif match.phase == "move":
                play = rng.choice(match.legal_plays()).notation
                await timed(service.move(PLACE, user, play))
            elif match.phase == "doubled":
                answer = service.take if rng.random() < 0.5 else service.drop
                await timed(answer(PLACE, user))
            else:
                await timed(service.reject(PLACE, user))
        final = await service.latest_table(PLACE)
        assert final is not None
        actions = len(final.match.actions)
        service.close()
        await store.close()

    first, last = summary(times[:WINDOW]), summary(times[-WINDOW:])
    print(f"{length}-point match: {len(times)} commands, {actions} actions")
    print(f"first {WINDOW} commands: median {first[0] * 1e3:6.2f} ms, p99 {first[1] * 1e3:6.2f} ms")
    print(f"last  {WINDOW} commands: median {last[0] * 1e3:6.2f} ms, p99 {last[1] * 1e3:6.2f} ms")
    print(f"last / first median: {last[0] / first[0]:.2f}x (goal <= 1.2x)")
    print(
        f"match row: {sizes[-1]} bytes at the end, {sizes[-1] / actions:.0f} per action; "
        f"largest row {max(sizes)} bytes"
    )
    # Each save rewrites the whole row: what a command writes is the row's size after it.
    print(
        f"bytes written per command: first {WINDOW} {statistics.mean(sizes[:WINDOW]):.0f}, "
        f"last {WINDOW} {statistics.mean(sizes[-WINDOW:]):.0f} (goal: constant)"
    )
    if restart_ms is not None:
        print(
            f"restart to first reply, late in the match: {restart_ms[0]:.1f} ms text-only, "
            f"{restart_ms[1]:.1f} ms with the board image (goal < 50 ms)"
        )


async def restart(path: Path, seed: int) -> tuple[float, float]:
    """A new process's view: a fresh store and service on the same file, then one command."""
    timings = []
    for images in (False, True):
        store = await Store.open(path)
        service = TableService(store, dice=seeded_dice(seed), images=images)
        await service.warm_up()  # the bot warms the renderer before it connects
        start = time.perf_counter()
        await (service.board if images else service.pips)(PLACE, USERS[0])
        timings.append((time.perf_counter() - start) * 1e3)
        service.close()
        await store.close()
    return timings[0], timings[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.length, args.seed))


if __name__ == "__main__":
    main()
