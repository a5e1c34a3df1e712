"""The PostgreSQL runner on asyncpg's driver: a move's save is its four writes in one statement,
one round trip, its statements prepared once per connection (counted on the wire: each
message the driver's protocol sends and waits on); the driver's errors are raised as
SQLAlchemy's and roll the transaction back; a transaction cancelled amid a statement leaves the
pool without its connection."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy import exc as sa

from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.store import Store, database, schema
from bot.store.postgres import _out_of_step
from tests.postgres import PostgresServer

pytestmark = pytest.mark.slow  # a PostgreSQL server of the test run's
p = schema.players


class Wire:
    """An asyncpg connection's protocol, counting each exchange with the server by its kind."""

    def __init__(self, protocol: Any, seen: Counter[str]) -> None:
        self._protocol = protocol
        self._seen = seen

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._protocol, name)
        if name in ("prepare", "bind_execute", "bind_execute_many", "query", "copy_in"):
            self._seen[name] += 1
        return found


@pytest.fixture
async def store(postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Store]:
    monkeypatch.setattr(database, "POOL_SIZE", 1)  # one connection, used by each command in turn
    store = await Store.open(await postgres.new_database())
    yield store
    await store.close()


def count_the_wire(patch: pytest.MonkeyPatch) -> Counter[str]:
    """Each exchange of every asyncpg connection opened from now on, by its kind."""
    seen: Counter[str] = Counter()
    real = asyncpg.Connection.__init__

    def wrapped(connection: Any, protocol: Any, *args: Any, **kwargs: Any) -> None:
        real(connection, Wire(protocol, seen), *args, **kwargs)

    patch.setattr(asyncpg.Connection, "__init__", wrapped)
    patch.setattr(database, "POOL_SIZE", 1)  # one connection, used by each command in turn
    return seen


async def test_a_moves_save_is_one_trip_a_statement(postgres: PostgresServer) -> None:
    with pytest.MonkeyPatch.context() as patch:
        seen = count_the_wire(patch)
        store = await Store.open(await postgres.new_database())
        try:
            service = TableService(store, dice=seeded_dice(1), images=False)
            place, amy, ben = Place("guild", "trips"), User("a", "amy"), User("b", "ben")
            await service.matches.challenge(place, amy, ben, "1")
            await service.matches.accept(place, ben)
            statements: list[str] = []
            for _ in range(3):  # the first prepares what the others reuse
                table = await service.table(place)
                assert table is not None and table.match.phase == "move"
                mover = (amy, ben)[table.match.turn or 0]
                notation = table.match.legal_plays()[0].notation
                seen.clear()
                statements.clear()
                await store.trace(statements.append)
                await service.matches.move(place, mover, notation)
                await store.trace(None)
            service.close()
        finally:
            await store.close()
    assert [sql.split()[0] for sql in statements] == [
        # no SELECT: the match kept in memory since the last command is acted on
        "UPDATE",  # the match, at the version kept
        "INSERT",  # the actions to its log: the move and the next roll
        "INSERT",  # the timer
        "INSERT",  # the next roll's dice counts
    ]
    # The four writes as one statement in no transaction of its own (one is atomic): one
    # bind-and-execute of the statement prepared on the connection before: no BEGIN, no
    # COMMIT, no SET, no prepare, no ping.
    assert seen == Counter({"bind_execute": 1})


