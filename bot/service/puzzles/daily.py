"""The daily puzzle: one position a day for a whole server, in the channel an admin chose.

``!puzzle daily #channel 09:00 [time zone]`` (Manage Server) sets it, in the server's time zone
(``servers.time_zone``; a zone named here becomes the server's); ``!puzzle daily off`` stops
it. Each day at that time the deadline poll (:meth:`DailyPuzzles.due`) posts the day's puzzle
there: the board, the question, a button (Answer for a play, the cube's for a cube puzzle) and
how many found the previous one. The puzzle is chosen by the server and the date alone (a
seeded order of the starter pool), never one the server had as its daily before, so two hosts
choose the same; the post is claimed in the store first (:meth:`DailyWrites.claim
<bot.store.dailies.DailyWrites.claim>`: a unique (server, day)), so it is made once whatever
runs the poll. ``!puzzle daily`` shows it to the member alone; ``/puzzle daily 13/7 8/7`` (or
a cube button) answers it privately, once per member and day, rated as any puzzle answer.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Awaitable, Callable, Iterable
from datetime import date
from typing import Protocol

from bot.i18n import puzzles as say
from bot.i18n.core import Language, capital
from bot.rules.errors import InvalidMoveError, MoveError
from bot.rules.pasted import NAMES
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle
from bot.rules.text import plural
from bot.service.commands.choices import play_choices, position_plays, word_choices
from bot.service.gnubg.positions import board_state, summary
from bot.service.keys import DailyKey
from bot.service.languages import Languages
from bot.service.matches.presentation import BoardImages
from bot.service.models import Decision, Place, Refusal, Reply, User, place_link, reason_of
from bot.service.puzzles import pool
from bot.service.puzzles.asking import verdict_text
from bot.service.puzzles.schedule import (
    DEFAULT_ZONE,
    day_text,
    latest_due,
    next_due,
    read_time,
    read_zone,
    time_text,
    zone_of,
)
from bot.settings import Settings
from bot.store import Store
from bot.store.dailies import DailyPost, DailySetting
from bot.store.puzzles import PuzzleWrites

log = logging.getLogger(__name__)

GIVE_UP = 3600.0  # seconds after its first claim that an unsent post stops being tried again

BATCH = 25  # puzzles of the day's order checked at once against the server's past dailies
_CHANNEL = re.compile(r"<#(?P<id>\d+)>|#(?P<name>[\w-]+)")


def setting_channel(text: str) -> tuple[str, str] | None:
    """The channel a daily setting (``daily #channel 09:00``, after ``!puzzle``) names: its
    word as typed and its id (``<#123>``) or name (``#daily``); None when ``text`` sets none.
    Adapters check it is a channel the bot may post in before the command runs."""
    words = text.split()
    if len(words) < 2 or words[0].lower() != "daily":
        return None
    found = _CHANNEL.fullmatch(words[1])
    return None if found is None else (words[1], found["id"] or found["name"])


class Rate(Protocol):
    def __call__(
        self,
        puzzles: PuzzleWrites,
        place: Place,
        user: User,
        puzzle: Puzzle,
        right: bool,
        now: float,
    ) -> Awaitable[str]: ...


class DailyPuzzles:
    """``rate``: the room's rating of an answer (the line saying how the ratings changed)."""

    def __init__(
        self,
        store: Store,
        images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        rate: Rate,
        languages: Languages,
    ) -> None:
        self._languages = languages
        self._store = store
        self._images = images
        self._settings = settings
        self._clock = clock
        self._rate = rate

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def command(
        self, place: Place, user: User, text: str, *, manager: bool, pressed: DailyKey | None
    ) -> list[Reply]:
        """``text``: what follows ``daily``, or a pressed button's word (``daily``: Answer)."""
        language = user.language
        word = text.lower()
        if pressed is not None:
            if word == "daily":
                return [await self._show(place, user, pressed)]
            return [await self._answer(place, user, word, pressed)]
        if word == "":
            return [await self._show(place, user, None)]
        if word == "off":
            return [await self._stop(place, manager, language=language)]
        if _CHANNEL.match(text) is not None or read_time(text.split()[0]) is not None:
            return [await self._set(place, user, text, manager)]  # a setting, maybe misspelt
        return [await self._answer(place, user, text, None)]

    # -- the admin's setting ----------------------------------------------------------------

    async def _set(self, place: Place, user: User, text: str, manager: bool) -> Reply:
        language = user.language
        if not manager:
            raise Refusal(say.DAILY_ADMINS_ONLY(language))
        usage = say.DAILY_USAGE(language, prefix=self._prefix)
        words = text.split()
        found = _CHANNEL.fullmatch(words[0])
        if found is None:
            raise Refusal(say.DAILY_NAME_CHANNEL(language, usage=usage))
        if len(words) < 2:
            raise Refusal(say.DAILY_WHAT_TIME(language, usage=usage))
        minute = read_time(words[1])
        if minute is None:
            raise Refusal(say.DAILY_NOT_A_TIME(language, word=words[1][:20]))
        if len(words) > 3:
            raise Refusal(say.DAILY_TOO_MANY_WORDS(language, usage=usage))
        zone_name = words[2] if len(words) == 3 else None
        if zone_name is not None and read_zone(zone_name) is None:
            raise Refusal(say.DAILY_NOT_A_ZONE(language, word=zone_name[:40]))
        channel = Place(place.server_id, found["id"] or found["name"])
        now = self._clock()
        if zone_name is None:
            zone_name = await self._store.dailies.time_zone(place.server_id) or DEFAULT_ZONE
        zone = zone_of(zone_name)
        next_at = next_due(zone, minute, now)
        async with self._store.transaction() as tx:
            await tx.dailies.set_time_zone(place.server_id, zone.key, now)
            await tx.dailies.set(
                DailySetting(place.server_id, channel.channel_id, minute, next_at, user.id, now)
            )
        first = latest_due(zone, minute, next_at)[0]
        text = say.DAILY_SET(
            language,
            channel=place_link(channel),
            time=time_text(minute),
            zone=zone.key,
            day=day_text(first, language=language),
            prefix=self._prefix,
        )
        return Reply(text)

    async def _stop(self, place: Place, manager: bool, *, language: Language) -> Reply:
        if not manager:
            raise Refusal(say.DAILY_ADMINS_ONLY(language))
        async with self._store.transaction() as tx:
            stopped = await tx.dailies.stop(place.server_id)
        if not stopped:
            raise Refusal(say.DAILY_NONE_SET(language))
        return Reply(say.DAILY_STOPPED(language))

    # -- a member ---------------------------------------------------------------------------

    async def _today(
        self, place: Place, pressed: DailyKey | None, *, language: Language
    ) -> tuple[DailyPost, Puzzle]:
        post = await self._store.dailies.last_post(place.server_id)
        if post is None:
            raise Refusal(say.DAILY_NONE_YET(language, prefix=self._prefix))
        if pressed is not None and pressed.post != post.id:
            raise Refusal(say.DAILY_OVER(language, prefix=self._prefix))
        puzzle = await pool.find(self._store.puzzles, place.server_id, post.puzzle)
        if puzzle is None:
            raise Refusal(say.DAILY_UNREADABLE(language))
        return post, puzzle

    async def _show(self, place: Place, user: User, pressed: DailyKey | None) -> Reply:
        language = user.language
        post, puzzle = await self._today(place, pressed, language=language)
        head = say.DAILY_HEAD(
            language, day=day_text(date.fromisoformat(post.day), language=language)
        )
        answered = await self._store.dailies.answer_of(post.id, user.id)
        if answered is not None:
            mark = (say.DAILY_BEST if answered[1] else say.DAILY_NOT_BEST)(language)
            text = say.DAILY_ANSWERED(language, head=head, answer=answered[0], mark=mark)
            return Reply(text, private=True)
        channel = place_link(Place(post.server_id, post.channel_id))
        lines = (
            say.DAILY_SHOWN(language, head=head, channel=channel, side=NAMES[puzzle.decider]),
            summary(puzzle.state, language=language).splitlines()[0],
            self._ask(puzzle, language=language),
        )
        return Reply("\n".join(lines), private=True)

    def _ask(self, puzzle: Puzzle, *, posted: bool = False, language: Language) -> str:
        if puzzle.kind == CHECKER:
            how = (say.DAILY_PLAY_PRESS if posted else say.DAILY_PLAY)(language)
        elif puzzle.kind == DOUBLE:
            how = say.DAILY_DOUBLE(language)
        else:
            how = say.DAILY_TAKE(language)
        return say.DAILY_ASK(language, how=how)

    async def _answer(self, place: Place, user: User, text: str, pressed: DailyKey | None) -> Reply:
        language = user.language
        post, puzzle = await self._today(place, pressed, language=language)
        answered = await self._store.dailies.answer_of(post.id, user.id)
        if answered is not None:
            raise Refusal(say.DAILY_ANSWERED_ALREADY(language, answer=answered[0]))
        try:
            verdict = puzzle.grade(text)
        except (MoveError, InvalidMoveError) as error:
            said = reason_of(error, language)
            reason = capital(said[:1], language) + said[1:]
            raise Refusal(
                say.DAILY_REFUSED(language, reason=reason, ask=self._ask(puzzle, language=language))
            ) from None
        now = self._clock()
        async with self._store.transaction() as tx:
            if not await tx.dailies.answer(
                post, user.id, verdict.answer.answer, verdict.right, verdict.loss, now
            ):
                raise Refusal(say.DAILY_ONE_EACH(language))
            rated = await self._rate(tx.puzzles, place, user, puzzle, verdict.right, now)
        return Reply(
            "\n".join((verdict_text(verdict, puzzle, language=language), rated)), private=True
        )

    async def choices(self, place: Place, typed: str, *, language: Language) -> list[str]:
        """``/puzzle daily ...``'s autocomplete: the legal plays of today's daily puzzle in the
        rules' order (never ranked), or its cube words."""
        try:
            _, puzzle = await self._today(place, None, language=language)
        except Refusal:
            return []
        if puzzle.kind == CHECKER:
            dice = puzzle.state.dice
            assert dice is not None
            plays = position_plays(puzzle.state.position.position_id(), dice)
            found = play_choices(plays, typed)
        else:
            found = word_choices(
                ("double", "no double") if puzzle.kind == DOUBLE else ("take", "pass"), typed
            )
        return [f"daily {answer}" for answer in found]

    # -- the poll ---------------------------------------------------------------------------

    async def due(self, where: Callable[[Place], bool]) -> list[tuple[Place, Reply]]:
        """The daily posts due by now at the places ``where`` accepts, each claimed first; then
        those claimed before and never marked sent (:meth:`sent`) whose lease ended, claimed
        again (their process died before sending them, or the send failed); each in its
        server's language."""
        now = self._clock()
        out: list[tuple[Place, Reply]] = []
        for setting in await self._store.dailies.due(now):
            place = Place(setting.server_id, setting.channel_id)
            if where(place):
                language = await self._languages.of(place.server_id)
                reply = await self._post(setting, now, language=language)
                if reply is not None:
                    out.append((place, reply))
        for post in await self._store.dailies.unsent(now):
            place = Place(post.server_id, post.channel_id)
            if where(place):
                language = await self._languages.of(place.server_id)
                reply = await self._again(post, now, language=language)
                if reply is not None:
                    out.append((place, reply))
        return out

    async def sent(self, replies: Iterable[Reply]) -> None:
        """The adapter sent ``replies``: the daily posts among them are never claimed again."""
        posts = [r.decision_key.post for r in replies if isinstance(r.decision_key, DailyKey)]
        if posts:
            async with self._store.transaction() as tx:
                await tx.dailies.mark_sent(posts, self._clock())

    async def _post(self, setting: DailySetting, now: float, *, language: Language) -> Reply | None:
        zone = zone_of(await self._store.dailies.time_zone(setting.server_id))
        day = latest_due(zone, setting.minute, now)[0]
        puzzle = await self.choose(setting.server_id, day)
        async with self._store.transaction() as tx:
            post = await tx.dailies.claim(
                setting,
                next_due(zone, setting.minute, now),
                day.isoformat(),
                None if puzzle is None else puzzle.key,
                now,
            )
        if puzzle is None:
            log.warning("Daily puzzle: server %s has had every puzzle", setting.server_id)
        if post is None or puzzle is None:
            return None  # another host's, or none left
        return await self._message(post, puzzle, language=language)

    async def _again(self, post: DailyPost, now: float, *, language: Language) -> Reply | None:
        """The unsent ``post`` claimed again and its message, while it is still the server's
        newest and its day's first claim is under :data:`GIVE_UP` old; else given up."""
        last = await self._store.dailies.last_post(post.server_id)
        puzzle = await pool.find(self._store.puzzles, post.server_id, post.puzzle)
        if now - post.posted_at > GIVE_UP or last is None or last.id != post.id or puzzle is None:
            log.warning("Daily puzzle: post %s of server %s never sent", post.id, post.server_id)
            async with self._store.transaction() as tx:
                await tx.dailies.give_up(post)
            return None
        async with self._store.transaction() as tx:
            if not await tx.dailies.reclaim(post, now):
                return None  # another host's
        log.info("Daily puzzle: post %s of server %s claimed again", post.id, post.server_id)
        return await self._message(post, puzzle, language=language)

    async def _message(self, post: DailyPost, puzzle: Puzzle, *, language: Language) -> Reply:
        day = date.fromisoformat(post.day)
        decision = {CHECKER: Decision.DAILY_PLAY, DOUBLE: Decision.DAILY_DOUBLE}.get(
            puzzle.kind, Decision.DAILY_TAKE
        )
        lines = [
            f"**Daily puzzle of {day_text(day, language=language)}**: "
            f"you are {NAMES[puzzle.decider]}.",
            summary(puzzle.state, language=language).splitlines()[0],
            self._ask(puzzle, posted=True, language=language),
        ]
        previous = await self._store.dailies.last_post(post.server_id, before=post.day)
        if previous is not None:
            lines.append(await self._previous(previous, day, language=language))
        image = await self._images.picture(
            board_state(puzzle.state), puzzle.decider, language=language
        )
        return Reply(
            "\n".join(lines), image=image, decision=decision, decision_key=DailyKey(post.id)
        )

    async def _previous(self, previous: DailyPost, day: date, *, language: Language) -> str:
        """``Yesterday's: 62% found 13/7 8/7 (13 answers).``"""
        before = date.fromisoformat(previous.day)
        when = (
            "Yesterday's"
            if (day - before).days == 1
            else f"The last one's ({day_text(before, language=language)})"
        )
        puzzle = await pool.find(self._store.puzzles, previous.server_id, previous.puzzle)
        best = "?" if puzzle is None else puzzle.best.answer
        if previous.answers == 0:
            return f"{when}: nobody answered; gnubg's best was {best}."
        share = round(100 * previous.found / previous.answers)
        return f"{when}: {share}% found {best} ({plural(previous.answers, 'answer')})."

    async def choose(self, server_id: str, day: date) -> Puzzle | None:
        """The day's puzzle for the server: the first of the starter pool, in an order seeded
        by the server and the date, that was not its daily before; None when every one was."""
        keys = pool.starter_keys()
        order = random.Random(f"daily:{server_id}:{day.isoformat()}").sample(keys, len(keys))
        for start in range(0, len(order), BATCH):
            batch = order[start : start + BATCH]
            used = await self._store.dailies.used(server_id, batch)
            for key in batch:
                if key not in used:
                    return pool.starter_puzzle(key)
        return None
