"""Match analysis by GNU Backgammon: its figures, each player's worst decisions, the chart.

:func:`analyse` runs in the bot's process and drives a worker through module-level functions
(they import gnubg inside, so this module imports anywhere): import the ``.mat``, analyse it game
by game (so the caller hears of progress), then capture ``show statistics match`` and
``export match text`` and read them (:mod:`bot.gnubg.analysis_text`).

gnubg keeps the imported match between calls, in the worker. Each call names its job; a worker
that doesn't hold that job (it was restarted, or another job or a request of
:mod:`bot.gnubg.worker` came in between) imports it afresh,
and the answers tell :func:`analyse` that games analysed before are gone, so it starts again
from the first game (a few times at most). A result never mixes jobs or misses a game.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import re
import tempfile
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.gnubg import analysis_text, review_text, session
from bot.gnubg.api import EngineFailure, MatchAnalysis, Progress, WorkerPool
from bot.gnubg.capture import captured_output
from bot.gnubg.decisions import cube_marks
from bot.i18n import gnubg as say

MAX_PLIES = 4  # gnubg's deepest evaluation ("4ply"); 3 and 4 are very slow
ATTEMPTS = 3  # times an analysis starts again after its worker lost games
GAME_TIMEOUT = 300.0  # seconds for one game; a long game at 2-ply takes ~10 s here


class AnalysisRequestError(ValueError):
    """An analysis request gnubg can't carry out as asked (the text says what to change)."""


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """What to analyse and how; ``key`` tells jobs apart in a worker."""

    mat: str
    plies: int
    jacoby: bool = False
    beavers: bool = False

    @property
    def key(self) -> str:
        text = f"{self.plies}:{self.jacoby}:{self.beavers}:{self.mat}"
        return hashlib.sha256(text.encode()).hexdigest()


# -- in the worker ------------------------------------------------------------------------------


@dataclass
class _Loaded:
    """The job gnubg holds in this worker: which games it has analysed, and how long it took."""

    key: str
    games: int
    money: bool
    analysed: set[int] = field(default_factory=set)
    seconds: float = 0.0


_LOADED: _Loaded | None = None


def _gnubg() -> Any:
    """The gnubg module: imported only here, in a worker process (it has no type hints)."""
    return importlib.import_module("gnubg")


def _load(job: AnalysisJob) -> _Loaded:
    """Import ``job``'s match into gnubg (unless it holds it already) with its settings."""
    global _LOADED
    if _LOADED is not None and _LOADED.key == job.key and session.holds(job.key):
        return _LOADED
    gnubg = _gnubg()
    _LOADED = None
    session.hand_over(job.key)  # gnubg's match, settings and cache are the analysis's now
    with captured_output() as printed, tempfile.TemporaryDirectory() as folder:
        for command in (
            "set threads 1",
            f"set analysis chequerplay evaluation plies {job.plies}",
            f"set analysis cubedecision evaluation plies {job.plies}",
            f"set jacoby {'on' if job.jacoby else 'off'}",
            f"set beavers {3 if job.beavers else 0}",
            "set output mwc off",
            "set cache 1048576",  # empties the cache: it can answer at another ply (see notes)
        ):
            gnubg.command(command)
        path = Path(folder) / "match.mat"
        path.write_text(job.mat, encoding="utf-8")
        gnubg.command(f"import mat {path}")
        try:
            imported = gnubg.match()
        except Exception:  # gnubg raises when it holds no match at all
            imported = None
        for side in (0, 1):  # names the analysis text can't confuse with anything around them
            gnubg.command(f"set player {side} name {analysis_text.GNUBG_NAMES[side]}")
    names = analysis_text.mat_names(job.mat)
    info = (imported or {}).get("match-info", {})
    if (info.get("X", {}).get("name"), info.get("O", {}).get("name")) != names:
        imported = None  # the import failed and gnubg kept the match it held before
    if not imported or not imported.get("games"):
        detail = printed.text.strip().splitlines()[-1:]
        raise AnalysisRequestError(
            "GNU Backgammon found no game in that match file"
            + (f" (it said: {detail[0]!r})" if detail else "")
            + "."
        )
    length = int(imported["match-info"].get("match-length", 0))
    _LOADED = _Loaded(job.key, len(imported["games"]), money=length == 0)
    return _LOADED


def _analyse_games(loaded: _Loaded, games: list[int]) -> None:
    gnubg = _gnubg()
    with captured_output():
        for game in games:
            started = time.perf_counter()
            gnubg.navigate(game=-1000)  # to the first game
            if game > 1:
                gnubg.navigate(game=game - 1)
            gnubg.command("analyse game")
            loaded.seconds += time.perf_counter() - started
            loaded.analysed.add(game)


def begin_analysis(job: AnalysisJob) -> int:
    """Worker: import the match; the number of games in it."""
    return _load(job).games


