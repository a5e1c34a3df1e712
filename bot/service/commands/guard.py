"""The channel's lock around a command, and what follows it once released.

:class:`Guard` runs a command's work under its place's lock (:class:`PlaceLocks`), turns
what it raises into replies (:func:`~bot.service.models.replies_of`), checks that a button press
still answers the question the table asks, and hands the replies to :class:`Aftermath`, the
one dispatcher of what follows. GNU Backgammon's requests go within the user's budget instead
(:meth:`Guard.engine_request`). The rooms' command handlers (:mod:`bot.service.matches.commands`
and others) run through it.

What follows a command at a table, with the lock released, comes in this order:

1. the tutor's comment on the decision (:class:`Tutored`: a roll, a move, the cube), when the
   match has the tutor (:mod:`bot.service.gnubg.coach`);
2. GNU Backgammon's turns, when the match waits on it (:mod:`bot.service.gnubg.opponent`; a
   turn queued behind others ends its own flow, through the same :class:`Endings`);
3. the end of each match the replies show ended (:class:`MatchEnded`): summed up, its result
   in the channel its thread came from, its analysis, its tournament
   (:mod:`bot.service.endings`).

Each step is handed what it needs (the table the command read, the decision, the ended
match): nothing is read again by id. Last, a tournament round a reply shows paired
(:class:`RoundPaired`, from step 3 or from the tournament's own commands) goes back to the
adapter, whose way of opening threads opens its matches (:meth:`TableService.open_rounds`).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable

from bot.i18n import play as say
from bot.i18n.core import Language
from bot.rules import MoveError
from bot.rules.match import MatchError
from bot.rules.state import evolved
from bot.service.commands.schema import Command
from bot.service.commands.views import Views
from bot.service.endings import Endings, ended_in
from bot.service.gnubg.budget import EngineRequests
from bot.service.gnubg.coach import Coach, Decided, Tutored, tutored_in_order
from bot.service.gnubg.opponent import Opponent
from bot.service.keys import ChallengeKey, Key
from bot.service.matches.presentation import BoardImages, table_pending
from bot.service.matches.reading import DamagedMatch, MatchReader
from bot.service.matches.threads import moved_to, sent_to
from bot.service.models import (
    Decision,
    Pending,
    Place,
    Refusal,
    Reply,
    Table,
    User,
    engine_seat_of,
    replies_of,
)
from bot.store import StaleMatchError


class _PlaceLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding or waiting


class PlaceLocks:
    """A lock per place that lives only while someone holds or waits for it, so the map
    doesn't grow with every channel ever seen."""

    def __init__(self) -> None:
        self._locks: dict[Place, _PlaceLock] = {}

    def __len__(self) -> int:
        return len(self._locks)

    def held(self, place: Place) -> _Held:
        """``async with locks.held(place):`` the place's lock, held."""
        return _Held(self._locks, place)


class _Held:
    """One holding of a place's lock: a class of its own, not an ``asynccontextmanager`` (whose
    generator costs about 7 us more a use, five or six uses a play)."""

    __slots__ = ("_entry", "_locks", "_place")

    def __init__(self, locks: dict[Place, _PlaceLock], place: Place) -> None:
        self._locks = locks
        self._place = place

    async def __aenter__(self) -> None:
        entry = self._locks.get(self._place)
        if entry is None:
            entry = self._locks[self._place] = _PlaceLock()
        entry.users += 1
        self._entry = entry
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting for it
            self._leave()
            raise

    async def __aexit__(self, *_: object) -> None:
        self._entry.lock.release()
        self._leave()

    def _leave(self) -> None:
        entry = self._entry
        entry.users -= 1
        if entry.users == 0:
            del self._locks[self._place]


@dataclasses.dataclass(frozen=True, slots=True)
class Answer:
    """A button's question, as a press answers it: the key it asked, who pressed, and the
    command of the button (see :meth:`TableService.press`)."""

    key: Key
    user: User
    command: Command


def _asks(pending: Pending, answering: Answer) -> bool:
    """Whether the table's open question is the one the press answers, with a button of its
    (the Rematch on a finished match's message answers the rematch offered since)."""
    if answering.key == pending.rematch_key:
        decision = Decision.REMATCH
    elif answering.key == pending.key:
        decision = pending.decision
    else:
        return False
    return any(button.decision is decision for button in answering.command.buttons)


