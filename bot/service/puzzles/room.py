"""``!puzzle``: a rated puzzle for the player, graded from gnubg's stored ranking (no engine).

``!puzzle`` gives the player a puzzle near their puzzle rating on this server, from the starter
pool and the server's own (:mod:`.pool`), not one of the last :data:`RECENT` they were shown:
the board from the decider's side, the roll or the cube question, the match, score and cube.
The puzzle shown waits for the answer in the store (a row of ``puzzle_answers``), so a restart
loses nothing, and ``!puzzle`` shows it again until it is answered. ``!puzzle 13/7 8/7`` (any
spelling of a play) or ``!puzzle double`` / ``no double`` / ``take`` / ``pass`` (or the cube
puzzle's buttons) answers: right or the equity lost, gnubg's best and top three with their
equities, the XGID, and the rating change. The answer is a Glicko-2 game between the player and
the puzzle (:func:`~bot.rules.glicko.rate_answer`): the player's rating on this server and across
servers, and the puzzle's own (one across servers, moved at most 20 points). ``!puzzle rating``,
``!puzzle top`` (the server's players with an RD of 75 or less), ``!puzzle misses`` (the
latest puzzle the player got wrong and has not solved since, again, unrated). A wrong answer
also makes the puzzle one of the player's drills
(:func:`~bot.service.review.drills.puzzle_drill_row`). ``!puzzle storm``: :mod:`.storm`; while
a storm runs, ``!puzzle`` shows its puzzle and an answer typed is its.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import puzzles as say
from bot.i18n.core import Language, capital
from bot.rules.errors import InvalidMoveError, MoveError
from bot.rules.glicko import (
    LEADERBOARD_DEVIATION,
    PROVISIONAL_DEVIATION,
    Rating,
    decay_since,
    rate_answer,
)
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle
from bot.service.commands.choices import play_choices, position_plays, word_choices
from bot.service.keys import DailyKey, PuzzleKey, StormKey
from bot.service.languages import Languages
from bot.service.matches.presentation import BoardImages
from bot.service.models import Place, Refusal, Reply, User, reason_of
from bot.service.puzzles import pool
from bot.service.puzzles.asking import how_to_answer, puzzle_reply, verdict_text
from bot.service.puzzles.daily import DailyPuzzles
from bot.service.puzzles.storm import StormRoom
from bot.service.review.drills import puzzle_drill_row
from bot.settings import Settings
from bot.store import Store
from bot.store.puzzles import EVERY_SERVER, AnswerRow, Puzzles, PuzzleWrites, Rated

RECENT = 200  # a player's last puzzles shown, never given again while among them
TOP = 10  # players on ``!puzzle top``
WORDS = ("rating", "top", "misses", "storm", "storm top", "daily")


def rating_change(before: Rating, after: Rating) -> str:
    """``1500? -> 1532? (+32)``."""
    return f"{before.text} -> {after.text} ({round(after.rating) - round(before.rating):+d})"


class PuzzleRoom:
    def __init__(
        self,
        store: Store,
        images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        languages: Languages,
    ) -> None:
        """``languages``: each server's, for the daily posts and the storms' ends (no command
        asks for them)."""
        self._store = store
        self._images = images
        self._settings = settings
        self._clock = clock
        self.daily = DailyPuzzles(store, images, settings, clock, self.rate, languages)
        self.storm = StormRoom(store, images, settings, clock, languages)

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def puzzle(
        self,
        place: Place,
        user: User,
        what: str | None,
        *,
        pressed: PuzzleKey | DailyKey | StormKey | None = None,
        manager: bool = False,
    ) -> list[Reply]:
        """``what``: typed words, or a cube button's word when ``pressed`` (the showing's key,
        a storm puzzle's, or the daily post's); ``manager``: the user may set the daily
        puzzle."""
        language = user.language
        text = " ".join((what or "").split())
        word = text.lower()
        if pressed is not None:  # a button's word
            word = word.replace("nodouble", "no double")
        if isinstance(pressed, StormKey):
            return [await self.storm.pressed(place, user, pressed, word)]
        if isinstance(pressed, DailyKey):
            return await self.daily.command(place, user, word, manager=manager, pressed=pressed)
        if word.split(maxsplit=1)[:1] == ["daily"]:
            rest = text[len("daily") :].strip()
            return await self.daily.command(place, user, rest, manager=manager, pressed=None)
        if pressed is not None:
            waiting = await self._awaiting(place, user)
            if waiting is None or waiting.id != pressed.shown:
                raise Refusal(say.NOT_THE_ONE_WAITING(language, prefix=self._prefix))
            return [await self._answer(place, user, waiting, word)]
        if word == "storm" or word.startswith("storm "):
            return [await self.storm.command(place, user, word[len("storm") :].strip())]
        if word == "rating":
            return [await self._rating(place, user)]
        if word == "top":
            return [await self._top(place, language=language)]
        if word == "misses":
            return [await self._misses(place, user)]
        storm = await self.storm.running(place, user)
        if storm is not None:  # its puzzle, shown again or answered (or its end)
            if word in ("", "next"):
                return [await self.storm.command(place, user, "")]
            return [await self.storm.answer(place, user, storm, text)]
        if word in ("", "next"):
            return [await self._show(place, user)]
        waiting = await self._awaiting(place, user)
        if waiting is None:
            raise Refusal(say.NONE_WAITING(language, prefix=self._prefix))
        return [await self._answer(place, user, waiting, text)]

    # -- showing --------------------------------------------------------------------------------

    async def _awaiting(self, place: Place, user: User) -> AnswerRow | None:
        last = await self._store.puzzles.answers(place.server_id, user.id, 1)
        return last[0] if last and last[0].answered_at is None else None

    async def _player(
        self, server_id: str, user_id: str, now: float, reads: Puzzles | None = None
    ) -> Rated:
        """The player's rating (as it stands ``now``: decayed since it was last changed), read
        by ``reads`` (a transaction's) or the store."""
        stored = await (reads or self._store.puzzles).player(server_id, user_id)
        if stored is None:
            return Rated(Rating(), now, 0)
        return Rated(decay_since(stored.rating, stored.rated_at, now), now, stored.answers)

    async def _show(self, place: Place, user: User) -> Reply:
        language = user.language
        recent = await self._store.puzzles.answers(place.server_id, user.id, RECENT)
        if recent and recent[0].answered_at is None:
            puzzle = await pool.find(self._store.puzzles, place.server_id, recent[0].puzzle)
            if puzzle is not None:
                return await self._question(user, puzzle, recent[0], say.WAITING_NOTE(language))
        now = self._clock()
        player = await self._player(place.server_id, user.id, now)
        chosen = await pool.choose(
            self._store.puzzles,
            place.server_id,
            user.id,
            player.rating,
            player.answers,
            {row.puzzle for row in recent},
        )
        if chosen is None:
            raise Refusal(say.SEEN_EVERY(language))
        puzzle, _ = chosen
        async with self._store.transaction() as tx:
            shown = await tx.puzzles.show(place.server_id, user.id, puzzle.key, now)
        return await self._question(
            user, puzzle, shown, say.YOU_NOTE(language, rating=player.rating.text)
        )

    async def _question(self, user: User, puzzle: Puzzle, shown: AnswerRow, note: str) -> Reply:
        language = user.language
        head = (say.HEAD if shown.rated else say.REPLAY_HEAD)(language, name=user.name, note=note)
        return await puzzle_reply(
            self._images, self._prefix, puzzle, head, PuzzleKey(shown.id), language=language
        )

    async def _misses(self, place: Place, user: User) -> Reply:
        language = user.language
        recent = await self._store.puzzles.answers(place.server_id, user.id, RECENT)
        if recent and recent[0].answered_at is None and recent[0].rated:
            raise Refusal(say.ANSWER_FIRST(language, prefix=self._prefix))
        latest: dict[str, AnswerRow] = {}
        for row in recent:
            if row.right is not None:
                latest.setdefault(row.puzzle, row)
        missed = [row.puzzle for row in latest.values() if row.right == 0]
        if not missed:
            raise Refusal(say.NO_MISSES(language, recent=RECENT, prefix=self._prefix))
        puzzle = await pool.find(self._store.puzzles, place.server_id, missed[0])
        if puzzle is None:
            raise Refusal(say.MISSED_UNREADABLE(language))
        async with self._store.transaction() as tx:
            shown = await tx.puzzles.show(
                place.server_id, user.id, puzzle.key, self._clock(), rated=False
            )
        return await self._question(user, puzzle, shown, say.MISSES_NOTE(language, len(missed)))

    # -- answering ------------------------------------------------------------------------------

    async def _answer(self, place: Place, user: User, shown: AnswerRow, text: str) -> Reply:
        language = user.language
        puzzle = await pool.find(self._store.puzzles, place.server_id, shown.puzzle)
        if puzzle is None:
            raise Refusal(say.UNREADABLE(language, prefix=self._prefix))
        try:
            verdict = puzzle.grade(text)
        except (MoveError, InvalidMoveError) as error:
            said = reason_of(error, language)
            reason = capital(said[:1], language) + said[1:]
            how = how_to_answer(puzzle, self._prefix, language=language)
            raise Refusal(say.STILL_WAITING(language, reason=reason, how=how)) from None
        now = self._clock()
        right = verdict.right
        lines = [verdict_text(verdict, puzzle, language=language)]
        async with self._store.transaction() as tx:
            if not await tx.puzzles.record_answer(
                shown, verdict.answer.answer, right, verdict.loss, now
            ):
                raise Refusal(say.ANSWERED_ALREADY(language, prefix=self._prefix))
            if shown.rated:
                lines.append(await self.rate(tx.puzzles, place, user, puzzle, right, now))
            else:
                lines.append(say.REPLAY_UNRATED(language))
            if not right:
                await tx.drills.add_missed(
                    puzzle_drill_row(place.server_id, user.id, puzzle, verdict, now)
                )
                lines.append(say.MISSED_DRILL(language, prefix=self._prefix))
        return Reply("\n".join(lines))

    async def rate(
        self,
        puzzles: PuzzleWrites,
        place: Place,
        user: User,
        puzzle: Puzzle,
        right: bool,
        now: float,
    ) -> str:
        """Rate the answer (the player here and across servers, the puzzle): the line saying
        how the ratings changed."""
        language = user.language
        stored = (await puzzles.puzzle_ratings([puzzle.key])).get(puzzle.key)
        before_puzzle = (
            Rating(puzzle.first_rating)
            if stored is None
            else decay_since(stored.rating, stored.rated_at, now)
        )
        changes = []
        for server_id in (place.server_id, EVERY_SERVER):
            player = await self._player(server_id, user.id, now, puzzles)
            after, after_puzzle = rate_answer(player.rating, before_puzzle, right)
            await puzzles.rate_player(
                server_id, user.id, user.name, Rated(after, now, player.answers + 1)
            )
            changes.append((player.rating, after, after_puzzle))
        here, everywhere, puzzle_after = changes[0][:2], changes[1][:2], changes[0][2]
        answers = 0 if stored is None else stored.answers
        await puzzles.rate_puzzle(puzzle.key, Rated(puzzle_after, now, answers + 1), right)
        return say.RATING_CHANGES(
            language,
            here=rating_change(*here),
            everywhere=rating_change(*everywhere),
            puzzle=rating_change(before_puzzle, puzzle_after),
        )

    # -- ratings --------------------------------------------------------------------------------

    async def _rating(self, place: Place, user: User) -> Reply:
        language = user.language
        now = self._clock()
        stored = await self._store.puzzles.player(place.server_id, user.id)
        if stored is None:
            raise Refusal(say.NO_RATING(language, prefix=self._prefix))
        here = await self._player(place.server_id, user.id, now)
        everywhere = await self._player(EVERY_SERVER, user.id, now)
        text = say.RATING(
            language,
            name=user.name,
            here=here.rating.text,
            deviation=f"{here.rating.deviation:.0f}",
            answers=say.ANSWERS(language, here.answers),
            everywhere=everywhere.rating.text,
            answers_everywhere=say.ANSWERS(language, everywhere.answers),
            provisional=f"{PROVISIONAL_DEVIATION:.0f}",
        )
        return Reply(text)

    async def _top(self, place: Place, *, language: Language) -> Reply:
        rows = await self._store.puzzles.top(place.server_id, LEADERBOARD_DEVIATION, TOP)
        if not rows:
            raise Refusal(say.NO_TOP(language, deviation=f"{LEADERBOARD_DEVIATION:.0f}"))
        lines = [
            f"{n}. {name} {rated.rating.text} ({say.ANSWERS(language, rated.answers)})"
            for n, (_, name, rated) in enumerate(rows, 1)
        ]
        head = say.TOP(language, deviation=f"{LEADERBOARD_DEVIATION:.0f}")
        return Reply(head + "\n" + "\n".join(lines))

    # -- autocomplete -------------------------------------------------------------------------

    async def answer_choices(self, place: Place, user: User, typed: str = "") -> list[str]:
        """``/puzzle``'s autocomplete: the legal plays of the awaited checker puzzle in the
        rules' order (never ranked), its cube words, or :data:`WORDS` when none waits; after
        ``daily``, the daily puzzle's."""
        language = user.language
        if typed.strip().lower().startswith("daily"):
            return await self.daily.choices(place, typed.strip()[len("daily") :], language=language)
        puzzle = await self.storm.awaited(place, user)
        waiting = None if puzzle is not None else await self._awaiting(place, user)
        if waiting is not None:
            puzzle = await pool.find(self._store.puzzles, place.server_id, waiting.puzzle)
        if puzzle is None:
            return word_choices(WORDS, typed)
        if puzzle.kind == CHECKER:
            dice = puzzle.state.dice
            assert dice is not None
            return play_choices(position_plays(puzzle.state.position.position_id(), dice), typed)
        words = ("double", "no double") if puzzle.kind == DOUBLE else ("take", "pass")
        return word_choices(words, typed)
