"""The real :class:`~bot.gnubg.api.Engine`: GNU Backgammon in worker processes, two lanes.

The play lane (``settings.engine_workers`` workers) answers moves, cube decisions, hints and
evaluations, each match's in one worker (by its :attr:`Query.match_key`), the bot's turns
(:data:`~bot.gnubg.api.TURN_PRIORITY`) before the others that wait; the analysis lane (one worker
of its own) analyses whole matches, so a long analysis never keeps a bot's move or a player's
hint waiting for a worker. Its process also runs at a lower CPU priority
(:data:`ANALYSIS_NICENESS`): where the play workers have every core busy, an analysis takes what
they leave.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from bot.gnubg import analysis, installed, mwc, puzzles, session, worker
from bot.gnubg.api import (
    ADVICE_PRIORITY,
    TURN_PRIORITY,
    CubeAdvice,
    Engine,
    EngineFailure,
    Evaluation,
    Level,
    MatchAnalysis,
    PlayOption,
    PlayRating,
    Progress,
    Query,
    TurnChoice,
)
from bot.gnubg.pool import WorkerPool
from bot.gnubg.unavailable import UnavailableEngine
from bot.rules.matchid import decode_match_id

if TYPE_CHECKING:
    from bot.rules.puzzles import Puzzle
    from bot.settings import Settings

T = TypeVar("T")
log = logging.getLogger(__name__)

# A whole match's analysis may take minutes (a 5-point match at 2-ply: ~12 s here).
ANALYSIS_TIMEOUT_SECONDS = 600.0
# Ranking every legal play of a roll at 2-ply (a checker puzzle): a few seconds at most.
PUZZLE_TIMEOUT_SECONDS = 60.0
# The analysis worker's niceness: Linux then gives it about a tenth of a core that the play
# workers want too, and all of one they leave idle.
ANALYSIS_NICENESS = 10


def initialise_analysis() -> None:
    """The analysis worker's initializer: a lower CPU priority, then gnubg as in any worker."""
    with contextlib.suppress(OSError, AttributeError):  # no os.nice on Windows
        os.nice(ANALYSIS_NICENESS)
    session.initialise()


