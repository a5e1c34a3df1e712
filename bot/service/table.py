"""The game table: a command from a user in a channel -> a room's handler -> replies.

Knows nothing of Discord: the Discord cogs and the console both call it. :class:`TableService`
builds the rooms, keeps each channel's lock (:class:`~bot.service.commands.guard.Guard`) and
dispatches: a command of the registry (:data:`~bot.service.commands.registry.COMMANDS`) goes to
its room's handler (:meth:`TableService.handler`), typed (:meth:`TableService.run`) or pressed
(:meth:`TableService.press`); what follows a command goes through one dispatcher
(:class:`~bot.service.commands.guard.Aftermath`). The handlers are the rooms':

- :mod:`bot.service.matches.commands`: challenges, play, the cube, the looks at a match, its
  early ends;
- :mod:`bot.service.gnubg.commands`: ``!hint``, pasted positions, ``!analysis``;
- :mod:`bot.service.tournaments.commands`: ``!tournament``, ``!join``, ``!leave``;
- :mod:`bot.service.review.commands`: ``!review`` and ``!drill``;
- :mod:`bot.service.commands.server`: the leaderboard, ``!stats``, ``!help``, ``!dice``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from bot.gnubg.api import Engine
from bot.gnubg.unavailable import UnavailableEngine
from bot.service.commands.guard import OUT_OF_DATE, OUT_OF_DATE_CHALLENGE, Aftermath, Guard
from bot.service.commands.help import unknown_command
from bot.service.commands.limits import RECENT_SECONDS
from bot.service.commands.locks import PlaceLocks, replies_of
from bot.service.commands.registry import COMMANDS
from bot.service.commands.router import Pressed, run_press, run_text
from bot.service.commands.schema import Command, Handler, UserLookup
from bot.service.commands.server import ServerCommands
from bot.service.commands.views import Views
from bot.service.endings import Endings, Summaries
from bot.service.gnubg.analysis import Analyses
from bot.service.gnubg.budget import EngineBudget, EngineRequests
from bot.service.gnubg.coach import Coach
from bot.service.gnubg.commands import EngineCommands
from bot.service.gnubg.opponent import Opponent
from bot.service.gnubg.positions import Positions
from bot.service.keys import Key
from bot.service.matches.admin import Administration
from bot.service.matches.challenges import Challenges
from bot.service.matches.commands import MatchCommands
from bot.service.matches.deadlines import Deadlines
from bot.service.matches.images import BoardImages, RecordedPlay, board_state, last_play
from bot.service.matches.play import Play
from bot.service.matches.presentation import game_data, match_key, status_reply, text_board, typed
from bot.service.matches.rematch import Rematches
from bot.service.matches.repository import Repository
from bot.service.matches.threads import MatchThreads, ThreadOpener
from bot.service.models import Job, Pending, Place, Reply, Table, TurnJob, User
from bot.service.puzzles.commands import PuzzleCommands
from bot.service.puzzles.room import PuzzleRoom
from bot.service.records.dice import DiceFactory, keyed_dice, secure_dice, seeded_dice
from bot.service.review.commands import ReviewCommands
from bot.service.review.drills import Drills
from bot.service.review.room import Reviews
from bot.service.tournaments.commands import TournamentCommands
from bot.service.tournaments.room import Tournaments
from bot.service.tournaments.rounds import Rounds
from bot.settings import Settings
from bot.store import ChallengeRow, DatabaseDown, Store

log = logging.getLogger(__name__)

__all__ = [
    "OUT_OF_DATE",
    "OUT_OF_DATE_CHALLENGE",
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
        self._clock = clock
        # When this service began: a match changed since was changed by its own commands, whose
        # replies announce it (see :meth:`unannounced`).
        self.started_at = clock()
        budget = budget or EngineBudget()
        self.engine_requests = EngineRequests(budget, self.settings.engine_workers)
        self.locks = PlaceLocks()  # each channel's, held while one of its commands runs
        self._locked = self.locks.held
        self.repository = Repository(store, self.settings, clock, dice_key=dice_key)
        self.images = BoardImages(enabled=images)
        self.threads = MatchThreads(store.matches, self.repository, self.settings)
        self.challenges = Challenges(
            store, self.repository, self.images, self.settings, clock, dice, self.threads
        )
        self.playing = Play(self.repository, self.images, self.settings)
        self.admin = Administration(store, self.repository, self.settings, clock, self.engine)
        self.views = Views(
            store, self.repository, self.images, self.challenges, self.settings, clock, COMMANDS
        )
        self.analyses = Analyses(
            store, self.repository, self.engine, self.settings, clock, budget, charts=images
        )
        self.positions = Positions(self.engine, self.images)
        rounds = Rounds(
            store,
            self.repository,
            self.images,
            self.settings,
            clock,
            dice,
            self._locked,
            draw=images,
        )
        endings = Endings(
            Summaries(store, self.repository, self.settings),
            self.threads,
            self.analyses,
            rounds,
            self.repository,
        )
        self.opponent = Opponent(
            self.engine,
            self.repository,
            self.challenges,
            self.images,
            self.settings,
            dice,
            self._locked,
            budget,
            endings,
        )
        self.coach = Coach(self.engine, self.repository, self.settings, self._locked)
        self.rematches = Rematches(self.repository, self.challenges, self.opponent, self.settings)
        self.reviews = Reviews(
            store.matches, store.analyses, self.repository, self.settings, draw=images
        )
        self.drills = Drills(store, self.repository, self.engine, self.settings, clock, draw=images)
        self.tournaments = Tournaments(store, self.settings, clock, rounds, draw=images)
        # What follows each command at a table, in one order (see bot.service.commands.guard).
        self.aftermath = Aftermath(self.coach, self.opponent, endings, self.images, self.repository)
        self.guard = Guard(
            self.locks, self.repository, self.views, self.aftermath, self.engine_requests
        )
        self.deadlines = Deadlines(store, self.repository, self.settings, clock, self.guard.guarded)
        # The rooms' command handlers, which the registry names (see :meth:`handler`).
        self.matches = MatchCommands(
            self.guard,
            self.repository,
            self.challenges,
            self.playing,
            self.admin,
            self.views,
            self.opponent,
            self.rematches,
        )
        self.gnubg = EngineCommands(self.guard, self.coach, self.positions, self.analyses)
        self.tournament_commands = TournamentCommands(self.tournaments, self.repository)
        self.review_commands = ReviewCommands(
            self.guard, self.reviews, self.drills, self.repository
        )
        self.server = ServerCommands(self.views, store)
        self.puzzles = PuzzleCommands(
            PuzzleRoom(store, self.images, self.settings, clock), self.repository.forget
        )
        self._rooms = (
            self.matches,
            self.gnubg,
            self.tournament_commands,
            self.review_commands,
            self.server,
            self.puzzles,
        )

    async def warm_up(self) -> None:
        """Draw one board so the first player doesn't wait for the renderer's caches."""
        await self.images.warm_up()

    def close(self) -> None:
        self.analyses.close()
        self.opponent.close()
        self.images.close()

    @property
    def prefix(self) -> str:
        return self.settings.command_prefix

    def room(self, command: Command) -> object:
        """The room whose class (or a base of it) defines ``command``'s handler."""
        name = getattr(command.handler, "__name__", "")
        for room in self._rooms:
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
        :func:`~bot.service.commands.router.run_press`."""
        return await run_press(self, place, user, action, key, threads=threads)

    def handler(self, command: Command) -> Handler:
        """The room's method that carries ``command`` out, bound: ``(place, user, *arguments)``."""
        bound: Handler = getattr(self.room(command), getattr(command.handler, "__name__", ""))
        return bound

    async def resume_engine(
        self, where: Callable[[Place], bool] = lambda place: True
    ) -> dict[Place, list[Reply]]:
        """At startup: the turns the engine owes in the matches at places ``where`` accepts
        (it stopped while thinking, or failed), taken now; the replies by place (a match it
        ends in a thread also gets its result in the thread's channel)."""
        return await self.aftermath.resumed(where)

    async def due(
        self,
        where: Callable[[Place], bool] = lambda place: True,
        *,
        threads: ThreadOpener | None = None,
    ) -> list[tuple[Place, Reply]]:
        """Whatever fell due by the service's clock at the places ``where`` accepts (expired
        challenges, clocks run out, reminders), done; the messages by place. Adapters call it
        after time passes. The analysis queue is looked at too (:meth:`tick_jobs`). A database
        server not answering raises :class:`DatabaseDown`."""
        await self.tick_jobs()
        fell_due = await self.deadlines.due(where)
        try:
            fell_due += await self.tournaments.rounds.due(threads, where)
        except DatabaseDown:  # the deadlines' messages still go out
            log.warning("Tournaments: the database is not answering; looked at next time")
        except Exception:  # the deadlines were done; the tournaments are looked at next time
            log.exception("Tournaments: what fell due could not be done")
        return fell_due

    async def open_tournament_matches(
        self, tournament_id: int, threads: ThreadOpener | None
    ) -> list[Reply]:
        """Open the matches of a tournament's new round (a reply's ``opens`` asks for it):
        ``threads`` is the adapter's way of giving each a thread (a channel in the console)."""
        return await replies_of(
            lambda: self.tournaments.rounds.open_matches(tournament_id, threads),
            self.repository.forget,
        )

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
        """The message of a background job (a reply's ``job``) each time it changes; the first
        one without ``job`` is the outcome (e.g. an analysis with its chart). A queued bot
        turn's then ends with the replies of the turn, to be posted as new messages."""
        if isinstance(job, TurnJob):
            return self.opponent.queued(job)
        return self.analyses.follow(job)

    async def resume_analyses(self) -> int:
        """Start taking the analyses waiting in the store's queue (which any process of the
        bot may run); returns how many wait or run."""
        return await self.analyses.resume()

    async def game_view(self, place: Place) -> dict[str, Any] | None:
        """The channel's match (or open challenge) as plain data, for the console's JSON."""
        return await self.views.game_view(place)

    async def table(self, place: Place) -> Table | None:
        """The channel's match as it stands (None when no match is being played)."""
        return await self.repository.table(place, repair=False)

    async def unknown_command(self, place: Place, word: str, prefix: str) -> list[Reply]:
        """The answer to ``!word`` typed in ``place`` that is no command (see the function
        :func:`unknown_command`): ``!cube`` names ``!beaver`` only where the channel's game is
        a money game that allows beavers (the match is read for that word alone)."""
        beavers = False
        if word.strip().lower() == "cube":
            table = await self.table(place)
            beavers = table is not None and table.match.length == 0 and table.match.options.beavers
        return unknown_command(prefix, word, COMMANDS, beavers=beavers)

    async def latest_table(self, place: Place) -> Table | None:
        return await self.repository.table(place, latest=True, repair=False)

    async def open_challenge(self, place: Place) -> ChallengeRow | None:
        return await self.store.challenges.open(place.server_id, place.channel_id)

    async def pending_decision(self, place: Place) -> Pending | None:
        """The question the table waits on now, or None. Buttons use it to tell a stale
        press (its key no longer matches) or the wrong player."""
        return await self.views.pending_decision(place)

    async def seated(self, place: Place) -> frozenset[str]:
        """Ids of the players of the channel's match and of its open challenge, and of its match
        that ended in the last :data:`RECENT_SECONDS` (one read)."""
        now = self._clock()
        return await self.store.matches.seated(
            place.server_id, place.channel_id, now, now - RECENT_SECONDS
        )

    async def unannounced(self) -> list[tuple[Place, int, int]]:
        """(place, match id, version) of each match whose newest state was never shown, left so
        by an earlier run: one changed since this service began has a command's reply on its
        way (players may play while the bot is still connecting), which announces it."""
        return [
            (Place(row.server_id, row.channel_id), row.id, row.version)
            for row in await self.store.matches.unannounced()
            if row.last_action_at < self.started_at
        ]

    async def current_status(self, place: Place) -> list[Reply]:
        """The status message of the channel's match as it stands (none without a match)."""
        async with self.locks.held(place):
            table = await self.repository.table(place, repair=False)
            if table is None:
                return []
            return [await status_reply(table, [], self.prefix, self.images, now=self._clock())]

    async def mark_announced(self, match_id: int, version: int) -> None:
        """Version ``version`` of the match was shown in its channel."""
        async with self.store.transaction() as tx:
            await tx.matches.mark_announced(match_id, version, self._clock())

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
