"""The engine where gnubg isn't installed: every request says so in one line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.gnubg.api import (
    ADVICE_PRIORITY,
    CubeAdvice,
    EngineUnavailable,
    Evaluation,
    Level,
    MatchAnalysis,
    PlayOption,
    PlayRating,
    Progress,
    Query,
    TurnChoice,
)
from bot.i18n import gnubg as say

if TYPE_CHECKING:
    from bot.rules.puzzles import Puzzle

UNAVAILABLE = say.UNAVAILABLE.en  # the exception's English; replies word it in their language


class UnavailableEngine:
    """An :class:`~bot.gnubg.api.Engine` that has no gnubg behind it."""

    @property
    def available(self) -> bool:
        return False

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    def _refuse(self) -> EngineUnavailable:
        return EngineUnavailable(say.UNAVAILABLE.said())

    async def choose_play(self, query: Query, level: Level) -> str | None:
        raise self._refuse()

    async def cube_advice(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> CubeAdvice:
        raise self._refuse()

    async def resignation_answer(
        self, query: Query, level: Level, *, priority: int = ADVICE_PRIORITY
    ) -> bool:
        raise self._refuse()

    async def take_turn(
        self, query: Query, level: Level, *, may_resign: bool = True, rolled: str | None = None
    ) -> TurnChoice:
        raise self._refuse()

    async def hint_plays(
        self, query: Query, *, count: int = 5, plies: int = 2
    ) -> tuple[PlayOption, ...]:
        raise self._refuse()

    async def rate_play(self, query: Query, play: str, *, plies: int = 2) -> PlayRating:
        raise self._refuse()

    async def evaluate(self, query: Query, *, plies: int = 2) -> Evaluation:
        raise self._refuse()

    async def match_winning_chance(self, query: Query, player: int, *, plies: int = 2) -> float:
        raise self._refuse()

    async def analyse(
        self, mat: str, *, plies: int, jacoby: bool = False, progress: Progress | None = None
    ) -> MatchAnalysis:
        raise self._refuse()

    async def checker_puzzle(self, query: Query) -> Puzzle | None:
        raise self._refuse()
