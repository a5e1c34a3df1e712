"""The game table: a command from a user in a channel -> engine -> store -> replies.

Knows nothing of Discord: the Discord cogs and the console both call these methods. Every
command takes the channel's lock, reads the channel's state from the store, works out the new
state with pure engine values, writes it in one transaction and answers with replies.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import re
import time
import unicodedata
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from bot.engine import MoveError, Position
from bot.engine.dice import DiceSource, KeyedDice, VerifiableDice
from bot.engine.match import (
    MAX_AUTOMATIC_DOUBLES,
    RESIGN_LEVELS,
    Event,
    GameStarted,
    Match,
    MatchError,
    Moved,
)
from bot.engine.text import dice_text, points_text
from bot.engine.text import sentence as _sentence
from bot.render import BoardState, LastPlay, render_board
from bot.service.commands import COMMANDS, UserLookup, read_arguments
from bot.service.help import help_text, suggest
from bot.service.models import (
    Announcement,
    Attachment,
    Decision,
    Pending,
    Place,
    Refusal,
    Reply,
    User,
)
from bot.service.names import markdown_safe as md
from bot.service.rating import rate_match
from bot.service.words import describe, match_kind, options_text, score_text
from bot.settings import MAX_MATCH_LENGTH, Settings
from bot.store import ChallengeRow, MatchRow, StaleMatchError, Store, Transaction

log = logging.getLogger(__name__)

AUTO_STEPS = 500  # a guard: automatic rolls never loop forever
_POINT_WORDS = ("points", "point", "pts", "pt", "p")
_LENGTH_WORDS = re.compile(r"^(\d+)(?=(?:points|point|pts|pt|p)\b)")  # "3pt" -> "3 pt"
MONEY_OPTIONS: dict[str, tuple[str, Any]] = {
    "jacoby": ("jacoby", True),
    "beavers": ("beavers", True),
    "beaver": ("beavers", True),
    "auto": ("automatic_doubles", True),
    "automatic": ("automatic_doubles", True),
}
MATCHES_KEPT = 2000  # matches kept in memory between commands (replayed from the store if not)
NAMES_KEPT = 20_000  # display names kept in memory (read from the store if not)

DiceFactory = Callable[[], DiceSource]
Command = Callable[[Place, User], Awaitable[list[Reply]]]
OUT_OF_DATE = "This button is out of date: the game has moved on."
# The question key a button press answers, while its command runs (see TableService.answer).
_ANSWERING: ContextVar[str | None] = ContextVar("answering", default=None)


def secure_dice() -> DiceSource:
    """Fresh secret dice whose seed is stored with the match (tests; production uses
    :func:`keyed_dice`, which keeps the seed out of the database)."""
    return VerifiableDice.generate()


def keyed_dice(key: bytes) -> DiceFactory:
    """Dice whose seeds only the holder of the server's ``key`` can know."""
    return functools.partial(KeyedDice.generate, key)


def seeded_dice(seed: int) -> DiceFactory:
    """Deterministic dice for tests and ``console --seed``: never a production setting."""
    rng = random.Random(seed)

    def factory() -> DiceSource:
        return VerifiableDice.from_hex(rng.randbytes(32).hex())

    return factory


@dataclass(frozen=True, slots=True)
class RecordedPlay:
    """A play as the record keeps it, enough for the board to mark it."""

    dice: tuple[int, int]
    notation: str
    steps: tuple[tuple[int, int], ...]
    hits: tuple[int, ...]


class _PlaceLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding or waiting