class Guard:
    """Each place's lock around the commands at it, and the engine's budget around requests."""

    def __init__(
        self,
        locks: PlaceLocks,
        repository: MatchReader,
        views: Views,
        aftermath: Aftermath,
        engine_requests: EngineRequests,
    ) -> None:
        self.locks = locks
        self._repository = repository
        self._views = views
        self._aftermath = aftermath
        self._engine_requests = engine_requests

    async def guarded(
        self,
        place: Place,
        work: Callable[[], Awaitable[list[Reply]]],
        *,
        tutored: Tutored | None = None,
        read: list[Table] | None = None,
        answering: Answer | None = None,
        language: Language,
    ) -> list[Reply]:
        """Run ``work`` under the channel's lock; then, with the lock released, the tutor's
        comment on the ``tutored`` decision (if the match has the tutor), the engine's turns
        (if the match waits on it) and the analysis of a match that ended. ``read``: the table
        ``work`` acted on, once it has (see :meth:`_at_table`); ``answering``: the button press
        ``work`` answers, carried out only if its question is still the one asked."""
        replies = await self._under_lock(place, work, answering, read, language=language)
        before = read[0] if read else None
        return await self._aftermath.after(
            place, replies, before=before, tutored=tutored, language=language
        )

    async def at_table(
        self,
        place: Place,
        user: User,
        act: Callable[[Table], Awaitable[list[Reply]]],
        *,
        tutored: Tutored | None = None,
        answering: Answer | None = None,
        acting: bool = False,
    ) -> list[Reply]:
        """``act`` on the match being played at ``place``, read once, under the channel's lock:
        the same read tells the tutor the position before, and whether GNU Backgammon plays.
        ``acting``: ``act`` is a player's action, tried first on the match kept in memory (see
        :meth:`_on_kept`)."""
        language = user.language
        read: list[Table] = []  # a press's check may have read it already (see _unanswerable)

        async def work() -> list[Reply]:
            if acting and not read:
                done = await self._on_kept(place, act)
                if done is not None:
                    read.append(done[0])
                    return done[1]
            if not read:
                table = await self._repository.require(place, user=user, language=language)
                if isinstance(table, DamagedMatch):
                    return [table.reply(language)]
                read.append(table)
            return await act(read[0])

        return await self.guarded(
            place, work, tutored=tutored, read=read, answering=answering, language=language
        )

    async def _on_kept(
        self, place: Place, act: Callable[[Table], Awaitable[list[Reply]]]
    ) -> tuple[Table, list[Reply]] | None:
        """``act`` on the match this process keeps in memory at ``place``, with no read, when
        it writes the match: the table acted on and the replies. Its save checks the version, so
        a match another process changed since is refused and nothing is written. None when no
        match is kept, or ``act`` was refused or wrote nothing (it may have seen an old state):
        then the match is read and ``act`` runs on that, as it would have at first."""
        kept = self._repository.kept_playing(place)
        if kept is None:
            return None
        try:
            replies = await act(kept.table)
        except StaleMatchError:
            self._repository.forget(kept.table.row.id)
            return None
        except (Refusal, MoveError, MatchError):
            return None
        now = self._repository.kept_playing(place)
        if now is not None and now.version == kept.version:
            return None
        return kept.table, replies

    async def decide(
        self,
        place: Place,
        user: User,
        act: Callable[[Table, User], Awaitable[list[Reply]]],
        decision: Decided,
        answering: Answer | None,
    ) -> list[Reply]:
        """``user``'s ``decision`` (a roll, the cube) at ``place``, by ``act``: a command at the
        table that the tutor comments on, and a button may answer."""
        return await self.at_table(
            place,
            user,
            lambda table: act(table, user),
            tutored=Tutored(decision),
            answering=answering,
            acting=answering is None,  # a press reads the match to check its question
        )

    async def _under_lock(
        self,
        place: Place,
        work: Callable[[], Awaitable[list[Reply]]],
        answering: Answer | None = None,
        read: list[Table] | None = None,
        *,
        language: Language,
    ) -> list[Reply]:
        async with self.locks.held(place):
            if answering is not None:
                refusal = await self._unanswerable(place, answering, read)
                if refusal is not None:
                    return [refusal]
            return await replies_of(work, self._repository.forget, language)

    async def _unanswerable(
        self, place: Place, answering: Answer, read: list[Table] | None
    ) -> Reply | None:
        """Why a press can't answer the question the table asks now (one read of it), or None:
        an old question (the game moved on), another player's, or a button it doesn't have.
        ``read``: where a command at the table keeps the match read here, so as not to read
        it twice."""
        language = answering.user.language
        table = None
        if read is not None:
            table = await self._repository.table(place, repair=False)
        if table is None:
            pending = await self._views.pending_decision(place)
        else:
            pending = table_pending(table)
        if pending is None or not _asks(pending, answering):
            text = await self._out_of_date(place, pending, answering.key, language=language)
            return Reply(text, private=True, stale=True)
        if not pending.answerable_by(answering.user.id):
            return Reply(say.NOT_YOUR_DECISION(language, name=pending.name), private=True)
        if table is not None and read is not None:
            read.append(table)
        return None

    async def _out_of_date(
        self, place: Place, pending: Pending | None, key: Key, *, language: Language
    ) -> str:
        """Why a button's question is closed; where to go when the channel's match moved to a
        thread (e.g. Accept pressed again after the match started there)."""
        if pending is None:
            pointer = await self._repository.elsewhere(
                place, language=language, latest=False, after=0
            )
            if pointer is not None:
                return f"{say.OUT_OF_DATE(language)} {pointer.text}"
        stale = say.OUT_OF_DATE_CHALLENGE if isinstance(key, ChallengeKey) else say.OUT_OF_DATE
        return stale(language)

    async def engine_request(
        self, user: User, work: Callable[[], Awaitable[list[Reply]]]
    ) -> list[Reply]:
        """``work`` within ``user``'s budget of requests to the engine; its last reply says so
        when it waited behind many others."""
        try:
            with self._engine_requests.taken(user) as note:
                replies = await work()
        except Refusal as refusal:
            return [Reply(refusal.worded(user.language), private=True)]
        if note and replies:
            last = replies[-1]
            replies = [*replies[:-1], dataclasses.replace(last, text=f"{last.text}\n{note}")]
        return replies


