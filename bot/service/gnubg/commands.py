"""The commands that ask GNU Backgammon, as the registry points at them: ``!hint``, pasted
positions shown and judged, ``!analysis``. None holds a channel's lock while the engine thinks;
requests go within the user's budget (:meth:`Guard.engine_request
<bot.service.commands.guard.Guard.engine_request>`)."""

from __future__ import annotations

from bot.service.commands.guard import Guard
from bot.service.gnubg.analysis import Analyses
from bot.service.gnubg.coach import Coach
from bot.service.gnubg.positions import Positions
from bot.service.models import Place, Refusal, Reply, User


class EngineCommands:
    """``!hint``, ``!show``, ``!eval``, ``!analysis``."""

    def __init__(
        self, guard: Guard, coach: Coach, positions: Positions, analyses: Analyses
    ) -> None:
        self._guard = guard
        self._coach = coach
        self._positions = positions
        self._analyses = analyses

    async def hint(self, place: Place, user: User) -> list[Reply]:
        """GNU Backgammon's advice for ``user``'s decision, privately (no lock while it thinks)."""
        return await self._guard.engine_request(user, lambda: self._coach.hint(place, user))

    async def show(self, place: Place, user: User, position: str) -> list[Reply]:
        language = user.language
        return await self._positions.show(position, language=language)

    async def evaluate(self, place: Place, user: User, position: str) -> list[Reply]:
        language = user.language
        return await self._guard.engine_request(
            user, lambda: self._positions.evaluate(position, language=language)
        )

    async def analysis(self, place: Place, user: User, match: str | None = None) -> list[Reply]:
        try:
            return await self._analyses.ask(place, user, match)
        except Refusal as refusal:
            return [Reply(refusal.worded(user.language), private=True)]
