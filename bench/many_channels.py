"""Many channels playing the bot at once: plays per second and reply times, against what GNU
Backgammon itself does on the same workers.

For C = 1, 4, 16, 64 channels: in each, a person of its own (random legal plays, seeded; takes
every double, accepts every resignation) plays 5-point world-class matches against the bot for
``--seconds``, reading the match as ``/move``'s autocomplete does (from the service's memory:
its Discord client reads no store). A bot play is a rolled position the bot searched; its reply
time is the person's command until the bot's turn is shown: in the command's replies, or, when
the bot was busy and the turn was queued, in the last message of the job the queued reply names
(followed at once).
Then, in the same run, every position the bot searched is given to gnubg's own
``find_best_move`` on as many gnubg processes of the bench's own as the bot has play workers,
all busy at once: gnubg's own plays per second (the budget's yardstick). Then the same turns
once more as gnubg's own play takes them (``ComputerTurn`` in its play.c): where the bot weighed
the cube before that roll, gnubg's evaluation of its doubling window first (and its cube
analysis inside it), on the same process's cache, then the search: gnubg's own turns per
second. Also the CPU each play cost the bot's process (the service, the store, drawing boards,
the pool; and this bench's person) and its gnubg workers. Prints figures; no asserts.

In ``--seconds`` the matches of 64 channels are younger than those of 16 (more openings and
contact, which gnubg searches longer): gnubg's own CPU per play says how costly each line's
positions were, and the last line compares 64 with 16 channels in plays and in that work.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bot_turn import cpu_seconds, own_search, p95, searched_positions
from bot import event_loop
from bot.gnubg.api import LEVELS, Engine, Level, Query
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.pool import WorkerPool
from bot.gnubg.worker import take_turn
from bot.rules.match import Match
from bot.service.models import ENGINE_USER, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

LEVEL = "worldclass"


class Searches:
    """The engine, noting every rolled position the bot searched for its play, with the state
    before that roll where the same request weighed the cube first."""

    def __init__(self, engine: GnubgEngine) -> None:
        self.engine = engine
        self.turns: list[tuple[Query | None, Query]] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.engine, name)
        if name != "take_turn":
            return found

        async def recorded(query: Query, *args: Any, **kwargs: Any) -> Any:
            before = query if kwargs.get("rolled") is not None else None
            self.turns += [(before, after) for after in searched_positions(query, kwargs)]
            return await found(query, *args, **kwargs)

        return recorded


def own_turn(before: Query | None, after: Query, level: Level) -> None:
    """gnubg's own turn (in a gnubg worker): ``before`` the roll, where the bot weighed the
    cube, gnubg's doubling window evaluated as its own play does (the bot's request for it,
    whose cube decision is gnubg's: ``bot.gnubg.worker.take_turn``), then the search on the
    same cache, as gnubg's own play keeps it."""
    if before is not None:
        take_turn(before, level, False)
    own_search(after, level)


@dataclass
class Channel:
    """What one channel saw: the reply times of the person's commands after which the bot
    played, and how many of those replies said the bot's turn was queued."""

    times: list[float] = field(default_factory=list)
    queued: int = 0


async def followed(service: TableService, replies: list[Reply]) -> int:
    """Follow the jobs ``replies`` name (a queued bot turn's) to their end; how many."""
    jobs = [reply.job for reply in replies if reply.job is not None]
    for job in jobs:
        async for _ in service.follow(job):
            pass
    return len(jobs)


async def shown(service: TableService, place: Place) -> Match | None:
    """The match being played at ``place`` as its person sees it: from the service's memory, as
    ``/move``'s autocomplete reads it (a person's Discord client reads no store); from the store
    only when it is not kept."""
    kept = service.repository.kept_playing(place)
    if kept is not None:
        return kept.match
    table = await service.table(place)
    return None if table is None else table.match


async def channel(service: TableService, place: Place, until: float, seed: int) -> Channel:
    """Play against the bot at ``place`` until ``until`` (a person of its own: one person is
    refused a fourth game against the bot at once)."""
    rng = random.Random(seed)
    person = User(str(1000 + seed), f"p{seed}")
    seen = Channel()
    while time.perf_counter() < until:
        await followed(
            service, await service.matches.challenge(place, person, ENGINE_USER, f"5 {LEVEL}")
        )
        while (match := await shown(service, place)) is not None:
            if time.perf_counter() >= until:
                await service.matches.abort(place, person)
                break
            start = time.perf_counter()
            if match.phase == "move":
                play = rng.choice(match.legal_plays()).notation
                replies = await service.matches.move(place, person, play)
            elif match.phase == "roll":
                replies = await service.matches.roll(place, person)
            elif match.phase == "doubled":
                replies = await service.matches.take(place, person)
            else:
                replies = await service.matches.accept(place, person)
            queued = await followed(service, replies)
            after = await shown(service, place)
            if after is None or after.action_count > match.action_count + 1:
                seen.times.append(time.perf_counter() - start)  # the bot acted in this reply
                seen.queued += queued
    return seen


