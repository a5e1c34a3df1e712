"""Tournaments in the store (schema 15): the tournament, its entrants, each round's pairings with
the match each is played in and its result, and the organiser's log.

:class:`Tournaments` reads (on the store or in a transaction), :class:`TournamentWrites` writes
(``tx.tournaments``). Every read on a periodic path goes through an index of what is not over
(``tournaments_active``, ``tournaments_to_start``, ``tournament_matches_undecided``): a server's
finished tournaments cost nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import and_, bindparam, func, select, update

from bot.rules.tournaments.model import Pairing
from bot.store import schema
from bot.store.connections import Repository, Writes
from bot.store.players import PlayerWrites
from bot.store.schema import fixed

t = schema.tournaments


e = schema.tournament_entrants


tm = schema.tournament_matches


lg = schema.tournament_log


ACTIVE = ("signup", "running", "paused")


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    server_id: str
    channel_id: str
    name: str
    format: str
    swiss_rounds: int | None
    match_length: int
    clock_seconds: float | None
    deadline_days: float | None
    rated: int
    size_limit: int
    starts_at: float | None
    status: str
    round: int
    organiser_id: str
    created_at: float
    finished_at: float | None
    champion_id: str | None
    signup_message: str | None
    paused_at: float | None  # schema 17


@dataclass(frozen=True, slots=True)
class EntrantRow:
    tournament_id: int
    number: int
    user_id: str
    name: str
    seed: int | None
    joined_at: float
    withdrawn: int


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One pairing of a round: entrant numbers ``first`` and ``second`` (None: a bye), the
    match it is played in once opened, and its result once ``decided_at`` is set."""

    tournament_id: int
    round: int
    table_no: int
    first: int
    second: int | None
    match_id: int | None
    channel_id: str | None
    deadline: float | None
    winner: int | None
    first_points: int
    second_points: int
    reason: str | None
    decided_at: float | None
    notice: (
        str | None
    )  # schema 17: what was said of it once (see :meth:`TournamentWrites.tell_once`)


@dataclass(frozen=True, slots=True)
class LogRow:
    at: float
    user_id: str
    text: str


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A player's tournaments on one server: entered (over), won, being played."""

    entered: int
    won: int
    playing: int


def _row(kind: Any, record: Any) -> Any:
    mapping = record._mapping
    return kind(**{field.name: mapping[field.name] for field in fields(kind)})


def _active() -> Any:
    return t.c.status.in_([fixed(status) for status in ACTIVE])


_SEEDED = (
    update(e)
    .where(e.c.tournament_id == bindparam("at"), e.c.number == bindparam("of"))
    .values(seed=bindparam("seeded"))
)


def pairing_row(
    row: TournamentRow, pairing: Pairing, withdrawn: frozenset[int], now: float
) -> dict[str, Any]:
    """The new row of ``pairing`` for :meth:`TournamentWrites.add_pairings`: a bye is won at
    once, and so is a pairing with a withdrawn player (by the other, or by nobody when both
    withdrew)."""
    values: dict[str, Any] = {  # every row names the same columns: one INSERT for all
        "tournament_id": row.id,
        "round": pairing.round,
        "table_no": pairing.table,
        "first": pairing.first,
        "second": pairing.second,
        "winner": None,
        "reason": None,
        "decided_at": None,
    }
    if pairing.second is None:
        values.update(winner=pairing.first, reason="bye", decided_at=now)
    elif pairing.first in withdrawn or pairing.second in withdrawn:
        out = [p for p in (pairing.first, pairing.second) if p in withdrawn]
        winner = (
            None
            if len(out) == 2
            else (pairing.second if pairing.first in withdrawn else pairing.first)
        )
        # A key, worded where it is shown (bot.i18n.tournaments.ENDINGS), as "bye" is.
        values.update(winner=winner, reason="forfeit (withdrawn)", decided_at=now)
    return values


def _at(tournament_id: int, round_no: int, table_no: int) -> Any:
    return and_(
        tm.c.tournament_id == tournament_id, tm.c.round == round_no, tm.c.table_no == table_no
    )


