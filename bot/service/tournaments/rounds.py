"""What moves a tournament on: its start, each round paired (byes and forfeits decided at once)
and its matches opened, results taken from matches as they end, deadlines, and the end.

Every change is one transaction that checks what it read is still so (the status and round, a
pairing not yet opened or decided), under the tournament's own lock: two commands of one
process wait for each other, two processes on one database find out and one gives way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace

from bot.i18n import tournaments as say
from bot.i18n.core import Language
from bot.rules import tournaments as rules
from bot.rules.tournaments.model import Format, TournamentError
from bot.service.matches.presentation import BoardImages
from bot.service.matches.repository import Repository
from bot.service.matches.threads import ThreadOpener
from bot.service.models import (
    Attachment,
    MatchEnded,
    Place,
    Refusal,
    Reply,
    RoundPaired,
    Table,
    User,
    reason_of,
)
from bot.service.models import markdown_safe as md
from bot.service.records.dice import DiceFactory
from bot.service.tournaments import images
from bot.service.tournaments.opening import Openings
from bot.service.tournaments.state import LINES_SHOWN, NAMES_SHOWN, Snapshot, capped
from bot.settings import Settings
from bot.store import Store, Transaction
from bot.store import tournaments as db
from bot.store.tournaments import PairingRow, TournamentRow

log = logging.getLogger(__name__)

Locker = Callable[[Place], AbstractAsyncContextManager[None]]
# What a pairing was told once (its ``notice``), never at every poll (and ``opening.WAITING``):
UNDECIDED = "undecided"  # its match ended without a winner: the organiser decides it
KEPT_SECONDS = 30.0  # how long a snapshot just written stands for the opening of its matches


class Rounds:
    """A tournament's rounds, from the start to the end."""

    def __init__(
        self,
        store: Store,
        repository: Repository,
        board_images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        dice: DiceFactory,
        locked: Locker,
        *,
        draw: bool = True,
    ) -> None:
        self._store = store
        self._repository = repository
        self._board_images = board_images
        self._settings = settings
        self._clock = clock
        self._dice = dice
        self._locked = locked
        self._draw = draw
        self._unpairable: set[tuple[int, int]] = set()  # (tournament, round) said so
        # What a round's pairing or a result just wrote, and when, for the opening of its
        # matches that follows (the adapter's): not read back (``open_pairing`` checks what it
        # relies on); one not used at once is read again.
        self._kept: dict[int, tuple[float, Snapshot]] = {}
        self._openings = Openings(store, repository, board_images, settings, clock, dice, locked)

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    def lock(self, row: TournamentRow) -> AbstractAsyncContextManager[None]:
        return self._locked(Place(row.server_id, f"tournament:{row.id}"))

    async def snapshot(self, tournament_id: int, row: TournamentRow | None = None) -> Snapshot:
        row = row or await self._store.tournaments.get(tournament_id)
        assert row is not None
        entrants = await self._store.tournaments.entrants(tournament_id)
        pairings = await self._store.tournaments.pairings(tournament_id)
        return Snapshot(row, tuple(entrants), tuple(pairings))

    # -- which tournament ----------------------------------------------------------------------

    async def begin(self, row: TournamentRow, user: User | None) -> list[Reply]:
        """Seed the entrants by rating, and pair and post round 1 (by ``user``, or the start
        time, said in the server's language)."""
        if user is not None:
            language = user.language
        else:
            language = await self._repository.languages.of(row.server_id)
        now = self._clock()
        by = user.name if user is not None else "the start time"
        # The entrants are read in the transaction that starts it, holding the tournament: a
        # join or a leave on another host comes before them or is refused after.
        async with self._store.transaction() as tx:
            fresh = await tx.tournaments.locked(row.id)
            if fresh is None or fresh.status != "signup":
                raise Refusal(say.STARTED_ALREADY(language, name=md(row.name)))
            entrants = await tx.tournaments.entrants(row.id)
            if len(entrants) < 2:
                raise Refusal(say.TOO_FEW(language, name=md(row.name), count=len(entrants)))
            try:
                rules.rounds_total(Format(row.format), len(entrants), swiss_rounds=row.swiss_rounds)
            except TournamentError as error:
                raise Refusal(reason_of(error, language)) from None
            rated = await tx.players.ratings(row.server_id, [e.user_id for e in entrants])
            seeded = rules.seed(
                [(e.number, e.name, rated.get(e.user_id, 1500.0)) for e in entrants]
            )
            await tx.tournaments.set_status(row.id, ("signup",), status="running", round=0)
            await tx.tournaments.set_seeds(row.id, {e.player_id: e.seed for e in seeded})
            await tx.tournaments.add_log(row.id, now, user.id if user else "", f"started by {by}")
        snapshot = await self.snapshot(row.id)
        lines = [say.STARTS_SEEDED(language, name=md(row.name), count=len(entrants))]
        lines.append(
            ", ".join(
                capped(
                    [f"{e.seed}. {md(e.name)}" for e in sorted(seeded, key=lambda e: e.seed)],
                    NAMES_SHOWN,
                )
            )
        )
        return [Reply("\n".join(lines)), *await self.next_round(snapshot, language=language)]

    async def decide_by_organiser(
        self,
        snapshot: Snapshot,
        pairing: PairingRow,
        winner: int | None,
        reason: str,
        *,
        fixing: bool = False,
        why: str = "",
        also: Callable[[Transaction], Awaitable[object]] | None = None,
        language: Language,
    ) -> list[Reply]:
        """Decide ``pairing`` for ``winner`` (None: nobody); a match still being played for it is
        voided (unrated), saying ``why`` there. The match's end, the result and ``also(tx)``
        (the organiser's log, a withdrawal) are one transaction: a stop leaves all or none."""
        points = (0, 0)
        if pairing.decided_at is not None and fixing:
            points = (pairing.first_points, pairing.second_points)

        async def decide(tx: Transaction) -> None:
            await tx.tournaments.decide(
                pairing,
                winner=winner,
                points=points,
                reason=reason,
                now=self._clock(),
                fixing=fixing,
            )
            if also is not None:
                await also(tx)

        said: list[Reply] = []
        if pairing.match_id is not None:
            said = await self.void_match(pairing.match_id, why, also=decide, language=language)
        if not said:
            async with self._store.transaction() as tx:
                await decide(tx)
        who = (
            say.NOBODY_WINS(language)
            if winner is None
            else say.SOMEONE_WINS(language, who=snapshot.name(winner))
        )
        players = say.PLAYERS(
            language, first=snapshot.name(pairing.first), second=snapshot.name(pairing.second)
        )
        line = f"{pairing.round}.{pairing.table_no} {players}"
        name = md(snapshot.row.name)
        decided = say.DECIDED(language, name=name, line=line, who=who, reason=reason)
        return [*said, Reply(decided, place=snapshot.home)]

    async def void_match(
        self,
        match_id: int,
        why: str = "",
        also: Callable[[Transaction], Awaitable[object]] | None = None,
        *,
        language: Language,
    ) -> list[Reply]:
        """End the match ``match_id`` unrated if it is still being played, with ``also(tx)``
        in the same transaction; what it says there (nothing: it was over, ``also`` not run)."""
        row = await self._store.matches.get(match_id)
        if row is None or row.status != "playing":
            return []
        place = Place(row.server_id, row.channel_id)
        async with self._locked(place):
            table = await self._repository.table(place, repair=False)
            if table is None or table.row.id != match_id:
                return []
            await self._repository.end(table, status="aborted", ending="voided", also=also)
        return [
            Reply(
                say.VOIDED(language, why=why or say.ORGANISER_DECIDED(language)),
                place=place,
            )
        ]

    # -- rounds --------------------------------------------------------------------------------

    async def settle(self, snapshot: Snapshot, *, language: Language) -> list[Reply]:
        """Whatever follows now: the next round when the current one is decided, or the end."""
        if snapshot.row.status != "running":
            return []
        current = snapshot.round_pairings()
        if current and any(p.decided_at is None for p in current):
            return []
        return await self.next_round(snapshot, language=language)

    async def next_round(self, snapshot: Snapshot, *, language: Language) -> list[Reply]:
        row = snapshot.row
        fmt = snapshot.format
        out = snapshot.withdrawn
        values, results = snapshot.values, snapshot.results
        if row.round > 0 and rules.is_over(
            fmt, values, results, swiss_rounds=row.swiss_rounds, withdrawn=out
        ):
            return await self._finish(snapshot, language=language)
        round_no = row.round + 1
        try:
            pairs = rules.pair_round(fmt, values, results, round_no, withdrawn=out)
        except TournamentError as error:
            if (row.id, round_no) in self._unpairable:
                return []  # said already: the poll tries again, silently
            self._unpairable.add((row.id, round_no))
            log.warning("Tournament %s: round %s can't be paired: %s", row.id, round_no, error)
            return [
                Reply(
                    say.CANT_PAIR(
                        language,
                        name=md(row.name),
                        round=round_no,
                        error=reason_of(error, language).rstrip("."),
                    ),
                    place=snapshot.home,
                )
            ]
        now = self._clock()
        rows = [db.pairing_row(row, pairing, snapshot.withdrawn, now) for pairing in pairs]
        async with self._store.transaction() as tx:
            if not await tx.tournaments.set_status(
                row.id, ("running",), round=round_no, expected_round=row.round
            ):
                return []  # another process paired it
            added = await tx.tournaments.add_pairings(rows)
        # What this transaction wrote, without reading it back: the round's pairings are its own.
        fresh = replace(
            snapshot, row=replace(row, round=round_no), pairings=(*snapshot.pairings, *added)
        )
        self._kept[row.id] = (self._clock(), fresh)
        total = rules.rounds_total(fmt, len(snapshot.entrants), swiss_rounds=row.swiss_rounds)
        title = fresh.round_title(round_no, total, language=language)
        lines = [
            say.ROUND_HEAD(language, name=md(row.name), title=title, round=round_no, total=total)
        ]
        lines += capped(
            [fresh.pairing_line(p, language=language) for p in fresh.round_pairings()],
            LINES_SHOWN,
        )
        said = Reply(
            "\n".join(lines), place=snapshot.home, file=await self.picture(fresh, language=language)
        )
        replies = [replace(said, paired=RoundPaired(row.id, row.server_id))]
        if all(p.decided_at is not None for p in fresh.round_pairings()):
            replies += await self.next_round(
                fresh, language=language
            )  # a round of byes and forfeits only
        return replies

    async def _finish(self, snapshot: Snapshot, *, language: Language) -> list[Reply]:
        row = snapshot.row
        fmt = snapshot.format
        champion = rules.champion(
            fmt,
            snapshot.values,
            snapshot.results,
            swiss_rounds=row.swiss_rounds,
            withdrawn=snapshot.withdrawn,
        )
        champion_id = snapshot.user_id(champion) if champion is not None else None
        now = self._clock()
        async with self._store.transaction() as tx:
            if not await tx.tournaments.set_status(
                row.id,
                ("running",),
                status="finished",
                finished_at=now,
                champion_id=champion_id,
            ):
                return []
            await tx.tournaments.add_log(row.id, now, "", "finished")
        over = replace(row, status="finished", finished_at=now, champion_id=champion_id)
        final = replace(snapshot, row=over)
        table = final.standings
        lines = [
            say.OVER_CHAMPION(language, name=md(row.name), champion=final.name(champion))
            if champion
            else say.OVER(language, name=md(row.name))
        ]
        lines += [
            f"{s.rank}. {md(s.name)}: {final.placing(s, language=language)}" for s in table[:10]
        ]
        lines.append(say.REPORT_POINTER(language, prefix=self._prefix))
        return [
            Reply(
                "\n".join(lines),
                place=snapshot.home,
                file=await self.picture(final, language=language),
            )
        ]

    async def open_matches(self, tournament_id: int, threads: ThreadOpener | None) -> list[Reply]:
        """Open a match for each pairing of the current round that has none yet: in a thread of
        the tournament's channel (a channel of its own in the console), both players pinged,
        all in one transaction; where there is no thread, in the tournament's channel, one
        match at a time (the others wait for it, said once). Said in the server's language:
        whoever's command paired the round, the matches are the players'."""
        at, kept = self._kept.pop(tournament_id, (0.0, None))
        if self._clock() - at > KEPT_SECONDS:
            kept = None
        row = kept.row if kept is not None else await self._store.tournaments.get(tournament_id)
        if row is None or row.status != "running":
            return []
        language = await self._repository.languages.of(row.server_id)
        async with self.lock(row):
            return await self._openings.open(
                kept or await self.snapshot(tournament_id), threads, language=language
            )

    # -- matches ending, and time --------------------------------------------------------------

    async def after_ends(self, ended: list[MatchEnded], *, language: Language) -> list[Reply]:
        """The matches a command ended that are tournament matches: their results taken, and
        whatever follows (the next round, the end)."""
        replies: list[Reply] = []
        for event in ended:
            found = await self._store.tournaments.pairing_of_match(event.table.row.id)
            if found is None or found[0].decided_at is not None:
                continue
            pairing, row = found
            if row.status not in ("running", "paused"):
                continue
            async with self.lock(row):
                replies += await self._match_ended(pairing, event.table, row, language=language)
        return replies

    async def _match_ended(
        self,
        pairing: PairingRow,
        ended: Table | None = None,
        row: TournamentRow | None = None,
        *,
        language: Language,
    ) -> list[Reply]:
        """``ended``: the match as it ended (read here when not given); ``row``: its tournament
        (read here when not given: a change of its status or round is checked as it is
        written)."""
        assert pairing.match_id is not None
        match_row = (
            ended.row if ended is not None else await self._store.matches.get(pairing.match_id)
        )
        if match_row is None or match_row.status == "playing":
            return []
        if match_row.status == "aborted" or match_row.winner is None:
            async with self._store.transaction() as tx:
                if not await tx.tournaments.tell_once(pairing, UNDECIDED):
                    return []  # said already: the organiser decides it
            snapshot = await self.snapshot(pairing.tournament_id)
            return [
                Reply(
                    say.UNDECIDED(
                        language,
                        name=md(snapshot.row.name),
                        table=f"{pairing.round}.{pairing.table_no}",
                        prefix=self._prefix,
                    ),
                    place=snapshot.home,
                )
            ]
        table = ended or await self._repository.table_of(
            match_row, Place(match_row.server_id, match_row.channel_id), repair=False
        )
        score = table.match.score if table is not None else (0, 0)
        winner = pairing.first if match_row.winner == 0 else pairing.second
        async with self._store.transaction() as tx:
            done = await tx.tournaments.decide(
                pairing,
                winner=winner,
                points=(score[0], score[1]),
                reason=match_row.ending or "played",
                now=self._clock(),
            )
        if not done:
            return []
        # Read after the commit: a result another host wrote meanwhile counts for the round's end.
        fresh = await self.snapshot(pairing.tournament_id, row)
        decided = fresh.pairing_at(pairing.round, pairing.table_no)
        assert decided is not None
        line = fresh.pairing_line(decided, language=language)
        # A match waiting for the channel this one was played in starts now (the adapter opens).
        unopened = any(
            p.decided_at is None and p.match_id is None and p.second is not None
            for p in fresh.round_pairings()
        )
        paired = (
            RoundPaired(fresh.row.id, fresh.row.server_id)
            if unopened and fresh.row.status == "running"
            else None
        )
        if paired is not None:
            self._kept[paired.tournament_id] = (self._clock(), fresh)
        result = say.RESULT_LINE(language, name=md(fresh.row.name), line=line)
        said = [Reply(result, place=fresh.home, paired=paired)]
        return said + await self.settle(fresh, language=language)

    async def due(
        self, threads: ThreadOpener | None, where: Callable[[Place], bool]
    ) -> list[tuple[Place, Reply]]:
        """What fell due: tournaments whose start time came, matches past their deadline,
        results the store has and the tournament missed (a stop between the two), and pairings
        waiting for a place; each said in its server's language."""
        languages = self._repository.languages
        out: list[tuple[Place, Reply]] = []
        now = self._clock()
        for row in await self._store.tournaments.due_to_start(now):
            home = Place(row.server_id, row.channel_id)
            if not where(home):
                continue
            language = await languages.of(row.server_id)
            async with self.lock(row):
                try:
                    said = await self.begin(row, None)
                except Refusal as refusal:
                    async with self._store.transaction() as tx:
                        cancelled = await tx.tournaments.set_status(
                            row.id, ("signup",), status="cancelled", finished_at=now
                        )
                    said = (  # not signing up any more: another host's poll started it
                        [
                            Reply(
                                say.COULD_NOT_START(
                                    language, name=md(row.name), why=refusal.worded(language)
                                )
                            )
                        ]
                        if cancelled
                        else []
                    )
            out += [(reply.place or home, reply) for reply in said]
        # A tournament a stop left between two transactions (started with no round 1, a round
        # decided with the next one not paired, the last one decided and not finished) moves on.
        for row in await self._store.tournaments.unsettled():
            home = Place(row.server_id, row.channel_id)
            if not where(home):
                continue
            language = await languages.of(row.server_id)
            async with self.lock(row):
                said = await self.settle(await self.snapshot(row.id), language=language)
            out += [(reply.place or home, reply) for reply in said]
        # Each tick reads the undecided pairings, their tournaments once each, and which of their
        # matches are over in one read; only those and the ones past their deadline are looked at.
        # A pairing whose match ended without a winner waits for the organiser, said once.
        undecided = [p for p in await self._store.tournaments.undecided() if p.notice != UNDECIDED]
        ended = await self._store.matches.over([p.match_id for p in undecided if p.match_id])
        rows: dict[int, TournamentRow | None] = {}
        opened: set[int] = set()
        for pairing in undecided:
            if pairing.tournament_id not in rows:
                rows[pairing.tournament_id] = await self._store.tournaments.get(
                    pairing.tournament_id
                )
            found = rows[pairing.tournament_id]
            if found is None or not where(home := Place(found.server_id, found.channel_id)):
                continue
            said = []
            language = await languages.of(found.server_id)
            late = pairing.deadline is not None and pairing.deadline <= now
            if pairing.match_id is None:
                if found.id not in opened:
                    opened.add(found.id)
                    said = await self.open_matches(found.id, threads)
            elif pairing.match_id in ended or late:
                async with self.lock(found):
                    said = await self._match_ended(pairing, language=language)
                    if not said and late:
                        said = await self._past_deadline(pairing, language=language)
            out += [(reply.place or home, reply) for reply in said]
        return out

    async def _past_deadline(self, pairing: PairingRow, *, language: Language) -> list[Reply]:
        """A match not over by its deadline: the player who must act loses by forfeit; when
        neither has acted since it opened, nobody wins."""
        snapshot = await self.snapshot(pairing.tournament_id)
        fresh = snapshot.pairing_at(pairing.round, pairing.table_no)
        if fresh is None or fresh.decided_at is not None or pairing.match_id is None:
            return []
        match_row = await self._store.matches.get(pairing.match_id)
        winner: int | None = None
        if match_row is not None and match_row.last_action_at > match_row.created_at:
            table = await self._repository.table_of(
                match_row, Place(match_row.server_id, match_row.channel_id), repair=False
            )
            turn = table.match.turn if table is not None else None
            if turn is not None:
                winner = pairing.second if turn == 0 else pairing.first
        reason = (say.FORFEIT if winner is not None else say.FORFEIT_BOTH)(language)
        why = say.PAST_DEADLINE(language)
        said = await self.decide_by_organiser(
            snapshot, fresh, winner, reason, why=why, language=language
        )
        return said + await self.settle(
            await self.snapshot(pairing.tournament_id), language=language
        )

    # -- looking -------------------------------------------------------------------------------

    async def picture(self, snapshot: Snapshot, *, language: Language) -> Attachment | None:
        """The bracket, table or standings image, its words in ``language``; none for a Swiss
        with no result yet (its standings would be all zeros: the pairings say it all)."""
        if not self._draw or (snapshot.format is Format.SWISS and not snapshot.results):
            return None
        return await asyncio.to_thread(images.picture, snapshot, language=language)
