"""The SQLite runner on aiosqlite: one trip to its thread per statement (a transaction's BEGIN
and the writes no one reads wait for its next one: a match's save is one trip), each statement
shape compiled once but bound with each call's values (a statement object bound again by the
shape it had), and the driver's errors raised as SQLAlchemy's (what the store translates on
either database)."""

from __future__ import annotations

import gc
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import bindparam, func, select
from sqlalchemy import exc as sa

from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.store import StaleMatchError, Store, matches, schema
from bot.store import connections as runner
from bot.store import dice as dice_store
from bot.store.connections import bind
from bot.store.matches import TimerRow

p = schema.players


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "runner.sqlite3")
    async with store.transaction() as tx:
        await tx.execute(schema.servers.insert(), {"id": "s", "created_at": 0.0})
        await tx.execute(
            p.insert(),
            [{"server_id": "s", "user_id": f"u{n}", "name": f"player {n}"} for n in range(4)],
        )
    yield store
    await store.close()


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[Callable[..., Any]]:
    """Every function sent to an aiosqlite connection's thread, in order."""
    sent: list[Callable[..., Any]] = []
    real: Callable[..., Awaitable[Any]] = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Callable[..., Any], *args: Any) -> Any:
        sent.append(fn)
        return await real(self, fn, *args)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return sent


async def test_each_statement_is_one_trip(store: Store, trips: list[Callable[..., Any]]) -> None:
    statements: list[str] = []
    await store.trace(statements.append)
    row = await store.fetch_one(select(p.c.name).where(p.c.user_id == "u2"))
    assert row is not None and row.name == "player 2"
    assert len(trips) == len(statements) == 1
    async with store.transaction() as tx:
        changed = await tx.execute(p.update().where(p.c.user_id == "u1").values(wins=p.c.wins + 1))
        assert changed == 1
        await tx.execute(
            p.insert(), {"server_id": "s", "user_id": "u9", "name": "player 9", "wins": 3}
        )
    await store.trace(None)
    assert [sql.split()[0] for sql in statements] == [
        "SELECT",
        "BEGIN",
        "UPDATE",
        "INSERT",
        "COMMIT",
    ]
    assert len(trips) == len(statements) - 1  # BEGIN went with the UPDATE


async def test_writes_no_one_reads_go_with_the_next_trip(
    store: Store, trips: list[Callable[..., Any]]
) -> None:
    statements: list[str] = []
    await store.trace(statements.append)
    async with store.transaction() as tx:
        await tx.write(p.update().where(p.c.user_id == "u1").values(wins=p.c.wins + 1))
        await tx.write(p.update().where(p.c.user_id == "u2").values(wins=p.c.wins + 2))
        assert trips == []
        seen = await tx.fetch_one(select(p.c.wins).where(p.c.user_id == "u2"))
        assert seen is not None and seen.wins == 2  # sent before the read, in order
        assert len(trips) == 1
        await tx.write(p.update().where(p.c.user_id == "u3").values(wins=p.c.wins + 3))
    await store.trace(None)
    assert [sql.split()[0] for sql in statements] == [
        "BEGIN",
        "UPDATE",
        "UPDATE",
        "SELECT",
        "UPDATE",
        "COMMIT",
    ]
    assert len(trips) == 2  # the last write with the COMMIT
    wins = await store.fetch_all(select(p.c.user_id, p.c.wins).order_by(p.c.user_id))
    assert [tuple(row) for row in wins] == [("u0", 0), ("u1", 1), ("u2", 2), ("u3", 3)]


async def test_a_waiting_write_that_fails_rolls_its_transaction_back(store: Store) -> None:
    with pytest.raises(sa.IntegrityError):
        async with store.transaction() as tx:
            await tx.execute(p.update().where(p.c.user_id == "u1").values(wins=5))
            await tx.write(p.insert(), {"server_id": "s", "user_id": "u1", "name": "twice"})
    row = await store.fetch_one(select(p.c.wins, p.c.name).where(p.c.user_id == "u1"))
    assert row is not None and tuple(row) == (0, "player 1")
    async with store.transaction() as tx:  # the store works on
        await tx.write(p.update().where(p.c.user_id == "u1").values(wins=6))
    assert await store.fetch_one(select(p.c.wins).where(p.c.user_id == "u1")) == (6,)