class Tournaments(Repository):
    """Reads of tournaments."""

    async def get(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._db.fetch_all(select(t).where(t.c.id == tournament_id))
        return _row(TournamentRow, rows[0]) if rows else None

    async def active(self, server_id: str) -> list[TournamentRow]:
        """The server's tournaments not over (signing up, running, paused), oldest first."""
        rows = await self._db.fetch_all(
            select(t).where(t.c.server_id == server_id, _active()).order_by(t.c.id)
        )
        return [_row(TournamentRow, row) for row in rows]

    async def latest(self, server_id: str) -> TournamentRow | None:
        """The server's newest tournament, over or not."""
        rows = await self._db.fetch_all(
            select(t).where(t.c.server_id == server_id).order_by(t.c.id.desc()).limit(1)
        )
        return _row(TournamentRow, rows[0]) if rows else None

    async def named(self, server_id: str, names: Sequence[str]) -> list[TournamentRow]:
        """The server's tournaments, over or not, whose name is one of ``names`` (case aside),
        newest first."""
        # Compared here, not by the database's lower(): SQLite's changes only ASCII letters.
        wanted = {name.casefold() for name in names}
        rows = await self._db.fetch_all(
            select(t).where(t.c.server_id == server_id).order_by(t.c.id.desc())
        )
        found = [_row(TournamentRow, row) for row in rows]
        return [row for row in found if row.name.casefold() in wanted]

    async def due_to_start(self, now: float) -> list[TournamentRow]:
        """Tournaments still signing up whose start time has come."""
        rows = await self._db.fetch_all(
            select(t)
            .where(t.c.status == fixed("signup"), t.c.starts_at <= now)
            .order_by(t.c.starts_at, t.c.id)
        )
        return [_row(TournamentRow, row) for row in rows]

    async def running(self) -> list[TournamentRow]:
        """Every tournament being played (not paused), of every server."""
        rows = await self._db.fetch_all(
            select(t).where(t.c.status == fixed("running")).order_by(t.c.id)
        )
        return [_row(TournamentRow, row) for row in rows]

    async def unsettled(self) -> list[TournamentRow]:
        """The running tournaments whose current round has no pairing left to decide (or that have
        no round yet): the next round or the end is owed (a stop between two transactions leaves
        a tournament so). By the index of the running ones, each round by key."""
        current = (
            select(tm.c.table_no)
            .where(tm.c.tournament_id == t.c.id, tm.c.round == t.c.round, tm.c.decided_at.is_(None))
            .exists()
        )
        rows = await self._db.fetch_all(
            select(t).where(t.c.status == fixed("running"), ~current).order_by(t.c.id)
        )
        return [_row(TournamentRow, row) for row in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self._db.fetch_all(
            select(e).where(e.c.tournament_id == tournament_id).order_by(e.c.number)
        )
        return [_row(EntrantRow, row) for row in rows]

    async def pairings(self, tournament_id: int) -> list[PairingRow]:
        rows = await self._db.fetch_all(
            select(tm)
            .where(tm.c.tournament_id == tournament_id)
            .order_by(tm.c.round, tm.c.table_no)
        )
        return [_row(PairingRow, row) for row in rows]

    async def pairing_of_match(self, match_id: int) -> tuple[PairingRow, TournamentRow] | None:
        """The pairing played in ``match_id`` and its tournament, in one read."""
        named = [column.label(f"t_{column.name}") for column in t.c]
        rows = await self._db.fetch_all(
            select(tm, *named)
            .join(t, t.c.id == tm.c.tournament_id)
            .where(tm.c.match_id == match_id)
        )
        if not rows:
            return None
        mapping = rows[0]._mapping
        tournament = TournamentRow(
            **{f.name: mapping[f"t_{f.name}"] for f in fields(TournamentRow)}
        )
        return _row(PairingRow, rows[0]), tournament

    async def undecided(self) -> list[PairingRow]:
        """The pairings not decided yet of the running tournaments (to open, to watch for their
        match's end, or past their deadline)."""
        rows = await self._db.fetch_all(
            select(tm)
            .join(t, t.c.id == tm.c.tournament_id)
            .where(tm.c.decided_at.is_(None), t.c.status == fixed("running"))
        )
        # Ordered here: an ORDER BY would have SQLite walk every pairing in key order.
        pairings = [_row(PairingRow, row) for row in rows]
        return sorted(pairings, key=lambda p: (p.tournament_id, p.round, p.table_no))

    async def log(self, tournament_id: int) -> list[LogRow]:
        rows = await self._db.fetch_all(
            select(lg.c.at, lg.c.user_id, lg.c.text)
            .where(lg.c.tournament_id == tournament_id)
            .order_by(lg.c.id)
        )
        return [LogRow(float(row[0]), str(row[1]), str(row[2])) for row in rows]

    async def record(self, server_id: str, user_id: str) -> TournamentRecord:
        """``user_id``'s tournaments on the server (an index of their entries, then by key)."""
        rows = await self._db.fetch_all(
            select(t.c.status, t.c.champion_id)
            .join(e, e.c.tournament_id == t.c.id)
            .where(e.c.user_id == user_id, t.c.server_id == server_id)
        )
        entered = sum(1 for status, _ in rows if status == "finished")
        won = sum(1 for status, champion in rows if status == "finished" and champion == user_id)
        playing = sum(1 for status, _ in rows if status in ACTIVE)
        return TournamentRecord(entered, won, playing)


class TournamentWrites(Writes, Tournaments):
    """Writes of tournaments, in the transaction of the command."""

    async def create(self, values: Mapping[str, Any]) -> int | None:
        """A new tournament from ``values`` (its columns); its id, or None when one of the same
        name (case aside) is open on its server. Checked under the server's row held by the
        transaction, so two organisers (or two hosts) creating the same name at once make one
        tournament."""
        server_id = values["server_id"]
        await PlayerWrites(self._tx).hold_server(server_id, values["created_at"])
        rows = await self._tx.fetch_all(
            select(t.c.name).where(t.c.server_id == server_id, _active())
        )
        wanted = str(values["name"]).casefold()
        if any(str(row[0]).casefold() == wanted for row in rows):
            return None
        return await self._tx.insert_row(t.insert().values(**values))

    async def locked(self, tournament_id: int) -> TournamentRow | None:
        """The tournament as it is now, its row locked until the transaction ends: what a
        command checks (the status, the entrants, the size limit) stays so until it has
        written. Two processes changing one tournament (two joins, a join and the start) take
        turns, the second seeing what the first wrote (SQLite's BEGIN IMMEDIATE serialises them
        anyway)."""
        rows = await self._tx.fetch_all(select(t).where(t.c.id == tournament_id).with_for_update())
        return _row(TournamentRow, rows[0]) if rows else None

    async def set_status(
        self,
        tournament_id: int,
        expected: Sequence[str],
        *,
        expected_round: int | None = None,
        **values: Any,
    ) -> bool:
        """Change the tournament's columns (``status``, ``round``, ...) if its status is still one
        of ``expected`` (and its round ``expected_round``, if given); whether it was (another
        command, or another process, may have got there first)."""
        where = [t.c.id == tournament_id, t.c.status.in_(list(expected))]
        if expected_round is not None:
            where.append(t.c.round == expected_round)
        changed = await self._tx.execute(update(t).where(*where).values(**values))
        return changed == 1

    async def add_entrant(self, tournament_id: int, user_id: str, name: str, now: float) -> int:
        """``user_id`` joins; their entrant number (the next one: read in the transaction, which
        holds the tournament, :meth:`locked`)."""
        rows = await self._tx.fetch_all(
            select(func.coalesce(func.max(e.c.number), 0)).where(e.c.tournament_id == tournament_id)
        )
        number = int(rows[0][0]) + 1
        await self._tx.execute(
            e.insert().values(
                tournament_id=tournament_id,
                number=number,
                user_id=user_id,
                name=name,
                joined_at=now,
            )
        )
        return number

    async def remove_entrant(self, tournament_id: int, user_id: str) -> bool:
        """``user_id`` leaves before the start; whether they had joined."""
        changed = await self._tx.execute(
            e.delete().where(e.c.tournament_id == tournament_id, e.c.user_id == user_id)
        )
        return changed == 1

    async def set_seeds(self, tournament_id: int, seeds: Mapping[int, int]) -> None:
        """Each entrant number's seed, at the start (one statement for all)."""
        if seeds:
            await self._tx.execute(
                _SEEDED,
                [
                    {"at": tournament_id, "of": number, "seeded": seed}
                    for number, seed in sorted(seeds.items())
                ],
            )

    async def withdraw(self, tournament_id: int, number: int) -> bool:
        """Entrant ``number`` is removed from the rounds; False if they were already."""
        changed = await self._tx.execute(
            update(e)
            .where(
                e.c.tournament_id == tournament_id, e.c.number == number, e.c.withdrawn == fixed(0)
            )
            .values(withdrawn=1)
        )
        return changed == 1

    async def add_pairings(self, rows: Sequence[Mapping[str, Any]]) -> list[PairingRow]:
        """New pairings (each with tournament_id, round, table_no, first, second, winner, reason
        and decided_at: None but for a pairing decided at once), in one statement; the rows as
        stored (no match yet, no points, nothing told), in table order."""
        if rows:
            await self._tx.execute(tm.insert(), list(rows))
        unset = {"match_id": None, "channel_id": None, "deadline": None, "notice": None}
        stored = [
            PairingRow(**{**unset, "first_points": 0, "second_points": 0, **row}) for row in rows
        ]
        return sorted(stored, key=lambda p: (p.round, p.table_no))

    async def extend_deadlines(self, tournament_id: int, seconds: float) -> None:
        """Move the deadlines of the tournament's undecided pairings ``seconds`` later."""
        if seconds > 0:
            await self._tx.execute(
                update(tm)
                .where(
                    tm.c.tournament_id == tournament_id,
                    tm.c.decided_at.is_(None),
                    tm.c.deadline.is_not(None),
                )
                .values(deadline=tm.c.deadline + seconds)
            )

    async def open_pairing(
        self,
        pairing: PairingRow,
        match_id: int,
        channel_id: str,
        deadline: float | None,
    ) -> bool:
        """The pairing's match started at ``channel_id``; False when another process opened it
        (or decided it, or the tournament stopped running)."""
        # What the opener read may be old (a snapshot kept from the round's pairing): the
        # pairing must still be undecided, and its tournament running.
        running = select(t.c.id).where(
            t.c.id == pairing.tournament_id, t.c.status == fixed("running")
        )
        changed = await self._tx.execute(
            update(tm)
            .where(
                _at(pairing.tournament_id, pairing.round, pairing.table_no),
                tm.c.match_id.is_(None),
                tm.c.decided_at.is_(None),
                running.exists(),
            )
            .values(match_id=match_id, channel_id=channel_id, deadline=deadline)
        )
        return changed == 1

    async def decide(
        self,
        pairing: PairingRow,
        *,
        winner: int | None,
        points: tuple[int, int],
        reason: str,
        now: float,
        fixing: bool = False,
    ) -> bool:
        """The pairing's result; False when it had one already (unless ``fixing``: the organiser
        sets it anew)."""
        where = [_at(pairing.tournament_id, pairing.round, pairing.table_no)]
        if not fixing:
            where.append(tm.c.decided_at.is_(None))
        changed = await self._tx.execute(
            update(tm)
            .where(*where)
            .values(
                winner=winner,
                first_points=points[0],
                second_points=points[1],
                reason=reason,
                decided_at=now,
            )
        )
        return changed == 1

    async def tell_once(self, pairing: PairingRow, notice: str) -> bool:
        """Mark ``pairing`` as told ``notice`` (``undecided``: its match ended without a winner;
        ``waiting``: for its channel); False when it was told so already (by this process or
        another): the words are said once, not at every poll."""
        told = tm.c.notice
        changed = await self._tx.execute(
            update(tm)
            .where(
                _at(pairing.tournament_id, pairing.round, pairing.table_no),
                tm.c.decided_at.is_(None),
                (told.is_(None)) | (told != notice),
            )
            .values(notice=notice)
        )
        return changed == 1

    async def add_log(self, tournament_id: int, now: float, user_id: str, text: str) -> None:
        await self._tx.execute(
            lg.insert().values(tournament_id=tournament_id, at=now, user_id=user_id, text=text)
        )
