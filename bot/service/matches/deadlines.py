"""Whatever falls due with time alone: challenges expire, clocks flag, idle players are reminded.

:meth:`Deadlines.due` is the one entry point: the console calls it after moving its clock, the
Discord bot from a background task. The deadlines live in the store (:mod:`bot.store.matches`),
so they survive a restart; each is acted on under its channel's lock and checked again there, so
a command that got in first wins.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Protocol

from bot.i18n import play as say
from bot.i18n.core import Language
from bot.service.matches.presentation import ended_reply
from bot.service.matches.repository import Repository, flagged
from bot.service.models import ENGINE_ID, Place, Reply
from bot.service.models import markdown_safe as md
from bot.service.records.durations import countdown, setting_duration
from bot.settings import Settings
from bot.store import Store


class Guarded(Protocol):
    """Runs ``work`` under ``place``'s lock as a command would, its refusals and what follows
    it said in ``language``."""

    def __call__(
        self, place: Place, work: Callable[[], Awaitable[list[Reply]]], *, language: Language
    ) -> Awaitable[list[Reply]]: ...


class Deadlines:
    """``guarded``: runs work under a channel's lock as a command would (the facade's)."""

    def __init__(
        self,
        store: Store,
        repository: Repository,
        settings: Settings,
        clock: Callable[[], float],
        guarded: Guarded,
    ) -> None:
        self._store = store
        self._repository = repository
        self._settings = settings
        self._clock = clock
        self._guarded = guarded

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def due(self, where: Callable[[Place], bool]) -> list[tuple[Place, Reply]]:
        """Act on everything due by now at the places ``where`` accepts (a process's own
        servers); the messages, by place, in the order they happened."""
        now = self._clock()
        out: list[tuple[Place, Reply]] = []

        async def run(place: Place, work: Callable[..., Awaitable[list[Reply]]]) -> None:
            if not where(place):
                return  # another process's server: it does its own
            # No command asked: what is said is in the server's language.
            language = await self._repository.languages.of(place.server_id)
            replies = await self._guarded(
                place, partial(work, language=language), language=language
            )
            out.extend((place, reply) for reply in replies)

        for challenge in await self._store.challenges.expired(now):
            place = Place(challenge.server_id, challenge.channel_id)
            await run(place, partial(self._expire, place, challenge.id))
        for row in await self._store.matches.due_flags(now):
            place = Place(row.server_id, row.channel_id)
            await run(place, partial(self._flag, place, row.id))
        started_before = now - self._settings.reminder_hours * 3600
        for row in await self._store.matches.due_reminders(started_before):
            place = Place(row.server_id, row.channel_id)
            await run(place, partial(self._remind, place, row.id))
        return out

    async def _expire(self, place: Place, challenge_id: int, *, language: Language) -> list[Reply]:
        challenge = await self._store.challenges.open(place.server_id, place.channel_id)
        if challenge is None or challenge.id != challenge_id:
            return []  # answered meanwhile
        if challenge.expires_at > self._clock():
            return []
        async with self._store.transaction() as tx:
            await tx.challenges.expire(challenge.id)
        ids = (challenge.challenger_id, challenge.challenged_id)
        names = [md(name) for name in await self._repository.names(place, ids)]
        lasting = setting_duration(self._settings.challenge_timeout_minutes / 60, language=language)
        return [
            Reply(
                say.CHALLENGE_EXPIRED(
                    language,
                    challenger=names[0],
                    opponent=names[1],
                    lasting=lasting,
                    prefix=self._prefix,
                )
            )
        ]

    async def _flag(self, place: Place, match_id: int, *, language: Language) -> list[Reply]:
        table = await self._repository.table(place, repair=False)
        if table is None or table.row.id != match_id or not flagged(table.timer, self._clock()):
            return []  # the player acted in time, or the match ended meanwhile
        return [ended_reply(*await self._repository.end_on_time(table, language=language))]

    async def _remind(self, place: Place, match_id: int, *, language: Language) -> list[Reply]:
        table = await self._repository.table(place, repair=False)
        now = self._clock()
        if table is None or table.row.id != match_id or table.timer is None:
            return []
        timer = table.timer
        idle = now - timer.turn_started_at
        if timer.reminded or idle < self._settings.reminder_hours * 3600:
            return []  # they acted meanwhile (a new decision began)
        async with self._store.transaction() as tx:
            if not await tx.matches.mark_reminded(match_id, timer.turn_started_at):
                return []
        seat = table.match.turn
        if seat is None or table.row.player_ids[seat] == ENGINE_ID:
            return []  # GNU Backgammon needs no reminder
        other = table.names[1 - seat]
        claim = self._settings.claim_timeout_hours * 3600 - idle
        then = (
            say.REMINDER_CLAIM_IN(
                language, other=other, prefix=self._prefix, left=countdown(claim, language=language)
            )
            if claim > 0
            else say.REMINDER_CLAIM_NOW(language, other=other, prefix=self._prefix)
        )
        waiting = say.REMINDER_WAITING.get(table.match.phase, say.REMINDER_WAITING_TO_PLAY)
        return [
            Reply(
                say.REMINDER(
                    language,
                    who=table.names[seat],
                    other=other,
                    waiting=waiting(language),
                    idle=countdown(idle, language=language),
                    then=then,
                ),
                mention=(table.row.player_ids[seat],),
            )
        ]
