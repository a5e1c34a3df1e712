"""What the end of a tournament round costs the database, counted statement by statement through
the store (as ``tests/service/test_queries.py`` counts a move): the ``!accept`` that ends the
last match of round 1, its result taken, the next round paired and its matches started.

Before the store's repositories batched them (issue 31), a knockout of 4 took 62 statements (29
SELECTs, 6 transactions, 21 writes) and a Swiss of 8 took 110 (38 SELECTs, 12 transactions, 48
writes). Half of that is the aim; what is left is mostly the after-command pipeline reading the
ended match again (the rematch summary, threads, analysis, tournaments) and the replies' marks.
"""

from __future__ import annotations

import pytest

from bot.console import SERVER
from bot.service.models import Place
from tests.service.test_queries import Statements
from tests.service.tournaments.test_tournaments import HOME, Table, created, names


async def round_end(table: Table, terms: str, players: int, opened: int) -> Statements:
    """The statements of the command that ends round 1's last match (round 2 then opens
    ``opened`` matches)."""
    tid = await created(table, terms, names(players))
    await table.say(f"#{HOME} org: !tournament start")
    *first, last = await table.open_channels(tid)
    for channel in first:
        await table.finish(channel)
    match = await table.service.table(Place(SERVER, last))
    assert match is not None and match.match.turn is not None
    loser, winner = match.plain[match.match.turn], match.plain[1 - match.match.turn]
    await table.say(f"#{last} {loser}: !resign")
    statements = Statements()
    await table.store.trace(statements)
    said = await table.say(f"#{last} {winner}: !accept")
    await table.store.trace(None)
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.round == 2, said
    assert len(await table.open_channels(tid)) == opened, said
    return statements


@pytest.mark.parametrize(
    ("terms", "players", "opened", "most", "reads", "transactions"),
    [("Spring knockout 1", 4, 1, 51, 22, 6), ("Autumn swiss 3 rounds 1", 8, 4, 87, 25, 12)],
)
async def test_a_rounds_end_costs_at_most_its_pinned_statements(
    table: Table,
    terms: str,
    players: int,
    opened: int,
    most: int,
    reads: int,
    transactions: int,
) -> None:
    statements = await round_end(table, terms, players, opened)
    assert len(statements.seen) <= most, statements.seen
    assert len(statements.reads) <= reads, statements.reads
    assert statements.transactions == statements.commits <= transactions, statements.seen
