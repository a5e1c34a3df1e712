"""Ending a match early: an abort both players agree to, a claim against a player who stopped
acting, and a moderator's void."""

from __future__ import annotations

from collections.abc import Callable

from bot.service.durations import countdown
from bot.service.models import ENGINE_ID, Place, Refusal, Reply, User
from bot.service.names import markdown_safe as md
from bot.service.repository import Repository, Table, require_seat
from bot.settings import Settings
from bot.store import Store


class Administration:
    """The commands that end a match early. Each runs under the channel's lock (the facade's)."""

    def __init__(
        self,
        store: Store,
        repository: Repository,
        settings: Settings,
        clock: Callable[[], float],
    ) -> None:
        self._store = store
        self._repository = repository
        self._settings = settings
        self._clock = clock

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def abort(self, place: Place, user: User) -> list[Reply]:
        table = await self._repository.require(place)
        seat = require_seat(table, user)
        offered = table.row.abort_offered_by
        if table.row.player_ids[1 - seat] == ENGINE_ID:
            offered = 1 - seat  # GNU Backgammon agrees at once
        if offered == seat:
            raise Refusal(
                f"You asked to abort already; waiting for "
                f"{table.names[1 - seat]} to type `{self._prefix}abort` too."
            )
        if offered is None:
            saved = await self._repository.save(
                table, table.match, touch=False, abort_offered_by=seat
            )
            other = table.row.player_ids[1 - seat]
            return [
                Reply(
                    f"{md(user.name)} asks to abort the match (unrated). "
                    f"{table.names[1 - seat]}: `{self._prefix}abort` to agree.",
                    mention=(other,),
                    announces=(saved.row.id, saved.row.version),
                )
            ]
        await self._repository.end(table, status="aborted", ending="aborted")
        return [
            Reply(f"Match aborted by agreement: {table.names[0]} vs {table.names[1]}, unrated.")
        ]

    async def void(self, place: Place, user: User, *, moderator: bool) -> list[Reply]:
        """A moderator ends the channel's match, unrated (a stuck or abandoned one)."""
        if not moderator:
            raise Refusal(
                "Only moderators (Manage Messages in this channel) can void a match; "
                f"the players can end it together with `{self._prefix}abort`."
            )
        table = await self._repository.require(place)
        await self._repository.end(table, status="aborted", ending="voided")
        names = table.names
        return [
            Reply(
                f"{md(user.name)} voided the match between {names[0]} and {names[1]}: "
                "unrated, and the table is free."
            )
        ]

    async def claim(self, place: Place, user: User) -> list[Reply]:
        table = await self._repository.require(place)
        seat = require_seat(table, user)
        match = table.match
        if match.turn == seat:
            raise Refusal("It's your own turn: you can't claim while the table waits for you.")
        since = await self._told_since(table)
        if since is None:
            raise Refusal(
                f"{table.names[1 - seat]} hasn't been shown the game as it stands: the bot "
                f"couldn't post it. `{self._prefix}board` shows it, and the claim clock "
                "starts then."
            )
        idle = self._clock() - since
        limit = self._settings.claim_timeout_hours * 3600
        if idle < limit:
            left = countdown(limit - idle)
            raise Refusal(
                f"{table.names[1 - seat]} has {left} left to act before you can claim the match."
            )
        await self._repository.end(table, status="finished", ending="claimed", winner=seat)
        return [
            Reply(
                f"{md(user.name)} claims the match: {table.names[1 - seat]} has not "
                f"acted for {countdown(idle)}. {md(user.name)} wins"
                f"{' (rated)' if match.length > 0 else ''}."
            )
        ]

    async def _told_since(self, table: Table) -> float | None:
        """Since when the players have been shown the match as it stands: its last action, or
        later if the message showing it went out later; None if it never went out. A match
        nobody records the showing of (no adapter does) counts as shown at its last action."""
        shown = await self._store.announcement(table.row.id)
        last = table.row.last_action_at
        if shown is None:
            return last
        version, shown_at = shown
        if version < table.row.version:
            return None
        return max(last, shown_at)
