"""A round's matches started: a thread for each pairing (where there are threads), then all
their matches in one transaction (the players, the timers and the dice tally written once); where
there is no thread, one match at a time in the tournament's channel."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, replace

from bot.i18n import posting
from bot.i18n import reports as words
from bot.i18n import tournaments as say
from bot.i18n.core import Language
from bot.rules.events import Event
from bot.rules.match import Match, advance
from bot.service.keys import SignupKey
from bot.service.matches.presentation import BoardImages, match_kind, status_reply
from bot.service.matches.repository import Arranged, MatchTerms, Repository
from bot.service.matches.threads import THREAD_NAME_LIMIT, MatchThreads, ThreadOpener
from bot.service.models import Place, Reply, Table, User, place_link
from bot.service.models import markdown_safe as md
from bot.service.records.dice import DiceFactory
from bot.service.tournaments.state import Snapshot
from bot.settings import Settings
from bot.store import StaleMatchError, Store, Transaction
from bot.store.tournaments import PairingRow

# A pairing's notice, said once (see ``rounds.UNDECIDED``): it waits for the tournament's
# channel, where there is no thread.
WAITING = "waiting"


@dataclass(frozen=True, slots=True)
class Opening:
    """A pairing's match about to start, and the events its status shows."""

    pairing: PairingRow
    arranged: Arranged
    events: list[Event]


