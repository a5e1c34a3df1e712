"""The store under the whole table service: SQLite against PostgreSQL, and two processes sharing
one PostgreSQL database. Each run plays bench/table.py's 1-point matches in a fresh database, board
images off (so the figures are the commands and the store, not Pillow), and prints commands per
second and p50/p99 milliseconds per command, for 1, 50 and 500 channels flat out, and for 50
channels whose players think 1 s on average between commands. On PostgreSQL it also prints the
CPU time each command cost the bot's processes and the database server (when the server runs on
this machine: the processes of the server the URL names, read from /proc), which bound what two
processes can serve on the cores they share with it, and (``play``) the bot's CPU while it
played, without each process's start-up; a run of one process and one of two on as many
channels (``--runs 50x1 50x2``) ends with two processes' commands/s as a multiple of one's.

Run: python bench/stores.py --pg postgresql://user@host:port/postgres [--runs 50x1 50x2 ...]
(a server where the benchmark may create databases; they are dropped at the end: one started
as the tests start theirs is ``tests.postgres.start_server()``'s URL); without --pg,
the SQLite runs alone. ``--micro`` times the store's two commonest trips on a SQLite file instead:
one read of a match row, and one save (a transaction: the match's UPDATE with its version check,
one action's INSERT, COMMIT), each the median of many.

``--statements`` (with --pg) prints, after each PostgreSQL run, the server's own figures of its
statements in that run's database (calls, execution and planning time, from
``pg_stat_statements``: the server must load it, ``-c shared_preload_libraries=pg_stat_statements
-c pg_stat_statements.track_planning=on``) and the settings that decide its CPU a commit
(fsync, synchronous_commit, autovacuum...).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg
from sqlalchemy import Integer, bindparam, select, update

from bot import event_loop
from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.store import Store, schema

TABLE = Path(__file__).with_name("table.py")
RUNS = [  # (channels, mean seconds of thought, processes)
    (1, 0.0, 1),
    (50, 0.0, 1),
    (50, 0.0, 2),
    (50, 1.0, 1),
    (500, 0.0, 1),
    (500, 0.0, 2),
]


@dataclass
class Figures:
    commands: int
    seconds: float
    p50: float
    p99: float
    bot_cpu: float  # seconds of CPU the bot's processes spent
    play_cpu: float  # of which while they played (no start-up: imports, migrations)
    server_cpu: float | None  # and the database server's, when it runs here

    @property
    def rate(self) -> float:
        return self.commands / self.seconds


async def new_database(server: str) -> tuple[str, str]:
    name = f"bench_{uuid.uuid4().hex[:10]}"
    connection = await asyncpg.connect(server.replace("postgresql://", "postgres://", 1))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return f"{server.rsplit('/', 1)[0]}/{name}", name


async def drop_database(server: str, name: str) -> None:
    connection = await asyncpg.connect(server.replace("postgresql://", "postgres://", 1))
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
    finally:
        await connection.close()


async def postmaster(server: str) -> int | None:
    """The process id of the PostgreSQL server at ``server`` when it runs on this machine."""
    connection = await asyncpg.connect(server.replace("postgresql://", "postgres://", 1))
    try:
        backend = int(await connection.fetchval("SELECT pg_backend_pid()"))
        return _stat(backend)[1]  # a backend's parent (read while the backend runs)
    except OSError:
        return None  # not here (or not ours to read)
    finally:
        await connection.close()


def _stat(pid: int) -> tuple[list[str], int]:
    """``/proc/<pid>/stat``'s fields after the name, and the parent's id."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return fields, int(fields[1])


def server_cpu(server: int | None) -> float | None:
    """CPU seconds used so far by the PostgreSQL server whose main process is ``server``: its
    own, its children's, and what its children that ended left to it (None: no such server)."""
    if server is None:
        return None
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields, parent = _stat(int(pid))
        except OSError:
            continue  # ended meanwhile
        if int(pid) == server or parent == server:
            total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


SETTINGS = (
    "fsync",
    "synchronous_commit",
    "full_page_writes",
    "wal_level",
    "autovacuum",
    "plan_cache_mode",
    "shared_buffers",
    "track_io_timing",
)


async def print_settings(server: str) -> None:
    connection = await asyncpg.connect(server.replace("postgresql://", "postgres://", 1))
    try:
        rows = await connection.fetch(
            "SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1::text[])"
            " ORDER BY name",
            list(SETTINGS),
        )
    finally:
        await connection.close()
    print("server settings: " + ", ".join(f"{r[0]}={r[1]}{r[2] or ''}" for r in rows))


