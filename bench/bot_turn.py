"""The bot's turn through the service against GNU Backgammon's own search on the same positions.

Per level, in one channel: a person (random legal plays, seeded; takes every double, accepts
every resignation) plays 5-point matches against the bot. Each of the person's commands after
which the bot moved is a bot turn: its time is the command's, until the replies come back (the
bot's resignation question, cube decision, roll and play, as the engine's workers answer them,
and the saves). The rolled positions the bot searched in that turn are then given to gnubg's own
``find_best_move`` at the level's settings, in a gnubg process of the bench's own, timed there
around that call alone (its cache warm from the same match, as when gnubg plays). Same run, same
positions and dice. Also the CPU a turn cost the bot's process and its gnubg workers against
gnubg's own search's (on a machine busy with other work, wall times include waits for a core).
Prints figures; no asserts.

Budget (issue 32, world class): all replies together at most 1.25x gnubg's own searches
together; the median reply at most 10 ms over gnubg's median (issue "Speed at scale": 1.4x,
+25 ms); p95 under 300 ms.

Run: python bench/bot_turn.py [--turns N] [--levels worldclass expert ...] [--images]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import event_loop
from bot.gnubg.api import LEVELS, Engine, Level, Query
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.pool import WorkerPool
from bot.gnubg.session import Situation
from bot.service.models import ENGINE_USER, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

PERSON = User("1", "alice")
# The engine methods through which the bot's turn searches a rolled position for its play
# (before this bench's issue: choose_play, and resignation_offer after a roll; after it: one;
# since: the roll's position rides with the cube decision before it, as ``rolled``).
BOT_SEARCHES = frozenset({"choose_play", "resignation_offer", "take_turn"})
BUDGET_RATIO = 1.25
BUDGET_MEDIAN_MS = 10.0
BUDGET_P95_MS = 300.0


def own_search(query: Query, level: Level) -> tuple[float, float]:
    """Seconds gnubg's ``find_best_move`` takes for this position and dice at ``level``, wall
    time and CPU (runs in a gnubg worker: gnubg is imported there only)."""
    import gnubg

    situation = Situation.of(query)
    context = gnubg.evalcontext(
        1, level.plies, int(level.deterministic), int(level.prune), level.noise
    )
    board, cubeinfo, dice = situation.board, situation.cubeinfo(), situation.dice
    start, cpu = time.perf_counter(), time.thread_time()
    gnubg.find_best_move(board, cubeinfo, context, dice)
    return time.perf_counter() - start, time.thread_time() - cpu


def cpu_seconds(pid: int) -> float:
    """User and system CPU of process ``pid`` so far (Linux; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rolled(query: Query) -> bool:
    return Situation.of(query).dice is not None


def searched_positions(query: Query, options: dict[str, Any]) -> list[Query]:
    """The rolled positions a request of the bot's turn searches for a play: its own, or the
    roll's that came with the cube decision before it (``rolled``)."""
    after_roll = options.get("rolled")
    if after_roll is not None:
        return [replace(query, gnubg_id=after_roll)]
    return [query] if rolled(query) else []


class Recording:
    """The engine, noting each rolled position the bot's turn searched (once per command)."""

    def __init__(self, engine: GnubgEngine) -> None:
        self.engine = engine
        self.searched: dict[str, Query] = {}

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.engine, name)
        if name not in BOT_SEARCHES:
            return found

        async def recorded(query: Query, *args: Any, **kwargs: Any) -> Any:
            for position in searched_positions(query, kwargs):
                self.searched.setdefault(position.gnubg_id, position)
            return await found(query, *args, **kwargs)

        return recorded


@dataclass(frozen=True, slots=True)
class Turn:
    reply: float  # seconds: the person's command until its replies, with the bot's turn
    own: float  # seconds: gnubg's own find_best_move on the positions the bot searched
    cpu: float  # the bot's process's CPU seconds in the command (all its threads)
    own_cpu: float  # gnubg's own find_best_move's CPU seconds


def ms(seconds: list[float]) -> list[float]:
    return sorted(s * 1000 for s in seconds)


def p95(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.95))]


