"""One of two processes racing on one database (tests/store/test_races.py):
``python -m tests.store.racer URL KIND COUNT``, KIND one of ``match``, ``rating-ab``,
``rating-ba``, ``names-ab``, ``names-ba``, ``jobs``, ``tournaments``, ``join-a``, ``join-b``,
``joins``, ``start``, ``drill``, ``daily``, ``daily-lost``."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import sys
from typing import Any

from bot.service.models import Place, User
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import StaleMatchError, Store, Transaction
from bot.store.dailies import LEASE

HOME = Place("s", "c")  # the racing tournaments' channel


async def race_on_the_match(store: Store, count: int) -> int:
    """Save the match ``count`` times, each with the next action of its log; a save that finds
    the match changed meanwhile reads it again and tries again. How many saves were stale."""
    stale = 0
    done = 0
    while done < count:
        row = await store.matches.get(1)
        assert row is not None
        logged = len(await store.matches.actions(1))
        try:
            async with store.transaction() as tx:
                await tx.matches.save(1, row.version, status="playing", now=float(done))
                await tx.matches.append_actions(1, logged, [f'{{"n": {logged}}}'])
            done += 1
        except StaleMatchError:
            stale += 1
    return stale


async def race_on_the_rating(store: Store, count: int, ids: tuple[str, str]) -> int:
    """``ids[0]`` beats ``ids[1]`` ``count`` times: both read, then written (rating +1 and -1,
    a point of experience each). The other process plays the same two the other way round."""
    for _ in range(count):
        async with store.transaction() as tx:
            winner, loser = await tx.players.both("s", ids)
            await asyncio.sleep(0)  # the other process's turn, if it is waiting
            for player, change, won in ((winner, 1, True), (loser, -1, False)):
                await tx.players.update_result(
                    "s",
                    player.user_id,
                    rating=player.rating + change,
                    experience=player.experience + 1,
                    won=won,
                )
    return 0


async def race_on_the_names(store: Store, count: int, ids: tuple[str, str]) -> int:
    """Challenge after challenge between the same two players, named in the order ``ids``
    (the other process names them the other way round): each writes both players' names."""
    for n in range(count):
        async with store.transaction() as tx:
            await tx.players.ensure_all(
                "s", [(ids[0], f"{ids[0]}{n}"), (ids[1], f"{ids[1]}{n}")], 0.0
            )
            await asyncio.sleep(0)
            await tx.challenges.create("s", f"c-{ids[0]}-{n}", ids[0], ids[1], 1, 0.0, 1.0)
    return 0


async def race_on_the_queue(store: Store) -> str:
    """Take analysis jobs from the queue until none is left, finishing each: the ids taken,
    comma-separated. The other process takes from the same queue."""
    name = f"racer-{os.getpid()}"
    taken = []
    while True:
        async with store.transaction() as tx:
            job = await tx.analyses.claim(name, now=10.0, lease=1000.0)
        if job is None:
            break
        taken.append(job.match_id)
        await asyncio.sleep(0)
        async with store.transaction() as tx:
            await tx.analyses.finish(job.match_id, "s", "{}", [], now=11.0)
    return ",".join(map(str, taken))


async def race_on_the_tournament_names(store: Store, count: int) -> int:
    """Create tournaments ``T0`` to ``T{count - 1}`` on one server, as the other process does:
    how many of them this process made (an open name is never made twice)."""
    made = 0
    for n in range(count):
        async with store.transaction() as tx:
            values = {
                "server_id": "s",
                "channel_id": "c",
                "name": f"T{n}",
                "format": "knockout",
                "match_length": 1,
                "size_limit": 8,
                "status": "signup",
                "organiser_id": "a",
                "created_at": 0.0,
            }
            made += await tx.tournaments.create(values) is not None
    return made


LATE = 0.01  # at most this many seconds each statement answers late, in the service races


def service(store: Store) -> TableService:
    return TableService(store, settings=Settings(analysis_auto=False), images=False)


def answering_late(store: Store) -> None:
    """Every statement of ``store`` answers up to :data:`LATE` late (a busy database): a command
    that checks what it read before its write transaction then races the other process often
    enough to be caught, and transactions overlap longer; one that checks in a transaction
    holding what it checks doesn't mind."""
    read = store._read

    async def late_read(statement: Any, params: Any) -> Any:
        outcome = await read(statement, params)
        await asyncio.sleep(random.uniform(0, LATE))
        return outcome

    store._read = late_read  # type: ignore[method-assign]
    for name in ("execute", "fetch_all", "fetch_one"):
        written = getattr(Transaction, name)

        async def late(tx: Transaction, *args: Any, _run: Any = written) -> Any:
            outcome = await _run(tx, *args)
            await asyncio.sleep(random.uniform(0, LATE))
            return outcome

        setattr(Transaction, name, late)