@dataclass(slots=True)
class Table:
    """A channel's match as read from the store."""

    row: MatchRow
    match: Match
    plain: tuple[str, str]  # the players' names as images, records and data show them

    @property
    def names(self) -> tuple[str, str]:
        """The players' names as message text shows them (Markdown escaped)."""
        return md(self.plain[0]), md(self.plain[1])

    def seat(self, user: User) -> int | None:
        if user.id == self.row.player0_id:
            return 0
        if user.id == self.row.player1_id:
            return 1
        return None


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
    ) -> None:
        """``dice_key``: the server's key (see :mod:`bot.service.dicekey`); new matches get
        :func:`keyed_dice` unless ``dice`` says otherwise, and matches made with it replay."""
        self.store = store
        self.settings = settings or Settings()
        if dice is None:
            dice = keyed_dice(dice_key) if dice_key is not None else secure_dice
        self._dice = dice
        self._dice_key = dice_key
        self._clock = clock
        self._images = images
        self._locks: dict[Place, _PlaceLock] = {}  # only places with a command running
        self._matches: OrderedDict[int, tuple[int, Match]] = OrderedDict()
        self._name_cache: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")

    async def warm_up(self) -> None:
        """Draw one board so the first player doesn't wait for the renderer's caches."""
        if self._images:
            state = BoardState(Position.initial(), on_roll=0, players=("", ""))
            await asyncio.get_running_loop().run_in_executor(
                self._renderer, functools.partial(render_board, state, viewer=0)
            )

    def close(self) -> None:
        self._renderer.shutdown(wait=True)

    # -- plumbing -----------------------------------------------------------------------------

    @asynccontextmanager
    async def _locked(self, place: Place) -> AsyncIterator[None]:
        """Hold ``place``'s lock. A lock lives only while someone holds or waits for it, so
        the map doesn't grow with every channel ever seen."""
        entry = self._locks.get(place)
        if entry is None:
            entry = self._locks[place] = _PlaceLock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[place]

    async def _guarded(
        self, place: Place, work: Callable[[], Awaitable[list[Reply]]]
    ) -> list[Reply]:
        async with self._locked(place):
            expected = _ANSWERING.get()
            if expected is not None:  # a button's answer: is its question still the open one?
                pending = await self.pending_decision(place)
                if pending is None or pending.key != expected:
                    return [Reply(OUT_OF_DATE, private=True)]
            try:
                return await work()
            except Refusal as refusal:
                return [Reply(refusal.text, private=True)]
            except Announcement as announcement:
                return [Reply(announcement.text)]
            except (MatchError, MoveError) as error:
                return [Reply(_sentence(str(error)), private=True)]
            except StaleMatchError as error:
                if error.match_id is not None:
                    self._matches.pop(error.match_id, None)
                return [
                    Reply(
                        "The game changed while your command ran: nothing was done. "
                        "Look at the board and try again.",
                        private=True,
                    )
                ]

    @property
    def prefix(self) -> str:
        return self.settings.command_prefix

    async def _names(self, place: Place, ids: tuple[str, str]) -> tuple[str, str]:
        names = []
        for user_id in ids:
            key = (place.server_id, user_id)
            name = self._name_cache.get(key)
            if name is None:
                player = await self.store.player(place.server_id, user_id)
                name = player.name if player else user_id
                self._cache_name(key, name)
            else:
                self._name_cache.move_to_end(key)
            names.append(name)
        return names[0], names[1]

    def _remember(self, place: Place, *users: User) -> None:
        for user in users:
            self._cache_name((place.server_id, user.id), user.name)

    def _cache_name(self, key: tuple[str, str], name: str) -> None:
        self._name_cache[key] = name
        self._name_cache.move_to_end(key)
        while len(self._name_cache) > NAMES_KEPT:
            self._name_cache.popitem(last=False)

    async def _load_match(self, row: MatchRow) -> Match:
        """The match a row holds: replayed from its record, or the copy kept from the last
        command when the row has not changed since (the store stays the truth)."""
        cached = self._matches.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._matches.move_to_end(row.id)
            return cached[1]
        match = Match.from_data(json.loads(row.state), dice_key=self._dice_key)
        self._keep(row.id, row.version, match)
        return match

    def _keep(self, match_id: int, version: int, match: Match) -> None:
        self._matches[match_id] = (version, match)
        self._matches.move_to_end(match_id)
        while len(self._matches) > MATCHES_KEPT:
            self._matches.popitem(last=False)

    async def _table(
        self, place: Place, *, latest: bool = False, repair: bool = True
    ) -> Table | None:
        """The channel's match. One that no longer replays (a damaged row, an engine change)
        is voided when ``repair`` (only under the channel's lock), else taken as absent."""
        row = await (self.store.latest_match if latest else self.store.playing_match)(
            place.server_id, place.channel_id
        )
        if row is None:
            return None
        plain = await self._names(place, row.player_ids)
        names = (md(plain[0]), md(plain[1]))
        if row.ending == "unreadable":
            raise Refusal(
                f"The last match here, {names[0]} vs {names[1]}, is void: its record was damaged."
            )
        try:
            match = await self._load_match(row)
        except Exception:  # anything the replay of a stored record can raise
            error_id = uuid.uuid4().hex[:8]
            log.exception("Error %s: match %s (%s) does not replay", error_id, row.id, place)
            if row.status == "playing" and repair:
                await self._void_unreadable(row)
                raise Announcement(
                    f"The match between {names[0]} and {names[1]} could not be restored from "
                    f"the database (error {error_id}), so it is void: unrated, and the table "
                    f"is free. Sorry! Start again with `{self.prefix}challenge @user`."
                ) from None
            if row.status == "playing":
                return None
            raise Refusal(
                f"The last match here can't be shown: its record is damaged (error {error_id})."
            ) from None
        return Table(row, match, plain)

    async def _void_unreadable(self, row: MatchRow) -> None:
        async with self.store.transaction() as tx:
            await tx.save_match(
                row.id,
                row.version,
                state=row.state,
                status="aborted",
                now=self._clock(),
                ending="unreadable",
            )
        self._matches.pop(row.id, None)

    async def _require_table(self, place: Place, *, latest: bool = False) -> Table:
        """The match being played here (or, with ``latest``, the last one, even if over)."""
        table = await self._table(place, latest=latest)
        if table is None:
            if latest:
                raise Refusal("No match has been played at this table yet.")
            raise Refusal(
                f"There is no match at this table. Start one with `{self.prefix}challenge @user`."
            )
        return table

    def _seat(self, table: Table, user: User) -> int:
        seat = table.seat(user)
        if seat is None:
            raise Refusal(
                f"Only {table.names[0]} and {table.names[1]} play at this table; "
                "you can watch, or start your own match in another channel."
            )
        return seat

    def _advance(self, match: Match, events: list[Event]) -> Match:
        """Roll for a player who has no choice but to roll (no cube to turn)."""
        for _ in range(AUTO_STEPS):
            if match.phase != "roll" or match.can_double(match.on_roll):
                break
            match = match.roll(match.on_roll)
            events.extend(match.events)
        return match

    async def _save(
        self,
        place: Place,
        table: Table,
        match: Match,
        *,
        touch: bool = True,
        abort_offered_by: int | None = None,
    ) -> Table:
        now = self._clock()
        status = "finished" if match.is_over else "playing"
        async with self.store.transaction() as tx:
            version = await tx.save_match(
                table.row.id,
                table.row.version,
                state=json.dumps(match.to_data()),
                status=status,
                now=now,
                winner=match.winner,
                ending="played" if match.is_over else None,
                abort_offered_by=abort_offered_by,
                touch=touch,
            )
            if match.is_over and match.winner is not None and match.length > 0:
                await self._rate(tx, place, table, match.winner, table.row.id, match.length)
        self._keep(table.row.id, version, match)
        row = replace(
            table.row,
            version=version,
            status=status,
            winner=match.winner,
            ending="played" if match.is_over else None,
            abort_offered_by=abort_offered_by,
            last_action_at=now if touch else table.row.last_action_at,
        )
        return Table(row, match, table.plain)

    async def _rate(
        self, tx: Transaction, place: Place, table: Table, winner: int, match_id: int, length: int
    ) -> None:
        ids = table.row.player_ids
        win = await tx.player(place.server_id, ids[winner])
        lose = await tx.player(place.server_id, ids[1 - winner])
        assert win is not None and lose is not None  # matches reference their players
        change = rate_match((win.rating, win.experience), (lose.rating, lose.experience), length)
        await tx.record_rating(match_id, place.server_id, win.user_id, win, change.winner_rating)
        await tx.record_rating(match_id, place.server_id, lose.user_id, lose, change.loser_rating)
        await tx.update_player_result(
            place.server_id,
            win.user_id,
            rating=change.winner_rating,
            experience=change.winner_experience,
            won=True,
        )
        await tx.update_player_result(
            place.server_id,
            lose.user_id,
            rating=change.loser_rating,
            experience=change.loser_experience,
            won=False,
        )

    # -- replies ------------------------------------------------------------------------------

    async def board_image(self, table: Table, viewer: int | None) -> bytes | None:
        """The board PNG, drawn in a worker thread (Pillow lets go of the GIL while it
        quantises and compresses), or None when images are off."""
        if not self._images:
            return None
        state = board_state(table.match, table.plain)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._renderer, functools.partial(render_board, state, viewer=viewer)
        )

    async def _status(self, table: Table, events: list[Event], *, lead: str = "") -> Reply:
        """The message after a change: what happened, the board, who must do what now."""
        match, names = table.match, table.names
        lines = [lead] if lead else []
        money = match.length == 0
        lines += [text for text in (describe(e, names, money=money) for e in events) if text]
        prompt, decision = self._prompt(table)
        lines.append(prompt)
        turn = match.turn
        ids = table.row.player_ids
        viewer = turn if turn is not None else match.winner
        return Reply(
            "\n".join(lines),
            image=await self.board_image(table, viewer),
            mention=(ids[turn],) if turn is not None else (),
            decision=decision,
            decision_for=ids[turn] if turn is not None and decision else None,
            decision_key=match_key(table) if decision else None,
            money_game=match.length == 0 and match.options.beavers,
            board_viewer=viewer if viewer is not None else match.on_roll,
            announces=(table.row.id, table.row.version),
        )

    def _prompt(self, table: Table) -> tuple[str, Decision | None]:
        match, names, p = table.match, table.names, self.prefix
        if match.phase == "over":
            winner = match.winner
            assert winner is not None
            if match.length == 0:
                won = points_text(match.score[winner])
                result = f"{names[winner]} wins the money game: {won}."
            else:
                result = (
                    f"{names[winner]} wins {match_kind(match.length)} "
                    f"{match.score[winner]}-{match.score[1 - winner]}."
                )
            return f"{result} `{p}export` shows the record and the dice seed.", None
        turn = match.turn
        assert turn is not None
        who = names[turn]
        if match.phase == "roll":
            return f"{who}: `{p}roll` or `{p}double`.", Decision.TURN
        if match.phase == "move":
            assert match.dice is not None
            return (
                f"{who} to move {dice_text(match.dice)}: `{p}move <play>`, e.g. "
                f"`{p}move {match.legal_plays()[0].notation}`.",
                None,
            )
        if match.phase == "doubled":
            answers = f"`{p}take` or `{p}drop`"
            if match.length == 0 and match.options.beavers:
                answers = f"`{p}take`, `{p}drop` or `{p}beaver`"
            return f"{who}: {answers} (the cube would be {match.offered_cube}).", Decision.DOUBLE
        return f"{who}: `{p}accept` or `{p}reject` the resignation.", Decision.RESIGNATION

    # -- challenges ---------------------------------------------------------------------------

    async def _open_challenge(self, place: Place, *, expire: bool = True) -> ChallengeRow | None:
        """The channel's open challenge. One past its time is closed as expired when
        ``expire`` (only under the channel's lock); either way it is not returned."""
        challenge = await self.store.open_challenge(place.server_id, place.channel_id)
        if challenge is not None and challenge.expires_at <= self._clock():
            if expire:
                async with self.store.transaction() as tx:
                    await tx.expire_challenge(challenge.id)
            return None
        return challenge

    async def _no_challenge(self, place: Place, verb: str) -> Refusal:
        """Why there is no challenge to ``verb``: it expired, or there never was one."""
        last = await self.store.latest_challenge(place.server_id, place.channel_id)
        match = await self.store.latest_match(place.server_id, place.channel_id)
        expired = last is not None and last.status == "expired"
        if last is not None and expired and (match is None or match.created_at < last.created_at):
            names = [
                md(name)
                for name in await self._names(place, (last.challenger_id, last.challenged_id))
            ]
            ago = _duration(self._clock() - last.expires_at)
            minutes = self.settings.challenge_timeout_minutes
            return Refusal(
                f"{names[0]}'s challenge to {names[1]} expired {ago} ago (challenges "
                f"last {minutes:g} minutes): `{self.prefix}challenge @user` to start again."
            )
        return Refusal(
            f"There is no challenge here to {verb}. Start one with `{self.prefix}challenge @user`."
        )

    async def challenge(
        self, place: Place, user: User, opponent: User, length: str | int | None = None
    ) -> list[Reply]:
        async def work() -> list[Reply]:
            points, options = self._parse_terms(length)
            if opponent.id == user.id:
                raise Refusal(
                    "You can't challenge yourself: name someone else, "
                    f"e.g. `{self.prefix}challenge @friend`."
                )
            if await self._table(place) is not None:
                raise Refusal(
                    "A match is already being played here: one match per channel. "
                    "Use another channel or thread."
                )
            existing = await self._open_challenge(place)
            if existing is not None:
                raise Refusal(
                    "There is already an open challenge here: it must be answered, "
                    f"cancelled (`{self.prefix}cancel`) or expire first."
                )
            now = self._clock()
            minutes = self.settings.challenge_timeout_minutes
            async with self.store.transaction() as tx:
                await tx.ensure_player(place.server_id, user.id, user.name, now)
                await tx.ensure_player(place.server_id, opponent.id, opponent.name, now)
                challenge_id = await tx.create_challenge(
                    place.server_id,
                    place.channel_id,
                    user.id,
                    opponent.id,
                    points,
                    now,
                    now + minutes * 60,
                    json.dumps(options),
                )
            self._remember(place, user, opponent)
            return [
                Reply(
                    f"{md(user.name)} challenges {md(opponent.name)} to "
                    f"{match_kind(points)}{options_text(options)}. "
                    f"{md(opponent.name)}: `{self.prefix}accept` or `{self.prefix}decline` "
                    f"(expires in {minutes:g} minutes).",
                    mention=(opponent.id,),
                    decision=Decision.CHALLENGE,
                    decision_for=opponent.id,
                    decision_key=challenge_key(challenge_id),
                )
            ]

        return await self._guarded(place, work)

    def _parse_terms(self, terms: str | int | None) -> tuple[int, dict[str, Any]]:
        """Match length (0 = money) and money-game options from what the challenger typed:
        ``5``, ``5 points``, ``money jacoby beavers auto 2``."""
        if terms is None or isinstance(terms, int):
            return self._parse_length(terms), {}
        words = _LENGTH_WORDS.sub(r"\1 ", typed(terms).lower().replace(",", " ")).split()
        if words and words[0].isdigit() and len(words) > 1 and words[1] in _POINT_WORDS:
            words.pop(1)  # "3 points"
        if not words:
            return self._parse_length(None), {}
        first, extras = (words[0], words[1:]) if words[0] not in MONEY_OPTIONS else (None, words)
        options = self._parse_options(extras)
        length = self._parse_length(first)
        if options and length:
            raise Refusal(
                "Jacoby, beavers and automatic doubles are for money games: "
                f"`{self.prefix}challenge @user money jacoby beavers`."
            )
        return length, options

    def _parse_options(self, words: list[str]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if word not in MONEY_OPTIONS:
                raise Refusal(
                    f"{_quote(word)} is not a match option: after `money` you may add "
                    "`jacoby`, `beavers` and `auto` (automatic doubles)."
                )
            name, value = MONEY_OPTIONS[word]
            if name == "automatic_doubles" and index < len(words) and words[index].isdigit():
                value = int(words[index])
                index += 1
                if not 1 <= value <= MAX_AUTOMATIC_DOUBLES:
                    raise Refusal(
                        f"Automatic doubles: at most 1 to {MAX_AUTOMATIC_DOUBLES} per game, "
                        f"not {value}, e.g. `{self.prefix}challenge @user money auto 2`."
                    )
            options[name] = value
        return options

    def _parse_length(self, length: str | int | None) -> int:
        if length is None or (isinstance(length, str) and not length.strip()):
            return self.settings.default_match_length
        if isinstance(length, str):
            word = typed(length).lower()
            if word in ("money", "m"):
                return 0
            if not word.isdigit():
                raise Refusal(
                    f"{_quote(length)} is not a match length: give a number of points "
                    f"(1-{MAX_MATCH_LENGTH}) or `money`."
                )
            length = int(word)
        if not 1 <= length <= MAX_MATCH_LENGTH:
            raise Refusal(
                f"A match is 1 to {MAX_MATCH_LENGTH} points, not {length}; for a money game "
                f"say `money`, e.g. `{self.prefix}challenge @user money`."
            )
        return length

    async def accept(self, place: Place, user: User) -> list[Reply]:
        """Accept the challenge offered to ``user``, or the resignation offered to them."""

        async def work() -> list[Reply]:
            table = await self._table(place)
            if table is not None:
                seat = self._seat(table, user)
                if table.match.phase != "resigned":
                    raise Refusal("There is nothing to accept: no resignation is offered.")
                return await self._act(place, table, seat, lambda m: m.accept_resignation(seat))
            challenge = await self._open_challenge(place)
            if challenge is None:
                raise await self._no_challenge(place, "accept")
            if challenge.challenged_id != user.id:
                challenged = md((await self._names(place, (challenge.challenged_id,) * 2))[0])
                raise Refusal(f"This challenge is for {challenged}; only they can accept it.")
            match = Match.start(
                challenge.match_length, dice=self._dice(), **json.loads(challenge.options)
            )
            events = list(match.record)
            match = self._advance(match, events)
            now = self._clock()
            ids = (challenge.challenger_id, challenge.challenged_id)
            async with self.store.transaction() as tx:
                await tx.ensure_player(place.server_id, user.id, user.name, now)
                await tx.close_challenge(challenge.id, "accepted")
                match_id = await tx.create_match(
                    place.server_id,
                    place.channel_id,
                    ids,
                    challenge.match_length,
                    json.dumps(match.to_data()),
                    now,
                )
            self._remember(place, user)
            row = await self.store.match(match_id)
            assert row is not None
            self._keep(match_id, row.version, match)
            table = Table(row, match, await self._names(place, ids))
            lead = (
                f"{table.names[1]} accepts: {table.names[0]} vs {table.names[1]}, "
                f"{match_kind(match.length)}{options_text(match.options.to_data())}. "
                "Dice commitment (SHA-256 of the secret seed, "
                f"revealed at the end): `{match.commitment}`"
            )
            return [await self._status(table, events, lead=lead)]

        return await self._guarded(place, work)

    async def decline(self, place: Place, user: User) -> list[Reply]:
        return await self._close_challenge(place, user, status="declined")

    async def cancel(self, place: Place, user: User) -> list[Reply]:
        return await self._close_challenge(place, user, status="cancelled")

    async def _close_challenge(self, place: Place, user: User, *, status: str) -> list[Reply]:
        """The challenged player declines, or the challenger cancels."""
        declining = status == "declined"

        async def work() -> list[Reply]:
            challenge = await self._open_challenge(place)
            if challenge is None:
                raise await self._no_challenge(place, "decline" if declining else "cancel")
            allowed = challenge.challenged_id if declining else challenge.challenger_id
            if allowed != user.id:
                if declining:
                    raise Refusal(
                        "Only the challenged player can decline; the challenger can "
                        f"`{self.prefix}cancel`."
                    )
                raise Refusal(
                    "Only the challenger can cancel a challenge; the challenged "
                    f"player can `{self.prefix}decline`."
                )
            async with self.store.transaction() as tx:
                await tx.close_challenge(challenge.id, status)
            said = "declines" if declining else "withdraws"
            return [Reply(f"{md(user.name)} {said} the challenge.")]

        return await self._guarded(place, work)

    # -- play ---------------------------------------------------------------------------------

    async def _act(
        self, place: Place, table: Table, seat: int, action: Callable[[Match], Match]
    ) -> list[Reply]:
        match = action(table.match)
        events = list(match.events)
        match = self._advance(match, events)
        offered = table.row.abort_offered_by
        lead = ""
        if offered is not None:  # any action withdraws a request to abort: say so
            asker, actor = table.names[offered], table.names[seat]
            lead = (
                f"{asker}'s request to abort lapses: they played on."
                if offered == seat
                else f"{actor} plays on instead of agreeing to abort: {asker}'s request lapses."
            )
        table = await self._save(place, table, match)
        return [await self._status(table, events, lead=lead)]

    def _check_turn(self, table: Table, seat: int, doing: str) -> None:
        match = table.match
        if match.turn is not None and match.turn != seat:
            other = table.names[match.turn]
            waiting = {
                "roll": "to roll or double",
                "move": "to move",
                "doubled": "to answer the double",
                "resigned": "to answer the resignation",
            }[match.phase]
            raise Refusal(f"It's not your turn to {doing}: waiting for {other} {waiting}.")

    async def _player_action(
        self, place: Place, user: User, doing: str, action: Callable[[Match, int], Match]
    ) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place)
            seat = self._seat(table, user)
            self._check_turn(table, seat, doing)
            return await self._act(place, table, seat, lambda match: action(match, seat))

        return await self._guarded(place, work)

    async def roll(self, place: Place, user: User) -> list[Reply]:
        return await self._player_action(place, user, "roll", lambda m, s: m.roll(s))

    async def move(self, place: Place, user: User, play: str) -> list[Reply]:
        play = typed(play)
        if not play:
            return [Reply(f"Say which play, e.g. `{self.prefix}move 13/7 8/7`.", private=True)]
        return await self._player_action(place, user, "move", lambda m, s: m.move(s, play))

    async def double(self, place: Place, user: User) -> list[Reply]:
        return await self._player_action(place, user, "double", lambda m, s: m.double(s))

    async def take(self, place: Place, user: User) -> list[Reply]:
        return await self._player_action(place, user, "take", lambda m, s: m.take(s))

    async def drop(self, place: Place, user: User) -> list[Reply]:
        return await self._player_action(place, user, "drop", lambda m, s: m.drop(s))

    async def beaver(self, place: Place, user: User) -> list[Reply]:
        return await self._player_action(place, user, "beaver", lambda m, s: m.beaver(s))

    async def resign(self, place: Place, user: User, level: str | None = None) -> list[Reply]:
        word = typed(level or "single").lower()
        if word not in RESIGN_LEVELS:
            return [
                Reply(
                    f"{_quote(level or '')} is not a resignation: say `single`, `gammon` or "
                    f"`backgammon`, e.g. `{self.prefix}resign gammon`.",
                    private=True,
                )
            ]
        return await self._player_action(
            place, user, "resign", lambda m, s: m.resign(s, RESIGN_LEVELS[word])
        )

    async def reject(self, place: Place, user: User) -> list[Reply]:
        return await self._player_action(
            place, user, "reject", lambda m, s: m.reject_resignation(s)
        )

    # -- looking ------------------------------------------------------------------------------

    async def board(self, place: Place, user: User) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place, latest=True)
            seat = table.seat(user)
            viewer = seat if seat is not None else table.match.on_roll
            prompt, _ = self._prompt(table)
            text = f"{score_text(table.match, table.names)}\n{prompt}"
            if table.row.status != "playing":
                text = f"{self._ending_text(table)}\n{score_text(table.match, table.names)}"
            shows = (table.row.id, table.row.version) if table.row.status == "playing" else None
            return [
                Reply(
                    text,
                    image=await self.board_image(table, viewer),
                    board_viewer=viewer,
                    announces=shows,
                )
            ]

        return await self._guarded(place, work)

    def _ending_text(self, table: Table) -> str:
        names, row = table.names, table.row
        if row.status == "aborted":
            how = {"voided": "voided by a moderator", "unreadable": "void (its record was damaged)"}
            return (
                f"The match between {names[0]} and {names[1]} was "
                f"{how.get(row.ending or '', 'aborted')} (unrated)."
            )
        if row.ending == "claimed" and row.winner is not None:
            return f"{names[row.winner]} won the match by claim (the opponent timed out)."
        if row.winner is not None and table.match.length == 0:
            won = points_text(table.match.score[row.winner])
            return f"{names[row.winner]} won the money game: {won}."
        if row.winner is not None:
            return f"{names[row.winner]} won the match."
        return "The match is over."

    async def pips(self, place: Place, user: User) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place)
            pips = table.match.pip_counts()
            names = table.names
            return [
                Reply(f"Pips: {names[0]} {pips[0]}, {names[1]} {pips[1]} ({_lead(names, pips)}).")
            ]

        return await self._guarded(place, work)

    async def score(self, place: Place, user: User) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place)
            match, names = table.match, table.names
            owner = "centred" if match.cube_owner is None else f"{names[match.cube_owner]}'s"
            return [
                Reply(
                    f"{score_text(match, names)}. Game {match.game_number}; "
                    f"cube {match.cube_value}, {owner}."
                )
            ]

        return await self._guarded(place, work)

    async def export(self, place: Place, user: User) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place, latest=True)
            match = table.match
            lines = [
                f"GNU Backgammon ID: `{match.position_id()}:{match.match_id()}` "
                "(Position ID:Match ID)",
                f"Dice commitment: `{match.commitment}`",
            ]
            attachment = None
            if table.row.status == "playing":
                lines.append("The `.mat` record and the dice seed come when the match ends.")
            else:
                seed = match.dice_source.reveal()
                lines.append(
                    f"Dice seed: `{seed}`; the match used dice 0-{match.dice_used - 1} "
                    "(the README shows how to check every roll)"
                )
                mat = match.to_mat(table.plain)
                attachment = Attachment(f"match-{table.row.id}.mat", mat.encode("utf-8"))
            return [Reply("\n".join(lines), file=attachment)]

        return await self._guarded(place, work)

    # -- ending early -------------------------------------------------------------------------

    async def abort(self, place: Place, user: User) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place)
            seat = self._seat(table, user)
            offered = table.row.abort_offered_by
            if offered == seat:
                raise Refusal(
                    f"You asked to abort already; waiting for "
                    f"{table.names[1 - seat]} to type `{self.prefix}abort` too."
                )
            if offered is None:
                saved = await self._save(
                    place, table, table.match, touch=False, abort_offered_by=seat
                )
                other = table.row.player_ids[1 - seat]
                return [
                    Reply(
                        f"{md(user.name)} asks to abort the match (unrated). "
                        f"{table.names[1 - seat]}: `{self.prefix}abort` to agree.",
                        mention=(other,),
                        announces=(saved.row.id, saved.row.version),
                    )
                ]
            await self._end_unrated(table, "aborted")
            return [
                Reply(f"Match aborted by agreement: {table.names[0]} vs {table.names[1]}, unrated.")
            ]

        return await self._guarded(place, work)

    async def _end_unrated(self, table: Table, ending: str) -> None:
        async with self.store.transaction() as tx:
            await tx.save_match(
                table.row.id,
                table.row.version,
                state=table.row.state,
                status="aborted",
                now=self._clock(),
                ending=ending,
            )
        self._matches.pop(table.row.id, None)

    async def _told_since(self, table: Table) -> float | None:
        """Since when the players have been shown the match as it stands: its last action, or
        later if the message showing it went out later; None if it never went out. A match
        nobody records the showing of (no adapter does) counts as shown at its last action."""
        shown = await self.store.announcement(table.row.id)
        last = table.row.last_action_at
        if shown is None:
            return last
        version, shown_at = shown
        if version < table.row.version:
            return None
        return max(last, shown_at)

    async def void(self, place: Place, user: User, *, moderator: bool) -> list[Reply]:
        """A moderator ends the channel's match, unrated (a stuck or abandoned one)."""

        async def work() -> list[Reply]:
            if not moderator:
                raise Refusal(
                    "Only moderators (Manage Messages in this channel) can void a match; "
                    f"the players can end it together with `{self.prefix}abort`."
                )
            table = await self._require_table(place)
            await self._end_unrated(table, "voided")
            names = table.names
            return [
                Reply(
                    f"{md(user.name)} voided the match between {names[0]} and {names[1]}: "
                    "unrated, and the table is free."
                )
            ]

        return await self._guarded(place, work)

    async def claim(self, place: Place, user: User) -> list[Reply]:
        async def work() -> list[Reply]:
            table = await self._require_table(place)
            seat = self._seat(table, user)
            match = table.match
            if match.turn == seat:
                raise Refusal("It's your own turn: you can't claim while the table waits for you.")
            since = await self._told_since(table)
            if since is None:
                raise Refusal(
                    f"{table.names[1 - seat]} hasn't been shown the game as it stands: the bot "
                    f"couldn't post it. `{self.prefix}board` shows it, and the claim clock "
                    "starts then."
                )
            idle = self._clock() - since
            limit = self.settings.claim_timeout_hours * 3600
            if idle < limit:
                left = _duration(limit - idle)
                raise Refusal(
                    f"{table.names[1 - seat]} has {left} left to act before you can "
                    "claim the match."
                )
            now = self._clock()
            async with self.store.transaction() as tx:
                await tx.save_match(
                    table.row.id,
                    table.row.version,
                    state=table.row.state,
                    status="finished",
                    now=now,
                    winner=seat,
                    ending="claimed",
                )
                if match.length > 0:
                    await self._rate(tx, place, table, seat, table.row.id, match.length)
            self._matches.pop(table.row.id, None)
            return [
                Reply(
                    f"{md(user.name)} claims the match: {table.names[1 - seat]} has not "
                    f"acted for {_duration(idle)}. {md(user.name)} wins"
                    f"{' (rated)' if match.length > 0 else ''}."
                )
            ]

        return await self._guarded(place, work)

    # -- the server ---------------------------------------------------------------------------

    async def leaderboard(self, place: Place, user: User) -> list[Reply]:
        top = await self.store.leaderboard(place.server_id, 10)
        if not top:
            return [
                Reply(
                    "No rated matches on this server yet: `"
                    f"{self.prefix}challenge @user` to play one."
                )
            ]
        lines = ["**Leaderboard** (FIBS ratings)"]
        for rank, player in enumerate(top, start=1):
            lines.append(
                f"{rank}. {md(player.name)} {player.rating:.1f} "
                f"({player.wins} won, {player.losses} lost)"
            )
        mine = await self.store.rank(place.server_id, user.id)
        if mine is None:
            lines.append(f"{md(user.name)}: not ranked yet (finish a rated match).")
        else:
            lines.append(f"{md(user.name)}: #{mine[0]} of {mine[1]}.")
        return [Reply("\n".join(lines))]

    async def stats(self, place: Place, user: User, target: User | None = None) -> list[Reply]:
        who = target or user
        player = await self.store.player(place.server_id, who.id)
        if player is None:
            return [Reply(f"{md(who.name)} has not played here yet.")]
        rank = await self.store.rank(place.server_id, who.id)
        counts = await self.store.match_counts(place.server_id, who.id)
        ranked = f"#{rank[0]} of {rank[1]}" if rank else "unranked"
        return [
            Reply(
                f"{md(player.name)}: rating {player.rating:.1f} ({ranked}), experience "
                f"{player.experience}; rated matches {player.wins} won, {player.losses} "
                f"lost; {counts.get('playing', 0)} playing, {counts.get('aborted', 0)} "
                "aborted."
            )
        ]

    async def help(self, place: Place, user: User, topic: str | None = None) -> list[Reply]:
        try:
            return [Reply(help_text(self.settings, typed(topic) if topic else None))]
        except KeyError:
            return [
                Reply(
                    f"There is no command {_quote(topic or '')}. `{self.prefix}help` lists "
                    "them all.",
                    private=True,
                )
            ]

    # -- state for adapters -------------------------------------------------------------------

    async def game_view(self, place: Place) -> dict[str, Any] | None:
        """The channel's match (or open challenge) as plain data, for the console's JSON."""
        table = await self._table(place, latest=True, repair=False)
        challenge = await self.store.open_challenge(place.server_id, place.channel_id)
        if challenge is not None and (
            table is None or challenge.created_at >= table.row.created_at
        ):
            names = await self._names(place, (challenge.challenger_id, challenge.challenged_id))
            return {
                "players": list(names),
                "match_length": challenge.match_length,
                "score": [0, 0],
                "crawford": False,
                "game_number": 0,
                "phase": "challenged",
                "turn": names[1],
                "dice": None,
                "cube": 1,
                "cube_owner": None,
                "position_id": None,
                "match_id": None,
                "winner": None,
            }
        if table is None:
            return None
        return game_data(table)

    async def table(self, place: Place) -> Table | None:
        """The channel's match as it stands (None when no match is being played)."""
        return await self._table(place, repair=False)

    async def latest_table(self, place: Place) -> Table | None:
        return await self._table(place, latest=True, repair=False)

    async def open_challenge(self, place: Place) -> ChallengeRow | None:
        return await self.store.open_challenge(place.server_id, place.channel_id)

    async def answer(
        self, place: Place, user: User, key: str, command: Command
    ) -> list[Reply]:
        """Run ``command`` as the answer to question ``key`` (a button's), only if the table
        still waits on that very question when the command holds the channel's lock."""
        token = _ANSWERING.set(key)
        try:
            return await command(place, user)
        finally:
            _ANSWERING.reset(token)

    async def pending_decision(self, place: Place) -> Pending | None:
        """The question the table waits on now, or None. Buttons use it to tell a stale
        press (its key no longer matches) or the wrong player."""
        table = await self._table(place, repair=False)
        if table is not None:
            match = table.match
            turn = match.turn
            kinds = {
                "roll": Decision.TURN,
                "doubled": Decision.DOUBLE,
                "resigned": Decision.RESIGNATION,
            }
            if turn is None or match.phase not in kinds:
                return None
            ids = table.row.player_ids
            return Pending(kinds[match.phase], ids[turn], table.names[turn], match_key(table))
        challenge = await self._open_challenge(place, expire=False)
        if challenge is None:
            return None
        name = md((await self._names(place, (challenge.challenged_id,) * 2))[0])
        return Pending(
            Decision.CHALLENGE, challenge.challenged_id, name, challenge_key(challenge.id)
        )

    # -- rate limits and announcements (for the Discord layer) --------------------------------

    async def seated(self, place: Place) -> frozenset[str]:
        """Ids of the players of the channel's match and of its open challenge (one read)."""
        return await self.store.seated(place.server_id, place.channel_id, self._clock())

    async def unannounced(self) -> list[tuple[Place, int, int]]:
        """(place, match id, version) of each match whose newest state was never shown."""
        return [
            (Place(row.server_id, row.channel_id), row.id, row.version)
            for row in await self.store.unannounced()
        ]

    async def current_status(self, place: Place) -> list[Reply]:
        """The status message of the channel's match as it stands (none without a match)."""
        async with self._locked(place):
            table = await self._table(place, repair=False)
            return [] if table is None else [await self._status(table, [])]

    async def mark_announced(self, match_id: int, version: int) -> None:
        """Version ``version`` of the match was shown in its channel."""
        async with self.store.transaction() as tx:
            await tx.mark_announced(match_id, version, self._clock())

    # -- text commands (the console, and anything else that has only text) --------------------

    async def run(self, place: Place, user: User, text: str, *, users: UserLookup) -> list[Reply]:
        """Carry out one typed command, e.g. ``!move 13/7 8/7``; ``users`` resolves ``@name``."""
        body = typed(text)
        if not body.startswith(self.prefix):
            return []
        words = body[len(self.prefix) :].split(maxsplit=1)
        if not words:
            return [Reply(f"Type `{self.prefix}help` for the commands.", private=True)]
        name = words[0].lower()
        command = COMMANDS.find(name)
        if command is None:
            return unknown_command(self.prefix, name)
        typed_after = words[1] if len(words) > 1 else ""
        try:
            arguments = read_arguments(command, typed_after, users, self.prefix)
        except Refusal as refusal:
            return [Reply(refusal.text, private=True)]
        handler: Callable[..., Awaitable[list[Reply]]] = getattr(self, command.method)
        if command.moderator:  # the console's user is the operator of the bot: a moderator
            return await handler(place, user, *arguments, moderator=True)
        return await handler(place, user, *arguments)