def analyse_game(job: AnalysisJob, game: int) -> int:
    """Worker: analyse game ``game`` (1-based) of ``job``; how many of its games this worker
    has analysed (fewer than ``game``: it lost the earlier ones)."""
    loaded = _load(job)
    if not 1 <= game <= loaded.games:
        raise AnalysisRequestError(f"game {game} is not in this match of {loaded.games} games")
    _analyse_games(loaded, [game])
    return len(loaded.analysed)


def finish_analysis(job: AnalysisJob) -> MatchAnalysis | None:
    """Worker: gnubg's figures and details of the analysed match; None if this worker hasn't
    analysed every game of it (it was restarted: start again)."""
    gnubg = _gnubg()
    loaded = _load(job)
    if len(loaded.analysed) < loaded.games:
        return None
    with captured_output() as printed:
        gnubg.command("show statistics match")
    with tempfile.TemporaryDirectory() as folder, captured_output():
        # every play, for the rank of the play made (gnubg's own list moves it up: see
        # in_review_order); the statistics and the other readings take what they did
        gnubg.command(f"set export moves number {analysis_text.EVERY_PLAY}")
        games = _export(Path(folder) / "emg", "m.txt")
        mwc = None
        if not loaded.money:
            gnubg.command("set output mwc on")
            try:
                mwc = _export(Path(folder) / "mwc", "m.txt")
            finally:
                gnubg.command("set output mwc off")
    decisions = analysis_text.parse_export(
        games, money=loaded.money, beavers=job.beavers, mwc_games=mwc
    )
    reviewed = review_text.review(
        games, money=loaded.money, beavers=job.beavers, mwc_games=mwc, every_play=True
    )
    errors, blunders = cube_marks(reviewed)
    names = analysis_text.mat_names(job.mat)
    players = analysis_text.parse_statistics(printed.text, names, blunders, errors)
    length = 0 if loaded.money else int(gnubg.match()["match-info"]["match-length"])
    return MatchAnalysis(
        plies=job.plies,
        length=length,
        players=players,
        worst=analysis_text.worst(decisions),
        chart=analysis_text.chart(decisions),
        seconds=loaded.seconds,
        decisions=tuple(reviewed),
    )


def _export(folder: Path, name: str) -> list[str]:
    """``export match text``: one file per game (m.txt, m_002.txt...), in game order."""
    gnubg = _gnubg()
    folder.mkdir()
    gnubg.command(f"export match text {folder / name}")

    def number(path: Path) -> int:
        found = re.search(r"_(\d+)$", path.stem)
        return int(found.group(1)) if found else 1

    return [
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(folder.glob("*.txt"), key=number)
    ]


# -- in the bot's process ------------------------------------------------------------------------

# One analysis at a time per pool: two interleaved would make the worker import them in turn.
_POOL_LOCKS: weakref.WeakKeyDictionary[
    WorkerPool, tuple[asyncio.AbstractEventLoop, asyncio.Lock]
] = weakref.WeakKeyDictionary()


def _pool_lock(pool: WorkerPool) -> asyncio.Lock:
    loop = asyncio.get_running_loop()
    held = _POOL_LOCKS.get(pool)
    if held is None or held[0] is not loop:  # an asyncio lock belongs to one event loop
        held = _POOL_LOCKS[pool] = (loop, asyncio.Lock())
    return held[1]


async def analyse(
    pool: WorkerPool,
    mat: str,
    *,
    plies: int,
    jacoby: bool = False,
    progress: Progress | None = None,
    timeout: float = GAME_TIMEOUT,
) -> MatchAnalysis:
    """Analyse the match in ``mat`` (``.mat`` text) as gnubg's ``analyse match`` at ``plies``
    (checker play and cube); ``jacoby`` is the money-game rule. ``progress(done, games)`` hears
    after each game. ``timeout`` is for each call to the worker (one game, or the summing up).
    A crashed or hung worker raises :class:`~bot.gnubg.api.EngineFailure` (from the pool)."""
    if not 0 <= plies <= MAX_PLIES:
        raise AnalysisRequestError(
            f"{plies} plies is not an analysis depth: choose 0 to {MAX_PLIES} (2 is usual)"
        )
    if not mat.strip():
        raise AnalysisRequestError("the match file is empty: there is nothing to analyse")
    # the .mat header says whether a money game allowed beavers (bot.rules.mat writes it)
    job = AnalysisJob(mat, plies, jacoby, beavers='[Beaver "On"]' in mat)
    async with _pool_lock(pool):
        games = await pool.call(begin_analysis, job, timeout=timeout)
        if progress is not None:
            await progress(0, games)
        reported = 0
        for _attempt in range(ATTEMPTS):
            game = 1
            while game <= games:
                done = await pool.call(analyse_game, job, game, timeout=timeout)
                if done < game:  # the worker lost the games before: start again
                    break
                if game > reported and progress is not None:
                    await progress(game, games)
                reported = max(reported, game)
                game += 1
            else:
                result = await pool.call(finish_analysis, job, timeout=timeout)
                if result is not None:
                    return result
    raise EngineFailure(say.ANALYSIS_RESTARTING.said())