async def reset_statements(server: str) -> None:
    connection = await asyncpg.connect(server.replace("postgresql://", "postgres://", 1))
    try:
        await connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await connection.execute("SELECT pg_stat_statements_reset()")
    finally:
        await connection.close()


async def print_statements(server: str, database: str, commands: int) -> None:
    """The server's figures of each statement run in ``database`` since the last reset, the
    costliest first, per command of the run."""
    connection = await asyncpg.connect(server.replace("postgresql://", "postgres://", 1))
    try:
        rows = await connection.fetch(
            "SELECT calls, plans, total_exec_time, total_plan_time, rows, query"
            " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
            " WHERE d.datname = $1 ORDER BY total_exec_time + total_plan_time DESC",
            database,
        )
        sessions = await connection.fetchval(
            "SELECT sessions FROM pg_stat_database WHERE datname = $1", database
        )
    finally:
        await connection.close()
    execs = sum(r["total_exec_time"] for r in rows)
    plans = sum(r["total_plan_time"] for r in rows)
    print(
        f"  server: {len(rows)} statements, {sum(r['calls'] for r in rows) / commands:.2f} calls"
        f" a command; execution {execs / commands * 1e3:.0f} µs a command,"
        f" planning {plans / commands * 1e3:.0f} µs ({sum(r['plans'] for r in rows)} plans);"
        f" {sessions} connections opened"
    )
    print(f"  {'calls':>7} {'plans':>7} {'exec µs':>8} {'plan µs':>8}  statement")
    for r in rows[:12]:
        calls = r["calls"] or 1
        query = " ".join(r["query"].split())
        print(
            f"  {r['calls']:7d} {r['plans']:7d} {r['total_exec_time'] / calls * 1e3:8.1f}"
            f" {r['total_plan_time'] / max(r['plans'], 1) * 1e3:8.1f}  {query[:90]}"
        )


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(
    database: str, channels: int, think: float, processes: int, server: int | None = None
) -> Figures:
    """``channels`` channels split between ``processes`` processes on one database (whose
    server's main process is ``server``, when it runs here)."""
    server_before = server_cpu(server)
    bot_before = children_cpu()
    share = channels // processes
    command = [sys.executable, str(TABLE), "--in-process", "--json", "--no-images"]
    command += ["--db", database, "--channels", str(share), "--think", str(think)]
    running = [
        subprocess.Popen([*command, "--first", str(n * share)], stdout=subprocess.PIPE, text=True)
        for n in range(processes)
    ]
    outputs = [json.loads(process.communicate()[0].strip().splitlines()[-1]) for process in running]
    if any(process.returncode for process in running):
        raise SystemExit("a run failed")
    bot_cpu = children_cpu() - bot_before
    server_after = server_cpu(server)
    used = server_after - server_before if server_after is not None and server_before else None
    seconds = max(o["ended"] for o in outputs) - min(o["started"] for o in outputs)
    commands = sum(o["commands"] for o in outputs)
    # Each process's percentiles, weighed by its commands (close to the pooled figure).
    p50 = sum(o["p50"] * o["commands"] for o in outputs) / commands
    p99 = max(o["p99"] for o in outputs)
    play_cpu = sum(o["cpu"] for o in outputs)
    return Figures(commands, seconds, p50, p99, bot_cpu, play_cpu, used)


m = schema.matches
_READ = select(m).where(m.c.id == bindparam("match_id"))
_SAVE = (
    update(m)
    .where(m.c.id == bindparam("match_id"), m.c.version == bindparam("seen"))
    .values(version=m.c.version + 1, last_action_at=bindparam("now"))
)
_ACTION = schema.match_actions.insert().values(
    match_id=bindparam("match_id"), seq=bindparam("seq", type_=Integer), action=bindparam("action")
)


