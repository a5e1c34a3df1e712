"""Benchmark ``!puzzle`` through the service on a SQLite file: a new puzzle shown (chosen near
the player's rating, its showing written, the board drawn), an answer graded and replied
(the stored ranking, the ratings read and written in one transaction, a miss made a drill) and a
storm's answer (graded, the run written, the next puzzle chosen and drawn). No engine anywhere.

    python bench/puzzles.py                 # 200 rounds
    python bench/puzzles.py --rounds 50 --no-images

Each round: one player asks for a puzzle, then answers it with gnubg's best play spelt another
way (rounds alternate right and wrong answers); then each player answers 10 puzzles of a storm
(right, right, wrong, ...: three wrong cost 30 s of its time). The starter pool is read before
timing (a process reads it once). Goals (issue 33): an answer graded and replied in under 20 ms
median, a new puzzle shown in under 30 ms median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import event_loop
from bot.rules.puzzles import CHECKER, Puzzle
from bot.service.models import Place, User
from bot.service.puzzles import pool
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import Store

PLACE = Place("bench", "general")
USERS = [User(str(2000 + n), f"p{n}") for n in range(8)]


def answer(puzzle: Puzzle, right: bool) -> str:
    ranking = puzzle.ranking()
    chosen = ranking[0 if right else -1].answer
    return " ".join(reversed(chosen.split())) if puzzle.kind == CHECKER else chosen


def figures(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(
        f"{name:<38} n={len(ms):>4}  median {statistics.median(ms):6.2f} ms  "
        f"p95 {p95:6.2f} ms  max {ms[-1]:6.2f} ms"
    )


async def main(rounds: int, images: bool) -> None:
    loaded = time.perf_counter()
    count = pool.warm_up()
    print(f"starter pool: {count} puzzles read in {1000 * (time.perf_counter() - loaded):.0f} ms")
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = TableService(store, settings=Settings(), images=images)
        await service.warm_up()
        shown, graded, stormed = [], [], []
        try:
            for n in range(rounds):
                user = USERS[n % len(USERS)]
                start = time.perf_counter()
                [question] = await service.run(PLACE, user, "!puzzle", users=lambda w: None)
                shown.append(time.perf_counter() - start)
                assert not question.private, question.text
                [row] = await store.puzzles.answers(PLACE.server_id, user.id, 1)
                puzzle = await pool.find(store.puzzles, PLACE.server_id, row.puzzle)
                assert puzzle is not None
                line = f"!puzzle {answer(puzzle, n % 2 == 0)}"
                start = time.perf_counter()
                [verdict] = await service.run(PLACE, user, line, users=lambda w: None)
                graded.append(time.perf_counter() - start)
                assert "gnubg 2-ply" in verdict.text, verdict.text
            for user in USERS:
                await service.run(PLACE, user, "!puzzle storm", users=lambda w: None)
                for n in range(10):
                    storm = await store.storms.running(user.id)
                    assert storm is not None and storm.puzzle is not None
                    puzzle = await pool.find(store.puzzles, PLACE.server_id, storm.puzzle)
                    assert puzzle is not None
                    line = f"!puzzle {answer(puzzle, n % 3 != 2)}"
                    start = time.perf_counter()
                    [reply] = await service.run(PLACE, user, line, users=lambda w: None)
                    stormed.append(time.perf_counter() - start)
                    assert "Storm of" in reply.text, reply.text
        finally:
            service.close()
            await store.close()
    figures(f"new puzzle shown{' (drawn)' if images else ''}", shown)
    figures("answer graded and replied", graded)
    figures(f"storm answer and next puzzle{' (drawn)' if images else ''}", stormed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--no-images", action="store_true")
    arguments = parser.parse_args()
    event_loop.run(main(arguments.rounds, not arguments.no_images))
