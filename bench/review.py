"""Milliseconds to show a page of ``!review``, from the stored analysis (no gnubg call), and to
grade a ``!drill`` answer with the real GNU Backgammon.

A finished match on a SQLite file gets an analysis with every decision of a real gnubg analysis
(tests/gnubg/fixtures: game 1 of a 3-point match; with ``--games N`` the game is repeated N
times, as a longer match would store it), then every page is shown N times: the typed form
(``!review 1 17``, which reads and decodes the stored analysis) and a press of the next-page
button, each with its board image and arrows.

Drills (``--drills N``, 0 to skip; skipped with a note where gnubg isn't installed): N checker
drills of alice's, made of the checker decisions of the real analyses in tests/gnubg/fixtures
(answered with the play made in the match), then of seeded self-play positions under the
match and cube states of :mod:`bot.gnubg.samples` (answered with a seeded random legal play),
each graded at 2-ply: ``!drill`` shows it (not timed), then ``!drill <answer>`` is timed
through the service (the store's reads and writes, the engine's worker). Next to it, in the
same run, the engine's ``rate_play`` alone for the same positions and answers.
Each of ``--rounds`` rounds times both, in turn first, gnubg's cache emptied before each pass
(the machine is noisy: both figures are printed). Prints figures only.

    python bench/review.py [--games 10] [--times 3] [--drills 30] [--rounds 2]

Budget: a page with its image under 60 ms; a drill graded under 300 ms at 2-ply.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import event_loop
from bot.console import SERVER, Console, ConsoleClock
from bot.gnubg import installed
from bot.gnubg.analysis_text import chart, parse_export, parse_statistics, worst
from bot.gnubg.api import Engine, MatchAnalysis, Progress, Query
from bot.gnubg.decisions import ReviewedDecision
from bot.gnubg.review_text import review
from bot.gnubg.samples import cases
from bot.gnubg.unavailable import UnavailableEngine
from bot.rules.position import Position
from bot.service.keys import ReviewKey
from bot.service.models import Place, User
from bot.service.review.drills import drill_rows
from bot.service.review.pages import shown
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

DRILL_PLIES = 2
YEAR = 365 * 86_400.0
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "gnubg" / "fixtures"


def fixture(name: str) -> str:
    """A real gnubg export kept with the tests (read as data: the bench imports only bot)."""
    return (FIXTURES / name).read_text(encoding="utf-8")


def stored_analysis(decisions: tuple[ReviewedDecision, ...]) -> MatchAnalysis:
    """A 1-point match's analysis as gnubg's texts give it, with ``decisions`` to review."""
    exported = parse_export([fixture("match3-game1.txt")], money=False)
    return MatchAnalysis(
        plies=2,
        length=1,
        players=parse_statistics(fixture("match3-statistics.txt"), ("alice", "bob")),
        worst=worst(exported),
        chart=chart(exported),
        seconds=1.5,
        decisions=decisions,
    )


class StoredAnalyst(UnavailableEngine):
    """The engine of the review bench: its analysis is given, not computed (no gnubg call)."""

    def __init__(self, analysis: MatchAnalysis) -> None:
        self.analysis = analysis

    @property
    def available(self) -> bool:
        return True

    async def analyse(
        self, mat: str, *, plies: int, jacoby: bool = False, progress: Progress | None = None
    ) -> MatchAnalysis:
        return self.analysis


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
        analyst = StoredAnalyst(stored_analysis(decisions))
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
                    (reply,) = await service.review_commands.review(place, alice, f"1 {page + 1}")
                    typed.append(time.perf_counter() - start)
                    assert reply.image is not None
                    start = time.perf_counter()
                    await service.press(place, alice, "reviewnext", ReviewKey(1, page))
                    pressed.append(time.perf_counter() - start)
            print(f"{pages} pages ({len(decisions)} decisions stored), each shown {times} times")
            print(f"typed `!review 1 N`: {milliseconds(typed)}")
            print(f"next-page press:     {milliseconds(pressed)}")
        finally:
            service.close()
            await store.close()


def drill_decisions(count: int) -> tuple[list[ReviewedDecision], int]:
    """``count`` checker decisions with a roll, each with the answer to give as ``played``: the
    real analyses' (the play made in the match), then self-play positions' (a random play);
    and how many are the real analyses'."""
    found: dict[str, ReviewedDecision] = {}
    for name, money in (
        ("match3-game1.txt", False),
        ("match3-2ply-excerpt.txt", False),
        ("match3-game3-excerpt.txt", False),
        ("money-game1.txt", True),
    ):
        for d in review([fixture(name)], money=money):
            if d.kind == "checker" and d.dice and d.played and d.best:
                found.setdefault(d.gnubg_id, d)
    decisions = list(found.values())[:count]
    real = len(decisions)
    rng = random.Random(7)
    for case in cases(seed=11, count=3 * count):
        if len(decisions) >= count:
            break
        assert case.dice is not None
        plays = case.position.legal_plays(*case.dice)
        if not plays[0].steps:
            continue
        answer = rng.choice(plays).notation
        gnubg_id = case.query().gnubg_id
        decisions.append(ReviewedDecision(1, 1, 0, "checker", gnubg_id, answer, answer))
    made = [
        replace(d, game=1, move=n + 1, player=0, skill="bad", loss=0.1)
        for n, d in enumerate(decisions)
    ]
    return made, real