async def micro(times: int) -> None:
    """The median of ``times`` reads of a match row, and of as many saves, on a SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "micro.sqlite3")
        service = TableService(store, dice=seeded_dice(1), images=False)
        place, amy, ben = Place("bench", "micro"), User("a", "amy"), User("b", "ben")
        await service.matches.challenge(place, amy, ben, "1")
        await service.matches.accept(place, ben)
        service.close()
        row = await store.fetch_one(select(m.c.id, m.c.version))
        assert row is not None
        match_id, version = int(row[0]), int(row[1])
        reads, saves = [], []
        for seq in range(1000, 1000 + times):
            start = time.perf_counter()
            await store.fetch_one(_READ, {"match_id": match_id})
            reads.append(time.perf_counter() - start)
            start = time.perf_counter()
            async with store.transaction() as tx:
                changed = await tx.execute(
                    _SAVE, {"match_id": match_id, "seen": version, "now": time.time()}
                )
                assert changed == 1
                await tx.execute(_ACTION, {"match_id": match_id, "seq": seq, "action": "{}"})
            saves.append(time.perf_counter() - start)
            version += 1
        await store.close()
    print(
        f"SQLite, one match row read: median {statistics.median(reads) * 1e6:.0f} µs; "
        f"one save (UPDATE + INSERT + COMMIT): median {statistics.median(saves) * 1e6:.0f} µs "
        f"({times} of each)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pg", help="a PostgreSQL server URL (its postgres db); else SQLite only")
    parser.add_argument(
        "--runs", nargs="*", help="only these flat-out runs: CHANNELSxPROCESSES, e.g. 50x1 50x2"
    )
    parser.add_argument(
        "--micro", type=int, nargs="?", const=5000, help="time N reads and N saves (5000)"
    )
    parser.add_argument(
        "--statements",
        action="store_true",
        help="with --pg: the server's figures of each statement (pg_stat_statements)",
    )
    args = parser.parse_args()
    if args.micro:
        await micro(args.micro)
        return
    runs = RUNS
    if args.runs:
        runs = [(int(c), 0.0, int(p)) for c, p in (run.split("x") for run in args.runs)]
    server = await postmaster(args.pg) if args.pg else None
    if args.pg:
        await print_settings(args.pg)
    print("1-point matches, board images off; a fresh database for each line.")
    print("CPU: milliseconds of CPU per command, the bot's processes + the database server's;")
    print("play: the bot's processes' while they played (without their start-up).")
    print(f"{'':50} {'commands/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms':>14} {'play':>5}")
    pg: dict[tuple[int, int], Figures] = {}  # flat-out PostgreSQL runs by channels, processes
    for channels, think, processes in runs:
        mode = f"think {think:g} s" if think else "flat out"
        label = f"{channels} channels, {mode}"
        results = {}
        for kind in ("SQLite", "PostgreSQL") if args.pg else ("SQLite",):
            if kind == "SQLite":
                if processes > 1:
                    continue
                folder = tempfile.mkdtemp()
                results[kind] = measure(str(Path(folder) / "b.sqlite3"), channels, think, 1)
            else:
                url, name = await new_database(args.pg)
                try:
                    if args.statements:
                        await reset_statements(args.pg)
                    results[kind] = measure(url, channels, think, processes, server)
                    if args.statements:
                        await print_statements(args.pg, name, results[kind].commands)
                finally:
                    await drop_database(args.pg, name)
                if not think:
                    pg[channels, processes] = results[kind]
        for kind, f in results.items():
            who = f"{kind}{' x2 processes' if processes > 1 else ''}"
            print(
                f"{label + ', ' + who:<50} {f.rate:10.0f} {f.p50 * 1e3:8.1f} {f.p99 * 1e3:8.1f}"
                f" {cpu_text(f):>14} {f.play_cpu / f.commands * 1e3:5.2f}",
                flush=True,
            )
    for (channels, processes), two in pg.items():
        one = pg.get((channels, 1))
        if processes == 2 and one is not None:
            print(
                f"PostgreSQL, {channels} channels flat out: two processes"
                f" {two.rate / one.rate:.2f}x one's commands/s; CPU ms per command (bot + server)"
                f" one process {cpu_text(one)} (play {one.play_cpu / one.commands * 1e3:.2f}),"
                f" two {cpu_text(two)} (play {two.play_cpu / two.commands * 1e3:.2f})"
            )


def cpu_text(figures: Figures) -> str:
    """Milliseconds of CPU per command: the bot's, + the server's when it runs here."""
    text = f"{figures.bot_cpu / figures.commands * 1e3:.2f}"
    if figures.server_cpu is not None:
        text += f" + {figures.server_cpu / figures.commands * 1e3:.2f}"
    return text


if __name__ == "__main__":
    event_loop.run(main())
