"""GNU Backgammon as a player: a match against it starts at once, and it takes its turns in the
reply flow of whatever command handed it the turn.

The engine thinks with no channel lock held: :meth:`Opponent.follow` reads the match under the
lock, asks the engine without it, then takes the lock again, checks that nobody acted meanwhile
(the action count) and carries the answer out through the same :class:`Match` actions as a
person's. It repeats until a person must act or the match ends. An engine failure leaves the
match as it was, says so, and the turn is tried again by the channel's next command. Its
requests go to the engine as the bot's turns (:data:`~bot.gnubg.api.TURN_PRIORITY`): before hints.

**Back-pressure.** When :attr:`Opponent.queue_limit` bot turns (:data:`QUEUED_PER_WORKER` per
play worker) are already under way in this process, a command that hands the bot its turn
doesn't wait for it: its replies say at once that the turn is queued and how many are ahead
(the person's own move shown as usual), and carry the event (:attr:`Reply.job`, a
:class:`TurnQueued`) whose messages (:meth:`Opponent.queued`) follow the queue and end with the
bot's turn, posted by the adapter like any reply. The game is in the database all along: after a
restart, the turn owed is taken at startup (:meth:`Opponent.resume`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from bot.bounded import Bounded
from bot.gnubg.api import (
    DEFAULT_LEVEL,
    LEVELS,
    TURN_PRIORITY,
    EngineFailure,
    EngineUnavailable,
    Level,
    Query,
)
from bot.i18n import gnubg as say
from bot.i18n import reports as words
from bot.i18n.core import Language, Said
from bot.rules import MoveError
from bot.rules.events import Event
from bot.rules.match import Match, MatchError, advance
from bot.rules.matchid import decode_match_id, encode_match_id
from bot.service.endings import Endings
from bot.service.gnubg.budget import EngineBudget
from bot.service.gnubg.turn_line import TurnLine, next_shown
from bot.service.matches.challenges import TUTOR_WORD, Challenges, parse_terms, take_words
from bot.service.matches.presentation import BoardImages, match_kind, options_text, status_reply
from bot.service.matches.repository import MatchTerms, Repository, Table
from bot.service.matches.threads import MatchThreads, ThreadOpener, match_place, sent_to
from bot.service.models import (
    ENGINE_ID,
    ENGINE_USER,
    Place,
    Refusal,
    Reply,
    TurnQueued,
    User,
    engine_seat_of,
    place_link,
    reason_of,
    shown_prefix,
)
from bot.service.models import markdown_safe as md
from bot.service.records.dice import DiceFactory
from bot.settings import Settings
from bot.store import StaleMatchError

if TYPE_CHECKING:
    from bot.gnubg.api import Engine

log = logging.getLogger(__name__)

ENGINE_STEPS = 200  # a guard: the engine's turns in one reply flow (a person acts far sooner)
OFFERS_KEPT = 10_000  # matches whose game with a resignation offer the engine remembers
ENGINE_WORD = "bot"  # `!challenge bot`: the word that names the engine where a user is expected
# Bot turns under way per play worker past which a command handing the bot its turn is answered
# at once (the turn queued): each takes a worker 20-100 ms at world class, so the last of them
# would wait about a second for its turn before its reply, and longer past that.
QUEUED_PER_WORKER = 8
QUEUED_KEPT = 10_000  # queued turns remembered for their followers (done ones go first)
Locker = Callable[[Place], AbstractAsyncContextManager[None]]
Action = Callable[[Match], Match]


def queued_text(ahead: int, *, language: Language) -> str:
    return say.BOT_BUSY(language, ahead=ahead)


@dataclasses.dataclass(eq=False)
class _Queued:
    """A bot turn taken in the background: its replies once it is done."""

    handle: TurnQueued
    place: Place
    task: asyncio.Task[None] | None = None
    replies: list[Reply] | None = None
    released: bool = False  # its flow let go of the place
    stopped: bool = False  # cancelled at shutdown, before the bot's turn was taken
    followers: set[asyncio.Event] = dataclasses.field(default_factory=set)  # set when it ends


def engine_seat(table: Table) -> int | None:
    """The engine's seat at ``table``, or None when two people play."""
    return engine_seat_of(table.row.player_ids)


def engine_level(table: Table) -> Level:
    return LEVELS[table.row.engine_level or DEFAULT_LEVEL]


def owes_turn(table: Table) -> bool:
    """Whether the match waits on the engine."""
    seat = engine_seat(table)
    return seat is not None and table.row.status == "playing" and table.match.turn == seat


