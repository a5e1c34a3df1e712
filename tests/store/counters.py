"""What the players' counters (schema 14) must hold: each player's record as the queries before
them computed it from the whole history, next to what ``!stats`` reads now; and a history that
ends matches every way the bot can, to compare the two on."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from sqlalchemy import case, distinct, func, or_, select, text

from bot.rules.match import Match
from bot.service.matches.repository import MatchTerms
from bot.service.models import ENGINE_USER, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import PlayerFigures, Store, schema
from bot.store.players import LevelRecord, MatchCounts
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.driver import FakeClock, play_out, public, start_match
from tests.service.fake_engine import FakeEngine

HOUR = 3600.0


@dataclass(frozen=True)
class Record:
    """One player's record: what ``!stats`` shows of their matches."""

    counts: MatchCounts
    against_engine: list[LevelRecord]
    # analysed matches, decisions, PR (a float, or pytest.approx of one to compare with)
    pr: tuple[int, int, object] | None


async def players_of(store: Store, server_id: str) -> list[str]:
    p = schema.players
    rows = await store.fetch_all(select(p.c.user_id).where(p.c.server_id == server_id))
    return [str(row[0]) for row in rows]


async def recounted(store: Store, server_id: str) -> dict[str, Record]:
    """Each player's record by the queries of schema 13: the whole history read each time."""
    m, figures = schema.matches, schema.analysis_players
    users = await players_of(store, server_id)
    out = {}
    for user_id in users:
        mine = or_(m.c.player0_id == user_id, m.c.player1_id == user_id)
        statuses = dict(
            tuple(row)
            for row in await store.fetch_all(
                select(m.c.status, func.count())
                .where(m.c.server_id == server_id, mine)
                .group_by(m.c.status)
            )
        )
        seat = case((m.c.player0_id == user_id, 0), else_=1)
        levels = await store.fetch_all(
            select(
                m.c.engine_level,
                func.sum(case((m.c.winner == seat, 1), else_=0)),
                func.sum(case((m.c.winner == 1 - seat, 1), else_=0)),
            )
            .where(
                m.c.server_id == server_id,
                m.c.status == "finished",
                m.c.engine_level.is_not(None),
                m.c.winner.is_not(None),
                mine,
            )
            .group_by(m.c.engine_level)
            .order_by(m.c.engine_level)
        )
        decisions = func.sum(figures.c.decisions)
        pr = await store.fetch_one(
            select(
                func.count(distinct(figures.c.match_id)),
                decisions,
                func.sum(figures.c.pr * figures.c.decisions) / func.nullif(decisions, 0),
            ).where(figures.c.server_id == server_id, figures.c.user_id == user_id)
        )
        out[user_id] = Record(
            MatchCounts(
                int(statuses.get("finished", 0)),
                int(statuses.get("aborted", 0)),
                int(statuses.get("playing", 0)),
            ),
            [LevelRecord(str(row[0]), int(row[1]), int(row[2])) for row in levels],
            None
            if pr is None or not pr[0] or pr[2] is None
            else (int(pr[0]), int(pr[1]), pytest.approx(float(pr[2]))),
        )
    return out


async def counted(store: Store, server_id: str) -> dict[str, Record]:
    """Each player's record as ``!stats`` reads it now: counters and an index."""
    users = await players_of(store, server_id)
    out = {}
    for user_id in users:
        pr = await store.players.pr_summary(server_id, user_id)
        out[user_id] = Record(
            await store.players.match_counts(server_id, user_id),
            await store.players.against_engine(server_id, user_id),
            None if pr is None else (pr.matches, pr.decisions, pr.pr),
        )
    return out


def history_service(store: Store, clock: FakeClock, seed: int) -> TableService:
    """A service to play :func:`live_history` through: the engine a stand-in, no threads."""
    return TableService(
        store,
        settings=Settings(match_threads=False, analysis_auto=False),
        dice=seeded_dice(seed),
        clock=clock,
        images=False,
        engine=FakeEngine(),
    )


