"""The puzzle commands, as the registry points at them: ``!puzzle`` (typed, or a cube puzzle's
button). No channel lock and no engine: a puzzle keeps gnubg's ranking."""

from __future__ import annotations

from collections.abc import Callable

from bot.service.commands.guard import Answer
from bot.service.keys import DailyKey, PuzzleKey, StormKey
from bot.service.models import Place, Reply, User, replies_of
from bot.service.puzzles.daily import DailyPuzzles
from bot.service.puzzles.room import PuzzleRoom


class PuzzleCommands:
    """``!puzzle``."""

    def __init__(self, puzzles: PuzzleRoom, forget: Callable[[int], None]) -> None:
        self._puzzles = puzzles
        self._forget = forget  # the repository's: a match to read again (never one here)

    async def puzzle(
        self,
        place: Place,
        user: User,
        what: str | None = None,
        *,
        answering: Answer | None = None,
        manager: bool = False,
    ) -> list[Reply]:
        """``!puzzle [rating | top | misses | storm | daily ... | <answer>]``, or a cube puzzle's,
        a storm's or the daily puzzle's button (``answering``: its key): see
        :mod:`bot.service.puzzles.room`. ``manager``: the user may set the daily puzzle (Manage
        Server)."""
        language = user.language
        pressed = answering.key if answering is not None else None
        assert pressed is None or isinstance(pressed, PuzzleKey | DailyKey | StormKey)  # press()
        return await replies_of(
            lambda: self._puzzles.puzzle(place, user, what, pressed=pressed, manager=manager),
            self._forget,
            language,
        )

    @property
    def daily(self) -> DailyPuzzles:
        """The daily puzzle: its :meth:`~DailyPuzzles.due` is the deadline poll's."""
        return self._puzzles.daily

    async def storms_due(self, where: Callable[[Place], bool]) -> list[tuple[Place, Reply]]:
        """The storms whose time is up, ended (:meth:`StormRoom.due
        <bot.service.puzzles.storm.StormRoom.due>`)."""
        return await self._puzzles.storm.due(where)

    async def puzzle_choices(self, place: Place, user: User, typed: str = "") -> list[str]:
        """``/puzzle``'s autocomplete (:meth:`PuzzleRoom.answer_choices
        <bot.service.puzzles.room.PuzzleRoom.answer_choices>`): nothing written."""
        return await self._puzzles.answer_choices(place, user, typed)
