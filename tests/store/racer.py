"""One of two processes racing on one database (tests/store/test_races.py):
``python -m tests.store.racer URL match|rating-ab|rating-ba|names-ab|names-ba|jobs|tournaments
COUNT``."""

from __future__ import annotations

import asyncio
import os
import sys

from bot.store import AnalysisRecords, StaleMatchError, Store
from bot.store import tournaments as db


async def race_on_the_match(store: Store, count: int) -> int:
    """Save the match ``count`` times, each with the next action of its log; a save that finds
    the match changed meanwhile reads it again and tries again. How many saves were stale."""
    stale = 0
    done = 0
    while done < count:
        row = await store.match(1)
        assert row is not None
        logged = len(await store.match_actions(1))
        try:
            async with store.transaction() as tx:
                await tx.save_match(1, row.version, status="playing", now=float(done))
                await tx.append_actions(1, logged, [f'{{"n": {logged}}}'])
            done += 1
        except StaleMatchError:
            stale += 1
    return stale


async def race_on_the_rating(store: Store, count: int, ids: tuple[str, str]) -> int:
    """``ids[0]`` beats ``ids[1]`` ``count`` times: both read, then written (rating +1 and -1,
    a point of experience each). The other process plays the same two the other way round."""
    for _ in range(count):
        async with store.transaction() as tx:
            winner, loser = await tx.both_players("s", ids)
            await asyncio.sleep(0)  # the other process's turn, if it is waiting
            for player, change, won in ((winner, 1, True), (loser, -1, False)):
                await tx.update_player_result(
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
            await tx.ensure_players("s", [(ids[0], f"{ids[0]}{n}"), (ids[1], f"{ids[1]}{n}")], 0.0)
            await asyncio.sleep(0)
            await tx.create_challenge("s", f"c-{ids[0]}-{n}", ids[0], ids[1], 1, 0.0, 1.0)
    return 0


async def race_on_the_queue(store: Store) -> str:
    """Take analysis jobs from the queue until none is left, finishing each: the ids taken,
    comma-separated. The other process takes from the same queue."""
    records = AnalysisRecords(store)
    name = f"racer-{os.getpid()}"
    taken = []
    while (job := await records.claim(name, now=10.0, lease=1000.0)) is not None:
        taken.append(job.match_id)
        await asyncio.sleep(0)
        await records.finish(job.match_id, "s", "{}", [], now=11.0)
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
            made += await db.create(tx, values) is not None
    return made


async def main(url: str, kind: str, count: int) -> None:
    store = await Store.open(url)
    try:
        if kind == "jobs":
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
