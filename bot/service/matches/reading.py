"""Reading matches: the match at a table (one read, with its timer), where a channel's matches
are, players' names, and the matches kept in memory between commands. A read never changes a
match; :mod:`bot.service.matches.repository` writes them.
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal, overload

from bot.bounded import Bounded
from bot.i18n import play as say
from bot.i18n.core import Language, Said
from bot.rules.dice import DiceKeyError
from bot.rules.match import Match
from bot.rules.notation import whole_number
from bot.rules.text import quote
from bot.service.languages import Languages
from bot.service.models import Place, Refusal, Reply, Table, User, place_link, seat_of
from bot.service.models import markdown_safe as md
from bot.service.records import storage
from bot.settings import Settings
from bot.store import MatchRow, Store
from bot.store.matches import TimerRow

log = logging.getLogger(__name__)

MATCH_BYTES_KEPT = 64 * 2**20  # memory for matches kept between commands (else read again)
NAMES_KEPT = 20_000  # display names kept in memory (read from the store if not)
MATCHES_NAMED = 3  # "your match is in ...": at most this many named

MATCH_NUMBER = re.compile(r"#?(\d+)")  # `12` or `#12`: a match, by its id (whole_number reads it)


@dataclass(frozen=True, slots=True)
class Kept:
    """A match kept in memory between commands: its table as this process last read or wrote
    it (row, timer, names), where it is played, the notation of its legal plays (``/move``'s
    autocomplete answers from this alone), and about how many bytes it takes."""

    table: Table
    place: Place
    size: int
    _plays: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def plays(self) -> tuple[str, ...]:
        """The notation of the match's legal plays, worked out when first asked (most turns
        no one asks: a play is typed, or the bot's)."""
        if self._plays is None:
            object.__setattr__(self, "_plays", tuple(p.notation for p in self.match.legal_plays()))
        assert self._plays is not None
        return self._plays

    @property
    def version(self) -> int:
        return self.table.row.version

    @property
    def match(self) -> Match:
        return self.table.match

    def seat(self, user: User) -> int | None:
        return seat_of(self.table.row.player_ids, user)


def _vs(names: tuple[str, str]) -> str:
    return f"{md(names[0])} vs {md(names[1])}"


def require_seat(table: Table, user: User) -> int:
    """``user``'s seat at ``table``; refused when they don't play there."""
    language = user.language
    seat = table.seat(user)
    if seat is None:
        raise Refusal(say.ONLY_PLAYERS(language, first=table.names[0], second=table.names[1]))
    return seat


