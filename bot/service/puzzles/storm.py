"""``!puzzle storm``: as many puzzles as a player can solve in :data:`DURATION` seconds, rising in
rating, after lichess's Puzzle Storm.

The ``k``-th puzzle of a run (from 0) is chosen near the rating ``FIRST + STEP * k`` (from the
starter pool and the server's own, :func:`pool.choose <bot.service.puzzles.pool.choose>`, by a
choice seeded by the run), none shown twice in a run. A right answer scores one; a wrong one
costs :data:`PENALTY` seconds of the run's time (lichess's storm takes 10 seconds too; its combo
bonuses are not here) and, like any missed puzzle, becomes one of the player's drills. Answers
are graded from the stored ranking (no engine) and change no rating.

The run lives in the store (:mod:`bot.store.storms`): a restart or another host carries it on,
and the player has one at a time. Its time is the service's clock: when it is up, the next
answer is not counted, and :meth:`StormRoom.due` (the deadline poll; the console's ``~``) ends
it in the channel where it started with the score. ``!puzzle storm top``: the server's players
by their best run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.i18n import puzzles as say
from bot.i18n.core import Language, capital
from bot.rules.errors import InvalidMoveError, MoveError
from bot.rules.glicko import Rating
from bot.rules.puzzles import Puzzle, PuzzleDataError, Verdict
from bot.service.keys import StormKey
from bot.service.languages import Languages
from bot.service.matches.presentation import BoardImages
from bot.service.models import Place, Refusal, Reply, User, reason_of
from bot.service.puzzles import pool
from bot.service.puzzles.asking import puzzle_reply, verdict_head
from bot.service.review.drills import puzzle_drill_row
from bot.settings import Settings
from bot.store import Store
from bot.store.storms import StormRow

DURATION = 180.0  # seconds of a run
PENALTY = 10.0  # seconds a wrong answer costs
FIRST = 800.0  # the rating the first puzzle is chosen near
STEP = 60.0  # each puzzle's rating above the one before
TOP = 10  # players on ``!puzzle storm top``
ENDED_AT_ONCE = 100  # storms ended by one deadline poll (the rest at the next)


def clock_left(seconds: float) -> str:
    """``2:05``: minutes and seconds left, rounded down."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _graded(verdict: Verdict, *, language: Language) -> str:
    head = verdict_head(verdict, language=language)
    return (
        head if verdict.right else say.STORM_PENALTY(language, head=head, seconds=f"{PENALTY:.0f}")
    )


