"""The review commands, as the registry points at them: ``!review`` of an analysed match and
``!drill`` of one's own errors (typed, or a page's or a drill's button). No channel lock; a
drill's grading asks the engine within the user's budget."""

from __future__ import annotations

from bot.service.commands.guard import Answer, Guard
from bot.service.keys import DrillKey, ErrorsKey, ReviewKey
from bot.service.matches.reading import MatchReader
from bot.service.models import Place, Reply, User, replies_of
from bot.service.review.drills import Drills
from bot.service.review.room import Reviews


class ReviewCommands:
    """``!review`` and ``!drill``."""

    def __init__(
        self, guard: Guard, reviews: Reviews, drills: Drills, repository: MatchReader
    ) -> None:
        self._guard = guard
        self._reviews = reviews
        self._drills = drills
        self._repository = repository

    async def review(
        self,
        place: Place,
        user: User,
        what: str | None = None,
        *,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """``!review [match [decision] | next | errors]``, or a press on a review page
        (``answering``: its key, ``v<match>.<page>``): see :mod:`bot.service.review.room`."""
        language = user.language
        pressed = answering.key if answering is not None else None
        assert pressed is None or isinstance(pressed, (ReviewKey, ErrorsKey))  # press() checks
        return await replies_of(
            lambda: self._reviews.review(place, user, what, pressed=pressed),
            self._repository.forget,
            language,
        )

    async def drill(
        self,
        place: Place,
        user: User,
        what: str | None = None,
        *,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """``!drill [stats | <answer>]``, or a cube drill's button (``answering``: the drill's
        key): drill one's own analysed errors, spaced out in time (see
        :mod:`bot.service.review.drills`). No channel lock; grading a play asks the engine,
        within the user's budget."""
        language = user.language
        pressed = answering.key if answering is not None else None
        assert pressed is None or isinstance(pressed, DrillKey)  # press() checks
        return await self._guard.engine_request(
            user,
            lambda: replies_of(
                lambda: self._drills.drill(place, user, what, pressed=pressed),
                self._repository.forget,
                language,
            ),
        )

    async def drill_choices(self, place: Place, user: User, typed: str = "") -> list[str]:
        """The answers of the drill awaiting ``user`` that fit what they ``typed`` so far
        (``/drill``'s autocomplete; see :meth:`Drills.answer_choices
        <bot.service.review.drills.Drills.answer_choices>`): no lock, no engine, nothing
        written."""
        return await self._drills.answer_choices(place, user, typed)
