"""The game table: a command from a user in a channel -> a room's handler -> replies.

Knows nothing of Discord: the Discord cogs and the console both call it. :class:`TableService`
has its rooms built (:func:`~bot.service.rooms.build_rooms`), keeps each channel's lock
(:class:`~bot.service.commands.guard.Guard`) and dispatches: a command of the registry
(:data:`~bot.service.commands.registry.COMMANDS`) goes to its room's handler
(:meth:`TableService.handler`), typed (:meth:`TableService.run`) or pressed
(:meth:`TableService.press`); what follows a command goes through one dispatcher
(:class:`~bot.service.commands.guard.Aftermath`). Typed lines and presses find their command
and its arguments here (:func:`run_text`, :func:`run_press`). The handlers are the rooms':

- :mod:`bot.service.matches.commands`: challenges, play, the cube, the looks at a match, its
  early ends;
- :mod:`bot.service.gnubg.commands`: ``!hint``, pasted positions, ``!analysis``;
- :mod:`bot.service.tournaments.commands`: ``!tournament``, ``!join``, ``!leave``;
- :mod:`bot.service.review.commands`: ``!review`` and ``!drill``;
- :mod:`bot.service.commands.server`: the leaderboard, ``!stats``, ``!help``, ``!dice``.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from typing import Any, Protocol

from bot.gnubg.api import Engine
from bot.gnubg.unavailable import UnavailableEngine
from bot.i18n import play as say
from bot.i18n.core import Language
from bot.service.commands.guard import Answer, PlaceLocks
from bot.service.commands.help import unknown_command
from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Command, Handler, UserLookup, read_arguments
from bot.service.gnubg.budget import EngineBudget
from bot.service.gnubg.opponent import ENGINE_WORD
from bot.service.keys import Key
from bot.service.matches.presentation import (
    RecordedPlay,
    board_state,
    game_data,
    last_play,
    match_key,
    text_board,
    typed,
)
from bot.service.matches.threads import ThreadOpener
from bot.service.models import (
    ENGINE_USER,
    Decision,
    Job,
    Pending,
    Place,
    Refusal,
    Reply,
    Table,
    TurnQueued,
    User,
    in_language,
    paired_in,
    replies_of,
)
from bot.service.records.dice import DiceFactory, keyed_dice, secure_dice, seeded_dice
from bot.service.rooms import Rooms, build_rooms
from bot.settings import Settings
from bot.store import ChallengeRow, DatabaseDown, Store


# Typed commands (the console, and anything else that has only text) and pressed buttons to
# the rooms' handlers, through the command registry.
class Runner(Protocol):
    """What runs a typed command: the service (:class:`bot.service.table.TableService`)."""

    @property
    def prefix(self) -> str: ...

    def handler(self, command: Command) -> Handler: ...

    def unknown_command(
        self, place: Place, word: str, prefix: str, *, language: Language
    ) -> Awaitable[list[Reply]]: ...


async def run_text(
    service: Runner,
    place: Place,
    user: User,
    text: str,
    *,
    users: UserLookup,
    threads: ThreadOpener | None = None,
) -> list[Reply]:
    """Carry out one typed command, e.g. ``!move 13/7 8/7``; ``users`` resolves ``@name``."""
    language = user.language
    prefix = service.prefix
    body = typed(text)
    if not body.startswith(prefix):
        return []
    words = body[len(prefix) :].split(maxsplit=1)
    if not words:
        return [Reply(say.TYPE_HELP(language, prefix=prefix), private=True)]
    name = words[0].lower()
    command = COMMANDS.find(name)
    if command is None:
        return await service.unknown_command(place, name, prefix, language=language)
    typed_after = words[1] if len(words) > 1 else ""
    try:
        arguments = read_arguments(
            command, typed_after, _or_engine(users), prefix, language=language
        )
    except Refusal as refusal:
        return [Reply(refusal.worded(language), private=True)]
    handler = service.handler(command)
    options: dict[str, Any] = {}
    # The console's user is the operator of the bot: a moderator, an organiser, an admin.
    if command.moderator:
        options["moderator"] = True
    if command.organiser:
        options["organiser"] = True
    if command.manager:
        options["manager"] = True
    if command.opens_thread and threads is not None:
        options["threads"] = threads
    return await handler(place, user, *arguments, **options)


def _or_engine(users: UserLookup) -> UserLookup:
    """``users``, where the word ``bot`` names GNU Backgammon (`!challenge bot 5`)."""

    def lookup(word: str) -> User | None:
        if word.strip().removeprefix("@").lower() == ENGINE_WORD:
            return ENGINE_USER
        return users(word)

    return lookup


@dataclasses.dataclass(frozen=True, slots=True)
class Pressed:
    """What a press produced; ``closed``: its question is answered or gone (the pressed message
    should lose its buttons)."""

    replies: list[Reply]
    closed: bool


async def run_press(
    service: Runner,
    place: Place,
    user: User,
    action: str,
    key: Key | None,
    *,
    threads: ThreadOpener | None = None,
) -> Pressed:
    """A press by ``user`` of the button ``action`` (its command's name) on the question
    ``key`` (None: a button from before the ids carried one): carried out only if, under
    the channel's lock, the table still asks that very question of them (so an old message
    never answers a newer question)."""
    found = COMMANDS.pressed(action)
    out_of_date = Reply(say.OUT_OF_DATE(user.language), private=True, stale=True)
    if key is None or found is None or not found[0].buttons:  # a button from an older bot
        return Pressed([out_of_date], closed=True)
    command, button = found
    answer = Answer(key, user, command)
    if button is not None:  # a review's page or a drill's answer: the button's word says
        if not any(isinstance(key, b.decision.key_kind) for b in command.buttons):
            return Pressed([out_of_date], closed=True)
        paging = button.decision in (Decision.REVIEW, Decision.ANALYSED)
        handler = service.handler(command)
        replies = await handler(place, user, button.word, answering=answer)
        answered = not paging and not any(reply.private for reply in replies)
        return Pressed(replies, closed=answered)
    options: dict[str, Any] = {"answering": answer}
    if command.opens_thread:
        options["threads"] = threads
    replies = await service.handler(command)(place, user, **options)
    stale = any(reply.stale for reply in replies)
    answered = any(not reply.private and not reply.edits for reply in replies)
    return Pressed(replies, closed=stale or answered)


async def _in_language(replies: AsyncIterator[Reply], language: Language) -> AsyncIterator[Reply]:
    async for reply in replies:
        yield dataclasses.replace(reply, language=language)


log = logging.getLogger(__name__)

__all__ = [
    "DiceFactory",
    "Pressed",
    "RecordedPlay",
    "Table",
    "TableService",
    "UserLookup",
    "board_state",
    "game_data",
    "keyed_dice",
    "last_play",
    "match_key",
    "secure_dice",
    "seeded_dice",
    "text_board",
    "typed",
    "unknown_command",
]


class TableService:
    """All the table commands. Build with a :class:`Store`; share one per process."""

    def __init__(
        self,
        store: Store,
        *,
        settings: Settings | None = None,
        dice: DiceFactory | None = None,
        dice_key: bytes | None = None,
        clock: Callable[[], float] = time.time,
        images: bool = True,
        engine: Engine | None = None,
        budget: EngineBudget | None = None,
    ) -> None:
        """``dice_key``: the server's key (see :mod:`bot.service.records.dicekey`); new matches get
        :func:`keyed_dice` unless ``dice`` says otherwise, and matches made with it replay.
        ``engine``: GNU Backgammon in worker processes (:mod:`bot.gnubg`); the service starts and
        closes nothing of it (its owner does). ``budget``: the engine work one user may have
        going at once (:mod:`bot.service.gnubg.budget`)."""
        self.store = store
        self.engine: Engine = engine if engine is not None else UnavailableEngine()
        self.settings = settings or Settings()
        if dice is None:
            dice = keyed_dice(dice_key) if dice_key is not None else secure_dice
        self.locks = PlaceLocks()  # each channel's, held while one of its commands runs
        self.rooms: Rooms = build_rooms(
            store,
            self.settings,
            engine=self.engine,
            clock=clock,
            dice=dice,
            dice_key=dice_key,
            images=images,
            budget=budget or EngineBudget(),
            locks=self.locks,
        )
        rooms = self.rooms
        # What the adapters and tests reach through the facade; the rest is in ``rooms``.
        self.repository, self.images, self.views = rooms.repository, rooms.images, rooms.views
        self.analyses, self.opponent, self.tournaments = (
            rooms.analyses,
            rooms.opponent,
            rooms.tournaments,
        )
        self.engine_requests = rooms.engine_requests
        # The rooms' command handlers, which the registry names (see :meth:`handler`).
        self.matches, self.gnubg, self.server = rooms.matches, rooms.gnubg, rooms.server
        self.tournament_commands = rooms.tournament_commands
        self.review_commands = rooms.review_commands
        self.puzzles = rooms.puzzles
        self._handlers = (
            self.matches,
            self.gnubg,
            self.tournament_commands,
            self.review_commands,
            self.server,
            self.puzzles,
        )

    async def warm_up(self) -> None:
        """Fill the renderer's caches so the first player doesn't wait for them; then set aside
        from the garbage collector every object made so far (modules, catalogs, caches: none of
        them garbage), so that a full collection scans only what play made since (70 ms -> 16 ms
        each in ``bench/bot_cpu.py``'s process, about 0.7 ms of CPU a play)."""
        await self.images.warm_up()
        gc.freeze()

    def close(self) -> None:
        self.rooms.close()

    @property
    def prefix(self) -> str:
        return self.settings.command_prefix

    def room(self, command: Command) -> object:
        """The room whose class (or a base of it) defines ``command``'s handler."""
        name = getattr(command.handler, "__name__", "")
        for room in self._handlers:
            if any(vars(kind).get(name) is command.handler for kind in type(room).__mro__):
                return room
        raise LookupError(f"{command.name}: its handler belongs to no room of the service")

    async def press(
        self,
        place: Place,
        user: User,
        action: str,
        key: Key | None,
        *,
        threads: ThreadOpener | None = None,
    ) -> Pressed:
        """A press by ``user`` of the button ``action`` on the question ``key``: see
        :func:`~bot.service.table.run_press`."""
        return await run_press(self, place, user, action, key, threads=threads)

    def handler(self, command: Command) -> Handler:
        """The room's method that carries ``command`` out, bound: ``(place, user, *arguments)``;
        its replies are marked as worded in the user's language (:attr:`Reply.language`)."""
        bound: Handler = getattr(self.room(command), getattr(command.handler, "__name__", ""))

        async def said(place: Place, user: User, *arguments: Any, **options: Any) -> list[Reply]:
            return in_language(await bound(place, user, *arguments, **options), user.language)

        return said

    async def resume_engine(
        self, where: Callable[[Place], bool] = lambda place: True
    ) -> dict[Place, list[Reply]]:
        """At startup: the turns the engine owes in the matches at places ``where`` accepts
        (it stopped while thinking, or failed), taken now; the replies by place (a match it
        ends in a thread also gets its result in the thread's channel)."""
        resumed = await self.rooms.aftermath.resumed(where)
        return {
            place: in_language(replies, await self.repository.languages.of(place.server_id))
            for place, replies in resumed.items()
        }

    async def due(
        self,
        where: Callable[[Place], bool] = lambda place: True,
        *,
        threads: ThreadOpener | None = None,
    ) -> list[tuple[Place, Reply]]:
        """Whatever fell due by the service's clock at the places ``where`` accepts (expired
        challenges, clocks run out, reminders, the daily puzzles, puzzle storms' ends), done; the
        messages by place, each in its server's language (no command asked for them). Adapters
        call it after time passes. The analysis queue is looked at too
        (:meth:`tick_jobs`). A database server not answering raises :class:`DatabaseDown`."""
        await self.tick_jobs()
        fell_due = await self.rooms.deadlines.due(where)
        fell_due += await self.puzzles.storms_due(where)
        try:
            fell_due += await self.tournaments.rounds.due(threads, where)
        except DatabaseDown:  # the deadlines' messages still go out
            log.warning("Tournaments: the database is not answering; looked at next time")
        except Exception:  # the deadlines were done; the tournaments are looked at next time
            log.exception("Tournaments: what fell due could not be done")
        try:
            fell_due += await self.puzzles.daily.due(where)
        except DatabaseDown:
            log.warning("Daily puzzles: the database is not answering; looked at next time")
        except Exception:  # what was done is said; the daily puzzles are looked at next time
            log.exception("Daily puzzles: what fell due could not be done")
        languages = self.repository.languages
        return [
            (place, dataclasses.replace(reply, language=await languages.of(place.server_id)))
            for place, reply in fell_due
        ]

    async def sent(self, replies: Iterable[Reply]) -> None:
        """The adapter sent ``replies`` (of :meth:`due`): a daily puzzle's post among them is
        marked sent, else it is claimed again and posted once its lease ends."""
        await self.puzzles.daily.sent(replies)

    async def open_rounds(self, replies: list[Reply], threads: ThreadOpener | None) -> list[Reply]:
        """Open the matches of each tournament round ``replies`` show paired (their
        :class:`RoundPaired`), in order: ``threads`` is the adapter's way of giving each a
        thread (a channel in the console); the replies of the matches opened, in the
        tournament's server's language (the matches are the players', whoever paired them)."""
        opened: list[Reply] = []
        for paired in paired_in(replies):
            language = await self.repository.languages.of(paired.server_id)
            opened += in_language(
                await replies_of(
                    functools.partial(
                        self.tournaments.rounds.open_matches, paired.tournament_id, threads
                    ),
                    self.repository.forget,
                    language,
                ),
                language,
            )
        return opened

    async def tick_jobs(self) -> None:
        """Time passed: the analysis queue looked at (:meth:`Analyses.tick`): a job whose
        runner died is taken once its lease lapses. :meth:`due` does it; so does whoever
        follows a job (:meth:`follow`) with no deadline poll running meanwhile."""
        try:
            await self.analyses.tick()
        except DatabaseDown:  # the caller's to say, once
            raise
        except Exception:  # the queue is looked at next time
            log.exception("Analysis jobs: the queue could not be looked at")

    def follow(self, job: Job) -> AsyncIterator[Reply]:
        """The message of a background job (a reply's ``job``) each time it changes, in the
        language of the command that started it (the job's); the first one without ``job`` is
        the outcome (e.g. an analysis with its chart). A queued bot turn's then ends with the
        replies of the turn, to be posted as new messages."""
        if isinstance(job, TurnQueued):
            return _in_language(self.opponent.queued(job), job.language)
        return _in_language(self.analyses.follow(job), job.language)

    async def resume_analyses(self) -> int:
        """Start taking the analyses waiting in the store's queue (which any process of the
        bot may run); returns how many wait or run."""
        return await self.analyses.resume()

    async def unknown_command(
        self, place: Place, word: str, prefix: str, *, language: Language
    ) -> list[Reply]:
        """The answer to ``!word`` that is no command: :meth:`Views.unknown_command`."""
        return await self.views.unknown_command(place, word, prefix, language=language)

    async def table(self, place: Place) -> Table | None:
        """The channel's match as it stands (None when no match is being played)."""
        return await self.repository.table(place, repair=False)

    async def latest_table(self, place: Place) -> Table | None:
        return await self.repository.table(place, latest=True, repair=False)

    async def open_challenge(self, place: Place) -> ChallengeRow | None:
        return await self.store.challenges.open(place.server_id, place.channel_id)

    async def game_view(self, place: Place) -> dict[str, Any] | None:
        """The channel's match (or open challenge) as plain data, for the console's JSON."""
        return await self.views.game_view(place)

    async def pending_decision(self, place: Place) -> Pending | None:
        """The question the table waits on now, or None. Buttons use it to tell a stale
        press (its key no longer matches) or the wrong player."""
        return await self.views.pending_decision(place)

    # What the channels were shown: see bot.service.matches.announcements.
    async def seated(self, place: Place) -> frozenset[str]:
        return await self.rooms.announcements.seated(place)

    async def unannounced(self) -> list[tuple[Place, int, int]]:
        return await self.rooms.announcements.unannounced()

    async def current_status(self, place: Place) -> list[Reply]:
        """The table's status to show again (at start), in the server's language."""
        language = await self.repository.languages.of(place.server_id)
        return in_language(
            await self.rooms.announcements.current_status(place, language=language), language
        )

    async def mark_all_announced(
        self, shown: Mapping[int, int], messages: Mapping[int, str] | None = None
    ) -> None:
        """Each match's version in ``shown`` (match id -> version) was shown: one transaction;
        ``messages``: the table message that showed it, by match."""
        await self.rooms.announcements.mark_announced(shown, messages)

    async def table_message(self, match_id: int) -> tuple[str | None, int] | None:
        """The id of the match's table message (if it has one) and the newest version shown."""
        return await self.rooms.announcements.table_message(match_id)

    async def run(
        self,
        place: Place,
        user: User,
        text: str,
        *,
        users: UserLookup,
        threads: ThreadOpener | None = None,
    ) -> list[Reply]:
        """Carry out one typed command, e.g. ``!move 13/7 8/7``; ``users`` resolves ``@name``;
        ``threads``: where the front end opens a match's own place (the console's channels)."""
        return await run_text(self, place, user, text, users=users, threads=threads)