class StormRoom:
    def __init__(
        self,
        store: Store,
        images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        languages: Languages,
    ) -> None:
        self._languages = languages
        self._store = store
        self._images = images
        self._settings = settings
        self._clock = clock

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def running(self, place: Place, user: User) -> StormRow | None:
        """The player's storm on this server that has not been ended (its time may be up)."""
        storm = await self._store.storms.running(user.id)
        return storm if storm is not None and storm.server_id == place.server_id else None

    async def command(self, place: Place, user: User, rest: str) -> Reply:
        """``!puzzle storm`` (start one, or show the running one's puzzle again) and
        ``!puzzle storm top``."""
        language = user.language
        if rest == "top":
            return await self._top(place, language=language)
        if rest:
            raise Refusal(say.STORM_USAGE(language, prefix=self._prefix))
        now = self._clock()
        storm = await self._store.storms.running(user.id)
        if storm is not None and storm.ends_at <= now:
            return Reply(
                await self._end(
                    storm, now, say.STORM_ANOTHER(language, prefix=self._prefix), language=language
                )
            )
        if storm is not None and storm.server_id != place.server_id:
            raise Refusal(say.STORM_ELSEWHERE(language, left=clock_left(storm.ends_at - now)))
        if storm is not None:
            return await self.show(storm, user, now)
        return await self._start(place, user, now)

    async def _start(self, place: Place, user: User, now: float) -> Reply:
        language = user.language
        chosen = await self._choose(place.server_id, user.id, now, ())
        if chosen is None:
            raise Refusal(say.STORM_NO_PUZZLE(language))
        async with self._store.transaction() as tx:
            storm = await tx.storms.start(
                place.server_id, place.channel_id, user.id, user.name, now, now + DURATION, chosen
            )
        if storm is None:  # started meanwhile (another host)
            raise Refusal(say.STORM_RUNNING(language, prefix=self._prefix))
        lead = say.STORM_STARTS(
            language, name=user.name, left=clock_left(DURATION), seconds=f"{PENALTY:.0f}"
        )
        return await self.show(storm, user, now, lead)

    async def _choose(
        self, server_id: str, user_id: str, started_at: float, seen: list[str] | tuple[str, ...]
    ) -> str | None:
        """The key of the run's next puzzle (the ``len(seen)``-th)."""
        step = len(seen)
        chosen = await pool.choose(
            self._store.puzzles,
            server_id,
            user_id,
            Rating(FIRST + STEP * step),
            step,
            seen,
            seed=f"storm:{user_id}:{started_at!r}:{step}",
        )
        return None if chosen is None else chosen[0].key

    async def _puzzle(self, storm: StormRow, *, language: Language) -> Puzzle:
        found = (
            None
            if storm.puzzle is None
            else await pool.find(self._store.puzzles, storm.server_id, storm.puzzle)
        )
        if found is None:
            raise Refusal(say.STORM_UNREADABLE(language))
        return found

    async def show(self, storm: StormRow, user: User, now: float, lead: str = "") -> Reply:
        """The storm's puzzle awaiting the answer, with the time left and the score."""
        language = user.language
        puzzle = await self._puzzle(storm, language=language)
        rating = (await self._store.puzzles.puzzle_ratings([puzzle.key])).get(puzzle.key)
        rated = puzzle.first_rating if rating is None else rating.rating.rating
        head = say.STORM_HEAD(
            language,
            name=user.name,
            left=clock_left(storm.ends_at - now),
            score=storm.score,
            number=len(storm.shown),
            rated=f"{rated:.0f}",
        )
        key = StormKey(storm.id, len(storm.shown))
        reply = await puzzle_reply(self._images, self._prefix, puzzle, head, key, language=language)
        return reply if not lead else replace(reply, text=f"{lead}\n{reply.text}")

    async def pressed(self, place: Place, user: User, key: StormKey, word: str) -> Reply:
        """A cube puzzle's button: it answers that puzzle of the player's running storm only."""
        language = user.language
        storm = await self.running(place, user)
        if storm is None or (storm.id, len(storm.shown)) != (key.storm, key.shown):
            raise Refusal(say.STORM_NOT_THE_ONE(language, prefix=self._prefix))
        return await self.answer(place, user, storm, word)

    async def answer(self, place: Place, user: User, storm: StormRow, text: str) -> Reply:
        """``text`` answers the storm's puzzle: graded, scored, and the next one shown (or
        the end, when the time is up)."""
        language = user.language
        now = self._clock()
        if storm.ends_at <= now:
            return Reply(
                await self._end(storm, now, say.STORM_TIME_WAS_UP(language), language=language)
            )
        puzzle = await self._puzzle(storm, language=language)
        try:
            verdict = puzzle.grade(text)
        except (MoveError, InvalidMoveError, PuzzleDataError) as error:
            said = reason_of(error, language)
            raise Refusal(
                say.STORM_STILL_WAITING(language, reason=capital(said[:1], language) + said[1:])
            ) from None
        right = verdict.right
        penalty = 0.0 if right else PENALTY
        over = storm.ends_at - penalty <= now
        following = (
            None
            if over
            else await self._choose(storm.server_id, storm.user_id, storm.started_at, storm.shown)
        )
        async with self._store.transaction() as tx:
            answered = await tx.storms.answered(storm, right, penalty, following)
            if answered is None:
                raise Refusal(say.STORM_ANSWERED(language))
            if not right:
                await tx.drills.add_missed(
                    puzzle_drill_row(place.server_id, user.id, puzzle, verdict, now)
                )
        if following is None:
            ended = await self._end(answered, now, "", language=language)
            return Reply("\n".join((_graded(verdict, language=language), ended)))
        shown = await self.show(answered, user, now)
        return replace(shown, text=f"{_graded(verdict, language=language)}\n{shown.text}")

    async def _end(self, storm: StormRow, now: float, then: str, *, language: Language) -> str:
        """End ``storm`` (its time is up, or no puzzle is left): the score and where it stands
        on the server; ``then`` follows. Ended already (another answer, the poll): said the
        same."""
        return (await self._ending(storm, now, then, language=language))[0]

    async def _ending(
        self, storm: StormRow, now: float, then: str, *, language: Language
    ) -> tuple[str, bool]:
        """:meth:`_end`, and whether it was ended here."""
        async with self._store.transaction() as tx:
            before = await tx.storms.best(storm.server_id, storm.user_id)
            ended = await tx.storms.finish(storm.id, now)
        final = ended or storm
        if ended is not None and final.score > (before or 0):
            best = say.STORM_BEST_SO_FAR(language)
        else:
            best = "" if before is None else say.STORM_BEST(language, best=max(before, final.score))
        text = say.STORM_OVER(
            language,
            name=final.name,
            score=final.score,
            wrong=say.STORM_WRONG_ANSWERS(language, final.wrong),
            best=best,
        )
        return f"{text} {then}".strip(), ended is not None

    async def due(self, where: Callable[[Place], bool]) -> list[tuple[Place, Reply]]:
        """End the storms whose time is up at the places ``where`` accepts: the score, in the
        channel where each started, in its server's language."""
        now = self._clock()
        out: list[tuple[Place, Reply]] = []
        for storm in await self._store.storms.over(now, ENDED_AT_ONCE):
            place = Place(storm.server_id, storm.channel_id)
            if where(place):
                language = await self._languages.of(place.server_id)
                text, ended = await self._ending(storm, now, "", language=language)
                if ended:
                    out.append((place, Reply(text)))
        return out

    async def _top(self, place: Place, *, language: Language) -> Reply:
        rows = await self._store.storms.top(place.server_id, TOP)
        if not rows:
            raise Refusal(say.STORM_NONE_ENDED(language, prefix=self._prefix))
        lines = [
            f"{n}. {row.name} {row.score} ({say.STORMS(language, row.runs)})"
            for n, row in enumerate(rows, 1)
        ]
        return Reply(say.STORM_TOP(language) + "\n" + "\n".join(lines))

    async def awaited(self, place: Place, user: User) -> Puzzle | None:
        """The puzzle the player's running storm here waits on (for autocomplete)."""
        language = user.language
        storm = await self.running(place, user)
        if storm is None or storm.ends_at <= self._clock():
            return None
        try:
            return await self._puzzle(storm, language=language)
        except Refusal:
            return None