async def test_a_statement_built_at_each_call_is_compiled_once_with_its_own_values(
    store: Store,
) -> None:
    def named(user_id: str) -> Any:
        return select(p.c.name).where(p.c.server_id == "s", p.c.user_id == user_id)

    first, second = bind(named("u0"), ()), bind(named("u3"), ())
    assert first.plan is second.plan  # one shape, compiled once
    assert (first.values, second.values) == (("s", "u0"), ("s", "u3"))
    assert [(await store.fetch_one(named(f"u{n}")) or ("?",))[0] for n in (3, 0)] == [
        "player 3",
        "player 0",
    ]


async def test_a_statement_bound_again_takes_each_calls_values_by_its_shape() -> None:
    own = select(p.c.name).where(p.c.server_id == "s", p.c.user_id == bindparam("user"))
    first, second = bind(own, {"user": "u0"}), bind(own, {"user": "u3"})
    assert id(own) in runner._shapes  # the second came from the first's shape
    assert (first.values, second.values) == (("s", "u0"), ("s", "u3"))
    assert first.plan is second.plan and first.sql == second.sql
    many = bind(p.insert(), [{"server_id": "s", "user_id": "u8", "name": "x"}] * 2)
    assert many.many and many.values == [("s", "u8", "x")] * 2
    with pytest.raises(sa.InvalidRequestError):  # a parameter missing is SQLAlchemy's error still
        bind(own, {"someone": "u1"})
    del own
    assert len([key for key, (ref, _) in runner._shapes.items() if ref() is None]) == 0


@pytest.mark.parametrize("touch", [True, False])
def test_values_bound_by_a_shape_are_sqlalchemys_own(touch: bool) -> None:
    """A shape's values (the parameters' got at once, then those processed and the statement's
    own put in their places) are what SQLAlchemy's binding gives, for a save of a match (a
    Boolean processed, the version's increment its own), a timer and the dice."""
    saved = {
        "match_id": 7,
        "seen_version": 3,
        "new_state": None,
        "new_snapshot": "{}",
        "new_winner": None,
        "new_ending": None,
        "new_abort_offered_by": 1,
        "touch": touch,
        "now": 2.5,
    }
    timer: dict[str, Any] = {"match_id": 7, "turn_started_at": 2.5, "reminded": int(touch)}
    timer |= {"bank0": 1.0, "bank1": None, "delay": None, "flag_at": None}
    dice = {"server_id": "s", "rolls": 1, "doubles": 0} | {f"face{n}": n % 2 for n in range(1, 7)}
    for statement, params in (
        (vars(matches)["_SAVE_MATCH"], saved),
        (vars(matches)["_SAVE_MATCH_STATUS"], saved | {"new_status": "finished"}),
        (vars(matches)["_TIMER_WRITTEN"]["sqlite"], timer),
        (vars(dice_store)["_DICE_ADDED"]["sqlite"], dice),
    ):
        bind(statement, params)  # its shape, kept
        by_shape = bind(statement, params)
        assert id(statement) in runner._shapes
        by_sqlalchemy, _ = runner._bind(statement, [params], False, runner.DIALECT)
        assert by_shape.values == by_sqlalchemy.values and by_shape.sql == by_sqlalchemy.sql


async def test_a_saves_writes_are_one_trip_and_its_version_check_undoes_it(
    store: Store, trips: list[Callable[..., Any]]
) -> None:
    async with store.transaction() as tx:
        match_id = (await tx.matches.create("s", "c", ("u0", "u1"), 3, "{}", 1.0)).id
    trips.clear()
    for version, seq in ((1, 0), (2, 2)):
        async with store.transaction() as tx:
            await tx.matches.save(match_id, version, snapshot="{}", status="playing", now=2.0)
            await tx.matches.append_actions(match_id, seq, ['{"a": 0}', '{"a": 1}'])
            await tx.matches.write_timer(TimerRow(match_id, 2.0, False, None, None, None))
            await tx.dice.add("s", (1, 0, 0, 0, 1, 0), 1, 0)
    assert len(trips) == 2  # BEGIN, the UPDATE, the INSERT, the timer, the dice, COMMIT: one
    with pytest.raises(StaleMatchError):
        async with store.transaction() as tx:
            await tx.matches.save(match_id, 1, snapshot="{}", status="playing", now=3.0)
            await tx.matches.append_actions(match_id, 4, ['{"a": "lost"}'])
            await tx.dice.add("s", (0, 0, 0, 0, 0, 2), 1, 1)
    assert len(await store.matches.actions(match_id)) == 4
    assert (await store.dice.counts("s")).rolls == 2  # the stale save's dice undone with it
    row = await store.matches.get(match_id)
    assert row is not None and row.version == 3


