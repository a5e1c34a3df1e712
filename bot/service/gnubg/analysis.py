"""Match analysis by GNU Backgammon: background jobs, their stored results, their progress.

A job never holds a channel's lock nor delays play: the engine analyses in its own worker lane.
The jobs wait in the store (:mod:`bot.store.analyses`), which is the queue of every process of
the bot: each process with GNU Backgammon takes the oldest waiting job, runs it, then takes the
next, one at a time, so on many hosts whichever is free first does the work. A process looks
for jobs when one is asked for here, at start and at each :meth:`Analyses.tick` (the deadline
poll). A result is stored, so asking again is instant; a job cut short by a stop goes back to
the queue, and one whose process died is taken again once its lease lapses.

Progress stays free of Discord: a reply that shows an unfinished job carries its handle
(:attr:`Reply.job`), and :meth:`Analyses.follow` yields that message again each time it changes,
ending with the result (the text and the chart) or the failure. A job run here is followed as
it goes; one run on another host, at each tick, from its row.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from bot.gnubg.api import Engine, EngineFailure, EngineUnavailable, MatchAnalysis
from bot.gnubg.decisions import SKILLS, ReviewedDecision
from bot.i18n import gnubg as say
from bot.i18n import reports as words
from bot.i18n.core import Language, Said
from bot.render.chart import Point, render_chart
from bot.service.gnubg.analysis_text import (
    charted,
    decode_result,
    encode_result,
    failed_text,
    queued_text,
    result_text,
    running_text,
)
from bot.service.gnubg.budget import EngineBudget
from bot.service.keys import ReviewKey
from bot.service.matches.presentation import typed
from bot.service.matches.reading import MatchReader
from bot.service.models import (
    AnalysisQueued,
    Attachment,
    Decision,
    MatchEnded,
    Place,
    Refusal,
    Reply,
    User,
)
from bot.service.models import markdown_safe as md
from bot.service.puzzles.made import add_checker_puzzles, server_puzzle_rows
from bot.service.review.drills import drill_rows
from bot.settings import Settings
from bot.store import DatabaseDown, MatchRow, Store
from bot.store.analyses import AnalysisRow, PlayerFigures

log = logging.getLogger(__name__)

# How long a job stays its runner's without news from it: renewed at each game analysed and
# at each tick, so it lapses only when the runner's process is gone.
LEASE_SECONDS = 90.0


_DOUBLES = ("Double", "Redouble")
_TAKE_MARKS = {"Take": "take", "Beaver": "take", "Pass": "pass"}


def chart_points(analysis: MatchAnalysis) -> list[Point]:
    """The chart's points with their marks: each point's decider's worst mark of gnubg's at that
    move (doubtful, bad, very bad), and the cube action taken there (a double, a take or a pass;
    not doubling only where gnubg counts it an error). An analysis stored before its chart kept
    the moves has only its blunders marked."""
    at: dict[tuple[int, int], list[ReviewedDecision]] = {}
    for decision in analysis.decisions:
        at.setdefault((decision.game, decision.move), []).append(decision)
    points = []
    for point in analysis.chart:
        made = [d for d in at.get((point.game, point.move), ()) if d.player == point.player]
        skill = max((d.skill for d in made), key=SKILLS.index, default="")
        cube = None
        for d in made:
            if d.kind == "cube" and d.played is not None:
                cube = "double" if d.played in _DOUBLES else "no double" if d.wrong else None
            elif d.kind == "take" and d.played is not None:
                cube = _TAKE_MARKS.get(d.played)
        points.append(
            Point(
                point.game,
                point.chance,
                point.blunder,
                player=point.player,
                error=skill or None,
                cube=cube,
            )
        )
    return points


def chart_png(
    analysis: MatchAnalysis,
    names: tuple[str, str],
    *,
    winner: int | None = None,
    language: Language,
) -> bytes | None:
    """The chart of an analysis (PNG), with each player's marks and, given the ``winner``, the
    line to their edge; its words in ``language``."""
    return render_chart(
        chart_points(analysis),
        names,
        length=analysis.length,
        plies=analysis.plies,
        winner=winner,
        language=language,
    )


@dataclass(eq=False)
class _Job:
    """A job this process is running."""

    match_id: int
    names: tuple[str, str]  # as message text shows them
    plies: int
    done: int = 0  # games analysed
    total: int = 0  # games in all (0: not known yet)
    final: Reply | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    # once stored, what ranks its rolls as checker puzzles (after the result is shown)
    then: Callable[[], Awaitable[int]] | None = None

    def notify(self) -> None:
        """Wake whoever follows the job (they wait on the event they saw last)."""
        old, self.changed = self.changed, asyncio.Event()
        old.set()


def process_name() -> str:
    """How this process signs the jobs it runs: its host, its pid and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Analyses:
    """``!analysis``, the analysis jobs, and the automatic analysis of finished matches."""

    def __init__(
        self,
        store: Store,
        repository: MatchReader,
        engine: Engine,
        settings: Settings,
        clock: Callable[[], float],
        budget: EngineBudget | None = None,
        *,
        charts: bool = True,
        name: str | None = None,
    ) -> None:
        """``charts``: draw the chart (off when board images are: tests, the plain console).
        ``budget``: how many analyses one user may have asked for at once. ``name``: how this
        process signs the jobs it runs (default :func:`process_name`)."""
        self._store = store
        self._budget = budget or EngineBudget()
        self._repository = repository
        self._engine = engine
        self._settings = settings
        self._clock = clock
        self._charts = charts
        self._name = name or process_name()
        self._running: dict[int, _Job] = {}
        # The language of the command that queued a match's analysis here, by match id: the job
        # words its outcome in it (in the server's language when queued by another process).
        self._asked_in: dict[int, Language] = {}
        self._worker: asyncio.Task[None] | None = None
        self._again = False  # woken while the worker looked for a job: it looks once more
        self._closed = False
        self._changed = asyncio.Event()  # set (and replaced) when anything is seen to change

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    def close(self) -> None:
        """Stop the jobs (the one running here goes back to the queue)."""
        self._closed = True
        if self._worker is not None:
            self._worker.cancel()

    async def stop(self) -> None:
        """:meth:`close`, and wait until the jobs have stopped."""
        worker = self._worker
        self.close()
        if worker is not None:
            await asyncio.gather(worker, return_exceptions=True)

    def _notify(self) -> None:
        old, self._changed = self._changed, asyncio.Event()
        old.set()

    # -- asking ---------------------------------------------------------------------------------

    async def ask(self, place: Place, user: User, text: str | None) -> list[Reply]:
        """``!analysis [match]``: the stored analysis at once, else the job's progress message
        (a job started now, or the one already running for that match)."""
        language = user.language
        row = await self._which(place, text, language=language)
        stored = await self._store.analyses.get(row.id)
        if stored is not None and stored.status == "done":
            return [await self._message(row, stored, language=language)]
        if stored is not None and stored.unfinished:
            self._wake()
            return [await self._message(row, stored, language=language)]
        if not self._engine.available:
            raise Refusal(say.UNAVAILABLE(language))
        most = self._budget.analyses
        if await self._store.analyses.asked_by(user.id) >= most:
            raise Refusal(say.ANALYSES_WAITING(language, most=most))
        return [await self._start(row, asked_by=user.id, language=language)]

    async def _which(self, place: Place, text: str | None, *, language: Language) -> MatchRow:
        """The finished match ``text`` names (a number of this server), or by default the
        channel's last finished one."""
        p = self._prefix
        word = typed(text or "")
        if word:
            row = await self._repository.numbered(place, word, "analysis", language=language)
        else:
            playing = await self._store.matches.playing(place.server_id, place.channel_id)
            if playing is not None:
                raise Refusal(say.HERE_STILL_PLAYED(language, id=playing.id, prefix=p))
            match_id = await self._store.matches.latest_finished(place.server_id, place.channel_id)
            if match_id is None:
                raise Refusal(say.NONE_FINISHED_HERE(language, prefix=p))
            row = await self._repository.on_server(place, match_id, language=language)
        if row.status == "playing":
            raise Refusal(say.STILL_PLAYED(language, id=row.id))
        if row.status != "finished":
            raise Refusal(say.ABORTED(language, id=row.id))
        return row

    # -- jobs -----------------------------------------------------------------------------------

    async def _start(
        self, row: MatchRow, *, asked_by: str | None = None, language: Language
    ) -> Reply:
        """Queue the analysis of ``row`` (unless it waits or runs already) and say so."""
        async with self._store.transaction() as tx:
            await tx.analyses.queue(row.id, self._settings.analysis_plies, self._clock(), asked_by)
        self._asked_in.setdefault(row.id, language)
        self._wake()
        stored = await self._store.analyses.get(row.id)
        assert stored is not None
        return await self._message(row, stored, language=language)

    def _wake(self) -> None:
        """Have this process take the waiting jobs, unless it has no engine or is stopping."""
        if self._closed or not self._engine.available:
            return
        self._again = True
        if self._worker is None:
            self._worker = asyncio.create_task(self._work(), name="analysis jobs")

    async def _work(self) -> None:
        """Take the oldest waiting job and run it, until none is left to take."""
        try:
            while True:
                self._again = False
                async with self._store.transaction() as tx:
                    stored = await tx.analyses.claim(self._name, self._clock(), LEASE_SECONDS)
                if stored is None:
                    if self._again:
                        continue
                    return
                await self._run(stored)
        except DatabaseDown as error:  # the jobs wait in it for the next tick
            log.warning("Analysis jobs: %s", error)
        except Exception:  # the store failed us: the jobs wait for the next tick
            log.exception("Analysis jobs: could not take the next one")
        finally:
            self._worker = None

    async def _run(self, stored: AnalysisRow) -> None:
        match_id = stored.match_id
        row = await self._store.matches.get(match_id)
        assert row is not None  # matches are never deleted
        language = self._asked_in.pop(match_id, None)
        if language is None:
            language = await self._repository.languages.of(row.server_id)
        plain = await self._repository.names(Place(row.server_id, row.channel_id), row.player_ids)
        job = _Job(match_id, (md(plain[0]), md(plain[1])), stored.plies)
        self._running[match_id] = job
        self._notify()
        try:
            job.final = await self._analyse(job, row, plain, language=language)
        except asyncio.CancelledError:
            job.final = Reply(say.ANALYSIS_STOPPED(language, id=match_id))
            await self._release(match_id)
            raise
        except (EngineUnavailable, EngineFailure) as error:
            job.final = await self._failed(match_id, error.said, language=language)
        except Exception:
            error_id = uuid.uuid4().hex[:8]
            log.exception("Error %s: the analysis of match %s failed", error_id, match_id)
            job.final = await self._failed(
                match_id, words.ANALYSIS_WENT_WRONG.said(error=error_id), language=language
            )
        finally:
            del self._running[match_id]
            job.notify()
            self._notify()
        if job.then is not None:
            await self._rank_rolls(match_id, job.then)

    async def _rank_rolls(self, match_id: int, rank: Callable[[], Awaitable[int]]) -> None:
        """The stored analysis's rolls ranked as checker puzzles, in the engine's analysis
        lane, before the next job (a failure costs only those puzzles)."""
        try:
            added = await rank()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Checker puzzles of match %s: not made", match_id)
        else:
            log.info("Match %s: %d checker puzzles for its server", match_id, added)

    async def _release(self, match_id: int) -> None:
        """Put the job back in the queue for whichever process comes first (this one stops)."""
        try:
            async with self._store.transaction() as tx:
                await tx.analyses.release(match_id, self._name)
        except Exception:  # its lease lapses instead
            log.exception("Could not put the analysis of match %s back in the queue", match_id)

    async def _analyse(
        self, job: _Job, row: MatchRow, plain: tuple[str, str], *, language: Language
    ) -> Reply:
        match_id = job.match_id
        match = await self._repository.record(row)

        async def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
            job.notify()
            try:
                async with self._store.transaction() as tx:
                    await tx.analyses.progress(
                        match_id, self._name, done, total, self._clock(), LEASE_SECONDS
                    )
            except Exception:  # a followers' figure on other hosts: not worth the job
                log.warning("Could not record the progress of analysis %s", match_id)

        analysis = await self._engine.analyse(
            match.to_mat(plain), plies=job.plies, jacoby=match.options.jacoby, progress=progress
        )
        figures = [  # a PR over too few decisions counts nowhere: no row, no counter
            PlayerFigures(
                seat, row.player_ids[seat], player.pr, player.error_rate, player.decisions
            )
            for seat, player in enumerate(analysis.players)
            if player.rated
        ]
        now = self._clock()
        drills = drill_rows(
            row.server_id, match_id, row.player_ids, analysis.decisions, analysis.plies, now
        )
        options = match.options
        puzzles = server_puzzle_rows(
            row.server_id,
            match_id,
            analysis.decisions,
            analysis.plies,
            now,
            jacoby=options.jacoby,
            beavers=options.beavers,
        )
        async with self._store.transaction() as tx:
            await tx.analyses.finish(
                match_id, row.server_id, encode_result(analysis), figures, now, drills
            )
            await tx.puzzles.add_server_puzzles(puzzles)
        job.then = functools.partial(
            add_checker_puzzles,
            self._store,
            self._engine,
            row.server_id,
            match_id,
            analysis.decisions,
            analysis.plies,
            now,
            jacoby=options.jacoby,
            beavers=options.beavers,
        )
        return await self._result_reply(row, plain, analysis, language=language)

    async def _failed(self, match_id: int, error: Said, *, language: Language) -> Reply:
        """The analysis failed, ``error``: stored in English (for whoever reads the database),
        said in ``language``."""
        try:
            async with self._store.transaction() as tx:
                await tx.analyses.fail(match_id, str(error), self._clock())
        except Exception:  # the store too: the row stays unfinished and is run again
            log.exception("Could not record the failed analysis of match %s", match_id)
        return Reply(failed_text(match_id, error.worded(language), self._prefix, language=language))

    async def resume(self) -> int:
        """Start taking the jobs waiting in the queue (at start); returns how many wait or run,
        on any host."""
        if not self._engine.available:
            return 0
        waiting = await self._store.analyses.waiting()
        if waiting:
            self._wake()
        return waiting

    async def tick(self) -> None:
        """Time passed (the deadline poll): renew the lease of the job running here, take
        the jobs that wait (another host asked, or a runner died), and let followers of jobs
        run elsewhere look at their rows again."""
        self._notify()
        if self._closed or not self._engine.available:
            return
        now = self._clock()
        if self._running:
            async with self._store.transaction() as tx:
                await tx.analyses.renew(self._name, now, LEASE_SECONDS)
        if self._worker is None and await self._store.analyses.any_claimable(now):
            self._wake()

    # -- following a job ------------------------------------------------------------------------

    async def follow(self, handle: AnalysisQueued) -> AsyncIterator[Reply]:
        """The message of job ``handle`` each time it changes, in the language of the command
        that follows it; the last one (which has no ``job``) is the result or the failure."""
        language = handle.language
        match_id = handle.match_id
        shown = None
        while True:
            changed = self._changed
            job = self._running.get(match_id)
            if job is not None:
                async for reply in self._follow_here(job, language):
                    yield reply
                return
            stored = await self._store.analyses.get(match_id)
            row = await self._store.matches.get(match_id)
            if stored is None or row is None:
                yield Reply(say.ANALYSIS_NOT_RUNNING(language, id=match_id, prefix=self._prefix))
                return
            reply = await self._message(row, stored, language=language)
            if reply.job is None:
                self._asked_in.pop(match_id, None)  # run by another process: done with
                yield reply
                return
            if reply.text != shown:
                shown = reply.text
                yield reply
            await changed.wait()

    async def _follow_here(self, job: _Job, language: Language) -> AsyncIterator[Reply]:
        while True:
            changed = job.changed
            if job.final is not None:
                yield job.final
                return
            yield Reply(
                running_text(
                    job.match_id, job.names, job.plies, job.done, job.total, language=language
                ),
                job=AnalysisQueued(job.match_id, language),
            )
            await changed.wait()

    async def _message(self, row: MatchRow, stored: AnalysisRow, *, language: Language) -> Reply:
        """What to show of ``stored``: the result, the failure, or where the job stands."""
        if stored.status == "done":
            assert stored.result is not None
            plain = await self._repository.names(
                Place(row.server_id, row.channel_id), row.player_ids
            )
            return await self._result_reply(
                row, plain, decode_result(stored.result), language=language
            )
        if stored.status == "failed":
            return Reply(failed_text(row.id, stored.error or "", self._prefix, language=language))
        job = self._running.get(row.id)
        if job is not None:
            done, total = job.done, job.total
        else:
            done, total = stored.games_done, stored.games_total
        plain = await self._repository.names(Place(row.server_id, row.channel_id), row.player_ids)
        names = (md(plain[0]), md(plain[1]))
        if stored.status == "running":
            text = running_text(row.id, names, stored.plies, done, total, language=language)
        else:
            text = queued_text(
                row.id, names, await self._store.analyses.ahead_of(stored), language=language
            )
        return Reply(text, job=AnalysisQueued(row.id, language))

    async def _result_reply(
        self, row: MatchRow, plain: tuple[str, str], analysis: MatchAnalysis, *, language: Language
    ) -> Reply:
        """The analysis' message: its text, its chart, and a Review button when the analysis
        has its decisions (one stored before they were kept must be analysed again)."""
        text = result_text(
            row.id, (md(plain[0]), md(plain[1])), analysis, prefix=self._prefix, language=language
        )
        chart = (
            await asyncio.to_thread(
                chart_png, analysis, plain, winner=row.winner, language=language
            )
            if self._charts and charted(analysis)
            else None
        )
        file = Attachment(f"analysis-{row.id}.png", chart) if chart is not None else None
        if not analysis.decisions:
            return Reply(text, file=file)
        return Reply(text, file=file, decision=Decision.ANALYSED, decision_key=ReviewKey(row.id, 0))

    # -- the automatic analysis of finished matches ---------------------------------------------

    async def start_automatic(self, ended: list[MatchEnded], *, language: Language) -> list[Reply]:
        """Start the analysis of matches that just ended: their progress messages (none unless
        ``settings.analysis_auto`` and GNU Backgammon runs). A failure to start only loses the
        automatic start (the players may still ask)."""
        if not (self._settings.analysis_auto and self._engine.available):
            return []
        replies = []
        for event in ended:
            row = event.table.row
            try:
                stored = await self._store.analyses.get(row.id)
                if stored is not None and stored.status == "done":
                    continue
                replies.append(await self._start(row, language=language))
            except Exception:
                log.exception("Could not start the analysis of match %s", row.id)
        return replies