async def play(
    service: TableService,
    recording: Recording,
    own: WorkerPool,
    place: Place,
    level: str,
    turns: int,
    seed: int,
) -> tuple[list[Turn], int]:
    """``turns`` bot turns at ``level``, and how many of the bot's turns failed."""
    rng = random.Random(seed)
    timed: list[Turn] = []
    failed = 0
    while len(timed) < turns:
        await service.matches.challenge(place, PERSON, ENGINE_USER, f"5 {level}")
        while (table := await service.table(place)) is not None and len(timed) < turns:
            match = table.match
            command: Callable[[], Awaitable[list[Reply]]]
            if match.phase == "move":
                chosen = rng.choice(match.legal_plays()).notation
                command = partial(service.matches.move, place, PERSON, chosen)
            elif match.phase == "roll":
                command = partial(service.matches.roll, place, PERSON)
            elif match.phase == "doubled":
                command = partial(service.matches.take, place, PERSON)
            else:
                command = partial(service.matches.accept, place, PERSON)  # the bot's resignation
            recording.searched.clear()
            start, cpu = time.perf_counter(), time.process_time()
            replies = await command()
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            failed += sum("could not take its turn" in reply.text for reply in replies)
            if recording.searched:
                searches = [
                    await own.call(own_search, query, LEVELS[level], timeout=60)
                    for query in recording.searched.values()
                ]
                wall = sum(search[0] for search in searches)
                timed.append(Turn(seconds, wall, cpu, sum(search[1] for search in searches)))
        if await service.table(place) is not None:
            await service.matches.abort(place, PERSON)
    return timed, failed


def report_cpu(turns: list[Turn], workers: float) -> None:
    """The CPU the bot's turns cost against gnubg's own searches': on a machine busy with other
    work, wall times wait for a core; CPU doesn't."""
    own = sum(turn.own_cpu for turn in turns)
    bot = sum(turn.cpu for turn in turns)
    count = max(len(turns), 1)
    print(
        f"  CPU a turn: the bot's process {bot * 1000 / count:.1f} ms, its gnubg workers "
        f"{workers * 1000 / count:.1f} ms; gnubg's own search {own * 1000 / count:.1f} ms | "
        f"workers / own {workers / own:.2f}x | bot and workers / own {(bot + workers) / own:.2f}x"
    )


def report(level: str, turns: list[Turn], failed: int) -> None:
    replies = ms([turn.reply for turn in turns])
    own = ms([turn.own for turn in turns])
    ratio = sum(replies) / sum(own)
    over = statistics.median(replies) - statistics.median(own)
    print(
        f"{level:<13} turns {len(turns):<4} replies median {statistics.median(replies):6.1f} ms "
        f"p95 {p95(replies):6.1f} ms | gnubg's own median {statistics.median(own):6.1f} ms "
        f"p95 {p95(own):6.1f} ms | all replies / all own {ratio:5.2f}x | median +{over:5.1f} ms"
        + (f" | {failed} turns failed" if failed else "")
    )
    if level == "worldclass":
        print(
            f"  world class budget: ratio {ratio:.2f}x (<= {BUDGET_RATIO}x), median "
            f"+{over:.1f} ms (<= {BUDGET_MEDIAN_MS:g}), p95 {p95(replies):.0f} ms "
            f"(< {BUDGET_P95_MS:g})"
        )


async def main(turns: int, levels: list[str], images: bool) -> None:
    settings = Settings(analysis_auto=False)
    engine = GnubgEngine(settings)
    own = WorkerPool(1, name="gnubg-own")
    await asyncio.gather(engine.start(), own.start())
    recording = Recording(engine)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = TableService(
            store,
            settings=settings,
            dice=seeded_dice(5),
            images=images,
            engine=cast(Engine, recording),
        )
        await service.warm_up()
        print(
            f"{settings.engine_workers} play workers, 1 channel, 5-point matches, {turns} bot "
            f"turns per level, board images {'on' if images else 'off'}; a turn: the person's "
            "command -> its replies with the bot's turn; gnubg's own: find_best_move alone"
        )
        for number, level in enumerate(levels):
            place = Place("bench", f"level-{number}")
            workers = sum(map(cpu_seconds, engine.play_pool.pids()))
            timed, failed = await play(service, recording, own, place, level, turns, number)
            workers = sum(map(cpu_seconds, engine.play_pool.pids())) - workers
            report(level, timed, failed)
            report_cpu(timed, workers)
        service.close()
        await store.close()
    await asyncio.gather(engine.close(), own.close())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=150)
    parser.add_argument("--levels", nargs="+", choices=list(LEVELS), default=list(LEVELS))
    parser.add_argument("--images", action="store_true", help="draw the board PNG in each reply")
    arguments = parser.parse_args()
    event_loop.run(main(arguments.turns, arguments.levels, arguments.images))