async def test_a_saves_statement_is_one_text_whatever_its_actions(
    postgres: PostgresServer,
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        seen = count_the_wire(patch)
        store = await Store.open(await postgres.new_database())
        try:
            service = TableService(store, dice=seeded_dice(1), images=False)
            place = Place("guild", "texts")
            await service.matches.challenge(place, User("a", "amy"), User("b", "ben"), "1")
            await service.matches.accept(place, User("b", "ben"))
            service.close()
            found = await store.matches.playing(place.server_id, place.channel_id)
            assert found is not None
            match_id, version = found.id, found.version
            seq = len(await store.matches.actions(match_id))
            statements: list[str] = []
            await store.trace(statements.append)
            for count in (1, 3, 2):  # the first prepares the statement the others reuse
                seen.clear()
                async with store.transaction() as tx:
                    version = await tx.matches.save(match_id, version, status="playing", now=1.0)
                    await tx.matches.append_actions(match_id, seq, ['{"a": 1}'] * count)
                seq += count
                assert seen == Counter({"bind_execute": 1}) or count == 1, (count, seen)
            await store.trace(None)
            logged = await store.matches.actions(match_id)
        finally:
            await store.close()
    assert [sql.split()[0] for sql in statements] == ["UPDATE", "INSERT"] * 3
    assert [action for _, action in logged[-6:]] == ['{"a": 1}'] * 6
    assert [seq for seq, _ in logged] == list(range(len(logged)))


async def test_connections_opened_at_a_peak_are_kept(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    store = await Store.open(url)
    try:
        opened = database.POOL_SIZE  # at most: the migrations' one, then one per command at once
        for _ in range(5):  # flat out: four times as many commands as connections, each waiting
            await asyncio.gather(
                *(store.fetch_one(text("SELECT pg_sleep(0.01)")) for _ in range(4 * opened))
            )
        name = url.rsplit("/", 1)[1]
        server = await asyncpg.connect(postgres.url.replace("postgresql://", "postgres://"))
        try:
            sessions = await server.fetchval(
                "SELECT sessions FROM pg_stat_database WHERE datname = $1", name
            )
        finally:
            await server.close()
    finally:
        await store.close()
    # A pool that closed connections above its size at each return opened dozens here.
    assert sessions <= opened


async def test_a_command_takes_a_connection_back_without_the_pools_checkout(
    store: Store,
) -> None:
    await store.fetch_one(text("SELECT 1"))  # the pool's one connection, opened
    engine: Any = store._engine
    checkouts: list[object] = []
    event.listen(engine.sync_engine, "checkout", lambda *args: checkouts.append(args))
    for _ in range(3):
        await store.fetch_one(text("SELECT 1"))
        async with store.transaction() as tx:
            await tx.execute(schema.servers.insert(), {"id": f"s{_}", "created_at": 0.0})
    assert checkouts == []  # (each a greenlet switch, the pool's events, and its return)


async def test_a_drivers_error_is_sqlalchemys_and_rolls_back(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.execute(schema.servers.insert(), {"id": "s", "created_at": 0.0})
        await tx.execute(p.insert(), {"server_id": "s", "user_id": "u1", "name": "one"})
    with pytest.raises(sa.IntegrityError) as raised:
        async with store.transaction() as tx:
            await tx.execute(p.update().where(p.c.user_id == "u1").values(wins=5))
            await tx.execute(p.insert(), {"server_id": "s", "user_id": "u1", "name": "twice"})
    assert raised.value.orig is not None
    assert isinstance(raised.value.orig.__cause__, asyncpg.UniqueViolationError)
    row = await store.fetch_one(select(p.c.wins, p.c.name).where(p.c.user_id == "u1"))
    assert row is not None and tuple(row) == (0, "one")
    async with store.transaction() as tx:  # the connection went back to the pool, usable
        assert await tx.execute(p.update().where(p.c.user_id == "u1").values(wins=6)) == 1
    assert await store.fetch_one(select(p.c.wins).where(p.c.user_id == "u1")) == (6,)


async def test_rows_new_ids_and_text(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.execute(schema.servers.insert(), {"id": "s", "created_at": 0.0})
        await tx.execute(
            p.insert(), [{"server_id": "s", "user_id": f"u{n}", "name": f"p{n}"} for n in range(3)]
        )
    row = await store.fetch_one(select(func.count().label("players"), func.max(p.c.name)))
    assert row is not None and row[0] == row.players == row._mapping["players"] == 3
    assert row[1] == "p2"
    named = await store.fetch_one(text("SELECT 2 + 3 AS five"))
    assert named is not None and named.five == 5
    values = {
        "server_id": "s",
        "channel_id": "c",
        "player0_id": "u0",
        "player1_id": "u1",
        "match_length": 3,
        "state": "{}",
        "status": "playing",
        "created_at": 0.0,
        "last_action_at": 0.0,
    }
    m = schema.matches
    async with store.transaction() as tx:
        first = await tx.insert_row(m.insert().values(**values))
        second = await tx.insert_row(m.insert().values(**(values | {"channel_id": "d"})))
    assert second == first + 1


async def test_a_cancelled_transaction_leaves_its_connection_out_of_the_pool(
    store: Store,
) -> None:
    async with store.transaction() as tx:
        await tx.execute(schema.servers.insert(), {"id": "s", "created_at": 0.0})

    async def slow() -> None:
        async with store.transaction() as tx:
            await tx.execute(schema.servers.insert(), {"id": "t", "created_at": 0.0})
            await tx.fetch_one(text("SELECT pg_sleep(5)"))

    task = asyncio.create_task(slow())
    await asyncio.sleep(0.5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(4):  # more than the pool holds: none is stuck inside the old transaction
        async with store.transaction() as tx:
            await tx.execute(schema.servers.insert(), {"id": f"x{_}", "created_at": 0.0})
    ids = await store.fetch_all(select(schema.servers.c.id).order_by(schema.servers.c.id))
    assert [row.id for row in ids] == ["s", "x0", "x1", "x2", "x3"]  # "t" rolled back


async def test_a_transaction_lets_go_of_its_repositories_at_its_end(store: Store) -> None:
    """As on SQLite (``test_sqlite_runner``): a repository holds its transaction, which would
    be a cycle for the garbage collector to find after every save."""
    gc.disable()
    try:
        async with store.transaction() as tx:
            await tx.execute(schema.servers.insert(), {"id": "s", "created_at": 0.0})
            made = weakref.ref(tx.matches)
        assert made() is None and "matches" not in vars(tx)
    finally:
        gc.enable()


def test_a_protocol_out_of_step_is_found_under_the_errors_raised_from_it() -> None:
    """A repository's error raised from the store's, raised from the driver's: the connection
    is dropped whichever of them reaches the pool's connection (``postgres._out_of_step``)."""
    driver = asyncpg.InternalClientError("cannot switch to state 11")
    store_error = sa.InterfaceError("SELECT 1", (), driver)
    store_error.__cause__ = driver
    repository_error = ValueError("the repository's own")
    repository_error.__cause__ = store_error
    assert _out_of_step(driver) and _out_of_step(store_error) and _out_of_step(repository_error)
    assert not _out_of_step(sa.InterfaceError("SELECT 1", (), asyncpg.InterfaceError("closed")))