def unknown_command(prefix: str, word: str) -> list[Reply]:
    """The answer to ``!word`` when it is no command: a hint for a near miss, else nothing (it
    is probably meant for another bot that shares the prefix)."""
    meant = suggest(word)
    if meant is None:
        return []
    return [
        Reply(
            f"Unknown command {_quote(prefix + word, 30)}. Did you mean `{prefix}{meant}`? "
            f"`{prefix}help` lists them all.",
            private=True,
        )
    ]

def match_key(table: Table) -> str:
    """The key of the decision a match waits on (see :class:`Pending`)."""
    return f"m{table.row.id}.{len(table.match.actions)}"


def challenge_key(challenge_id: int) -> str:
    return f"c{challenge_id}"


def last_play(match: Match) -> LastPlay | None:
    """The latest play of the current game, for the board to mark."""
    for event in reversed(match.record):
        if isinstance(event, GameStarted):
            return None
        if isinstance(event, Moved) and event.steps:
            recorded = RecordedPlay(event.dice, event.play, event.steps, event.hits)
            return LastPlay(event.player, recorded)
    return None


def board_state(match: Match, names: tuple[str, str]) -> BoardState:
    # Imported here so that this function's change stays within it.
    from bot.engine.match import MAX_CUBE
    from bot.service.names import clean_name

    winner = match.winner
    last = match.games[-1] if match.phase == "over" and match.games else None
    if last is not None:
        winner = last.winner
    return BoardState(
        position=match.position,
        on_roll=match.on_roll,
        players=(clean_name(names[0]), clean_name(names[1])),
        match_length=match.length,
        score=match.score,
        crawford=match.crawford,
        cube_value=match.cube_value,
        cube_owner=match.cube_owner,
        dice=match.dice,
        phase=match.phase,
        winner=winner,
        last_play=last_play(match),
        resignation=match.resignation if match.phase == "resigned" else 0,
        beavers=match.options.beavers and match.cube_value * 4 <= MAX_CUBE,
        result=None if last is None else "single" if last.jacoby else last.result,
        points=0 if last is None else last.points,
    )