class GnubgEngine:
    """gnubg behind two :class:`WorkerPool` lanes; every call is bounded by the settings'
    ``engine_timeout_seconds``."""

    def __init__(self, settings: Settings) -> None:
        self.timeout = settings.engine_timeout_seconds
        # Each play worker holds the request it serves next in its pipe while none is idle
        # (see ``WorkerPool``); the analysis worker keeps gnubg's match between its calls.
        self.play_pool = WorkerPool(settings.engine_workers, name="gnubg-play", depth=2)
        self._analysis_pool = WorkerPool(1, name="gnubg-analysis", initializer=initialise_analysis)

    @property
    def available(self) -> bool:
        return True

    @property
    def analysis_pool(self) -> WorkerPool:
        """The analysis lane (one worker), for :mod:`bot.gnubg.analysis`."""
        return self._analysis_pool

    async def start(self) -> None:
        await self.play_pool.start()
        await self._analysis_pool.start()

    async def close(self) -> None:
        await self.play_pool.close()
        await self._analysis_pool.close()

    async def _play(
        self,
        function: Callable[..., T],
        query: Query,
        *args: Any,
        priority: int = ADVICE_PRIORITY,
    ) -> T:
        """``function(query, *args)`` in the play lane, in the worker of the query's match, at
        ``priority`` (the bot's turn, or advice)."""
        return await self.play_pool.call(
            function,
            query,
            *args,
            timeout=self.timeout,
            affinity=query.match_key,
            priority=priority,
        )

    async def choose_play(self, query: Query, level: Level) -> str | None:
        return await self._play(worker.choose_play, query, level)

    async def take_turn(
        self, query: Query, level: Level, *, may_resign: bool = True, rolled: str | None = None
    ) -> TurnChoice:
        search = self._search_beside(query, level, rolled)
        if search is None:
            return await self._play(
                worker.take_turn, query, level, may_resign, rolled, priority=TURN_PRIORITY
            )
        choice = await self._play(
            worker.take_turn, query, level, may_resign, None, priority=TURN_PRIORITY
        )
        if choice.resign or choice.double:
            return choice  # the search's work is thrown away
        # (shielded: a caller giving up leaves it to end by itself, its worker not killed)
        return TurnChoice(play=await asyncio.shield(search))

    def _search_beside(
        self, query: Query, level: Level, rolled: str | None
    ) -> asyncio.Task[str | None] | None:
        """The play for the roll ``rolled`` searched now in another worker while the match's
        own makes the cube decision (each from an empty cache, as the one request that does
        both one after the other): the bot's turn takes the longer of the two, not both. Only
        where the player on roll may double (else the decision before the roll is a 0-ply
        evaluation: nothing to gain) and while two workers are idle: a busy pool spends no
        worker on a search the cube decision may throw away, and the search never keeps
        another request waiting for a worker (:meth:`WorkerPool.call_if_idle`). None: the
        turn is the one request."""
        if rolled is None or not _may_double(query):
            return None
        search = self.play_pool.call_if_idle(
            worker.choose_play,
            replace(query, gnubg_id=rolled),
            level,
            timeout=self.timeout,
            leave=query.match_key,
        )
        if search is not None:
            search.add_done_callback(_retrieved)  # its failure thrown away with its play
        return search

    async def cube_advice(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> CubeAdvice:
        return await self._play(worker.cube_advice, query, level, priority=priority)

    async def resignation_answer(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> bool:
        return await self._play(worker.resignation_answer, query, level, priority=priority)

    async def hint_plays(
        self, query: Query, *, count: int = 5, plies: int = 2
    ) -> tuple[PlayOption, ...]:
        return await self._play(worker.hint_plays, query, count, plies)

    async def rate_play(self, query: Query, play: str, *, plies: int = 2) -> PlayRating:
        return await self._play(worker.rate_play, query, play, plies)

    async def evaluate(self, query: Query, *, plies: int = 2) -> Evaluation:
        return await self._play(worker.evaluate, query, plies)

    async def match_winning_chance(self, query: Query, player: int, *, plies: int = 2) -> float:
        return await self._play(mwc.match_winning_chance, query, player, plies)

    async def analyse(
        self, mat: str, *, plies: int, jacoby: bool = False, progress: Progress | None = None
    ) -> MatchAnalysis:
        return await analysis.analyse(
            self._analysis_pool,
            mat,
            plies=plies,
            jacoby=jacoby,
            progress=progress,
            timeout=ANALYSIS_TIMEOUT_SECONDS,
        )

    async def checker_puzzle(self, query: Query) -> Puzzle | None:
        return await self._analysis_pool.call(
            puzzles.checker_puzzle,
            query,
            timeout=PUZZLE_TIMEOUT_SECONDS,
            priority=ADVICE_PRIORITY,
        )


def _may_double(query: Query) -> bool:
    """Whether the player on roll in ``query`` may double (False for an ID that can't be
    read: the one request says what is wrong with it)."""
    try:
        return session.may_double(decode_match_id(query.gnubg_id.partition(":")[2].strip()))
    except ValueError:
        return False


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


def make_engine(settings: Settings) -> Engine:
    """GNU Backgammon where it is installed, else an engine that says it isn't."""
    if installed():
        return GnubgEngine(settings)
    return UnavailableEngine()


def start_in_background(engine: Engine) -> asyncio.Task[None]:
    """Start ``engine``'s workers without delaying the caller's startup; a failure is logged
    (the workers start again at the first request). Cancel the task before closing."""

    async def start() -> None:
        try:
            await engine.start()
        except EngineFailure as error:
            log.warning("GNU Backgammon didn't start: %s", error)
        else:
            if engine.available:
                log.info("GNU Backgammon workers are ready")

    return asyncio.get_running_loop().create_task(start(), name="gnubg-start")


async def stop(engine: Engine, starting: asyncio.Task[None]) -> None:
    """Cancel a start still under way, then close the engine (kills its workers)."""
    starting.cancel()
    await asyncio.gather(starting, return_exceptions=True)
    await engine.close()