class Aftermath:
    """What follows a command at a table, in the order of the module's docstring."""

    def __init__(
        self,
        coach: Coach,
        opponent: Opponent,
        endings: Endings,
        images: BoardImages,
        repository: MatchReader,
    ) -> None:
        self._coach = coach
        self._opponent = opponent
        self.endings = endings
        self._images = images
        self._repository = repository

    async def after(
        self,
        place: Place,
        replies: list[Reply],
        *,
        before: Table | None = None,
        tutored: Tutored | None = None,
        language: Language,
    ) -> list[Reply]:
        """``replies`` of a command at ``place`` and what follows them. ``before``: the table
        the command acted on, as it read it (None: it read none, or not as a match's own)."""
        if before is not None and tutored is not None and before.row.tutor:
            comments = await self._coach.tutor(place, before, tutored, language=language)
            replies = tutored_in_order(replies, comments)
        if before is None or engine_seat_of(before.row.player_ids) is not None:
            replies = await self._engine_turns(place, replies, language=language)
        if not any(reply.shows_an_end for reply in replies):
            return replies
        return await self.endings.after(place, replies, language=language)

    async def resumed(
        self, where: Callable[[Place], bool] = lambda place: True
    ) -> dict[Place, list[Reply]]:
        """At startup: the turns the engine owes in the matches at places ``where`` accepts,
        taken now; the replies by place (a match it ends in a thread also gets its result in
        the thread's channel), in each server's language."""
        owed = await self._opponent.resume(where)
        for place, replies in list(owed.items()):
            language = await self._repository.languages.of(place.server_id)
            for reply in await self.endings.followers(ended_in(replies), language=language):
                owed.setdefault(reply.place or place, []).append(reply)
        return owed

    async def _engine_turns(
        self, place: Place, replies: list[Reply], *, language: Language
    ) -> list[Reply]:
        """``replies`` and then the engine's turns at ``place``, if it owes any; the board is
        then shown once, after its turn (in the thread of a match just started in one)."""
        thread = moved_to(replies)
        more = sent_to(await self._opponent.follow(thread or place, language=language), thread)
        shown = {reply.announces[0] for reply in more if reply.announces is not None}
        if not shown and not any(reply.job for reply in more):  # it failed: the board after all
            replies = await self._undrawn_boards(place, replies, language=language)
        if shown:
            replies = [
                evolved(reply, image=None, board_viewer=None)
                if reply.announces is not None and reply.announces[0] in shown
                else reply
                for reply in replies
            ]
        return replies + more

    async def _undrawn_boards(
        self, place: Place, replies: list[Reply], *, language: Language
    ) -> list[Reply]:
        """``replies`` with the board a move handing the bot its turn left undrawn (see
        :meth:`Play._act <bot.service.matches.commands.Play._act>`) drawn, if the match is still as
        that reply shows it. Not for a turn queued: its board comes with the bot's turn, as
        always, and the bot is busy."""
        drawn = []
        for reply in replies:
            if self._images.enabled and reply.image is None and reply.board_viewer is not None:
                table = await self._repository.table(place, repair=False)
                if table is not None and (table.row.id, table.row.version) == reply.announces:
                    viewer = reply.board_viewer
                    image = await self._images.board(table, viewer, language=language)
                    reply = dataclasses.replace(reply, image=image)
            drawn.append(reply)
        return drawn