class Openings:
    """The opening of a round's matches, under the tournament's lock (the caller's)."""

    def __init__(
        self,
        store: Store,
        repository: Repository,
        board_images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        dice: DiceFactory,
        locked: Callable[[Place], AbstractAsyncContextManager[None]],
    ) -> None:
        self._store = store
        self._repository = repository
        self._board_images = board_images
        self._settings = settings
        self._clock = clock
        self._dice = dice
        self._locked = locked

    async def open(
        self, snapshot: Snapshot, threads: ThreadOpener | None, *, language: Language
    ) -> list[Reply]:
        """A match for each pairing of ``snapshot``'s round that has none yet, and what to say
        of them."""
        replies: list[Reply] = []
        threaded: list[Opening] = []
        homeless: list[PairingRow] = []
        for pairing in snapshot.round_pairings():
            if (
                pairing.decided_at is None
                and pairing.match_id is None
                and pairing.second is not None
            ):
                thread, said = await self._thread(snapshot, pairing, threads, language)
                replies += said
                if thread is None:
                    homeless.append(pairing)
                else:
                    threaded.append(self._opening(snapshot, pairing, thread))
        replies += await self._start(snapshot, threaded, threads, language=language)
        home, waiting = snapshot.home, []
        for pairing in homeless:
            async with self._locked(home):  # one match per channel, as for a challenge
                if await self._store.matches.playing(home.server_id, home.channel_id) is not None:
                    waiting.append(pairing)
                else:
                    opening = self._opening(snapshot, pairing, None)
                    replies += await self._start(snapshot, [opening], threads, language=language)
        replies += await self._told_waiting(snapshot, waiting, language=language)
        return replies

    async def _thread(
        self,
        snapshot: Snapshot,
        pairing: PairingRow,
        threads: ThreadOpener | None,
        language: Language,
    ) -> tuple[Place | None, list[Reply]]:
        """A thread of its own for a pairing's match (None: there is none, it is played in the
        tournament's channel); what to say of it (the opener's notice, e.g. a missing
        permission)."""
        if threads is None or not self._settings.match_threads:
            return None, []
        assert pairing.second is not None
        first, second = snapshot.by_number[pairing.first], snapshot.by_number[pairing.second]
        name = posting.TOURNAMENT_THREAD_NAME(
            language,
            name=snapshot.row.name,
            round=pairing.round,
            table=pairing.table_no,
            first=first.name,
            second=second.name,
        )
        home = snapshot.home
        opened = await threads.open(home, name[:THREAD_NAME_LIMIT], SignupKey(snapshot.row.id))
        said = [Reply(opened.notice, place=home)] if opened.notice else []
        return (opened.thread if opened.thread != home else None), said

    async def _told_waiting(
        self, snapshot: Snapshot, waiting: list[PairingRow], *, language: Language
    ) -> list[Reply]:
        """One line for the pairings that wait for the tournament's channel, said once."""
        if not waiting:
            return []
        async with self._store.transaction() as tx:
            told = [p for p in waiting if await tx.tournaments.tell_once(p, WAITING)]
        if not told:
            return []
        labels = ", ".join(f"{p.round}.{p.table_no}" for p in told)
        return [
            Reply(
                say.WAITING_CHANNEL(language, name=md(snapshot.row.name), labels=labels),
                place=snapshot.home,
            )
        ]

    def _opening(self, snapshot: Snapshot, pairing: PairingRow, thread: Place | None) -> Opening:
        """The pairing's match, its dice drawn, to be played in ``thread`` (None: the
        tournament's channel)."""
        assert pairing.second is not None
        first, second = snapshot.by_number[pairing.first], snapshot.by_number[pairing.second]
        match = Match.start(snapshot.row.match_length, dice=self._dice())
        events = list(match.record)
        match = advance(match, events)
        players = (User(first.user_id, first.name), User(second.user_id, second.name))
        return Opening(pairing, Arranged(players, match, thread), events)

    async def _start(
        self,
        snapshot: Snapshot,
        openings: list[Opening],
        threads: ThreadOpener | None,
        *,
        language: Language,
    ) -> list[Reply]:
        """Start the ``openings`` in one transaction, and what to say of them. When another
        process opened or decided one of them meanwhile, each is tried on its own."""
        if not openings:
            return []
        row, home = snapshot.row, snapshot.home
        now = self._clock()
        deadline = None if row.deadline_days is None else now + row.deadline_days * 86400

        async def mark(tx: Transaction, match_ids: list[int]) -> bool:
            for opening, match_id in zip(openings, match_ids, strict=True):
                channel = (opening.arranged.thread or home).channel_id
                if not await tx.tournaments.open_pairing(
                    opening.pairing, match_id, channel, deadline
                ):
                    return False
            return True

        tables: list[Table] | None = None
        try:
            async with AsyncExitStack() as stack:
                for opening in openings:  # threads nobody will play in, when this fails
                    thread = opening.arranged.thread
                    await stack.enter_async_context(MatchThreads.discarding(threads, thread))
                try:
                    tables = await self._repository.create_arranged_matches(
                        home,
                        [opening.arranged for opening in openings],
                        MatchTerms(rated=bool(row.rated)),
                        clock_seconds=row.clock_seconds,
                        also=mark,
                    )
                except StaleMatchError:
                    if len(openings) == 1:
                        raise
        except StaleMatchError:
            return []
        if tables is None:  # another process opened or decided one of them: each on its own
            return [
                r
                for one in openings
                for r in await self._start(snapshot, [one], threads, language=language)
            ]
        days = row.deadline_days or 0
        by = (
            ""
            if deadline is None
            else words.TOURNAMENT_WITHIN(language, int(days == 1), days=f"{days:g}")
        )
        replies: list[Reply] = []
        for opening, table in zip(openings, tables, strict=True):
            pairing, thread = opening.pairing, opening.arranged.thread
            lead = words.TOURNAMENT_MATCH_STARTS(
                language,
                name=md(row.name),
                round=pairing.round,
                first=table.names[0],
                second=table.names[1],
                kind=match_kind(row.match_length, language=language, alone=True),
                by=by,
                commitment=opening.arranged.match.commitment,
            )
            status = await status_reply(
                table,
                opening.events,
                self._settings.command_prefix,
                self._board_images,
                lead=lead,
                language=language,
            )
            ids = (*status.mention, *(user.id for user in opening.arranged.players))
            board = replace(status, place=thread or home, mention=tuple(dict.fromkeys(ids)))
            if thread is not None:
                replies.append(
                    Reply(
                        say.IN_THREAD(
                            language,
                            name=md(row.name),
                            table=f"{pairing.round}.{pairing.table_no}",
                            first=table.names[0],
                            second=table.names[1],
                            thread=place_link(thread),
                        ),
                        place=home,
                    )
                )
            replies.append(board)
        return replies