async def live_history(service: TableService, clock: FakeClock, server_id: str) -> None:
    """Matches ended every way the bot ends them, on one server: played out (rated, unrated and
    money), claimed (rated by GNU Backgammon's chance), lost on time, aborted by both, voided,
    against GNU Backgammon (won, lost, aborted); matches still being played; analyses stored,
    one of them twice."""

    def at(name: str) -> Place:
        return Place(server_id, name)

    played: list[tuple[User, User, int | str]] = [
        (ALICE, BOB, 1),
        (BOB, CAROL, 3),
        (CAROL, ALICE, 1),
        (ALICE, CAROL, "money"),
    ]
    for n, (a, b, length) in enumerate(played):
        await start_match(service, at(f"played-{n}"), a, b, length)
        await play_out(service, at(f"played-{n}"), (a, b), seed=n, drop_rate=0.5)
    await start_match(service, at("claimed"), BOB, ALICE, 3)
    table = await service.table(at("claimed"))
    assert table is not None and table.match.turn is not None
    clock.advance(service.settings.claim_timeout_hours * HOUR + 60)
    waiting = (BOB, ALICE)[1 - table.match.turn]
    public(await service.matches.claim(at("claimed"), waiting))
    await start_match(service, at("on-time"), CAROL, BOB, "1 clock 1m")
    clock.advance(HOUR)
    await service.due()
    await start_match(service, at("aborted"), ALICE, BOB, 3)
    for user in (ALICE, BOB):
        public(await service.matches.abort(at("aborted"), user))
    await start_match(service, at("voided"), CAROL, BOB, 3)
    public(await service.matches.void(at("voided"), ALICE, moderator=True))
    # Against GNU Backgammon, through the repository (the engine's own turns are not what is
    # counted): won and lost by the person at two levels, and aborted.
    endings = [
        (ALICE, "expert", 0),
        (BOB, "expert", 1),
        (ALICE, "advanced", 1),
        (CAROL, "expert", None),
    ]
    for n, (user, level, winner) in enumerate(endings):
        table = await service.repository.create_engine_match(
            at(f"bot-{n}"),
            user,
            ENGINE_USER,
            Match.start(1, dice=seeded_dice(n)()),
            MatchTerms(engine_level=level, rated=False),
        )
        if winner is None:
            await service.repository.end(table, status="aborted", ending="aborted")
        else:
            await service.repository.end(table, status="finished", ending="claimed", winner=winner)
    await start_match(service, at("live"), ALICE, CAROL, 5)
    await start_match(service, at("live-2"), BOB, ALICE, 3)
    live = Match.start(3, dice=seeded_dice(9)())
    await service.repository.create_engine_match(
        at("bot-live"), BOB, ENGINE_USER, live, MatchTerms("expert")
    )
    await analyse(service.store, server_id, [at("played-0"), at("played-1"), at("bot-0")])


async def analyse(store: Store, server_id: str, places: list[Place]) -> None:
    """Store an analysis of each place's last match (the first one twice, as a runner whose
    lease lapsed would), with made-up figures."""
    for n, place in enumerate(places):
        row = await store.matches.latest(server_id, place.channel_id)
        assert row is not None and row.status == "finished"
        async with store.transaction() as tx:
            await tx.analyses.queue(row.id, 2, 0.0)
        players = tuple(
            PlayerFigures(seat, user_id, 4.5 + n + 3 * seat, 9.0 + n, 40 + 7 * n + seat)
            for seat, user_id in enumerate(row.player_ids)
        )
        for _ in range(2 if n == 0 else 1):
            async with store.transaction() as tx:
                await tx.analyses.finish(row.id, server_id, "{}", players, float(n))


async def back_to_schema_13(store: Store) -> None:
    """Undo migrations 016, 015 and 014 by hand: the database as schema 13 left it (its history
    kept)."""
    async with store.transaction() as tx:
        for statement in (
            "ALTER TABLE servers DROP COLUMN language",  # schema 20's: added again by 020
            "DROP TABLE drills",  # schema 16's: made again by migration 016
            *(
                f"DROP TABLE {table}"  # schema 15's: made again by migration 015
                for table in (
                    "tournament_log",
                    "tournament_matches",
                    "tournament_entrants",
                    "tournaments",
                )
            ),
            "DROP INDEX matches_by_player0",  # schema 16's
            "DROP INDEX matches_by_player1",
            "DROP INDEX players_ranked",
            "DROP INDEX matches_playing",
            "DROP TABLE engine_records",
            *(
                f"ALTER TABLE players DROP COLUMN {column}"
                for column in (
                    "finished",
                    "aborted",
                    "analysed_matches",
                    "analysed_decisions",
                    "analysed_pr_sum",
                )
            ),
            "CREATE INDEX matches_against_engine ON matches (server_id, engine_level)"
            " WHERE engine_level IS NOT NULL",
            "CREATE INDEX analysis_players_by_player ON analysis_players (server_id, user_id)",
            "PRAGMA user_version = 13"
            if store.is_sqlite
            else "UPDATE meta SET value = '13' WHERE name = 'schema_version'",
        ):
            await tx.execute(text(statement))
