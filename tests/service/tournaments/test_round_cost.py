"""What the end of a tournament round costs the database, counted statement by statement through
the store (as ``tests/service/test_queries.py`` counts a move): the ``!accept`` that ends the
last match of round 1, its result taken, the next round paired and its matches started.

Before issue 31, a knockout of 4 took 62 statements (29 SELECTs, 6 transactions, 21 writes) and
a Swiss of 8 took 110 (38 SELECTs, 12 transactions, 48 writes); after the store's repositories and
the events, 51 and 87 (the console's reads included). Half of the first figures was the aim, for
what the command costs: the console's own reads and marks after it (the board it shows, the
matches it marks as announced) are the adapter's, counted apart. Now 30 and 36: the command's
own save (10), the bot's and the summary's reads of the ended match (2), the result taken (1
read, 1 transaction), the entrants and pairings read after its commit, the next round written
(1 transaction) and its matches started (1 transaction, whatever their number). The console's
own, 7 and 10 (10 and 22 when each shown match was marked in a transaction of its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.console import SERVER
from bot.service.models import Place
from tests.service.test_queries import Statements
from tests.service.tournaments.test_tournaments import HOME, Table, created, names


@dataclass
class Split(Statements):
    """Statements, the adapter's (run while the console reads what to show) kept apart."""

    adapter: list[str] = field(default_factory=list)
    showing: bool = False

    def __call__(self, sql: str) -> None:
        if self.showing:
            self.adapter.append(" ".join(sql.split()))
        else:
            super().__call__(sql)


def adapters_apart(table: Table, statements: Split) -> None:
    """Count what the console's own reads run (after a command) in ``statements.adapter``."""
    for name in ("game_view", "mark_all_announced", "latest_table"):
        method = getattr(table.service, name)

        async def shown(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            statements.showing = True
            try:
                return await _method(*args, **kwargs)
            finally:
                statements.showing = False

        setattr(table.service, name, shown)


async def round_end(table: Table, terms: str, players: int, opened: int) -> Split:
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
    statements = Split()
    adapters_apart(table, statements)
    await table.store.trace(statements)
    said = await table.say(f"#{last} {winner}: !accept")
    await table.store.trace(None)
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.round == 2, said
    assert len(await table.open_channels(tid)) == opened, said
    return statements


@pytest.mark.parametrize(
    ("terms", "players", "opened", "most", "reads", "transactions", "shown"),
    [
        ("Spring knockout 1", 4, 1, 30, 7, 4, 7),
        ("Autumn swiss 3 rounds 1", 8, 4, 36, 7, 4, 10),
    ],
)
async def test_a_rounds_end_costs_at_most_its_pinned_statements(
    table: Table,
    terms: str,
    players: int,
    opened: int,
    most: int,
    reads: int,
    transactions: int,
    shown: int,
) -> None:
    statements = await round_end(table, terms, players, opened)
    assert len(statements.seen) <= most, statements.seen
    assert len(statements.reads) <= reads, statements.reads
    assert statements.transactions == statements.commits <= transactions, statements.seen
    # The console's: the new boards read and marked shown (one transaction for all of them).
    assert 0 < len(statements.adapter) <= shown, statements.adapter
