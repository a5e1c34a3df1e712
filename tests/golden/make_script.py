"""Writes ``match.txt``: the console script of a whole 5-point match between two people, with
doubles, a refused input or two, a resignation, then the export, the analysis and the records.

Run ``python -m tests.golden.make_script`` to write it anew (only when the script itself should
change: the test compares the console's output for it against ``match.jsonl``). Each line is
chosen from the match as it stands, by a seeded policy, so the script is a legal match.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import tempfile
from pathlib import Path

from bot.console import SERVER, Console, ConsoleClock, read_start
from bot.service.models import Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

HERE = Path(__file__).parent
SEED = 11
START = "2026-11-22T10:00:00"
PLACE = Place(SERVER, "general")


async def write_script() -> list[str]:
    rng = random.Random(5)
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "script.sqlite3")
        clock = ConsoleClock(read_start(START))
        service = TableService(
            store,
            settings=Settings(analysis_auto=False),
            dice=seeded_dice(SEED),
            images=False,
            clock=clock,
        )
        console = Console(service, io.StringIO(), images=None, as_json=True, clock=clock)

        async def say(line: str) -> None:
            lines.append(line)
            await console.handle(line)

        await say("alice: !challenge @bob 5")
        await say("bob: !accept")
        resigned = False
        moves = 0
        while True:
            table = await service.table(PLACE)
            if table is None:
                break
            match = table.match
            turn = match.turn
            assert turn is not None
            who = ("alice", "bob")[turn]
            other = ("alice", "bob")[1 - turn]
            if match.phase == "roll":
                if rng.random() < 0.15:
                    await say(f"{who}: !double")
                else:
                    await say(f"{who}: !roll")
            elif match.phase == "move":
                moves += 1
                if moves in (3, 20):
                    await say(f"{other}: !move 24/18")  # not their turn
                    await say(f"{who}: !move 1/7")  # not a legal play
                if not resigned and match.game_number == 2 and rng.random() < 0.1:
                    resigned = True
                    await say(f"{who}: !resign gammon")
                    continue
                plays = match.legal_plays()
                await say(f"{who}: !move {rng.choice(plays).notation}")
            elif match.phase == "doubled":
                await say(f"{who}: {'!drop' if rng.random() < 0.3 else '!take'}")
            elif match.phase == "resigned":
                await say(f"{who}: !accept")
            else:
                raise AssertionError(f"unexpected phase {match.phase}")
        for line in [
            "alice: !export",
            "bob: !analysis",
            "carol: !stats @alice",
            "bob: !leaderboard",
            "carol: !dice",
            "alice: !score",
        ]:
            await say(line)
        service.close()
        await store.close()
    return lines


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    lines = asyncio.run(write_script())
    header = [f"; a 5-point match, dice seeded with {SEED}, the clock from {START}"]
    (HERE / "match.txt").write_text("\n".join(header + lines) + "\n")
    print(f"wrote {len(lines)} lines")


if __name__ == "__main__":
    main()