def before_double(match: Match, match_key: int | None = None) -> Query:
    """The state a double was offered from, as gnubg reads it (the doubler on roll to decide):
    its cube advice says whether to take."""
    fields = decode_match_id(match.match_id())
    fields = dataclasses.replace(fields, doubled=False, turn=fields.on_roll)
    gnubg_id = f"{match.position_id()}:{encode_match_id(fields)}"
    options = match.options
    return Query(gnubg_id, jacoby=options.jacoby, beavers=options.beavers, match_key=match_key)


def _moving(match: Match, seat: int, play: str | None) -> Action:
    """The action of ``seat`` playing ``play``, found for ``match``; a failure if none was."""
    if play is None:
        raise EngineFailure(say.NO_PLAY_FOUND.said(position=match.gnubg_id()))
    return lambda m: m.move(seat, play)


def _rolled(match: Match, rolled: Match, seat: int) -> Action:
    """``seat``'s roll: ``rolled``, the roll already made of ``match``, while the match acted on
    is still that one (immutable, its dice its own: its roll and legal plays are not made
    again), else made anew."""
    return lambda m: rolled if m is match else m.roll(seat)


class Opponent:
    """Matches against the engine: their start and the engine's turns."""

    def __init__(
        self,
        engine: Engine,
        repository: Repository,
        challenges: Challenges,
        images: BoardImages,
        settings: Settings,
        dice: DiceFactory,
        locked: Locker,
        budget: EngineBudget,
        endings: Endings,
    ) -> None:
        """``endings``: what follows the replies of a flow of the engine's turns (a match's end
        summed up, its result elsewhere...), for those of a queued turn; a command's are
        followed by :class:`~bot.service.commands.guard.Aftermath`."""
        self._engine = engine
        self._budget = budget
        self._repository = repository
        self._challenges = challenges
        self._images = images
        self._settings = settings
        self._dice = dice
        self._locked = locked
        # match id -> the game in which the engine offered to resign: once a game is enough (a
        # rejected offer isn't repeated every turn). Memory only: after a restart, once more.
        self._offered: Bounded[int, int] = Bounded(OFFERS_KEPT)
        self._following: dict[Place, bool] = {}  # place -> another command asked meanwhile
        self._endings = endings
        self.queue_limit = QUEUED_PER_WORKER * settings.engine_workers
        self._turns = TurnLine()
        self._queued: OrderedDict[TurnQueued, _Queued] = OrderedDict()  # by job
        self._numbers = itertools.count(1)

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    # -- the start (under the channel's lock) --------------------------------------------------

    async def start(
        self,
        place: Place,
        user: User,
        terms: str | int | None,
        opener: ThreadOpener | None = None,
    ) -> list[Reply]:
        """``!challenge bot [length|money] [level] [tutor]``: the match starts at once (in a
        thread of its own, where ``opener``, the front end's, opens one)."""
        language = user.language
        if not self._engine.available:
            raise Refusal(say.UNAVAILABLE(language))
        rest, extras = take_words(terms, (TUTOR_WORD, "hints", *LEVELS))
        levels = [word for word in extras if word in LEVELS]
        if len(levels) > 1:
            raise Refusal(say.ONE_LEVEL(language, levels=" and ".join(levels)))
        level = levels[0] if levels else self._settings.bot_level
        tutor = TUTOR_WORD in extras
        try:
            length, options = parse_terms(rest, self._settings, language=language)
        except Refusal as refusal:
            raise Refusal(
                say.LEVEL_AND_TUTOR(
                    language, refusal=refusal.worded(language), levels=", ".join(LEVELS)
                )
            ) from None
        await self._challenges.require_free_table(place, language=language)
        await self._within_budget(user)
        rated = self._settings.bot_games_rated and length > 0 and not place.private
        match = Match.start(length, dice=self._dice(), **options)
        events = list(match.record)
        match = advance(match, events)
        terms_ = MatchTerms(engine_level=level, tutor=tutor, hints=True, rated=rated)
        threads = self._challenges.threads
        thread: Place | None = None
        said: list[Reply] = []
        if threads is not None and opener is not None:
            names = (user.name, ENGINE_USER.name)
            thread, said = await threads.open(opener, place, names, length, None)
        async with MatchThreads.discarding(opener, thread):
            table = await self._repository.create_engine_match(
                place, user, ENGINE_USER, match, terms_, thread=thread
            )
        lead = words.BOT_MATCH_STARTS(
            language,
            user=md(user.name),
            bot=md(ENGINE_USER.name),
            level=level,
            terms=match_kind(length, language=language, alone=True)
            + options_text(match.options.to_data()),
            tutor=words.WITH_TUTOR(language) if tutor else "",
            rated=words.RATED(language) if rated else words.UNRATED(language),
            prefix=shown_prefix(self._prefix, place),
            commitment=match.commitment,
        )
        reply = await status_reply(
            table, events, self._prefix, self._images, lead=lead, language=language
        )
        if threads is None:
            return [reply]
        started = words.BOT_PLAYS(
            language, user=md(user.name), bot=md(ENGINE_USER.name), level=level
        )
        return said + await threads.moved([reply], thread, started, language=language)

    async def _within_budget(self, user: User) -> None:
        """At most :attr:`EngineBudget.bot_games` games against the bot per user at once."""
        language = user.language
        most = self._budget.bot_games
        playing = [
            row
            for row in await self._repository.store.matches.played_by(user.id)
            if row.engine_level is not None
        ]
        if len(playing) >= most:
            where = ", ".join(place_link(match_place(row)) for row in playing)
            raise Refusal(say.TOO_MANY_BOT_GAMES(language, most=most, where=where))

    # -- the engine's turns (no lock held while it thinks) -------------------------------------

    async def follow(self, place: Place, *, language: Language) -> list[Reply]:
        """Play the engine's turns at ``place`` until a person must act; the replies say what
        it did (one status message) and, if it failed, why. While one command's flow follows
        the engine at a place, another's returns at once and the first looks again before it
        ends, so the engine never thinks twice about one decision in this process. With
        :attr:`queue_limit` turns under way, a turn owed is queued instead (see the module)."""
        if place in self._following:
            self._following[place] = True
            return []
        self._following[place] = False
        queued = False
        try:
            owed = await self._owed(place)
            if owed is not None:
                # Counted at admission, with no await between the count and the entry: a
                # burst of moves at one instant (each read its match first) can't all pass.
                if len(self._turns) >= self.queue_limit:
                    queued = True
                    return [self._queue(place, owed, language=language)]
                self._turns.join(place)
            elif not self._following[place]:
                return []
            return await self._looking(place, owed, language=language)
        finally:
            if not queued:
                del self._following[place]

    async def _looking(
        self, place: Place, owed: Table | None = None, *, language: Language
    ) -> list[Reply]:
        """The engine's turns at ``place``, and again while other commands asked meanwhile
        (``owed``: the match just read waiting on the engine, if it was)."""
        replies: list[Reply] = []
        while True:
            replies += await self._follow(place, owed, language=language)
            owed = None
            if not self._following[place]:
                return replies
            self._following[place] = False

    async def _owed(self, place: Place) -> Table | None:
        """The match at ``place`` if it waits on the engine: as this process last read or wrote
        it when it keeps it (a command's flow comes here from the save it just made), else as
        read. Either may be out of date by now; :meth:`_carry_out` checks it again under the
        lock and acts only if it is still as seen."""
        kept = self._repository.kept_playing(place)
        if kept is not None:
            waiting = ENGINE_ID in kept.table.row.player_ids and owes_turn(kept.table)
            return kept.table if waiting else None
        row = await self._repository.store.matches.playing(place.server_id, place.channel_id)
        if row is None or ENGINE_ID not in row.player_ids:
            return None  # the usual case, read cheaply: no match against the engine here
        async with self._locked(place):
            table = await self._repository.table(place, repair=False)
        return table if table is not None and owes_turn(table) else None

    async def _follow(
        self, place: Place, owed: Table | None = None, *, language: Language
    ) -> list[Reply]:
        events: list[Event] = []
        table: Table | None = None
        failure: list[Reply] = []
        # A match read before may have changed since: carrying the action out checks that.
        current = owed or await self._owed(place)
        try:
            for _ in range(ENGINE_STEPS):
                if current is None:
                    break
                self._turns.join(place)
                try:
                    action = await self._decide(current)
                    saved = await self._carry_out(place, current, action)
                except (EngineFailure, EngineUnavailable) as error:
                    failure = [self._failed(current, error.said, language=language)]
                    break
                except (MatchError, MoveError) as error:
                    log.error(
                        "Match %s: the engine's answer was refused: %s", current.row.id, error
                    )
                    broke = say.BROKE_THE_RULES.said(error=reason_of(error, language))
                    failure = [self._failed(current, broke, language=language)]
                    break
                if saved is None:  # someone acted meanwhile: their command's flow goes on
                    break
                table, step_events = saved
                events += step_events
                # The table just saved says whether the engine acts again: no need to read it.
                current = table if owes_turn(table) else None
        finally:
            self._turns.leave(place)
        if table is None:
            return failure
        return [
            await status_reply(table, events, self._prefix, self._images, language=language),
            *failure,
        ]

    # -- queued turns (back-pressure) ----------------------------------------------------------

    def _queue(self, place: Place, owed: Table, *, language: Language) -> Reply:
        """Take the engine's turns at ``place`` in the background (its flow holds the place,
        as :meth:`follow` does); the reply that says so, naming the job."""
        handle = TurnQueued(next(self._numbers), language)
        job = _Queued(handle, place)
        self._queued[handle] = job
        self._turns.join(place)  # in line from now on, behind those already under way
        job.task = asyncio.get_running_loop().create_task(
            self._in_background(job, owed, language=language), name=f"bot-turn-{place.channel_id}"
        )
        # Not a ``finally``: a task cancelled before it ever ran doesn't run one.
        job.task.add_done_callback(lambda _: self._ended(job))
        while len(self._queued) > QUEUED_KEPT:
            oldest = next(
                (key for key, old in self._queued.items() if old.replies is not None), None
            )
            if oldest is None:
                break
            del self._queued[oldest]
        return Reply(queued_text(self._turns.ahead(place), language=language), job=handle)

    async def _in_background(self, job: _Queued, owed: Table, *, language: Language) -> None:
        place = job.place
        try:
            try:
                replies = await self._looking(place, owed, language=language)
            finally:
                self._release(job)  # before any await: a command now starts a flow of its own
            job.replies = await self._endings.after(
                place, sent_to(replies, place), language=language
            )
        except Exception:
            log.exception("The bot's queued turn at %s failed", place)
            job.replies = [
                Reply(
                    say.TURN_FAILED(language, name=md(ENGINE_USER.name), prefix=self._prefix),
                    place=place,
                )
            ]

    def _release(self, job: _Queued) -> None:
        if not job.released:
            job.released = True
            self._following.pop(job.place, None)
            self._turns.leave(job.place)

    def _ended(self, job: _Queued) -> None:
        """A queued turn's task is over (or was cancelled before it ran)."""
        self._release(job)
        if job.replies is None:  # stopped: the game is in the store, its turn taken at start
            job.stopped = True
            self._queued.pop(job.handle, None)
        for wake in job.followers:
            wake.set()

    async def queued(self, handle: TurnQueued) -> AsyncIterator[Reply]:
        """The message of the queued turn ``handle`` as its place in the queue comes (with
        ``job``; at each step from a few ahead, else each time half of those ahead have gone:
        :func:`~bot.service.gnubg.turn_line.next_shown`), then one without ``job`` in its place,
        then the replies of the bot's turn (to be posted as new messages), in the language of
        the command that queued it."""
        language = handle.language
        job = self._queued.get(handle)
        gone = Reply(say.QUEUE_GONE(language, prefix=self._prefix))
        if job is None:
            yield gone
            return
        shown = -1  # nothing shown yet
        while job.replies is None:
            if job.stopped:
                yield gone
                return
            # Out of the line once its flow let go: the place may be in it again, another turn's.
            ahead = 0 if job.released else self._turns.ahead(job.place)
            if ahead != shown:
                shown = ahead
                yield Reply(queued_text(ahead, language=language), job=handle)
                continue  # the job may have moved on while the reply was read
            wake = asyncio.Event()  # set when the job ends, or (in line) when its place comes
            job.followers.add(wake)
            if not job.released:
                self._turns.watch(job.place, next_shown(shown), wake)
            try:
                await wake.wait()
            finally:
                job.followers.discard(wake)
                self._turns.unwatch(wake)
        self._queued.pop(handle, None)
        replies = job.replies
        yield Reply(say.QUEUE_DONE(language) if replies else say.QUEUE_MOVED_ON(language))
        for reply in replies:
            yield reply

    def close(self) -> None:
        """Stop the queued turns (at shutdown: the turns they owe are taken at startup)."""
        for job in self._queued.values():
            if job.task is not None:
                job.task.cancel()

    def _failed(self, table: Table, why: Said, *, language: Language) -> Reply:
        """The engine's turn did not happen, ``why`` (no "Try again.": it retries by itself)."""
        name = md(ENGINE_USER.name)
        return Reply(say.TURN_FAILED_WHY(language, name=name, why=why, prefix=self._prefix))

    async def _carry_out(
        self, place: Place, seen: Table, action: Action
    ) -> tuple[Table, list[Event]] | None:
        """Do ``action`` to the match if it is still as ``seen``; the table saved and the
        events, or None when it changed meanwhile.

        While this process keeps the match at the version seen, it acts on ``seen`` with no
        read: every change this process makes is kept at once, and the save's version check
        refuses one another process made (then the match is read and looked at again)."""
        async with self._locked(place):
            kept = self._repository.kept_playing(place)
            if kept is not None and (kept.table.row.id, kept.version) == (
                seen.row.id,
                seen.row.version,
            ):
                try:
                    return await self._acted(seen, action)
                except StaleMatchError:
                    self._repository.forget(seen.row.id)
            table = await self._repository.table(place, repair=False)
            if (
                table is None
                or table.row.id != seen.row.id
                or table.match.action_count != seen.match.action_count
            ):
                return None
            try:
                return await self._acted(table, action)
            except StaleMatchError as error:  # another process wrote the match first
                if error.match_id is not None:
                    self._repository.forget(error.match_id)
                return None

    async def _acted(self, table: Table, action: Action) -> tuple[Table, list[Event]]:
        """``action`` done to ``table``'s match and saved (:class:`StaleMatchError` when the
        store's version moved): the table saved and the events."""
        match = action(table.match)
        events = list(match.record[len(table.match.record) :])  # an action may be two
        match = advance(match, events)
        return await self._repository.save(table, match), events

    async def _decide(self, table: Table) -> Action:
        """What the engine does now, in one engine request sent to the worker of this match.
        Its roll and its play for that roll are one step, saved together: the dice are the
        match's next pair whoever rolls them (drawn here, never by gnubg), so the request
        before the roll carries the position after it and the answer brings its play too."""
        match, level = table.match, engine_level(table)
        seat = engine_seat(table)
        assert seat is not None
        query = Query.of(match, table.row.id)
        engine = self._engine
        if match.phase == "doubled":
            advice = await engine.cube_advice(
                before_double(match, table.row.id), level, priority=TURN_PRIORITY
            )
            if advice.beaver and match.length == 0 and match.options.beavers:
                return lambda m: m.beaver(seat)
            if advice.take:
                return lambda m: m.take(seat)
            return lambda m: m.drop(seat)
        if match.phase == "resigned":
            if await engine.resignation_answer(query, level, priority=TURN_PRIORITY):
                return lambda m: m.accept_resignation(seat)
            return lambda m: m.reject_resignation(seat)
        rolled = match.roll(seat) if match.phase == "roll" else None
        # Its only play (or none) plays itself in the roll: no search for it.
        searched = rolled is not None and rolled.turn == seat
        # It offers to resign at most once a game: a rejected offer isn't repeated every turn.
        may_resign = self._offered.peek(table.row.id) != match.game_number
        choice = await engine.take_turn(
            query,
            level,
            may_resign=may_resign,
            rolled=rolled.gnubg_id() if searched and rolled is not None else None,
        )
        if choice.resign > 0:
            self._offered.put(table.row.id, match.game_number)
            return lambda m: m.resign(seat, choice.resign)
        if rolled is None:
            return _moving(match, seat, choice.play)
        if choice.double and match.can_double(seat):
            return lambda m: m.double(seat)
        roll = _rolled(match, rolled, seat)
        if not searched:
            return roll
        play = choice.play
        if choice.double:  # a double the rules refuse: its play was not asked with it
            # Resigning was weighed before the roll: once a turn.
            again = Query.of(rolled, table.row.id)
            play = (await engine.take_turn(again, level, may_resign=False)).play
        move = _moving(rolled, seat, play)
        return lambda m: move(roll(m))

    # -- after a restart -----------------------------------------------------------------------

    async def resume(self, where: Callable[[Place], bool]) -> dict[Place, list[Reply]]:
        """Play the turns the engine owes in every match at a place ``where`` accepts (at
        startup: a turn that was being thought about when the bot stopped); the replies by
        place, in each server's language (no command asked for them)."""
        out: dict[Place, list[Reply]] = {}
        for row in await self._repository.store.matches.against_engine():
            place = Place(row.server_id, row.channel_id)
            if not where(place):
                continue
            language = await self._repository.languages.of(place.server_id)
            replies = await self.follow(place, language=language)
            if replies:
                out[place] = replies
        return out
