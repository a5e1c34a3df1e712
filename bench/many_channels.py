"""Many channels playing the bot at once: plays per second and reply times, against what GNU
Backgammon itself does on the same workers.

For C = 1, 4, 16, 64 channels: in each, a person (random legal plays, seeded; takes every double,
accepts every resignation) plays 5-point world-class matches against the bot for ``--seconds``.
A bot play is a rolled position the bot searched; its reply time is the person's command until
the replies (with the bot's turn) come back. Then, in the same run, the positions the bot
searched are given to gnubg's own ``find_best_move`` on as many gnubg processes of the bench's
own as the bot has play workers, all busy at once: gnubg's own plays per second. Prints figures;
no asserts.

Budget (issue "Speed at scale"): at 16 and 64 channels at least 0.8x gnubg's own throughput, p95
at 16 channels under 1.5 s, and 64 channels at least 0.9x the 16-channel figure.

Run: python bench/many_channels.py [--channels 1 4 16 64] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bot_turn import PERSON, own_search, p95, rolled
from bot.gnubg.api import LEVELS, Engine, Query
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.pool import WorkerPool
from bot.service.models import ENGINE_USER, Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

LEVEL = "worldclass"
OWN_SAMPLE = 600  # positions given to gnubg's own search per line


class Searches:
    """The engine, noting every rolled position the bot searched for its play."""

    def __init__(self, engine: GnubgEngine) -> None:
        self.engine = engine
        self.positions: list[Query] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.engine, name)
        if name != "take_turn":
            return found

        async def recorded(query: Query, *args: Any, **kwargs: Any) -> Any:
            if rolled(query):
                self.positions.append(query)
            return await found(query, *args, **kwargs)

        return recorded


async def channel(service: TableService, place: Place, until: float, seed: int) -> list[float]:
    """Play against the bot at ``place`` until ``until``; the reply times of the person's
    commands after which the bot played."""
    rng = random.Random(seed)
    times: list[float] = []
    while time.perf_counter() < until:
        await service.challenge(place, PERSON, ENGINE_USER, f"5 {LEVEL}")
        while (table := await service.table(place)) is not None:
            if time.perf_counter() >= until:
                await service.abort(place, PERSON)
                break
            match = table.match
            start = time.perf_counter()
            if match.phase == "move":
                play = rng.choice(match.legal_plays()).notation
                await service.move(place, PERSON, play)
            elif match.phase == "roll":
                await service.roll(place, PERSON)
            elif match.phase == "doubled":
                await service.take(place, PERSON)
            else:
                await service.accept(place, PERSON)
            after = await service.table(place)
            if after is None or after.match.action_count > match.action_count + 1:
                times.append(time.perf_counter() - start)  # the bot acted in this reply
    return times


async def own_rate(pool: WorkerPool, positions: list[Query]) -> float:
    """gnubg's own plays per second over ``positions``, every process of ``pool`` busy."""
    start = time.perf_counter()
    await asyncio.gather(
        *(pool.call(own_search, query, LEVELS[LEVEL], timeout=60) for query in positions)
    )
    return len(positions) / (time.perf_counter() - start)


async def main(counts: list[int], seconds: float) -> None:
    settings = Settings(analysis_auto=False)
    engine = GnubgEngine(settings)
    own = WorkerPool(settings.engine_workers, name="gnubg-own")
    await asyncio.gather(engine.start(), own.start())
    searches = Searches(engine)
    print(
        f"{settings.engine_workers} play workers, {LEVEL}, 5-point matches, {seconds:g} s per "
        "line, board images on; gnubg's own: find_best_move on the same positions, all its "
        "processes busy"
    )
    rates: dict[int, float] = {}
    for count in counts:
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(Path(folder) / "bench.sqlite3")
            service = TableService(
                store, settings=settings, dice=seeded_dice(7), engine=cast(Engine, searches)
            )
            await service.warm_up()
            searches.positions.clear()
            start = time.perf_counter()
            until = start + seconds
            results = await asyncio.gather(
                *(channel(service, Place("bench", f"c{n}"), until, n) for n in range(count))
            )
            elapsed = time.perf_counter() - start
            plays = len(searches.positions)
            sample = random.Random(count).sample(
                searches.positions, min(OWN_SAMPLE, len(searches.positions))
            )
            service.close()
            await store.close()
        own_plays = await own_rate(own, sample)
        replies = sorted(s for result in results for s in result)
        rates[count] = plays / elapsed
        print(
            f"{count:>3} channels: bot {rates[count]:5.1f} plays/s = "
            f"{rates[count] / own_plays:4.2f}x gnubg's own {own_plays:5.1f}/s; replies p50 "
            f"{statistics.median(replies) * 1e3:6.0f} ms, p95 {p95(replies) * 1e3:6.0f} ms",
            flush=True,
        )
    if 16 in rates and 64 in rates:
        print(f"64 channels / 16 channels: {rates[64] / rates[16]:.2f}x (budget >= 0.9x)")
    await asyncio.gather(engine.close(), own.close())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--seconds", type=float, default=20.0)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.channels, arguments.seconds))
