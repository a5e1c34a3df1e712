"""The bot's own process CPU per play on a fixed piece of work.

As in ``bench/many_channels.py``, a person of its own in each of ``--channels`` channels plays
5-point world-class matches against the bot (random legal plays, seeded; board images on), but
each makes ``--commands`` commands: the dice are seeded and gnubg's answers the same, so every
run does the same work, the same bot plays. A busy machine's waits for a core cost no CPU, so
before-and-after runs compare on a shared machine where throughput figures can't. Prints the CPU
per bot play of the bot's process (all its threads; not its gnubg workers'); no asserts.

Run: python bench/bot_cpu.py [--channels 16] [--commands 40] [--runs 3]
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

from bench.many_channels import followed, shown
from bot.gnubg.api import Engine
from bot.gnubg.engine import GnubgEngine
from bot.service.models import ENGINE_USER, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store


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
    engine: Counted, settings: Settings, channels: int, commands: int
) -> tuple[int, float]:
    """The bot's plays and the process's CPU seconds for the work (after a warm-up)."""
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
        cpu = time.process_time()
        await asyncio.gather(
            *(channel(service, Place("bench", f"c{n}"), commands, n) for n in range(channels))
        )
        cpu = time.process_time() - cpu
        service.close()
        await store.close()
    return engine.plays, cpu


async def main(channels: int, commands: int, runs: int) -> None:
    settings = Settings(analysis_auto=False)
    gnubg = GnubgEngine(settings)
    await gnubg.start()
    costs = []
    for _ in range(runs):
        plays, cpu = await run(Counted(gnubg), settings, channels, commands)
        costs.append(cpu / max(plays, 1))
        print(f"{plays} bot plays: the bot's process {costs[-1] * 1e3:.2f} ms of CPU a play")
    print(
        f"{channels} channels x {commands} commands, {runs} runs: median "
        f"{statistics.median(costs) * 1e3:.2f} ms, least {min(costs) * 1e3:.2f} ms a play"
    )
    await gnubg.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.channels, arguments.commands, arguments.runs))
