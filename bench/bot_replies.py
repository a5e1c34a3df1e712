"""A person's move to GNU Backgammon's reply, through the whole service, board images included.

Per level: a person (random legal plays, seeded) plays 3-point matches against the bot; each of
the person's moves is timed until its replies come back, which hold the bot's whole turn (its
cube decision, roll and play, as the engine's workers choose them) and the board image drawn
after it. Then the same at `worldclass` in several channels at once, and the RSS of the bot's
process and of each gnubg worker. Prints figures; no asserts.
Run: python bench/bot_replies.py [--moves N] [--channels C]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_service import figures, rss_mb
from bot import event_loop
from bot.gnubg.api import LEVELS
from bot.gnubg.engine import GnubgEngine
from bot.service.models import ENGINE_USER, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

PERSON = User("1", "alice")


async def play(
    service: TableService, place: Place, level: str, moves: int, rng: random.Random
) -> list[float]:
    """The times of ``moves`` of the person's moves (each with the bot's turn after it)."""
    timed: list[float] = []
    while len(timed) < moves:
        await service.matches.challenge(place, PERSON, ENGINE_USER, f"3 {level}")
        while (table := await service.table(place)) is not None and len(timed) < moves:
            match = table.match
            if match.phase == "move":
                play_text = rng.choice(match.legal_plays()).notation
                start = time.perf_counter()
                replies = await service.matches.move(place, PERSON, play_text)
                timed.append(time.perf_counter() - start)
                assert any(reply.image for reply in replies), "no board came back"
            elif match.phase == "roll":
                await service.matches.roll(place, PERSON)
            elif match.phase == "doubled":
                await service.matches.take(place, PERSON)
            else:
                await service.matches.accept(place, PERSON)  # the bot's resignation
        if await service.table(place) is not None:
            await service.matches.abort(place, PERSON)  # a match against the bot ends at once
    return timed


async def main(moves: int, channels: int) -> None:
    settings = Settings(analysis_auto=False)  # analysis has its own worker: not measured here
    engine = GnubgEngine(settings)
    await engine.start()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = TableService(store, settings=settings, dice=seeded_dice(5), engine=engine)
        await service.warm_up()
        print(
            f"{settings.engine_workers} play workers; {moves} moves per level; "
            "each time: the person's move -> replies with the bot's turn and the board PNG"
        )
        for number, level in enumerate(LEVELS):
            place = Place("bench", f"level-{number}")
            seconds = await play(service, place, level, moves, random.Random(number))
            print(figures(level, seconds))
        per_channel = max(20, moves // channels)
        start = time.perf_counter()
        results = await asyncio.gather(
            *(
                play(
                    service,
                    Place("bench", f"busy-{n}"),
                    "worldclass",
                    per_channel,
                    random.Random(100 + n),
                )
                for n in range(channels)
            )
        )
        elapsed = time.perf_counter() - start
        print(
            figures(
                f"worldclass, {channels} channels at once",
                [s for result in results for s in result],
            )
        )
        print(f"  ({sum(map(len, results))} moves in {elapsed:.1f} s)")
        workers = engine.play_pool.pids() + engine.analysis_pool.pids()
        print(
            f"RSS: bot process {rss_mb(os.getpid()):.0f} MB; gnubg workers "
            + ", ".join(f"{rss_mb(pid):.0f} MB" for pid in workers)
        )
        service.close()
        await store.close()
    await engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--channels", type=int, default=4)
    arguments = parser.parse_args()
    event_loop.run(main(arguments.moves, arguments.channels))