async def race_to_join(store: Store, count: int, side: str) -> int:
    """Two players of this side join each of ``count`` tournaments (ids 1 to ``count``) as the
    other side's two do: how many joins were taken (refusals are not)."""
    table = service(store)
    joined = 0
    for tournament in range(1, count + 1):
        for seat in range(2):
            joined += await join(table, f"{side}{seat}", tournament)
    return joined


async def join(table: TableService, name: str, tournament: int) -> int:
    """Whether ``name`` joined ``tournament``."""
    user = User(f"{name}-{tournament}", name)
    return sum(
        1
        for reply in await table.tournament_commands.join(HOME, user, f"#{tournament}")
        if not reply.private
    )


async def race_to_join_until_started(store: Store, count: int) -> int:
    """Joins to each of ``count`` tournaments in turn, a new player each time, until every one
    has started (the other process starts them): how many joins were taken."""
    table = service(store)
    joined = 0
    for rounds in itertools.count():
        taken = [await join(table, f"j{rounds}", n) for n in range(1, count + 1)]
        joined += sum(taken)
        started = await store.fetch_all("SELECT COUNT(*) FROM tournaments WHERE status = 'running'")
        if int(started[0][0]) == count:
            return joined
    raise AssertionError("unreachable")


async def race_to_start(store: Store, count: int) -> int:
    """The organiser starts each of ``count`` tournaments while the other process joins them:
    how many started."""
    table = service(store)
    organiser = User("o", "organiser")
    started = 0
    for tournament in range(1, count + 1):
        replies = await table.tournament_commands.tournament(
            HOME, organiser, f"#{tournament} start", organiser=True
        )
        started += any("starts" in reply.text for reply in replies if not reply.private)
    return started


async def race_on_the_drills(store: Store, count: int) -> str:
    """One player's ``!drill``, answered at once, ``count`` times (the other process drills the
    same player), in JSON: how many answers were taken, and each time the drills seen waiting
    for the player's answer just after the question ([decision, shown at] each)."""
    table = service(store)
    user = User("a", "alice")
    answered = 0
    seen = []
    for _ in range(count):
        await table.review_commands.drill(HOME, user)
        waiting = await store.fetch_all(
            "SELECT decision, shown_at FROM drills WHERE user_id = 'a' AND shown_at IS NOT NULL"
        )
        seen.append([[int(row[0]), float(row[1])] for row in waiting])
        replies = await table.review_commands.drill(HOME, user, "take")
        answered += sum(1 for reply in replies if not reply.private)
    return json.dumps({"answered": answered, "seen": seen})


DAILY_START = 1_800_003_600.0  # 09:00 UTC: the daily puzzle raced on is due then, and daily


async def race_on_the_daily(store: Store, count: int) -> int:
    """The deadline poll at each of ``count`` days' due time of the server ``s``'s daily
    puzzle (the other process polls too): how many posts this process made."""
    now = [DAILY_START]
    table = TableService(
        store, settings=Settings(analysis_auto=False), clock=lambda: now[0], images=False
    )
    posted = 0
    for day in range(count):
        now[0] = DAILY_START + day * 86400 + random.uniform(0, 1)
        due = await table.puzzles.daily.due(lambda place: True)
        await table.sent(reply for _, reply in due)
        posted += len(due)
    return posted


async def race_on_lost_dailies(store: Store, count: int) -> int:
    """The deadline poll ``count`` times from the moment the lease of the daily posts claimed
    at :data:`DAILY_START` and never sent ends (the other process polls too): how many of them
    this process posted again."""
    now = [DAILY_START]
    table = TableService(
        store, settings=Settings(analysis_auto=False), clock=lambda: now[0], images=False
    )
    posted = 0
    for n in range(count):
        now[0] = DAILY_START + LEASE + n * 0.1 + random.uniform(0, 0.1)
        due = await table.puzzles.daily.due(lambda place: True)
        await table.sent(reply for _, reply in due)
        posted += len(due)
    return posted


async def main(url: str, kind: str, count: int) -> None:
    store = await Store.open(url)
    if kind.startswith(("join", "start", "drill", "daily")):
        answering_late(store)
    try:
        if kind == "joins":
            print(await race_to_join_until_started(store, count))
        elif kind.startswith("join"):  # "join-a" or "join-b": whose players
            print(await race_to_join(store, count, kind[-1]))
        elif kind == "start":
            print(await race_to_start(store, count))
        elif kind == "drill":
            print(await race_on_the_drills(store, count))
        elif kind == "daily":
            print(await race_on_the_daily(store, count))
        elif kind == "daily-lost":
            print(await race_on_lost_dailies(store, count))
        elif kind == "jobs":
            print(await race_on_the_queue(store))
        elif kind == "tournaments":
            print(await race_on_the_tournament_names(store, count))
        elif kind == "match":
            print(await race_on_the_match(store, count))
        elif kind.startswith("names"):  # "names-ab" or "names-ba"
            print(await race_on_the_names(store, count, (kind[-2], kind[-1])))
        else:  # "rating ab" or "rating ba": who wins
            print(await race_on_the_rating(store, count, (kind[-2], kind[-1])))
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
