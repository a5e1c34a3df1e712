"""A stand-in for GNU Backgammon's match analysis: a fixed result, its progress reported game by
game, and knobs to hold it mid-way or make it fail."""

from __future__ import annotations

import asyncio
import re

from bot.gnubg.api import ChartPoint, MatchAnalysis, Mistake, PlayerAnalysis, Progress
from bot.gnubg.unavailable import UnavailableEngine


def player(name: str, pr: float, decisions: int = 100) -> PlayerAnalysis:
    return PlayerAnalysis(
        name=name,
        checker_decisions=decisions - 10,
        checker_errors=4,
        checker_blunders=1,
        checker_error_rate=2 * pr + 0.5,
        cube_decisions=10,
        cube_errors=1,
        cube_blunders=0,
        cube_error_rate=3.25,
        error_rate=2 * pr,
        pr=pr,
        luck_rate=4.5,
        luck_total=0.321,
        luck_adjusted=47.5,
        rating="Advanced",
    )


def result(pr: tuple[float, float] = (6.5, 11.25), *, length: int = 1) -> MatchAnalysis:
    worst = tuple(
        tuple(
            Mistake(
                seat,
                1,
                3 + index,
                "checker",
                "4HPwATDgc/ABMA:cAkAAAAAAAAA",
                (6, 4),
                "24/14",
                "13/3",
                0.2 - 0.05 * index,
            )
            for index in range(3)
        )
        for seat in (0, 1)
    )
    return MatchAnalysis(
        plies=2,
        length=length,
        players=(player("alice", pr[0]), player("bob", pr[1])),
        worst=(worst[0], worst[1]),
        chart=(ChartPoint(1, 0, 0.5), ChartPoint(1, 1, 0.25, blunder=True)),
        seconds=1.5,
    )


class FakeAnalyst(UnavailableEngine):
    """``analyse`` returns ``result`` after reporting (0, games), (1, games)...; with ``hold``
    set it waits on it after the first report; ``failure`` is raised instead of a result."""

    def __init__(self, analysis: MatchAnalysis | None = None) -> None:
        self.result = analysis or result()
        self.calls: list[tuple[str, int, bool]] = []
        self.hold: asyncio.Event | None = None
        self.started = asyncio.Event()  # set when a call begins
        self.failure: Exception | None = None
        self.running = 0
        self.most_at_once = 0

    @property
    def available(self) -> bool:
        return True

    async def analyse(
        self, mat: str, *, plies: int, jacoby: bool = False, progress: Progress | None = None
    ) -> MatchAnalysis:
        self.calls.append((mat, plies, jacoby))
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        self.started.set()
        try:
            games = len(re.findall(r"^ Game \d+", mat, re.MULTILINE))
            for done in range(games + 1):
                if progress is not None:
                    await progress(done, games)
                if done == 0 and self.hold is not None:
                    await self.hold.wait()
            if self.failure is not None:
                raise self.failure
            return self.result
        finally:
            self.running -= 1