def text_board(table: Table, viewer: int) -> str:
    """The ASCII board from ``viewer``'s side, with who is who."""
    match, names = table.match, table.plain
    position = match.position if viewer == match.on_roll else match.position.swapped()
    return f"{position}\n X = {names[viewer]}, O = {names[1 - viewer]}"


def game_data(table: Table) -> dict[str, Any]:
    match, names, row = table.match, table.plain, table.row
    turn = match.turn
    position = match.position if turn in (None, match.on_roll) else match.position.swapped()
    phase = match.phase
    winner = match.winner
    if row.status == "aborted":
        phase, turn = "over", None
    elif row.status == "finished":
        phase, turn, winner = "over", None, row.winner
    return {
        "players": list(names),
        "match_length": match.length,
        "score": list(match.score),
        "crawford": match.crawford,
        "game_number": match.game_number,
        "phase": phase,
        "turn": names[turn] if turn is not None else None,
        "dice": list(match.dice) if match.dice else None,
        "cube": match.cube_value,
        "cube_owner": names[match.cube_owner] if match.cube_owner is not None else None,
        "position_id": position.position_id(),
        "match_id": match.match_id(),
        "winner": names[winner] if winner is not None else None,
    }


def typed(text: str) -> str:
    """What a player typed, as the bot reads it: NFKC-normalised (full-width digits and
    slashes become ASCII ones) and trimmed."""
    return unicodedata.normalize("NFKC", text).strip()


def _quote(text: str, limit: int = 40) -> str:
    """A short excerpt of what someone typed, quoted (never the whole of a long paste)."""
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _lead(names: tuple[str, str], pips: tuple[int, int]) -> str:
    """Who leads the race: fewer pips is ahead."""
    if pips[0] == pips[1]:
        return "even"
    ahead = 0 if pips[0] < pips[1] else 1
    return f"{names[ahead]} leads by {abs(pips[0] - pips[1])}"


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{max(minutes, 1)} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
