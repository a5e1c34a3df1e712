"""The commands of a match's life, as the registry points at them: challenges and their
answers, play, the cube, resignations, the looks at a match and its early ends. Each runs its
room's work through the channel's :class:`~bot.service.commands.guard.Guard`; :class:`Play`
holds the players' actions themselves."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import play as say
from bot.i18n.core import Language
from bot.rules.match import RESIGN_LEVELS, Match, advance
from bot.rules.text import quote
from bot.service.commands.choices import plays_for
from bot.service.commands.guard import Answer, Guard
from bot.service.commands.views import Views
from bot.service.gnubg.coach import Tutored
from bot.service.gnubg.opponent import Opponent
from bot.service.matches.admin import Administration
from bot.service.matches.challenges import Challenges
from bot.service.matches.presentation import BoardImages, play_form, status_reply, typed
from bot.service.matches.rematch import Rematches
from bot.service.matches.repository import DamagedMatch, Repository, Table, require_seat
from bot.service.matches.threads import ThreadOpener
from bot.service.models import ENGINE_ID, Place, Refusal, Reply, User, engine_seat_of
from bot.settings import Settings


class Play:
    """The players' actions in a match, on the table the facade read under the channel's lock."""

    def __init__(self, repository: Repository, images: BoardImages, settings: Settings) -> None:
        self._repository = repository
        self._images = images
        self._undrawn = BoardImages(enabled=False)
        self._settings = settings

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    # -- what players type, read before the channel's lock is taken --------------------------

    def read_play(self, play: str, *, language: Language) -> str:
        play = typed(play)
        if not play:
            raise Refusal(
                say.SAY_WHICH_PLAY(
                    language, form=play_form("move", self._prefix, language=language)
                )
            )
        return play

    def read_level(self, level: str | None, *, language: Language) -> int:
        word = typed(level or "single").lower()
        if word not in RESIGN_LEVELS:
            raise Refusal(
                say.NOT_A_RESIGNATION(language, quoted=quote(level or ""), prefix=self._prefix)
            )
        return RESIGN_LEVELS[word]

    # -- the actions --------------------------------------------------------------------------

    async def roll(self, table: Table, user: User) -> list[Reply]:
        return await self._player_action(table, user, "roll", lambda m, s: m.roll(s))

    async def move(self, table: Table, user: User, play: str) -> list[Reply]:
        """``play``: as :meth:`read_play` gave it."""
        return await self._player_action(table, user, "move", lambda m, s: m.move(s, play))

    async def double(self, table: Table, user: User) -> list[Reply]:
        return await self._player_action(table, user, "double", lambda m, s: m.double(s))

    async def take(self, table: Table, user: User) -> list[Reply]:
        return await self._player_action(table, user, "take", lambda m, s: m.take(s))

    async def drop(self, table: Table, user: User) -> list[Reply]:
        return await self._player_action(table, user, "drop", lambda m, s: m.drop(s))

    async def beaver(self, table: Table, user: User) -> list[Reply]:
        return await self._player_action(table, user, "beaver", lambda m, s: m.beaver(s))

    async def resign(self, table: Table, user: User, level: int) -> list[Reply]:
        """``level``: as :meth:`read_level` gave it."""
        return await self._player_action(table, user, "resign", lambda m, s: m.resign(s, level))

    async def reject(self, table: Table, user: User) -> list[Reply]:
        return await self._player_action(
            table, user, "reject", lambda m, s: m.reject_resignation(s)
        )

    async def accept_resignation(self, table: Table, user: User) -> list[Reply]:
        language = user.language
        seat = require_seat(table, user)
        if table.match.phase != "resigned":
            raise Refusal(say.NOTHING_TO_ACCEPT(language))
        return await self._act(table, seat, lambda m: m.accept_resignation(seat), language=language)

    # -- plumbing -----------------------------------------------------------------------------

    async def _player_action(
        self, table: Table, user: User, doing: str, action: Callable[[Match, int], Match]
    ) -> list[Reply]:
        language = user.language
        seat = require_seat(table, user)
        match = table.match
        if match.turn is not None and match.turn != seat:
            other = table.names[match.turn]
            waiting = say.WAITING[match.phase](language)
            raise Refusal(say.NOT_YOUR_TURN_DOING[doing](language, other=other, waiting=waiting))
        return await self._act(table, seat, lambda match: action(match, seat), language=language)

    async def _act(
        self, table: Table, seat: int, action: Callable[[Match], Match], *, language: Language
    ) -> list[Reply]:
        match = action(table.match)
        events = list(match.events)
        match = advance(match, events)
        offered = table.row.abort_offered_by
        lead = ""
        if offered is not None:  # any action withdraws a request to abort: say so
            asker, actor = table.names[offered], table.names[seat]
            lead = (
                say.ABORT_LAPSES(language, asker=asker)
                if offered == seat
                else say.ABORT_REFUSED_BY_PLAY(language, actor=actor, asker=asker)
            )
        news = await self._repository.time_out(
            table, language=language
        )  # acting too late loses on time instead
        if news is not None:
            return [Reply(news)]
        table = await self._repository.save(table, match)
        # The bot's turn comes next, with a board of its own: drawing this one would be wasted
        # (the service draws it if the bot fails to take its turn).
        engine = engine_seat_of(table.row.player_ids)
        bots = engine is not None and table.row.status == "playing" and match.turn == engine
        images = self._undrawn if bots else self._images
        return [
            await status_reply(table, events, self._prefix, images, lead=lead, language=language)
        ]


class MatchCommands:
    """``!challenge`` to ``!void``: see :data:`bot.service.commands.registry.COMMANDS`."""

    def __init__(
        self,
        guard: Guard,
        repository: Repository,
        challenges: Challenges,
        playing: Play,
        admin: Administration,
        views: Views,
        opponent: Opponent,
        rematches: Rematches,
    ) -> None:
        self._guard = guard
        self._repository = repository
        self._challenges = challenges
        self._playing = playing
        self._admin = admin
        self._views = views
        self._opponent = opponent
        self._rematches = rematches

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
        language = user.language
        if opponent.id == ENGINE_ID:
            return await self._guard.guarded(
                place, lambda: self._opponent.start(place, user, length, threads), language=language
            )
        return await self._guard.guarded(
            place,
            lambda: self._challenges.challenge(place, user, opponent, length),
            language=language,
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
        language = user.language
        return await self._guard.guarded(
            place,
            lambda: self._rematches.rematch(place, user, threads),
            answering=answering,
            language=language,
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

        language = user.language

        async def work() -> list[Reply]:
            table = await self._repository.table(place)
            if isinstance(table, DamagedMatch):
                return [table.reply(language)]
            if table is not None:
                return await self._playing.accept_resignation(table, user)
            return await self._challenges.accept(place, user, threads)

        return await self._guard.guarded(place, work, answering=answering, language=language)

    async def decline(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place,
            lambda: self._challenges.close(place, user, status="declined", language=language),
            answering=answering,
            language=language,
        )

    async def cancel(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place,
            lambda: self._challenges.close(place, user, status="cancelled", language=language),
            language=language,
        )

    async def roll(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guard.decide(place, user, self._playing.roll, "roll", answering)

    async def move(self, place: Place, user: User, play: str) -> list[Reply]:
        language = user.language
        try:
            play = self._playing.read_play(play, language=language)
        except Refusal as refusal:
            return [Reply(refusal.worded(language), private=True)]
        return await self._guard.at_table(
            place,
            user,
            lambda table: self._playing.move(table, user, play),
            tutored=Tutored("move", play),
            acting=True,
        )

    async def double(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guard.decide(place, user, self._playing.double, "double", answering)

    async def take(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guard.decide(place, user, self._playing.take, "take", answering)

    async def drop(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guard.decide(place, user, self._playing.drop, "drop", answering)

    async def beaver(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guard.decide(place, user, self._playing.beaver, "beaver", answering)

    async def resign(self, place: Place, user: User, level: str | None = None) -> list[Reply]:
        language = user.language
        try:
            points = self._playing.read_level(level, language=language)
        except Refusal as refusal:
            return [Reply(refusal.worded(language), private=True)]
        return await self._guard.at_table(
            place, user, lambda table: self._playing.resign(table, user, points)
        )

    async def reject(
        self, place: Place, user: User, *, answering: Answer | None = None
    ) -> list[Reply]:
        return await self._guard.at_table(
            place, user, lambda table: self._playing.reject(table, user), answering=answering
        )

    async def board(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place, lambda: self._views.board(place, user), language=language
        )

    async def pips(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place, lambda: self._views.pips(place, user), language=language
        )

    async def score(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place, lambda: self._views.score(place, user), language=language
        )

    async def export(self, place: Place, user: User, match: str | None = None) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place,
            lambda: self._views.export(place, user, match, language=language),
            language=language,
        )

    async def abort(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        return await self._guard.guarded(
            place, lambda: self._admin.abort(place, user), language=language
        )

    async def claim(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        try:  # GNU Backgammon judges the position first, without the channel's lock
            estimate = await self._admin.claim_chance(place, user)
        except Refusal as refusal:
            return [Reply(refusal.worded(language), private=True)]
        return await self._guard.guarded(
            place, lambda: self._admin.claim(place, user, estimate), language=language
        )

    async def void(self, place: Place, user: User, *, moderator: bool) -> list[Reply]:
        """A moderator ends the channel's match, unrated (a stuck or abandoned one)."""
        language = user.language
        return await self._guard.guarded(
            place, lambda: self._admin.void(place, user, moderator=moderator), language=language
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
        kept = self._repository.kept_playing(place)
        if kept is not None:
            return plays_for(kept.match, kept.seat(user), typed, kept.plays)
        try:
            table = await self._repository.table(place, repair=False)
        except Refusal:  # a damaged match: the next command says so
            return []
        return [] if table is None else plays_for(table.match, table.seat(user), typed)
