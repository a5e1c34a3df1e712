"""A deterministic stand-in for GNU Backgammon (:class:`bot.gnubg.api.Engine`), built on the
bot's own rules (bot.rules): it plays the first legal play, ranks plays in legal-play order, and
doubles, takes and resigns by simple rules the tests set. It can fail, or pause a call until
the test lets it go, so tests can check what happens while the engine thinks.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace

from bot.gnubg.api import (
    ADVICE_PRIORITY,
    TURN_PRIORITY,
    CubeAdvice,
    EngineFailure,
    EngineUnavailable,
    Evaluation,
    Level,
    MatchAnalysis,
    PlayOption,
    PlayRating,
    Probabilities,
    Progress,
    Query,
    TurnChoice,
)
from bot.i18n import gnubg as gnubg_words
from bot.rules.matchid import decode_match_id
from bot.rules.pasted import from_gnubg_id
from bot.rules.position import Play, Position
from bot.rules.puzzles import Puzzle, Ranked

EVEN = Probabilities(0.5, 0.1, 0.01, 0.1, 0.01)
STEP = 0.1  # each play in legal-play order is this much worse than the one before


def _state(query: Query) -> tuple[Position, tuple[int, int]]:
    position_id, _, match_id = query.gnubg_id.partition(":")
    return Position.from_position_id(position_id), decode_match_id(match_id).dice


def _plays(query: Query) -> list[Play]:
    position, dice = _state(query)
    return position.legal_plays(*dice) if dice != (0, 0) else []


def lead(query: Query) -> int:
    """The pip lead of the player on roll (positive: ahead)."""
    mine, theirs = _state(query)[0].pip_counts()
    return theirs - mine


@dataclass
class FakeEngine:
    """``double_lead``: it doubles when ahead by this many pips or more; ``take_limit``: it
    takes a double unless the doubler leads by this many or more; ``resign``: the points it
    offers to resign (0: never); ``accept_resignations``: its answer to one."""

    available: bool = True
    double_lead: int = 1000
    take_limit: int = 1000
    beaver: bool = False
    resign: int = 0
    accept_resignations: bool = True
    mwc: float = 0.5  # player 0's match-winning chance, whatever the position
    failures: int = 0  # the next this-many calls fail
    calls: list[str] = field(default_factory=list)  # method names, in order
    asked: list[tuple[str, Query]] = field(default_factory=list)  # each call about a state
    resignation_questions: int = 0  # the turns it was asked whether to resign
    _pause: asyncio.Event | None = None
    paused: asyncio.Event = field(default_factory=asyncio.Event)  # set while a call waits

    def pause_next(self) -> asyncio.Event:
        """The next call waits until the returned event is set (``paused`` says it waits)."""
        self._pause = asyncio.Event()
        self.paused.clear()
        return self._pause

    async def _call(
        self, name: str, query: Query | None = None, priority: int = ADVICE_PRIORITY
    ) -> None:
        if not self.available:
            raise EngineUnavailable(gnubg_words.UNAVAILABLE.said())
        self.calls.append(name)
        if query is not None:
            self.asked.append((name, query))
        pause, self._pause = self._pause, None
        if pause is not None:
            self.paused.set()
            await pause.wait()
        if self.failures > 0:
            self.failures -= 1
            raise EngineFailure(gnubg_words.TIMED_OUT.said(seconds="1"), retry=True)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def choose_play(self, query: Query, level: Level) -> str | None:
        await self._call("choose_play", query)
        plays = _plays(query)
        return plays[0].notation if plays else None

    async def take_turn(
        self, query: Query, level: Level, *, may_resign: bool = True, rolled: str | None = None
    ) -> TurnChoice:
        await self._call("take_turn", query, TURN_PRIORITY)
        if may_resign:
            self.resignation_questions += 1
            if self.resign:
                return TurnChoice(resign=self.resign)
        if _state(query)[1] == (0, 0):
            double = self.advice(query).double
            if double or rolled is None:
                return TurnChoice(double=double)
            query = replace(query, gnubg_id=rolled)  # the play for the roll that follows
        plays = _plays(query)
        return TurnChoice(play=plays[0].notation if plays else None)

    def advice(self, query: Query) -> CubeAdvice:
        ahead = lead(query)
        double = ahead >= self.double_lead
        take = ahead < self.take_limit
        no_double = max(-1.0, min(1.0, ahead / 100))
        proper = (
            ("Double, beaver" if self.beaver else "Double, take")
            if double and take
            else "Double, pass"
            if double
            else "No double, take"
        )
        return CubeAdvice(
            no_double=no_double,
            double_take=no_double * 2 + (0.5 if double else -0.5),
            double_pass=1.0 if take else no_double * 2 - 0.2,
            proper=proper,
            double=double,
            take=take,
            beaver=self.beaver and take,
            plies=0,
            probabilities=EVEN,
        )

    async def cube_advice(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> CubeAdvice:
        await self._call("cube_advice", query, priority)
        return self.advice(query)

    async def resignation_answer(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> bool:
        await self._call("resignation_answer", query, priority)
        return self.accept_resignations

    def ranked(self, query: Query, plies: int) -> list[PlayOption]:
        return [
            PlayOption(play.notation, 0.0 - STEP * index, 0.0 - STEP * index, plies, EVEN)
            for index, play in enumerate(_plays(query))
        ]

    async def hint_plays(
        self, query: Query, *, count: int = 5, plies: int = 2
    ) -> tuple[PlayOption, ...]:
        await self._call("hint_plays")
        return tuple(self.ranked(query, plies)[:count])

    async def rate_play(self, query: Query, play: str, *, plies: int = 2) -> PlayRating:
        await self._call("rate_play")
        ranked = self.ranked(query, plies)
        position, dice = _state(query)
        made = position.parse_play(play, dice)
        played = next(o for o, p in zip(ranked, _plays(query), strict=True) if p == made)
        return PlayRating(played=played, best=ranked[0])

    async def evaluate(self, query: Query, *, plies: int = 2) -> Evaluation:
        await self._call("evaluate")
        return Evaluation(EVEN, lead(query) / 100, plies)

    async def match_winning_chance(self, query: Query, player: int, *, plies: int = 2) -> float:
        await self._call("match_winning_chance")
        return self.mwc if player == 0 else 1.0 - self.mwc

    async def analyse(
        self, mat: str, *, plies: int, jacoby: bool = False, progress: Progress | None = None
    ) -> MatchAnalysis:
        await self._call("analyse")
        raise EngineFailure(gnubg_words.CRASHED.said(), retry=True)  # it analyses nothing

    async def checker_puzzle(self, query: Query) -> Puzzle | None:
        """Its ranking (legal-play order) as a puzzle: any roll with two plays or more."""
        await self._call("checker_puzzle", query)
        plays = _plays(query)
        if len(plays) < 2:
            return None
        position_id, _, match_id = query.gnubg_id.partition(":")
        state = replace(
            from_gnubg_id(query.gnubg_id, position_id, match_id),
            jacoby=query.jacoby,
            beavers=query.beavers,
        )
        return Puzzle(state, tuple(Ranked(p.notation, -STEP * n) for n, p in enumerate(plays)))
