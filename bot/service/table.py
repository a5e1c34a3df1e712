"""The game table: a command from a user in a channel -> engine -> store -> replies.

Knows nothing of Discord: the Discord cogs and the console both call these methods.
:class:`TableService` is a facade: it holds each channel's lock, runs each command under it and
turns what a command raises (a refusal, news for the channel, a race lost) into replies. The
work is done in rooms it composes:

- :mod:`bot.service.matches.challenges`: the terms of a challenge, its answer or expiry;
- :mod:`bot.service.matches.play`: rolls, moves, the cube, resignations, automatic rolls;
- :mod:`bot.service.matches.admin`: abort, claim, void;
- :mod:`bot.service.commands.views`: the board, pips, score, export, ratings, help, adapters' state;
- :mod:`bot.service.gnubg.analysis`: GNU Backgammon's analysis of finished matches, in the
  background;
- :mod:`bot.service.gnubg.positions`: pasted positions drawn and judged (no match, no lock);
- :mod:`bot.service.matches.presentation`: everything the service says;
- :mod:`bot.service.matches.repository`: matches and names, from the store or memory;
- :mod:`bot.service.matches.images`: board PNGs, drawn off the event loop and kept;
- :mod:`bot.service.records.rating`: the writing of a rated result (the FIBS formula is
  :mod:`bot.rules.rating`);
- :mod:`bot.service.gnubg.opponent`: GNU Backgammon as a player, its turns taken after each command;
- :mod:`bot.service.gnubg.coach`: ``!hint`` and the tutor.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from bot.gnubg.api import Engine
from bot.gnubg.unavailable import UnavailableEngine
from bot.service.aftermath import Aftermath
from bot.service.commands.choices import plays_for
from bot.service.commands.help import unknown_command
from bot.service.commands.limits import RECENT_SECONDS
from bot.service.commands.locks import PlaceLocks, replies_of
from bot.service.commands.registry import COMMANDS
from bot.service.commands.router import run_text
from bot.service.commands.schema import Command, UserLookup
from bot.service.commands.views import Views
from bot.service.endings import Endings, Summaries
from bot.service.gnubg.analysis import Analyses
from bot.service.gnubg.budget import EngineBudget, EngineRequests
from bot.service.gnubg.coach import Coach, Decided, Tutored
from bot.service.gnubg.opponent import Opponent
from bot.service.gnubg.positions import Positions
from bot.service.keys import ChallengeKey, DrillKey, ErrorsKey, Key, ReviewKey, SignupKey
from bot.service.matches.admin import Administration
from bot.service.matches.challenges import Challenges
from bot.service.matches.deadlines import Deadlines
from bot.service.matches.images import BoardImages, RecordedPlay, board_state, last_play
from bot.service.matches.play import Play
from bot.service.matches.presentation import (
    game_data,
    match_key,
    status_reply,
    text_board,
    typed,
)
from bot.service.matches.rematch import Rematches
from bot.service.matches.repository import Repository, Table
from bot.service.matches.threads import MatchThreads, ThreadOpener
from bot.service.models import (
    ENGINE_ID,
    Decision,
    Job,
    Pending,
    Place,
    Refusal,
    Reply,
    TurnJob,
    User,
)
from bot.service.records.dice import DiceFactory, keyed_dice, secure_dice, seeded_dice
from bot.service.records.dicestats import dice_reply
from bot.service.review.drills import Drills
from bot.service.review.room import Reviews
from bot.service.tournaments.room import Tournaments
from bot.service.tournaments.rounds import Rounds
from bot.settings import Settings
from bot.store import ChallengeRow, DatabaseDown, Store
from bot.store.timers import dice_counts

log = logging.getLogger(__name__)

__all__ = [
    "OUT_OF_DATE",
    "DiceFactory",
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

OUT_OF_DATE = "This button is out of date: the game has moved on."
OUT_OF_DATE_CHALLENGE = "This button is out of date: that challenge is no longer open."


@dataclasses.dataclass(frozen=True, slots=True)
class Answer:
    """A button's question, as a press answers it: the key it asked, who pressed, and the
    command of the button (see :meth:`TableService.press`)."""

    key: Key
    user: User
    command: Command


@dataclasses.dataclass(frozen=True, slots=True)
class Pressed:
    """What a press produced; ``closed``: its question is answered or gone (the pressed message
    should lose its buttons)."""

    replies: list[Reply]
    closed: bool


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
        self.threads = MatchThreads(store, self.repository, self.settings)
        self.challenges = Challenges(
            store, self.repository, self.images, self.settings, clock, dice, self.threads
        )
        self.playing = Play(self.repository, self.images, self.settings)
        self.admin = Administration(store, self.repository, self.settings, clock, self.engine)
        self.views = Views(
            store, self.repository, self.images, self.challenges, self.settings, clock
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
        self.deadlines = Deadlines(store, self.repository, self.settings, clock, self._guarded)
        self.rematches = Rematches(
            store, self.repository, self.challenges, self.opponent, self.settings
        )
        self.reviews = Reviews(store, self.repository, self.settings, draw=images)
        self.drills = Drills(store, self.repository, self.engine, self.settings, clock, draw=images)
        self.tournaments = Tournaments(store, self.settings, clock, rounds, draw=images)
        # What follows each command at a table, in one order (see bot.service.aftermath).
        self.aftermath = Aftermath(self.coach, self.opponent, endings, self.images, self.repository)

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

    # -- the channel's lock -------------------------------------------------------------------

    async def _guarded(
        self,
        place: Place,
        work: Callable[[], Awaitable[list[Reply]]],
        *,
        tutored: Tutored | None = None,
        read: list[Table] | None = None,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """Run ``work`` under the channel's lock; then, with the lock released, the tutor's
        comment on the ``tutored`` decision (if the match has the tutor), the engine's turns
        (if the match waits on it) and the analysis of a match that ended. ``read``: the table
        ``work`` acted on, once it has (see :meth:`_at_table`); ``answering``: the button press
        ``work`` answers, carried out only if its question is still the one asked."""
        replies = await self._under_lock(place, work, answering)
        before = read[0] if read else None
        return await self.aftermath.after(place, replies, before=before, tutored=tutored)

    async def _at_table(
        self,
        place: Place,
        user: User,
        act: Callable[[Table], Awaitable[list[Reply]]],
        *,
        tutored: Tutored | None = None,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """``act`` on the match being played at ``place``, read once, under the channel's lock:
        the same read tells the tutor the position before, and whether GNU Backgammon plays."""
        read: list[Table] = []

        async def work() -> list[Reply]:
            table = await self.repository.require(place, user=user)
            read.append(table)
            return await act(table)

        return await self._guarded(place, work, tutored=tutored, read=read, answering=answering)

    async def _decide(
        self,
        place: Place,
        user: User,
        act: Callable[[Table, User], Awaitable[list[Reply]]],
        decision: Decided,
        answering: Answer | None,
    ) -> list[Reply]:
        """``user``'s ``decision`` (a roll, the cube) at ``place``, by ``act``: a command at the
        table that the tutor comments on, and a button may answer."""
        return await self._at_table(
            place,
            user,
            lambda table: act(table, user),
            tutored=Tutored(decision),
            answering=answering,
        )

    async def _under_lock(
        self,
        place: Place,
        work: Callable[[], Awaitable[list[Reply]]],
        answering: Answer | None = None,
    ) -> list[Reply]:
        async with self._locked(place):
            if answering is not None:
                refusal = await self._unanswerable(place, answering)
                if refusal is not None:
                    return [refusal]
            return await replies_of(work, self.repository.forget)

    async def _unanswerable(self, place: Place, answering: Answer) -> Reply | None:
        """Why a press can't answer the question the table asks now (one read of it), or None:
        an old question (the game moved on), another player's, or a button it doesn't have."""
        pending = await self.pending_decision(place)
        if pending is None or not _asks(pending, answering):
            text = await self._out_of_date(place, pending, answering.key)
            return Reply(text, private=True, stale=True)
        if not pending.answerable_by(answering.user.id):
            return Reply(f"Not your decision: waiting for {pending.name}.", private=True)
        return None

    async def _out_of_date(self, place: Place, pending: Pending | None, key: Key) -> str:
        """Why a button's question is closed; where to go when the channel's match moved to a
        thread (e.g. Accept pressed again after the match started there)."""
        if pending is None:
            pointer = await self.repository.elsewhere(place, latest=False, after=0)
            if pointer is not None:
                return f"{OUT_OF_DATE} {pointer.text}"
        return OUT_OF_DATE_CHALLENGE if isinstance(key, ChallengeKey) else OUT_OF_DATE

    async def press(
        self,
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
        if key is None or found is None or not found[0].buttons:  # a button from an older bot
            return Pressed([Reply(OUT_OF_DATE, private=True, stale=True)], closed=True)
        command, button = found
        answer = Answer(key, user, command)
        if button is not None:  # a review's page or a drill's answer: the button's word says
            if not any(isinstance(key, b.decision.key_kind) for b in command.buttons):
                return Pressed([Reply(OUT_OF_DATE, private=True, stale=True)], closed=True)
            paging = button.decision in (Decision.REVIEW, Decision.ANALYSED)
            handler = command.handler_of(self)
            replies = await handler(place, user, button.word, answering=answer)
            answered = not paging and not any(reply.private for reply in replies)
            return Pressed(replies, closed=answered)
        options: dict[str, Any] = {"answering": answer}
        if command.opens_thread:
            options["threads"] = threads
        replies = await command.handler_of(self)(place, user, **options)
        stale = any(reply.stale for reply in replies)
        answered = any(not reply.private and not reply.edits for reply in replies)
        return Pressed(replies, closed=stale or answered)

    # -- challenges ---------------------------------------------------------------------------

    async def challenge(
        self,
        place: Place,
        user: User,
        opponent: User,
        length: str | int | None = None,
        *,
        threads: ThreadOpener | None = None,
    ) -> list[Reply]:
        """``opponent`` :data:`ENGINE_USER`: a match against GNU Backgammon, at once (in a
        thread ``threads``, the front end's, opens, if it has them)."""
        if opponent.id == ENGINE_ID:
            return await self._guarded(
                place, lambda: self.opponent.start(place, user, length, threads)
            )
        return await self._guarded(
            place, lambda: self.challenges.challenge(place, user, opponent, length)
        )

    async def rematch(
        self,
        place: Place,
        user: User,
        *,
        answering: Answer | None = None,
        threads: ThreadOpener | None = None,
    ) -> list[Reply]:
        """After a match: offer it again (the same terms) or accept the rematch offered."""
        return await self._guarded(
            place, lambda: self.rematches.rematch(place, user, threads), answering=answering
        )

    async def accept(
        self,
        place: Place,
        user: User,
        *,
        answering: Answer | None = None,
        threads: ThreadOpener | None = None,
    ) -> list[Reply]:
        """Accept the challenge offered to ``user``, or the resignation offered to them."""

        async def work() -> list[Reply]:
            table = await self.repository.table(place)
            if table is not None:
                return await self.playing.accept_resignation(table, user)
            return await self.challenges.accept(place, user, threads)

        return await self._guarded(place, work, answering=answering)

    async def decline(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guarded(
            place,
            lambda: self.challenges.close(place, user, status="declined"),
            answering=answering,
        )

    async def cancel(self, place: Place, user: User) -> list[Reply]:
        return await self._guarded(
            place, lambda: self.challenges.close(place, user, status="cancelled")
        )

    # -- play ---------------------------------------------------------------------------------

    async def roll(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._decide(place, user, self.playing.roll, "roll", answering)

    async def move(self, place: Place, user: User, play: str) -> list[Reply]:
        try:
            play = self.playing.read_play(play)
        except Refusal as refusal:
            return [Reply(refusal.text, private=True)]
        return await self._at_table(
            place,
            user,
            lambda table: self.playing.move(table, user, play),
            tutored=Tutored("move", play),
        )

    async def move_choices(self, place: Place, user: User, typed: str = "") -> list[str]:
        """The plays ``user`` may make with their roll at ``place`` that fit what they ``typed``
        so far (``/move``'s autocomplete; see :mod:`bot.service.commands.choices`). Read without
        the channel's lock (an answer is due within Discord's 3 s), never asking the engine, and
        from memory once a command here has read or written the match: no database read per
        keystroke."""
        # Memory may be out of date when another process changed the match (several hosts on
        # one database): the choices are then stale. That is acceptable here only, as a hint of
        # what to type: the move itself is read and checked against the store under the lock.
        kept = self.repository.kept_playing(place)
        if kept is not None:
            return plays_for(kept.match, kept.seat(user), typed, kept.plays)
        try:
            table = await self.repository.table(place, repair=False)
        except Refusal:  # a damaged match: the next command says so
            return []
        return [] if table is None else plays_for(table.match, table.seat(user), typed)

    async def drill_choices(self, place: Place, user: User, typed: str = "") -> list[str]:
        """The answers of the drill awaiting ``user`` that fit what they ``typed`` so far
        (``/drill``'s autocomplete; see :meth:`Drills.answer_choices
        <bot.service.review.drills.Drills.answer_choices>`): no lock, no engine, nothing
        written."""
        return await self.drills.answer_choices(place, user, typed)

    async def hint(self, place: Place, user: User) -> list[Reply]:
        """GNU Backgammon's advice for ``user``'s decision, privately (no lock while it thinks)."""
        return await self._engine_request(user, lambda: self.coach.hint(place, user))

    async def _engine_request(
        self, user: User, work: Callable[[], Awaitable[list[Reply]]]
    ) -> list[Reply]:
        """``work`` within ``user``'s budget of requests to the engine; its last reply says so
        when it waited behind many others."""
        try:
            with self.engine_requests.taken(user) as note:
                replies = await work()
        except Refusal as refusal:
            return [Reply(refusal.text, private=True)]
        if note and replies:
            last = replies[-1]
            replies = [*replies[:-1], dataclasses.replace(last, text=f"{last.text}\n{note}")]
        return replies

    async def resume_engine(
        self, where: Callable[[Place], bool] = lambda place: True
    ) -> dict[Place, list[Reply]]:
        """At startup: the turns the engine owes in the matches at places ``where`` accepts
        (it stopped while thinking, or failed), taken now; the replies by place (a match it
        ends in a thread also gets its result in the thread's channel)."""
        return await self.aftermath.resumed(where)

    async def double(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._decide(place, user, self.playing.double, "double", answering)

    async def take(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._decide(place, user, self.playing.take, "take", answering)

    async def drop(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._decide(place, user, self.playing.drop, "drop", answering)

    async def beaver(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._decide(place, user, self.playing.beaver, "beaver", answering)

    async def resign(self, place: Place, user: User, level: str | None = None) -> list[Reply]:
        try:
            points = self.playing.read_level(level)
        except Refusal as refusal:
            return [Reply(refusal.text, private=True)]
        return await self._at_table(
            place, user, lambda table: self.playing.resign(table, user, points)
        )

    async def reject(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._at_table(
            place, user, lambda table: self.playing.reject(table, user), answering=answering
        )

    # -- looking ------------------------------------------------------------------------------

    async def board(self, place: Place, user: User) -> list[Reply]:
        return await self._guarded(place, lambda: self.views.board(place, user))

    async def board_image(self, table: Table, viewer: int | None) -> bytes | None:
        """The board PNG from ``viewer``'s side, or None when images are off."""
        return await self.images.board(table, viewer)

    async def pips(self, place: Place, user: User) -> list[Reply]:
        return await self._guarded(place, lambda: self.views.pips(place, user))

    async def score(self, place: Place, user: User) -> list[Reply]:
        return await self._guarded(place, lambda: self.views.score(place, user))

    async def export(self, place: Place, user: User, match: str | None = None) -> list[Reply]:
        return await self._guarded(place, lambda: self.views.export(place, user, match))

    # -- ending early -------------------------------------------------------------------------

    async def abort(self, place: Place, user: User) -> list[Reply]:
        return await self._guarded(place, lambda: self.admin.abort(place, user))

    async def claim(self, place: Place, user: User) -> list[Reply]:
        try:  # GNU Backgammon judges the position first, without the channel's lock
            estimate = await self.admin.claim_chance(place, user)
        except Refusal as refusal:
            return [Reply(refusal.text, private=True)]
        return await self._guarded(place, lambda: self.admin.claim(place, user, estimate))

    async def void(self, place: Place, user: User, *, moderator: bool) -> list[Reply]:
        """A moderator ends the channel's match, unrated (a stuck or abandoned one)."""
        return await self._guarded(place, lambda: self.admin.void(place, user, moderator=moderator))

    # -- pasted positions (no match, so no lock: gnubg never holds up a channel) -------------

    async def show(self, place: Place, user: User, position: str) -> list[Reply]:
        return await self.positions.show(position)

    async def evaluate(self, place: Place, user: User, position: str) -> list[Reply]:
        return await self._engine_request(user, lambda: self.positions.evaluate(position))

    # -- the server ---------------------------------------------------------------------------

    async def leaderboard(self, place: Place, user: User) -> list[Reply]:
        return await self.views.leaderboard(place, user)

    async def stats(self, place: Place, user: User, target: User | None = None) -> list[Reply]:
        return await self.views.stats(place, user, target)

    async def help(self, place: Place, user: User, topic: str | None = None) -> list[Reply]:
        return self.views.help(topic)

    async def dice(self, place: Place, user: User) -> list[Reply]:
        return [dice_reply(await dice_counts(self.store, place.server_id))]

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

    # -- reviewing an analysed match (reads only: no lock, no engine) --------------------------

    async def review(
        self,
        place: Place,
        user: User,
        what: str | None = None,
        *,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """``!review [match [decision] | next | errors]``, or a press on a review page
        (``answering``: its key, ``v<match>.<page>``): see :mod:`bot.service.review.room`."""
        pressed = answering.key if answering is not None else None
        assert pressed is None or isinstance(pressed, (ReviewKey, ErrorsKey))  # press() checks
        return await replies_of(
            lambda: self.reviews.review(place, user, what, pressed=pressed),
            self.repository.forget,
        )

    async def drill(
        self,
        place: Place,
        user: User,
        what: str | None = None,
        *,
        answering: Answer | None = None,
    ) -> list[Reply]:
        """``!drill [stats | <answer>]``, or a cube drill's button (``answering``: the drill's
        key): drill one's own analysed errors, spaced out in time (see
        :mod:`bot.service.review.drills`). No channel lock; grading a play asks the engine,
        within the user's budget."""
        pressed = answering.key if answering is not None else None
        assert pressed is None or isinstance(pressed, DrillKey)  # press() checks
        return await self._engine_request(
            user,
            lambda: replies_of(
                lambda: self.drills.drill(place, user, what, pressed=pressed),
                self.repository.forget,
            ),
        )

    # -- tournaments (their own lock each; a match's ending tells them: bot.service.endings)

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
        return await replies_of(
            lambda: self.tournaments.command(
                place, user, what, organiser=organiser, threads=threads
            ),
            self.repository.forget,
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
        self, place: Place, user: User, verb: str, which: str | None, answering: Answer | None
    ) -> list[Reply]:
        if answering is None:
            return await self._tournament(place, user, f"{verb} {which or ''}".strip())
        if not isinstance(answering.key, SignupKey):  # a button of another question's
            return [Reply(OUT_OF_DATE, private=True, stale=True)]
        tournament_id = answering.key.tournament_id  # the button names its tournament
        replies = await self._tournament(place, user, f"{verb} #{tournament_id}")
        # A press answers the presser alone, and the sign-up message shows its entrants now and
        # keeps its buttons for others while the sign-up lasts (a press after the start closes
        # them).
        signup = await self.tournaments.signup_message(tournament_id)
        answers = [
            dataclasses.replace(reply, private=True, stale=signup is None) for reply in replies
        ]
        return answers if signup is None else [signup, *answers]

    async def open_tournament_matches(
        self, tournament_id: int, threads: ThreadOpener | None
    ) -> list[Reply]:
        """Open the matches of a tournament's new round (a reply's ``opens`` asks for it):
        ``threads`` is the adapter's way of giving each a thread (a channel in the console)."""
        return await replies_of(
            lambda: self.tournaments.rounds.open_matches(tournament_id, threads),
            self.repository.forget,
        )

    # -- analysis (no channel lock: it only reads matches that are over) ---------------------

    async def analysis(self, place: Place, user: User, match: str | None = None) -> list[Reply]:
        try:
            return await self.analyses.ask(place, user, match)
        except Refusal as refusal:
            return [Reply(refusal.text, private=True)]

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

    # -- state for adapters -------------------------------------------------------------------

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
        return unknown_command(prefix, word, beavers=beavers)

    async def latest_table(self, place: Place) -> Table | None:
        return await self.repository.table(place, latest=True, repair=False)

    async def open_challenge(self, place: Place) -> ChallengeRow | None:
        return await self.store.open_challenge(place.server_id, place.channel_id)

    async def pending_decision(self, place: Place) -> Pending | None:
        """The question the table waits on now, or None. Buttons use it to tell a stale
        press (its key no longer matches) or the wrong player."""
        return await self.views.pending_decision(place)

    # -- rate limits and announcements (for the Discord layer) --------------------------------

    async def seated(self, place: Place) -> frozenset[str]:
        """Ids of the players of the channel's match and of its open challenge, and of its match
        that ended in the last :data:`RECENT_SECONDS` (one read)."""
        now = self._clock()
        return await self.store.seated(place.server_id, place.channel_id, now, now - RECENT_SECONDS)

    async def unannounced(self) -> list[tuple[Place, int, int]]:
        """(place, match id, version) of each match whose newest state was never shown, left so
        by an earlier run: one changed since this service began has a command's reply on its
        way (players may play while the bot is still connecting), which announces it."""
        return [
            (Place(row.server_id, row.channel_id), row.id, row.version)
            for row in await self.store.unannounced()
            if row.last_action_at < self.started_at
        ]

    async def current_status(self, place: Place) -> list[Reply]:
        """The status message of the channel's match as it stands (none without a match)."""
        async with self._locked(place):
            table = await self.repository.table(place, repair=False)
            if table is None:
                return []
            return [await status_reply(table, [], self.prefix, self.images, now=self._clock())]

    async def mark_announced(self, match_id: int, version: int) -> None:
        """Version ``version`` of the match was shown in its channel."""
        async with self.store.transaction() as tx:
            await tx.mark_announced(match_id, version, self._clock())

    # -- text commands (the console, and anything else that has only text) --------------------

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
