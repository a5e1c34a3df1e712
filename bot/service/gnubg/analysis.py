"""Match analysis by GNU Backgammon: background jobs, their stored results, their progress.

A job never holds a channel's lock nor delays play: the engine analyses in its own worker lane,
and the jobs run one at a time in one task of their own, in the order they were asked for. A
result is stored (:mod:`bot.store.analyses`), so asking again is instant; a job cut short by a
restart is left queued or running in the store and started again (:meth:`Analyses.resume`, or
the next ask).

Progress stays free of Discord: a reply that shows a running job carries its handle
(:attr:`Reply.job`), and :meth:`Analyses.follow` yields that message again each time it changes,
ending with the result (the text and the chart) or the failure.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from bot.gnubg.api import Engine, EngineFailure, EngineUnavailable, MatchAnalysis
from bot.gnubg.unavailable import UNAVAILABLE
from bot.render.chart import Point, render_chart
from bot.service.gnubg.analysis_text import (
    decode_result,
    encode_result,
    failed_text,
    queued_text,
    result_text,
    running_text,
)
from bot.service.gnubg.budget import EngineBudget
from bot.service.matches.presentation import typed
from bot.service.matches.reading import MatchReader
from bot.service.models import Attachment, Place, Refusal, Reply, User
from bot.service.records.names import markdown_safe as md
from bot.settings import Settings
from bot.store import MatchRow, Store
from bot.store.analyses import AnalysisRecords, AnalysisRow, PlayerFigures

log = logging.getLogger(__name__)

JOB_PREFIX = "analysis:"


def job_handle(match_id: int) -> str:
    return f"{JOB_PREFIX}{match_id}"


def chart_png(analysis: MatchAnalysis, names: tuple[str, str]) -> bytes | None:
    """The chart of an analysis (PNG)."""
    points = [Point(point.game, point.chance, point.blunder) for point in analysis.chart]
    return render_chart(points, names, length=analysis.length, plies=analysis.plies)


@dataclass(eq=False)
class _Job:
    """A job asked for and not yet finished, in this process."""

    match_id: int
    names: tuple[str, str]  # as message text shows them
    plies: int
    asked_by: str | None = None  # the user who asked for it (None: started automatically)
    running: bool = False
    done: int = 0  # games analysed
    total: int = 0  # games in all (0: not known yet)
    final: Reply | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def notify(self) -> None:
        """Wake whoever follows the job (they wait on the event they saw last)."""
        old, self.changed = self.changed, asyncio.Event()
        old.set()


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
    ) -> None:
        """``charts``: draw the chart (off when board images are: tests, the plain console).
        ``budget``: how many analyses one user may have asked for at once."""
        self._store = store
        self._budget = budget or EngineBudget()
        self.records = AnalysisRecords(store)
        self._repository = repository
        self._engine = engine
        self._settings = settings
        self._clock = clock
        self._charts = charts
        self._jobs: dict[int, _Job] = {}
        self._waiting: deque[_Job] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    def close(self) -> None:
        """Stop the jobs (their rows stay queued or running: the next start resumes them)."""
        for task in self._tasks():
            task.cancel()

    async def stop(self) -> None:
        """:meth:`close`, and wait until the jobs have stopped."""
        tasks = self._tasks()
        self.close()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _tasks(self) -> list[asyncio.Task[None]]:
        worker = [self._worker] if self._worker is not None else []
        return [*worker, *self._background]

    # -- asking ---------------------------------------------------------------------------------

    async def ask(self, place: Place, user: User, text: str | None) -> list[Reply]:
        """``!analysis [match]``: the stored analysis at once, else the job's progress message
        (a job started now, or the one already running for that match)."""
        row = await self._which(place, text)
        stored = await self.records.get(row.id)
        if stored is not None and stored.status == "done":
            return [await self._stored_reply(row, stored)]
        job = self._jobs.get(row.id)
        if job is not None:
            return [self._progress_reply(job)]
        if not self._engine.available:
            raise Refusal(UNAVAILABLE)
        most = self._budget.analyses
        if sum(job.asked_by == user.id for job in self._jobs.values()) >= most:
            raise Refusal(
                f"You already have {most} analyses waiting or running: ask for more once one "
                "of them is done."
            )
        return [await self._start(row, asked_by=user.id)]

    async def _which(self, place: Place, text: str | None) -> MatchRow:
        """The finished match ``text`` names (a number of this server), or by default the
        channel's last finished one."""
        p = self._prefix
        word = typed(text or "")
        if word:
            row = await self._repository.numbered(place, word, "analysis")
        else:
            playing = await self._store.playing_match(place.server_id, place.channel_id)
            if playing is not None:
                raise Refusal(
                    f"The match here (#{playing.id}) is still being played: it can be analysed "
                    f"once it ends. An earlier one: `{p}analysis <match number>`."
                )
            match_id = await self.records.latest_finished_match(place.server_id, place.channel_id)
            if match_id is None:
                raise Refusal(
                    f"No match has finished at this table yet: `{p}analysis <match number>` "
                    "for one played elsewhere on this server."
                )
            row = await self._repository.on_server(place, match_id)
        if row.status == "playing":
            raise Refusal(
                f"Match #{row.id} is still being played: it can be analysed once it ends."
            )
        if row.status != "finished":
            raise Refusal(f"Match #{row.id} was aborted: only finished matches are analysed.")
        return row

    # -- jobs -----------------------------------------------------------------------------------

    async def _start(self, row: MatchRow, *, asked_by: str | None = None) -> Reply:
        """Queue the analysis of ``row`` (unless it is queued already) and say so."""
        job = self._jobs.get(row.id)
        if job is not None:
            return self._progress_reply(job)
        names = await self._repository.names(Place(row.server_id, row.channel_id), row.player_ids)
        job = self._jobs.get(row.id)  # another ask may have started it meanwhile
        if job is not None:
            return self._progress_reply(job)
        job = _Job(row.id, (md(names[0]), md(names[1])), self._settings.analysis_plies, asked_by)
        self._jobs[row.id] = job
        try:
            await self.records.queue(row.id, job.plies, self._clock())
        except BaseException:
            del self._jobs[row.id]
            raise
        self._waiting.append(job)
        if self._worker is None:
            self._worker = asyncio.create_task(self._work(), name="analysis jobs")
        return self._progress_reply(job)

    async def _work(self) -> None:
        """Run the waiting jobs, one at a time, in the order they were asked for."""
        try:
            while self._waiting:
                job = self._waiting.popleft()
                for waiting in self._waiting:  # one fewer ahead of them
                    waiting.notify()
                await self._run(job)
        finally:
            self._worker = None

    async def _run(self, job: _Job) -> None:
        match_id = job.match_id
        job.running = True
        job.notify()
        try:
            job.final = await self._analyse(job)
        except asyncio.CancelledError:
            job.final = Reply(
                f"The analysis of match #{match_id} stopped: the bot is shutting down. It "
                "starts again when the bot is back."
            )
            raise
        except (EngineUnavailable, EngineFailure) as error:
            job.final = await self._failed(match_id, str(error))
        except Exception:
            error_id = uuid.uuid4().hex[:8]
            log.exception("Error %s: the analysis of match %s failed", error_id, match_id)
            job.final = await self._failed(match_id, f"something went wrong (error {error_id}).")
        finally:
            del self._jobs[match_id]
            job.notify()

    async def _analyse(self, job: _Job) -> Reply:
        match_id = job.match_id
        await self.records.started(match_id, self._clock())
        row = await self._store.match(match_id)
        assert row is not None  # matches are never deleted
        plain = await self._repository.names(Place(row.server_id, row.channel_id), row.player_ids)
        match = await self._repository.record(row)

        async def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
            job.notify()

        analysis = await self._engine.analyse(
            match.to_mat(plain), plies=job.plies, jacoby=match.options.jacoby, progress=progress
        )
        figures = [
            PlayerFigures(
                seat, row.player_ids[seat], player.pr, player.error_rate, player.decisions
            )
            for seat, player in enumerate(analysis.players)
        ]
        await self.records.finish(
            match_id, row.server_id, encode_result(analysis), figures, self._clock()
        )
        return await self._result_reply(match_id, plain, analysis)

    async def _failed(self, match_id: int, error: str) -> Reply:
        try:
            await self.records.fail(match_id, error, self._clock())
        except Exception:  # the store too: the row stays unfinished and is run again
            log.exception("Could not record the failed analysis of match %s", match_id)
        return Reply(failed_text(match_id, error, self._prefix))

    async def resume(self, keep: Callable[[Place], bool] = lambda place: True) -> int:
        """Start again the jobs a stopped bot left unfinished in the store, of the places
        ``keep`` says this process serves; returns how many."""
        if not self._engine.available:
            return 0
        started = 0
        for unfinished in await self.records.unfinished():
            row = await self._store.match(unfinished.match_id)
            if row is None or not keep(Place(row.server_id, row.channel_id)):
                continue
            if unfinished.match_id not in self._jobs:
                await self._start(row)
                started += 1
        return started

    # -- following a job ------------------------------------------------------------------------

    async def follow(self, handle: str) -> AsyncIterator[Reply]:
        """The message of job ``handle`` each time it changes; the last one (which has no
        ``job``) is the result or the failure."""
        match_id = int(handle.removeprefix(JOB_PREFIX))
        job = self._jobs.get(match_id)
        if job is None:  # finished before the follower came
            yield await self._after(match_id)
            return
        while True:
            changed = job.changed
            if job.final is not None:
                yield job.final
                return
            yield self._progress_reply(job)
            await changed.wait()

    async def _after(self, match_id: int) -> Reply:
        """The message of a job that is not running here: its result, or what became of it."""
        stored = await self.records.get(match_id)
        row = await self._store.match(match_id)
        if stored is not None and row is not None and stored.status == "done":
            return await self._stored_reply(row, stored)
        if stored is not None and stored.status == "failed":
            return Reply(failed_text(match_id, stored.error or "", self._prefix))
        return Reply(
            f"The analysis of match #{match_id} is not running: ask for it with "
            f"`{self._prefix}analysis {match_id}`."
        )

    def _progress_reply(self, job: _Job) -> Reply:
        if job.running:
            text = running_text(job.match_id, job.names, job.plies, job.done, job.total)
        else:
            ahead = self._waiting.index(job) if job in self._waiting else 0
            ahead += sum(1 for other in self._jobs.values() if other.running)
            text = queued_text(job.match_id, job.names, ahead)
        return Reply(text, job=job_handle(job.match_id))

    async def _stored_reply(self, row: MatchRow, stored: AnalysisRow) -> Reply:
        assert stored.result is not None
        plain = await self._repository.names(Place(row.server_id, row.channel_id), row.player_ids)
        return await self._result_reply(row.id, plain, decode_result(stored.result))

    async def _result_reply(
        self, match_id: int, plain: tuple[str, str], analysis: MatchAnalysis
    ) -> Reply:
        text = result_text(match_id, (md(plain[0]), md(plain[1])), analysis)
        chart = await asyncio.to_thread(chart_png, analysis, plain) if self._charts else None
        file = Attachment(f"analysis-{match_id}.png", chart) if chart is not None else None
        return Reply(text, file=file)

    # -- the automatic analysis of finished matches ---------------------------------------------

    async def start_automatic(self, match_ids: list[int]) -> list[Reply]:
        """Start the analysis of matches that just ended: their progress messages (none unless
        ``settings.analysis_auto`` and GNU Backgammon runs). A failure to start only loses the
        automatic start (the players may still ask)."""
        if not (self._settings.analysis_auto and self._engine.available):
            return []
        replies = []
        for match_id in dict.fromkeys(match_ids):
            try:
                row = await self._store.match(match_id)
                stored = await self.records.get(match_id)
                if row is None or (stored is not None and stored.status == "done"):
                    continue
                replies.append(await self._start(row))
            except Exception:
                log.exception("Could not start the analysis of match %s", match_id)
        return replies
