"""A thread per match: an accepted challenge (or a game against the bot) is played in a thread
of its own, opened by the adapter; commands typed in the channel are pointed to it, and its
result is posted back to the channel.

The service knows nothing of Discord: the adapter hands it a :class:`ThreadOpener`, asked under
the channel's lock when a match is about to start. Without one (the console), with the setting
``match_threads`` off, or where the adapter can't open a thread (a forum, a thread, a direct
message, a missing permission), the match is played where it was started, as before.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Protocol

from bot.i18n import play as say
from bot.i18n import posting
from bot.i18n.core import Language
from bot.i18n.words import points_text
from bot.service.keys import Key
from bot.service.matches.presentation import ending_text
from bot.service.matches.reading import MatchReader
from bot.service.models import MatchEnded, Place, Reply, place_link
from bot.settings import Settings
from bot.store import MatchRow
from bot.store.matches import Matches

THREAD_NAME_LIMIT = 100  # characters Discord allows in a thread's name


@dataclass(frozen=True, slots=True)
class Opened:
    """What the adapter made of a request for a thread: the thread's place, or None (play where
    the challenge was); ``notice``: a line for the channel, e.g. a missing permission."""

    thread: Place | None
    notice: str | None = None


class ThreadOpener(Protocol):
    async def open(self, place: Place, name: str, key: Key | None) -> Opened:
        """Open a public thread called ``name`` in ``place`` for a match about to start there.
        ``key``: the question whose message the thread should start from (the challenge's, or a
        tournament's sign-up), None for a game against the bot."""
        ...

    async def discard(self, thread: Place) -> None:
        """Remove ``thread``, just opened for a match that did not start after all (another
        process answered the challenge first): it is empty."""
        ...


def thread_name(names: tuple[str, str], length: int, language: Language) -> str:
    """``alice vs bob · 5 points`` in ``language`` (plain names: a thread's name is not
    Markdown)."""
    kind = posting.THREAD_MONEY(language) if length == 0 else points_text(length, language)
    named = posting.THREAD_NAME(language, first=names[0], second=names[1], kind=kind)
    return named[:THREAD_NAME_LIMIT]


def match_place(row: MatchRow) -> Place:
    return Place(row.server_id, row.channel_id)


def parent_place(row: MatchRow) -> Place | None:
    """The channel a match's thread hangs from; None for a match played where it started."""
    if row.parent_channel_id is None:
        return None
    return Place(row.server_id, row.parent_channel_id)


class MatchThreads:
    """Threads for matches: opening one, pointing to it, and the result told to its channel."""

    def __init__(self, matches: Matches, repository: MatchReader, settings: Settings) -> None:
        self._matches = matches
        self._repository = repository
        self._settings = settings

    async def open(
        self,
        opener: ThreadOpener | None,
        place: Place,
        names: tuple[str, str],
        length: int,
        key: Key | None,
    ) -> tuple[Place | None, list[Reply]]:
        """The thread a match between ``names`` starting at ``place`` is to be played in (None:
        at ``place`` itself), and what to say about it in the channel (e.g. why not).
        ``opener``: the front end's, given with the command (None: it has no threads)."""
        if opener is None or not self._settings.match_threads:
            return None, []
        language = await self._repository.languages.of(place.server_id)  # the channel's
        opened = await opener.open(place, thread_name(names, length, language), key)
        said = [Reply(opened.notice)] if opened.notice else []
        if opened.thread is None or opened.thread == place:
            return None, said
        return opened.thread, said

    @staticmethod
    @asynccontextmanager
    async def discarding(opener: ThreadOpener | None, thread: Place | None) -> AsyncIterator[None]:
        """Remove ``thread`` when the block fails: the match it was opened for never started
        (the transaction lost a race), and nobody will play in it."""
        try:
            yield
        except Exception:
            if thread is not None and opener is not None:
                await opener.discard(thread)
            raise

    async def moved(
        self, replies: list[Reply], thread: Place | None, lead: str, *, language: Language
    ) -> list[Reply]:
        """``replies`` of a match just started in ``thread`` sent there, after one line in the
        channel that points to it (``lead`` and the thread's link)."""
        if thread is None:
            return replies
        pointer = Reply(say.PLAYED_IN_THREAD(language, lead=lead, link=place_link(thread)))
        return [pointer, *(replace(reply, place=thread) for reply in replies)]

    async def results(self, ended: list[MatchEnded], *, language: Language) -> list[Reply]:
        """The result of each finished match played in a thread, for the channel it came from."""
        replies = []
        for event in ended:
            table = event.table
            parent = parent_place(table.row)
            if parent is None:
                continue
            match, names = table.match, table.names
            winner = table.row.winner
            if winner is not None and match.length > 0 and table.row.ending == "played":
                said = say.BEATS(
                    language,
                    match.length,
                    winner=names[winner],
                    loser=names[1 - winner],
                    score=f"{match.score[winner]}-{match.score[1 - winner]}",
                )
            else:
                said = ending_text(table, language=language)
            link = place_link(match_place(table.row))
            said = say.RESULT_IN_THREAD(language, result=said, link=link)
            replies.append(Reply(said, place=parent))
        return replies


def moved_to(replies: list[Reply]) -> Place | None:
    """The thread a match was just started in, as ``replies`` show it (its board goes there)."""
    return next((r.place for r in replies if r.place is not None and r.announces), None)


def sent_to(replies: list[Reply], place: Place | None) -> list[Reply]:
    """``replies`` posted at ``place`` (None: where the command was); private ones stay with
    whoever typed the command."""
    if place is None:
        return replies
    return [reply if reply.private else replace(reply, place=place) for reply in replies]
