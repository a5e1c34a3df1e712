"""Ending a match early: an abort both players agree to, a claim against a player who stopped
acting, and a moderator's void."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.gnubg.api import Engine, EngineFailure, EngineUnavailable, Query
from bot.i18n import play as say
from bot.i18n.core import Language
from bot.service.matches.presentation import ended_reply
from bot.service.matches.repository import DamagedMatch, Repository, Table, require_seat
from bot.service.models import ENGINE_ID, Place, Refusal, Reply, User
from bot.service.models import markdown_safe as md
from bot.service.records.durations import countdown
from bot.settings import Settings
from bot.store import Store


@dataclass(frozen=True, slots=True)
class ClaimChance:
    """GNU Backgammon's estimate, asked before the lock: the claimer's match-winning chance
    in match ``match_id`` as it stood at ``version``."""

    match_id: int
    version: int
    chance: float | None  # None: gnubg can't judge here (not installed): rated as a win


class Administration:
    """The commands that end a match early. Each runs under the channel's lock (the facade's)."""

    def __init__(
        self,
        store: Store,
        repository: Repository,
        settings: Settings,
        clock: Callable[[], float],
        engine: Engine,
    ) -> None:
        self._engine = engine
        self._store = store
        self._repository = repository
        self._settings = settings
        self._clock = clock

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def abort(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        table = await self._repository.require(place, user=user, language=language)
        if isinstance(table, DamagedMatch):
            return [table.reply(language)]
        seat = require_seat(table, user)
        offered = table.row.abort_offered_by
        if table.row.player_ids[1 - seat] == ENGINE_ID:
            offered = 1 - seat  # GNU Backgammon agrees at once
        if offered == seat:
            raise Refusal(
                say.ABORT_ASKED_ALREADY(language, other=table.names[1 - seat], prefix=self._prefix)
            )
        if offered is None:
            saved = await self._repository.save(
                table, table.match, touch=False, abort_offered_by=seat
            )
            other = table.row.player_ids[1 - seat]
            return [
                Reply(
                    say.ABORT_ASKS(
                        language,
                        who=md(user.name),
                        other=table.names[1 - seat],
                        prefix=self._prefix,
                    ),
                    mention=(other,),
                    announces=(saved.row.id, saved.row.version),
                )
            ]
        await self._repository.end(table, status="aborted", ending="aborted")
        return [Reply(say.ABORTED(language, first=table.names[0], second=table.names[1]))]

    async def void(self, place: Place, user: User, *, moderator: bool) -> list[Reply]:
        """A moderator ends the channel's match, unrated (a stuck or abandoned one)."""
        language = user.language
        if not moderator:
            raise Refusal(say.VOID_MODERATORS_ONLY(language, prefix=self._prefix))
        table = await self._repository.require(place, language=language)
        if isinstance(table, DamagedMatch):  # it can't be read: voided as it is
            await self._repository.void_damaged(table.row)
            names = table.names
            said = say.VOIDED_DAMAGED(language, who=md(user.name), first=names[0], second=names[1])
            return [Reply(said)]
        await self._repository.end(table, status="aborted", ending="voided")
        names = table.names
        return [Reply(say.VOIDED(language, who=md(user.name), first=names[0], second=names[1]))]

    async def claim_chance(self, place: Place, user: User) -> ClaimChance | None:
        """Without the channel's lock (gnubg may think a while): the claimer's chance to win the
        match from here, when the claim would succeed and it is rated by that chance (a rated
        match, gnubg available); else None (the claim itself then says why, or rates a win)."""
        table = await self._repository.table(place, repair=False)
        if table is None or not self._by_chance(table):
            return None
        seat = await self._claimable(table, user)
        language = user.language
        try:
            chance = await self._engine.match_winning_chance(
                Query.of(table.match, table.row.id), seat, plies=self._settings.analysis_plies
            )
        except EngineUnavailable:
            return ClaimChance(table.row.id, table.row.version, None)
        except EngineFailure as error:
            raise Refusal(
                say.CLAIM_ENGINE_FAILED(language, error=error.clause(language), prefix=self._prefix)
            ) from None
        return ClaimChance(table.row.id, table.row.version, chance)

    def _by_chance(self, table: Table) -> bool:
        return self._engine.available and table.match.length > 0 and bool(table.row.rated)

    async def claim(
        self, place: Place, user: User, estimate: ClaimChance | None = None
    ) -> list[Reply]:
        """``estimate``: :meth:`claim_chance`'s answer, asked before the lock was taken."""
        language = user.language
        table = await self._repository.require(place, user=user, language=language)
        if isinstance(table, DamagedMatch):
            return [table.reply(language)]
        seat = await self._claimable(table, user)
        match = table.match
        idle = self._clock() - (await self._told_since(table) or 0.0)
        chance = None
        if self._by_chance(table):
            if estimate is None or (estimate.match_id, estimate.version) != (
                table.row.id,
                table.row.version,
            ):
                raise Refusal(say.CLAIM_CHANGED(language, prefix=self._prefix))
            chance = estimate.chance
        ended = await self._repository.end(
            table, status="finished", ending="claimed", winner=seat, chance=chance
        )
        text = say.CLAIMS(
            language,
            who=md(user.name),
            other=table.names[1 - seat],
            idle=countdown(idle, language=language),
        )
        if chance is None:
            rated = say.RATED_NOTE(language) if match.length > 0 else ""
            return [ended_reply(ended, f"{text}{rated}.")]
        weighed = await self._weighed(ended, seat, chance, language=language)
        return [ended_reply(ended, f"{text}. {weighed}")]

    async def _weighed(self, ended: Table, seat: int, chance: float, *, language: Language) -> str:
        """How the claim of ``ended`` by the player in ``seat`` was rated, by their ``chance``
        to win it from the position left (:func:`bot.rules.rating.claim_change`)."""
        who, other = ended.names[seat], ended.names[1 - seat]
        weights = say.CLAIM_WEIGHTS(
            language,
            who=who,
            chance=f"{100 * chance:.1f}",
            rest=f"{100 * (1 - chance):.1f}",
        )
        changes = await self._store.players.rating_changes(ended.row.id)
        if changes and all(abs(c.after - c.before) < 1e-9 for c in changes):
            return say.CLAIM_MOVES_NEITHER(language, weights=weights, who=who, other=other)
        return say.CLAIM_WEIGHED(language, weights=weights)

    async def _claimable(self, table: Table, user: User) -> int:
        """``user``'s seat, when they may claim the match now; else a refusal saying why."""
        seat = require_seat(table, user)
        language = user.language
        match = table.match
        if match.turn == seat:
            raise Refusal(say.CLAIM_OWN_TURN(language))
        since = await self._told_since(table)
        if since is None:
            raise Refusal(
                say.CLAIM_NOT_SHOWN(language, other=table.names[1 - seat], prefix=self._prefix)
            )
        idle = self._clock() - since
        limit = self._settings.claim_timeout_hours * 3600
        if idle < limit:
            left = countdown(limit - idle, language=language)
            raise Refusal(say.CLAIM_TOO_EARLY(language, other=table.names[1 - seat], left=left))
        return seat

    async def _told_since(self, table: Table) -> float | None:
        """Since when the players have been shown the match as it stands: its last action, or
        later if the message showing it went out later; None if it never went out. A match
        nobody records the showing of (no adapter does) counts as shown at its last action."""
        shown = await self._store.matches.announcement(table.row.id)
        last = table.row.last_action_at
        if shown is None:
            return last
        version, shown_at = shown
        if version < table.row.version:
            return None
        return max(last, shown_at)
