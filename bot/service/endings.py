"""What follows the end of a match, in one order: the end summed up (rating changes, what to do
next), the result told in the channel a thread's match came from, the automatic analysis
started, and the tournament the match belongs to told (its next round, its end).

Each is handed the :class:`MatchEnded` values the replies carry: the match as it ended, never
read again by id. Commands get here through :class:`bot.service.commands.guard.Aftermath`; a queued
bot turn (:mod:`bot.service.gnubg.opponent`) comes here directly when it is done.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bot.i18n import reports as words
from bot.i18n.core import Language
from bot.i18n.numbers import decimal
from bot.service.gnubg.analysis import Analyses
from bot.service.matches.reading import MatchReader
from bot.service.matches.threads import MatchThreads
from bot.service.models import Decision, MatchEnded, Place, Reply, replies_of, shown_prefix
from bot.service.models import markdown_safe as md
from bot.service.tournaments.rounds import Rounds
from bot.settings import Settings
from bot.store import Store


def ended_in(replies: Iterable[Reply]) -> list[MatchEnded]:
    """The matches ``replies`` show ended, each once, in order."""
    ended: dict[int, MatchEnded] = {}
    for reply in replies:
        if reply.ended is not None:
            ended.setdefault(reply.ended.table.row.id, reply.ended)
    return list(ended.values())


def signed(change: float, *, language: Language) -> str:
    """A rating change to a tenth: ``+0.7``, ``\u22120.7``, ``\u00b10.0`` (none, or under 0.05)."""
    if round(change, 1) == 0:
        return "\u00b1" + decimal(0, 1, language)
    return (
        f"+{decimal(change, 1, language)}"
        if change > 0
        else f"\u2212{decimal(-change, 1, language)}"
    )


class Summaries:
    """The summary a match's last message ends with: the rating changes, where to read its
    analysis, how to play again."""

    def __init__(self, store: Store, repository: MatchReader, settings: Settings) -> None:
        self._store = store
        self._repository = repository
        self._settings = settings

    async def summarised(
        self, place: Place, replies: list[Reply], *, language: Language
    ) -> list[Reply]:
        """``replies``, where one shows a match's end: with the summary."""
        done = []
        for reply in replies:
            if reply.decision is Decision.REMATCH and reply.announces is not None:
                summary = await self._summary(place, reply.announces[0], language=language)
                reply = dataclasses.replace(
                    reply,
                    text=f"{reply.text}\n{summary}",
                )
            done.append(reply)
        return done

    async def _summary(self, place: Place, match_id: int, *, language: Language) -> str:
        lines = []
        changes = await self._store.players.rating_changes(match_id)
        if changes:
            ids = (changes[0].user_id, changes[-1].user_id)
            names = [md(name) for name in await self._repository.names(place, ids)]
            said = [
                f"{name} {decimal(change.after, 1, language)} "
                f"({signed(change.after - change.before, language=language)})"
                for name, change in zip(names, changes, strict=False)
            ]
            lines.append(words.RATINGS(language, changes=", ".join(said)))
        else:
            lines.append(words.UNRATED_END(language))
        lines.append(
            words.AFTER_THE_END(language, prefix=shown_prefix(self._settings.command_prefix, place))
        )
        return " ".join(lines)


class Endings:
    """The consumers of a match's end, each handed what it needs, in the order of the module's
    docstring."""

    def __init__(
        self,
        summaries: Summaries,
        threads: MatchThreads,
        analyses: Analyses,
        rounds: Rounds,
        repository: MatchReader,
    ) -> None:
        self._summaries = summaries
        self._threads = threads
        self._analyses = analyses
        self._rounds = rounds
        self._repository = repository

    async def after(self, place: Place, replies: list[Reply], *, language: Language) -> list[Reply]:
        """The end of a reply flow at ``place``: a match's end summed up, and what follows the
        matches it ended."""
        replies = await self._summaries.summarised(place, replies, language=language)
        return replies + await self.followers(ended_in(replies), language=language)

    async def followers(self, ended: list[MatchEnded], *, language: Language) -> list[Reply]:
        """What follows the matches ``ended``: their results in the channels their threads came
        from, their automatic analyses (``settings.analysis_auto``, with the progress message),
        their tournaments' next step."""
        if not ended:
            return []
        return [
            *await self._threads.results(ended, language=language),
            *await self._analyses.start_automatic(ended, language=language),
            *await replies_of(
                lambda: self._rounds.after_ends(ended, language=language),
                self._repository.forget,
                language,
            ),
        ]
