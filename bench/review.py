"""Milliseconds to show a page of ``!review``, from the stored analysis (no gnubg call).

A finished match on a SQLite file gets an analysis with every decision of a real gnubg analysis
(tests/gnubg/fixtures: game 1 of a 3-point match; with ``--games N`` the game is repeated N
times, as a longer match would store it), then every page is shown N times: the typed form
(``!review 1 17``, which reads and decodes the stored analysis) and a press of the next-page
button, each with its board image and arrows. Prints figures only.

    python bench/review.py [--games 10] [--times 3]

Budget: a page with its image under 60 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.console import SERVER, Console
from bot.gnubg.analysis_text import review
from bot.service.models import Place, User
from bot.service.review.pages import shown
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.gnubg.test_review_text import fixture
from tests.service.fake_analyst import FakeAnalyst, result


def milliseconds(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms"


async def main(games: int, times: int) -> None:
    game = review(
        [fixture("match3-game1.txt")], money=False, mwc_games=[fixture("match3-game1-mwc.txt")]
    )
    decisions = tuple(replace(d, game=n + 1) for n in range(games) for d in game)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        analyst = FakeAnalyst(replace(result(), decisions=decisions))
        service = TableService(
            store, settings=Settings(analysis_auto=True), dice=seeded_dice(1), engine=analyst
        )
        console = Console(service, io.StringIO(), images=None, as_json=False)
        place, alice = Place(SERVER, "general"), User("alice", "alice")
        try:
            for line in ("alice: !challenge @bob 1", "bob: !accept"):
                await console.handle(line)
            table = await service.table(place)
            assert table is not None and table.match.turn is not None
            turn = table.match.turn
            await console.handle(f"{table.plain[turn]}: !resign")
            await console.handle(f"{table.plain[1 - turn]}: !accept")
            pages = len(shown(decisions))
            typed: list[float] = []
            pressed: list[float] = []
            for _ in range(times):
                for page in range(pages):
                    start = time.perf_counter()
                    (reply,) = await service.review(place, alice, f"1 {page + 1}")
                    typed.append(time.perf_counter() - start)
                    assert reply.image is not None
                    start = time.perf_counter()
                    await service.press(place, alice, "reviewnext", f"v1.{page}")
                    pressed.append(time.perf_counter() - start)
            print(f"{pages} pages ({len(decisions)} decisions stored), each shown {times} times")
            print(f"typed `!review 1 N`: {milliseconds(typed)}")
            print(f"next-page press:     {milliseconds(pressed)}")
        finally:
            service.close()
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--times", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.times))