class MatchReader:
    """Matches and players' names, read from the store or from memory: never written, except
    the snapshot of a row that had none or a damaged one (rebuilt from its log)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float],
        *,
        dice_key: bytes | None = None,
    ) -> None:
        """``dice_key``: the server's key, so that matches whose dice it makes replay."""
        self.store = store
        self._settings = settings
        self._clock = clock
        self._dice_key = dice_key
        # Each server's language: what is said with no command to answer (a resumed bot turn, a
        # clock run out, a tournament's round) is said in it.
        self.languages = Languages(store)
        self.match_cache: OrderedDict[int, Kept] = OrderedDict()  # by match id, oldest used first
        self._playing_at: dict[Place, int] = {}  # the kept match being played at each place
        self.cached_bytes = 0
        self.name_cache: Bounded[tuple[str, str], str] = Bounded(NAMES_KEPT)  # (server, user): name

    # -- names ------------------------------------------------------------------------------------

    async def names(self, place: Place, ids: tuple[str, str]) -> tuple[str, str]:
        """Two players' names as last seen (their ids, for players the store never saw)."""
        names = []
        for user_id in ids:
            key = (place.server_id, user_id)
            name = self.name_cache.get(key)
            if name is None:
                player = await self.store.players.get(place.server_id, user_id)
                name = player.name if player else user_id
                self.name_cache.put(key, name)
            names.append(name)
        return names[0], names[1]

    def remember(self, place: Place, *users: User) -> None:
        """Keep the names ``users`` go by now (the store has just been told them)."""
        for user in users:
            self.name_cache.put((place.server_id, user.id), user.name)

    # -- reading ------------------------------------------------------------------------------

    @overload
    async def table(
        self, place: Place, *, latest: bool = False, repair: Literal[False]
    ) -> Table | None: ...

    @overload
    async def table(
        self, place: Place, *, latest: bool = False, repair: Literal[True] = True
    ) -> Table | DamagedMatch | None: ...

    async def table(
        self, place: Place, *, latest: bool = False, repair: bool = True
    ) -> Table | DamagedMatch | None:
        """The channel's match being played (or, with ``latest``, its last one, even if over).
        A match being played whose row can't be read at all (snapshot and log both damaged)
        is a :class:`DamagedMatch` when ``repair`` (a command at that table: its reply says
        so), else is taken as absent; an ended one is refused."""
        found = await self.store.matches.with_timer(
            place.server_id, place.channel_id, latest=latest
        )
        if found is None:
            return None
        row, timer = found
        return await self._table(row, timer, place, repair=repair)

    @overload
    async def table_of(
        self, row: MatchRow, place: Place, *, repair: Literal[False]
    ) -> Table | None: ...

    @overload
    async def table_of(
        self, row: MatchRow, place: Place, *, repair: Literal[True] = True
    ) -> Table | DamagedMatch | None: ...

    async def table_of(
        self, row: MatchRow, place: Place, *, repair: bool = True
    ) -> Table | DamagedMatch | None:
        """The match of ``row`` (see :meth:`table`)."""
        return await self._table(row, await self.store.matches.timer(row.id), place, repair=repair)

    async def _table(
        self, row: MatchRow, timer: TimerRow | None, place: Place, *, repair: bool
    ) -> Table | DamagedMatch | None:
        plain = await self.names(place, row.player_ids)
        names = (md(plain[0]), md(plain[1]))
        if row.ending == "unreadable":
            raise DamagedRecord(row, say.DAMAGED_LAST.said(first=names[0], second=names[1]))
        try:
            match = await self._load(row)
        except Exception as error:  # anything the replay of a stored record can raise
            error_id = uuid.uuid4().hex[:8]
            log.error("Error %s: match %s (%s) can't be read: %s", error_id, row.id, place, error)
            log.debug("Error %s in full", error_id, exc_info=True)
            prefix = self._settings.command_prefix
            if row.status != "playing":
                said = say.DAMAGED_ENDED.said(
                    id=row.id, first=names[0], second=names[1], error=error_id, prefix=prefix
                )
                raise DamagedRecord(row, said) from None
            if not repair:
                return None
            return DamagedMatch(row, names, error_id, prefix)
        table = Table(row, match, plain, timer)
        self._keep(table)
        return table

    async def require(
        self,
        place: Place,
        *,
        language: Language,
        latest: bool = False,
        user: User | None = None,
    ) -> Table | DamagedMatch:
        """The match being played here (or, with ``latest``, the last one, even if over), or
        the news that it can't be read. Without one, the refusal points to this channel's
        threads, or else says where ``user`` plays on this server, if they do."""
        table = await self.table(place, latest=latest)
        if isinstance(table, DamagedMatch):
            return table
        if table is None or table.row.status != "playing":
            after = 0 if table is None else table.row.id
            pointer = await self.elsewhere(place, language=language, latest=latest, after=after)
            if pointer is not None:
                raise pointer
        if table is None and user is not None:
            yours = await self._yours(place, user, language=language)
            if yours is not None:
                raise yours
        if table is None:
            if latest:
                raise Refusal(say.NO_MATCH_YET(language))
            raise Refusal(say.NO_MATCH_HERE(language, prefix=self._settings.command_prefix))
        return table

    async def numbered(
        self, place: Place, word: str, command: str, *, language: Language
    ) -> MatchRow:
        """The match of this server that ``word`` numbers (``12`` or ``#12``); refused, with
        ``command``'s usage, when it is no number or no match of this server."""
        prefix = self._settings.command_prefix
        found = MATCH_NUMBER.fullmatch(word)
        number = whole_number(found[1]) if found else None
        if number is None:
            raise Refusal(
                say.NOT_A_MATCH_NUMBER(language, quoted=quote(word), prefix=prefix, command=command)
            )
        return await self.on_server(place, number, language=language)

    async def on_server(self, place: Place, match_id: int, *, language: Language) -> MatchRow:
        """Match ``match_id``, refused unless it is one of ``place``'s server; in a DM or group
        DM (all in no server), one of that very DM: other people's DMs are theirs."""
        row = await self.store.matches.get(match_id)
        if row is None or row.server_id != place.server_id:
            raise Refusal(say.NO_MATCH_NUMBERED(language, number=match_id))
        if place.private and row.channel_id != place.channel_id:
            raise Refusal(say.NO_MATCH_NUMBERED_DM(language, number=match_id))
        return row

    async def elsewhere(
        self, place: Place, *, language: Language, latest: bool = False, after: int = 0
    ) -> Refusal | None:
        """For a match command typed in a channel whose matches are played in threads: where
        they are (one line); None when the channel has none newer than its own match ``after``.
        ``latest``: for a command that shows the last match, even one that is over."""
        rows = await self.store.matches.threaded(place.server_id, place.channel_id, after=after)
        if rows:
            shown = []
            for row in rows:
                names = await self.names(place, row.player_ids)
                link = place_link(Place(row.server_id, row.channel_id))
                shown.append(say.MATCH_IN(language, players=_vs(names), link=link))
            return Refusal(say.PLAYED_IN_THREADS(language, listed=", ".join(shown)))
        if not latest:
            return None
        last = await self.store.matches.latest_threaded(place.server_id, place.channel_id)
        if last is None or last.id <= after:
            return None
        names = await self.names(place, last.player_ids)
        link = place_link(Place(last.server_id, last.channel_id))
        return Refusal(say.LAST_IN_THREAD(language, players=_vs(names), link=link))

    async def _yours(self, place: Place, user: User, *, language: Language) -> Refusal | None:
        """Where ``user`` is playing on this server (elsewhere than ``place``), as a refusal."""
        rows = [
            row
            for row in await self.store.matches.played_by(user.id)
            if row.server_id == place.server_id and row.channel_id != place.channel_id
        ]
        if not rows:
            return None
        where = []
        for row in rows[:MATCHES_NAMED]:
            names = await self.names(place, row.player_ids)
            link = place_link(Place(row.server_id, row.channel_id))
            where.append(f"{link} ({md(names[0])} vs {md(names[1])})")
        more = ""
        if len(rows) > MATCHES_NAMED:
            more = say.AND_MORE(language, count=len(rows) - MATCHES_NAMED)
        return Refusal(say.YOURS_ELSEWHERE(language, len(rows), where=", ".join(where), more=more))

    async def _load(self, row: MatchRow) -> Match:
        """The match a row holds: the copy kept from the last command when the row has not
        changed since, else restored from its snapshot (no replay). A row without a snapshot
        (written before snapshots existed), or whose snapshot is damaged, is replayed from its
        log off the event loop, once: its snapshot is then stored."""
        cached = self.match_cache.get(row.id)
        if cached is not None and cached.version == row.version:
            self.match_cache.move_to_end(row.id)
            return cached.match
        match = None
        if row.snapshot is not None:
            try:
                match = storage.restore(row.state, row.snapshot, self._dice_key)
            except DiceKeyError:
                raise  # the server's key is missing: not a damaged row
            except Exception as error:  # anything a damaged snapshot can raise
                log.warning("Match %s: %s; rebuilding it from its action log", row.id, error)
        if match is None:
            match = storage.compact(await self._replay(row))
            async with self.store.transaction() as tx:
                await tx.matches.store_snapshot(row.id, row.version, storage.snapshot_text(match))
        return match

    async def _replay(self, row: MatchRow) -> Match:
        """The match of ``row`` with its whole record, replayed from the log in a worker thread
        (a long match takes a fraction of a second)."""
        actions = await self.store.matches.actions(row.id)
        return await asyncio.to_thread(storage.replay, row.state, actions, self._dice_key)

    async def record(self, row: MatchRow) -> Match:
        """The match of ``row`` with its whole record (for the ``.mat``), replayed from its log."""
        return await self._replay(row)

    async def full(self, table: Table) -> Match:
        """``table``'s match with its whole record (for the ``.mat``), replayed from the log,
        and checked against the snapshot the bot has been playing from."""
        replayed = await self._replay(table.row)
        if table.row.snapshot is not None:
            disagree = storage.check(table.row.snapshot, replayed)
            if disagree:
                log.error(
                    "Match %s: its snapshot and its log disagree on %s",
                    table.row.id,
                    ", ".join(disagree),
                )
        return replayed

    def _keep(self, table: Table) -> None:
        """Keep ``table`` (its match compacted, as stored now) for the next command; the same
        match read again only refreshes its row and timer."""
        row, match = table.row, table.match
        kept = self.match_cache.get(row.id)
        if kept is not None and kept.match is match:
            self.match_cache[row.id] = replace(kept, table=table)
            return
        self.forget(row.id)
        place = Place(row.server_id, row.channel_id)
        kept = Kept(table, place, storage.footprint(match))
        self.match_cache[row.id] = kept
        self.cached_bytes += kept.size
        if row.status == "playing":
            self._playing_at[place] = row.id
        while self.cached_bytes > MATCH_BYTES_KEPT and len(self.match_cache) > 1:
            self.forget(next(iter(self.match_cache)))

    def forget(self, match_id: int) -> None:
        """Drop the copy kept of a match (its row changed behind our back, or it ended)."""
        kept = self.match_cache.pop(match_id, None)
        if kept is None:
            return
        self.cached_bytes -= kept.size
        if self._playing_at.get(kept.place) == match_id:
            del self._playing_at[kept.place]

    def kept_playing(self, place: Place) -> Kept | None:
        """The match being played at ``place`` as this process last read or wrote it, when it
        is kept in memory: no read of the store. Every change this process makes is kept here
        at once; a change another process made since (several hosts on one database) is not,
        so this is for what may be out of date (autocomplete; what the engine is asked), or
        for acting on a match whose save checks its version (the engine's answer, carried out
        under the lock while the match kept is still the version it was asked about)."""
        match_id = self._playing_at.get(place)
        if match_id is None or match_id not in self.match_cache:
            return None
        self.match_cache.move_to_end(match_id)
        return self.match_cache[match_id]


@dataclass(frozen=True, slots=True)
class DamagedMatch:
    """A match whose row can't be read: neither its snapshot nor its action log restores it.
    The reading returns it in place of the match; the command at its table replies with it
    (:attr:`reply`, to the whole channel, at every command there). The row stays as it is
    (``!export`` gives what it holds) until a moderator's ``!void`` frees the table."""

    row: MatchRow
    names: tuple[str, str]
    error_id: str
    prefix: str

    def text(self, language: Language) -> str:
        return say.DAMAGED_MATCH(
            language,
            first=self.names[0],
            second=self.names[1],
            id=self.row.id,
            error=self.error_id,
            prefix=self.prefix,
        )

    def reply(self, language: Language) -> Reply:
        return Reply(self.text(language))


class DamagedRecord(Refusal):
    """An ended match whose row can't be read (or voided for it): refused, with its row. The
    reader knows no language: the command that meets it words it (:meth:`Refusal.worded`)."""

    def __init__(self, row: MatchRow, said: Said) -> None:
        super().__init__(said)
        self.row = row