async def own_rate(
    pool: WorkerPool, turns: list[tuple[Query | None, Query]], *, whole: bool
) -> tuple[float, float]:
    """gnubg's own plays per second over ``turns``' rolled positions (``whole``: its whole
    turns, see :func:`own_turn`), every process of ``pool`` busy, and the CPU seconds each
    play cost it."""
    level = LEVELS[LEVEL]
    cpu = sum(map(cpu_seconds, pool.pids()))
    start = time.perf_counter()
    await asyncio.gather(
        *(
            pool.call(own_turn, before if whole else None, after, level, timeout=60)
            for before, after in turns
        )
    )
    cpu = sum(map(cpu_seconds, pool.pids())) - cpu
    return len(turns) / (time.perf_counter() - start), cpu / max(len(turns), 1)


async def main(counts: list[int], seconds: float) -> None:
    settings = Settings(analysis_auto=False)
    engine = GnubgEngine(settings)
    own = WorkerPool(settings.engine_workers, name="gnubg-own", depth=2)
    await asyncio.gather(engine.start(), own.start())
    searches = Searches(engine)
    print(
        f"{settings.engine_workers} play workers, {LEVEL}, 5-point matches, {seconds:g} s per "
        "line, board images on; gnubg's own: find_best_move on the same positions, all its "
        f"processes busy; the bot on {event_loop.loop_name()}'s event loop"
    )
    rates: dict[int, float] = {}
    costs: dict[int, float] = {}  # gnubg's own CPU per play of the positions of each line
    for count in counts:
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(Path(folder) / "bench.sqlite3")
            service = TableService(
                store, settings=settings, dice=seeded_dice(7), engine=cast(Engine, searches)
            )
            await service.warm_up()
            searches.turns.clear()
            workers = engine.play_pool.pids()
            cpu_before = time.process_time(), sum(map(cpu_seconds, workers))
            start = time.perf_counter()
            until = start + seconds
            results = await asyncio.gather(
                *(channel(service, Place("bench", f"c{n}"), until, n) for n in range(count))
            )
            elapsed = time.perf_counter() - start
            bot_cpu = time.process_time() - cpu_before[0]
            workers_cpu = sum(map(cpu_seconds, workers)) - cpu_before[1]
            plays = len(searches.turns)
            service.close()
            await store.close()
        # every position the bot searched, not a sample: the same work on both sides
        own_plays, own_play_cpu = await own_rate(own, searches.turns, whole=False)
        own_turns, own_turn_cpu = await own_rate(own, searches.turns, whole=True)
        replies = sorted(s for result in results for s in result.times)
        queued = sum(result.queued for result in results)
        rates[count] = plays / elapsed
        costs[count] = own_play_cpu
        per_play = 1e3 / max(plays, 1)
        print(
            f"{count:>3} channels: bot {rates[count]:5.1f} plays/s = "
            f"{rates[count] / own_plays:4.2f}x gnubg's own {own_plays:5.1f}/s; replies p50 "
            f"{statistics.median(replies) * 1e3:6.0f} ms, p95 {p95(replies) * 1e3:6.0f} ms, "
            f"{queued / max(len(replies), 1):4.0%} queued; CPU per play: bot's process "
            f"{bot_cpu * per_play:4.1f} ms, its gnubg workers {workers_cpu * per_play:4.1f} ms "
            f"(gnubg's own {own_play_cpu * 1e3:4.1f} ms)\n"
            f"     and {rates[count] / own_turns:4.2f}x gnubg's own turns {own_turns:5.1f}/s "
            f"(its cube weighed before the roll where the bot's was: "
            f"{sum(before is not None for before, _ in searches.turns) / max(plays, 1):.0%} of "
            f"the plays; {own_turn_cpu * 1e3:4.1f} ms of CPU a play)",
            flush=True,
        )
    if 16 in rates and 64 in rates:
        work = (rates[64] * costs[64]) / (rates[16] * costs[16])
        print(
            f"64 channels / 16 channels: {rates[64] / rates[16]:.2f}x plays/s (budget >= 0.9x); "
            f"{work:.2f}x in gnubg's own work per second (its CPU per play of the positions: "
            f"{costs[16] * 1e3:.1f} ms at 16, {costs[64] * 1e3:.1f} ms at 64)"
        )
    await asyncio.gather(engine.close(), own.close())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--seconds", type=float, default=20.0)
    arguments = parser.parse_args()
    event_loop.run(main(arguments.channels, arguments.seconds))