async def test_a_transaction_leaves_no_cyclic_garbage(store: Store) -> None:
    """Its repositories hold it (``tx.matches``...): let go at its end, a save's transaction
    goes at once instead of waiting for the garbage collector."""
    async with store.transaction() as tx:
        match_id = (await tx.matches.create("s", "c", ("u0", "u1"), 3, "{}", 1.0)).id
    gc.disable()
    try:
        gc.collect()
        async with store.transaction() as tx:
            await tx.matches.save(match_id, 1, snapshot="{}", status="playing", now=2.0)
            await tx.dice.add("s", (1, 0, 0, 0, 1, 0), 1, 0)
        assert gc.collect() == 0
    finally:
        gc.enable()


async def test_a_typed_move_is_one_trip(tmp_path: Path, trips: list[Callable[..., Any]]) -> None:
    """Its save and what was shown, in one trip: the match kept in memory since the last
    command is acted on with no read (the save checks its version)."""
    store = await Store.open(tmp_path / "moves.sqlite3")
    service = TableService(store, dice=seeded_dice(1), images=False)
    place, amy, ben = Place("guild", "trips"), User("a", "amy"), User("b", "ben")
    await service.matches.challenge(place, amy, ben, "3")
    await service.matches.accept(place, ben)
    for _ in range(4):
        table = await service.table(place)
        assert table is not None and table.match.turn is not None
        mover = (amy, ben)[table.match.turn]
        trips.clear()
        if table.match.phase == "move":
            line = f"!move {table.match.legal_plays()[0].notation}"
        else:
            line = "!roll"
        replies = await service.run(place, mover, line, users=lambda word: None)
        assert replies and not replies[0].private, replies
        assert len(trips) == 1, line
    service.close()
    await store.close()


async def test_an_expanding_in_takes_each_lists_length(store: Store) -> None:
    among = select(p.c.user_id).where(p.c.user_id.in_(bindparam("ids", expanding=True)))
    among = among.order_by(p.c.user_id)
    for ids in (["u1"], ["u3", "u0", "u2"], []):
        rows = await store.fetch_all(among, {"ids": ids})
        assert [row.user_id for row in rows] == sorted(ids)


async def test_rows_answer_by_index_name_and_mapping(store: Store) -> None:
    row = await store.fetch_one(
        select(func.count().label("players"), func.max(p.c.name)).where(p.c.server_id == "s")
    )
    assert row is not None
    assert row[0] == row.players == row._mapping["players"] == 4
    assert row[1] == "player 3"
    pragma = await store.fetch_one("PRAGMA journal_mode")  # driver SQL: named by its cursor
    assert pragma is not None and pragma._mapping["journal_mode"] == "wal"


async def test_a_driver_error_is_sqlalchemys_and_nothing_is_written(store: Store) -> None:
    with pytest.raises(sa.IntegrityError) as raised:
        async with store.transaction() as tx:
            await tx.execute(p.update().where(p.c.user_id == "u0").values(wins=7))
            await tx.execute(p.insert(), {"server_id": "s", "user_id": "u1", "name": "again"})
    assert isinstance(raised.value.orig, sqlite3.IntegrityError)
    row = await store.fetch_one(select(p.c.wins).where(p.c.user_id == "u0"))
    assert row is not None and row.wins == 0  # rolled back
    async with store.transaction() as tx:  # and the connection goes on
        assert await tx.execute(p.update().where(p.c.user_id == "u0").values(wins=1)) == 1


async def test_an_insert_gives_its_new_row_id(store: Store) -> None:
    m = schema.matches
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
    async with store.transaction() as tx:
        first = await tx.insert_row(m.insert().values(**values))
        second = await tx.insert_row(m.insert().values(**(values | {"channel_id": "d"})))
    assert second == first + 1
    row = await store.fetch_one(select(m.c.channel_id).where(m.c.id == second))
    assert row is not None and row.channel_id == "d"


def test_a_store_left_open_does_not_keep_its_process_alive(tmp_path: Path) -> None:
    script = (
        "import asyncio, sys\n"
        "from bot.store import Store\n"
        "async def main():\n"
        "    global store\n"
        "    store = await Store.open(sys.argv[1])\n"
        "asyncio.run(main())\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "open.sqlite3")],
        cwd=root,
        timeout=30,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