async def empty_cache(engine: Engine, decision: ReviewedDecision) -> None:
    """gnubg's workers empty their cache when the depth changes: one rating at another."""
    await engine.rate_play(Query(decision.gnubg_id), decision.played or "", plies=1)


async def drill_pass(service: TableService, store: Store, place: Place) -> list[float]:
    """Every due drill of alice's shown, then answered: the seconds of each answer."""
    alice = User("alice", "alice")
    seconds: list[float] = []
    while True:
        (question,) = await service.review_commands.drill(place, alice)
        if "Drill for" not in question.text:
            return seconds
        drill = await store.drills.awaiting(SERVER, "alice")
        assert drill is not None and drill.played is not None
        start = time.perf_counter()
        (verdict,) = await service.review_commands.drill(place, alice, drill.played)
        seconds.append(time.perf_counter() - start)
        assert "Right" in verdict.text or "Not this time" in verdict.text, verdict.text


async def rate_pass(engine: Engine, decisions: list[ReviewedDecision]) -> list[float]:
    seconds = []
    for d in decisions:
        assert d.played is not None and d.dice is not None
        play = Position.from_position_id(d.gnubg_id.partition(":")[0]).parse_play(d.played, d.dice)
        start = time.perf_counter()
        await engine.rate_play(Query(d.gnubg_id, match_key=1), play.notation, plies=DRILL_PLIES)
        seconds.append(time.perf_counter() - start)
    return seconds


async def drills(count: int, rounds: int) -> None:
    if not installed():
        print("drills: skipped, GNU Backgammon isn't installed (pip install gnubg)")
        return
    from bot.gnubg.engine import GnubgEngine

    engine = GnubgEngine(Settings(engine_workers=1))
    decisions, real = drill_decisions(count)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "drills.sqlite3")
        clock = ConsoleClock(1_790_000_000.0)
        service = TableService(
            store,
            settings=Settings(analysis_auto=False),
            dice=seeded_dice(1),
            clock=clock,
            images=False,
            engine=engine,
        )
        console = Console(service, io.StringIO(), images=None, as_json=False)
        place = Place(SERVER, "general")
        try:
            await engine.play_pool.start()
            for line in ("alice: !challenge @bob 1", "bob: !accept"):
                await console.handle(line)
            rows = drill_rows(SERVER, 1, ("alice", "bob"), decisions, DRILL_PLIES, clock())
            async with store.transaction() as tx:
                await tx.drills.add(rows)
            graded: list[float] = []
            rated: list[float] = []
            for turn in range(rounds):
                for first in (turn % 2 == 0, turn % 2 == 1):
                    await empty_cache(engine, decisions[0])
                    if first:
                        clock.advance(YEAR)  # every drill due again
                        graded += await drill_pass(service, store, place)
                    else:
                        rated += await rate_pass(engine, decisions)
            print(
                f"{len(decisions)} drills ({real} from real analyses, the rest self-play), "
                f"graded at {DRILL_PLIES}-ply, {rounds} rounds: {len(graded)} answers, "
                f"{len(rated)} ratings"
            )
            print(f"`!drill <answer>` (service):  {milliseconds(graded)}")
            print(f"the engine's rate_play alone:{milliseconds(rated)}")
        finally:
            service.close()
            await store.close()
            await engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--times", type=int, default=3)
    parser.add_argument("--drills", type=int, default=30, help="0: no drill timing")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    event_loop.run(main(args.games, args.times))
    if args.drills:
        event_loop.run(drills(args.drills, args.rounds))
