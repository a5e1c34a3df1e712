"""Play: rolls, moves, the cube and resignations, and the rolls nobody needs to ask for."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import play as say
from bot.rules.events import Event
from bot.rules.match import RESIGN_LEVELS, Match
from bot.rules.text import quote
from bot.service.matches.images import BoardImages
from bot.service.matches.presentation import play_form, status_reply, typed
from bot.service.matches.repository import Repository, Table, require_seat
from bot.service.models import Refusal, Reply, User, engine_seat_of
from bot.settings import Settings

AUTO_STEPS = 500  # a guard: automatic rolls never loop forever


def advance(match: Match, events: list[Event]) -> Match:
    """Roll for a player who has no choice but to roll (no cube to turn); the rolls' events
    are added to ``events``."""
    for _ in range(AUTO_STEPS):
        if match.phase != "roll" or match.can_double(match.on_roll):
            break
        match = match.roll(match.on_roll)
        events.extend(match.events)
    return match


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

    def read_play(self, play: str) -> str:
        play = typed(play)
        if not play:
            raise Refusal(say.SAY_WHICH_PLAY(form=play_form("move", self._prefix)))
        return play

    def read_level(self, level: str | None) -> int:
        word = typed(level or "single").lower()
        if word not in RESIGN_LEVELS:
            raise Refusal(say.NOT_A_RESIGNATION(quoted=quote(level or ""), prefix=self._prefix))
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
        seat = require_seat(table, user)
        if table.match.phase != "resigned":
            raise Refusal(say.NOTHING_TO_ACCEPT())
        return await self._act(table, seat, lambda m: m.accept_resignation(seat))

    # -- plumbing -----------------------------------------------------------------------------

    async def _player_action(
        self, table: Table, user: User, doing: str, action: Callable[[Match, int], Match]
    ) -> list[Reply]:
        seat = require_seat(table, user)
        match = table.match
        if match.turn is not None and match.turn != seat:
            other = table.names[match.turn]
            waiting = say.WAITING[match.phase]()
            raise Refusal(say.NOT_YOUR_TURN_DOING[doing](other=other, waiting=waiting))
        return await self._act(table, seat, lambda match: action(match, seat))

    async def _act(self, table: Table, seat: int, action: Callable[[Match], Match]) -> list[Reply]:
        match = action(table.match)
        events = list(match.events)
        match = advance(match, events)
        offered = table.row.abort_offered_by
        lead = ""
        if offered is not None:  # any action withdraws a request to abort: say so
            asker, actor = table.names[offered], table.names[seat]
            lead = (
                say.ABORT_LAPSES(asker=asker)
                if offered == seat
                else say.ABORT_REFUSED_BY_PLAY(actor=actor, asker=asker)
            )
        news = await self._repository.time_out(table)  # acting too late loses on time instead
        if news is not None:
            return [Reply(news)]
        table = await self._repository.save(table, match)
        # The bot's turn comes next, with a board of its own: drawing this one would be wasted
        # (the service draws it if the bot fails to take its turn).
        engine = engine_seat_of(table.row.player_ids)
        bots = engine is not None and table.row.status == "playing" and match.turn == engine
        images = self._undrawn if bots else self._images
        return [await status_reply(table, events, self._prefix, images, lead=lead)]
