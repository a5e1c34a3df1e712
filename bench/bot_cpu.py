"""The bot's own process CPU per play on a fixed piece of work.

As in ``bench/many_channels.py``, a person of its own in each of ``--channels`` channels plays
5-point world-class matches against the bot (random legal plays, seeded; board images on), but
each makes ``--commands`` commands: the dice are seeded and gnubg's answers the same, so every
run does the same work, the same bot plays. A busy machine's waits for a core cost no CPU, so
before-and-after runs compare on a shared machine where throughput figures can't. Prints the CPU
per bot play of the bot's process (all its threads; not its gnubg workers'); no asserts.

``--parts`` prints after the runs where their CPU went, per play: the boards (the renderer's
thread, timed board by board), SQLite's thread (timed batch by batch, with its trips and
statements), the garbage collector, and the event loop's thread split by a cProfile of one more
run (``bench/profile_play.py``'s parts) scaled to the rest. The timing adds about 1 ms a play.

Run: python bench/bot_cpu.py [--channels 16] [--commands 40] [--runs 3] [--parts]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.many_channels import followed, shown
from bench.profile_play import parts
from bot import event_loop
from bot.gnubg.api import Engine
from bot.gnubg.engine import GnubgEngine
from bot.render import forget_kept
from bot.service.matches import presentation as images
from bot.service.models import ENGINE_USER, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from bot.store import connections as sqlite_runner


class Counted:
    """The engine, counting the bot's plays (its turns asked)."""

    def __init__(self, engine: GnubgEngine) -> None:
        self.engine = engine
        self.plays = 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.engine, name)
        if name != "take_turn":
            return found

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.plays += 1
            return await found(*args, **kwargs)

        return counted


async def channel(service: TableService, place: Place, commands: int, seed: int) -> None:
    """``commands`` commands of a person of its own against the bot at ``place``."""
    rng = random.Random(seed)
    person = User(str(1000 + seed), f"p{seed}")
    done = 0
    while done < commands:
        await followed(
            service, await service.matches.challenge(place, person, ENGINE_USER, "5 worldclass")
        )
        while done < commands and (match := await shown(service, place)) is not None:
            if match.phase == "move":
                play = rng.choice(match.legal_plays()).notation
                replies = await service.matches.move(place, person, play)
            elif match.phase == "roll":
                replies = await service.matches.roll(place, person)
            elif match.phase == "doubled":
                replies = await service.matches.take(place, person)
            else:
                replies = await service.matches.accept(place, person)
            await followed(service, replies)
            done += 1
    if await shown(service, place) is not None:
        await service.matches.abort(place, person)


async def run(
    engine: Counted, settings: Settings, channels: int, commands: int, shares: Parts | None = None
) -> tuple[int, float]:
    """The bot's plays and the process's CPU seconds for the work (after a warm-up)."""
    # Every run plays the same seeded games, whose boards' pieces, strips and texts an earlier
    # run would have left kept (a board of a position seen before pastes its pieces whole: not
    # the bot's work on new positions); the service's warm-up makes again what it makes at a start.
    forget_kept()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = TableService(
            store,
            settings=settings,
            dice=seeded_dice(7),
            engine=cast(Engine, engine),
        )
        await service.warm_up()
        await asyncio.gather(
            *(channel(service, Place("warm", f"c{n}"), 20, 100 + n) for n in range(channels))
        )
        engine.plays = 0
        if shares is not None:
            shares.on = True
        cpu = time.process_time()
        await asyncio.gather(
            *(channel(service, Place("bench", f"c{n}"), commands, n) for n in range(channels))
        )
        cpu = time.process_time() - cpu
        if shares is not None:
            shares.on = False
        service.close()
        await store.close()
    return engine.plays, cpu


class Parts:
    """CPU seconds of the boards, SQLite's thread and the collector while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.spent: dict[str, float] = dict.fromkeys(
            ("boards", "board cpu", "sqlite", "trips", "statements", "gc"), 0.0
        )
        self._collecting = 0.0
        render: Callable[..., bytes] = vars(images)["render_board"]
        run_all = sqlite_runner._run_all

        def timed_render(*args: Any, **kwargs: Any) -> bytes:
            start = time.thread_time()
            try:
                return render(*args, **kwargs)
            finally:
                self._add("board cpu", time.thread_time() - start, "boards")

        def timed_run_all(connection: Any, statements: Any) -> Any:
            start = time.thread_time()
            try:
                return run_all(connection, statements)
            finally:
                self._add("sqlite", time.thread_time() - start, "trips")
                self._add("statements", len(statements))

        vars(images)["render_board"] = timed_render
        vars(sqlite_runner)["_run_all"] = timed_run_all
        gc.callbacks.append(self._collected)

    def _add(self, name: str, value: float, counted: str = "") -> None:
        if self.on:
            self.spent[name] += value
            if counted:
                self.spent[counted] += 1

    def _collected(self, phase: str, _: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = time.process_time()
        else:
            self._add("gc", time.process_time() - self._collecting)

    def report(self, plays: int, cpu: float, profile: cProfile.Profile) -> None:
        spent = self.spent

        def ms(seconds: float) -> str:
            return f"{seconds / plays * 1e3:.2f} ms"

        print(f"where it went, per play ({plays} plays, {ms(cpu)} of CPU a play):")
        print(
            f"  boards {spent['boards'] / plays:.2f} a play, {ms(spent['board cpu'])} "
            f"({spent['board cpu'] / max(spent['boards'], 1) * 1e3:.2f} ms a board)"
        )
        print(
            f"  SQLite's thread {ms(spent['sqlite'])}: {spent['trips'] / plays:.2f} trips, "
            f"{spent['statements'] / plays:.2f} statements a play"
        )
        print(f"  the garbage collector (in any thread) {ms(spent['gc'])}")
        rest = cpu - spent["board cpu"] - spent["sqlite"]
        print(f"  the event loop's thread {ms(rest)}, by a profile of one more run:")
        shares = parts(profile)
        total = sum(shares.values()) or 1.0
        for name, seconds in sorted(shares.items(), key=lambda item: -item[1]):
            print(f"    {name:<26} {ms(rest * seconds / total)} ({seconds / total:.0%})")


async def main(channels: int, commands: int, runs: int, split: bool) -> None:
    settings = Settings(analysis_auto=False)
    gnubg = GnubgEngine(settings)
    await gnubg.start()
    shares = Parts() if split else None
    costs = []
    played = spent = 0.0
    for _ in range(runs):
        plays, cpu = await run(Counted(gnubg), settings, channels, commands, shares)
        costs.append(cpu / max(plays, 1))
        played, spent = played + plays, spent + cpu
        print(f"{plays} bot plays: the bot's process {costs[-1] * 1e3:.2f} ms of CPU a play")
    print(
        f"{channels} channels x {commands} commands, {runs} runs, {event_loop.loop_name()}: median "
        f"{statistics.median(costs) * 1e3:.2f} ms, least {min(costs) * 1e3:.2f} ms a play"
    )
    if shares is not None:
        profile = cProfile.Profile(time.thread_time)
        profile.enable()
        await run(Counted(gnubg), settings, channels, commands)
        profile.disable()
        shares.report(int(played), spent, profile)
    await gnubg.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parts", action="store_true", help="where the CPU went, per play")
    arguments = parser.parse_args()
    event_loop.run(main(arguments.channels, arguments.commands, arguments.runs, arguments.parts))
