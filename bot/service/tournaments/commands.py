"""The tournament commands, as the registry points at them: ``!tournament`` and its words,
and the sign-up's ``!join``/``!leave`` (typed or pressed). Each tournament has its own lock
(:mod:`bot.service.tournaments.room`); a match's end reaches it through
:mod:`bot.service.endings`."""

from __future__ import annotations

import dataclasses

from bot.i18n.play import OUT_OF_DATE
from bot.service.commands.guard import Answer
from bot.service.keys import SignupKey
from bot.service.matches.reading import MatchReader
from bot.service.matches.threads import ThreadOpener
from bot.service.models import Place, Reply, User, replies_of
from bot.service.tournaments.room import Tournaments


class TournamentCommands:
    """``!tournament``, ``!join``, ``!leave``."""

    def __init__(self, tournaments: Tournaments, repository: MatchReader) -> None:
        self._tournaments = tournaments
        self._repository = repository

    async def tournament(
        self,
        place: Place,
        user: User,
        what: str | None = None,
        *,
        organiser: bool = False,
        threads: ThreadOpener | None = None,
    ) -> list[Reply]:
        """``!tournament create|join|leave|start|pause|resume|remove|result|cancel|report``,
        or where the tournament stands (see :mod:`bot.service.tournaments`)."""
        return await self._tournament(place, user, what, organiser=organiser, threads=threads)

    async def _tournament(
        self,
        place: Place,
        user: User,
        what: str | None,
        *,
        organiser: bool = False,
        threads: ThreadOpener | None = None,
    ) -> list[Reply]:
        language = user.language
        return await replies_of(
            lambda: self._tournaments.command(
                place, user, what, organiser=organiser, threads=threads
            ),
            self._repository.forget,
            language,
        )

    async def join(
        self,
        place: Place,
        user: User,
        tournament: str | None = None,
        *,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """Join the tournament signing up (the sign-up message's Join button, or typed)."""
        return await self._signup(place, user, "join", tournament, answering)

    async def leave(
        self,
        place: Place,
        user: User,
        tournament: str | None = None,
        *,
        answering: Answer | None = None,
    ) -> list[Reply]:
        return await self._signup(place, user, "leave", tournament, answering)

    async def _signup(
        self,
        place: Place,
        user: User,
        verb: str,
        which: str | None,
        answering: Answer | None,
    ) -> list[Reply]:
        language = user.language
        if answering is None:
            return await self._tournament(place, user, f"{verb} {which or ''}".strip())
        if not isinstance(answering.key, SignupKey):  # a button of another question's
            return [Reply(OUT_OF_DATE(language), private=True, stale=True)]
        tournament_id = answering.key.tournament_id  # the button names its tournament
        replies = await self._tournament(place, user, f"{verb} #{tournament_id}")
        # A press answers the presser alone, and the sign-up message shows its entrants now and
        # keeps its buttons for others while the sign-up lasts (a press after the start closes
        # them).
        signup = await self._tournaments.signup_message(tournament_id, language=language)
        answers = [
            dataclasses.replace(reply, private=True, stale=signup is None) for reply in replies
        ]
        return answers if signup is None else [signup, *answers]
