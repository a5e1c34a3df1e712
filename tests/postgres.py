"""A real PostgreSQL server for the tests, started by the test run itself in a temporary
directory and stopped at its end; ``BACKGAMMON_TEST_PG_URL`` may point at an existing server
instead (the tests then create and drop databases on it).

The server's programs are found on ``PATH``, in ``/usr/lib/postgresql/<version>/bin``, or in the
``pgserver`` package when it is installed. PostgreSQL refuses to run as root, so under root the
server runs as the ``postgres`` user (or ``nobody``).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import asyncpg

URL_VARIABLE = "BACKGAMMON_TEST_PG_URL"
SUPERUSER = "backgammon"
_databases = itertools.count(1)


class NoPostgres(RuntimeError):
    """No PostgreSQL server could be started here: the message says what is missing."""


@dataclass
class PostgresServer:
    """A server the tests may create databases on; ``url`` names its ``postgres`` database."""

    url: str
    data: Path | None = None  # set when this run started it
    binaries: Path | None = None
    user: str | None = None
    options: str = ""  # the server's, to start it again as it was

    def database_url(self, name: str) -> str:
        return f"{self.url.rsplit('/', 1)[0]}/{name}"

    async def new_database(self, prefix: str = "t") -> str:
        """A new empty database; its URL."""
        name = f"{prefix}_{os.getpid()}_{next(_databases)}"
        connection = await asyncpg.connect(self.url.replace("postgresql://", "postgres://"))
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        return self.database_url(name)

    def stop(self) -> None:
        if self.data is None or self.binaries is None:
            return
        # Its data is thrown away: no shutdown checkpoint of every database the run made
        # (seconds at the end of each test worker).
        self.halt(mode="immediate")
        # Hundreds of databases' files: removed by a process of its own, which the test worker
        # does not wait for (it took 12 s at the end of the run, on the suite's last worker).
        subprocess.Popen(
            ["rm", "-rf", str(self.data.parent)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def halt(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data (:meth:`resume` starts it again)."""
        assert self.data is not None and self.binaries is not None, "a server of this run"
        _run_as(
            self.user, [str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", mode, "stop"]
        )

    def resume(self) -> None:
        """Start the server again after :meth:`halt`, on the same port, and wait for it."""
        assert self.data is not None and self.binaries is not None, "a server of this run"
        _start(self.binaries, self.data, self.user, self.options)


def find_binaries() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    on_path = shutil.which("pg_ctl")
    candidates = [Path(on_path).resolve().parent] if on_path else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    try:
        import pgserver  # type: ignore[import-not-found,unused-ignore]

        candidates.append(Path(pgserver.__file__).parent / "pginstall" / "bin")
    except ImportError:
        pass
    for folder in candidates:
        if all((folder / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    raise NoPostgres(
        "no PostgreSQL server programs (initdb, pg_ctl, postgres) on PATH or in "
        f"/usr/lib/postgresql: install PostgreSQL, or set {URL_VARIABLE}"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_user() -> str | None:
    """Who runs the server: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise NoPostgres("running as root with no postgres or nobody user to run PostgreSQL as")


def _run_as(user: str | None, command: list[str]) -> subprocess.CompletedProcess[str]:
    def drop() -> None:
        if user is not None:
            entry = pwd.getpwnam(user)
            os.setgid(entry.pw_gid)
            os.setuid(entry.pw_uid)

    return subprocess.run(
        command,
        preexec_fn=drop if user is not None else None,
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",
    )


def start_server() -> PostgresServer:
    """The server named by ``BACKGAMMON_TEST_PG_URL``, or a new one in a temporary folder."""
    if url := os.environ.get(URL_VARIABLE):
        return PostgresServer(url)
    binaries = find_binaries()
    user = _server_user()
    base = Path(tempfile.mkdtemp(prefix="backgammon-pg-"))
    base.chmod(0o755)
    data = base / "data"
    data.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(data, entry.pw_uid, entry.pw_gid)
    init = _run_as(
        user,
        [
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
    )
    if init.returncode != 0:
        raise NoPostgres(f"initdb failed: {init.stderr.strip()}")
    port = _free_port()
    # Durability is the disk's business, not the tests': no fsync, quick commits.
    options = (
        f"-p {port} -c listen_addresses=127.0.0.1 -k {data} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    _start(binaries, data, user, options)
    return PostgresServer(
        f"postgresql://{SUPERUSER}@127.0.0.1:{port}/postgres", data, binaries, user, options
    )


def _start(binaries: Path, data: Path, user: str | None, options: str) -> None:
    started = _run_as(
        user,
        [
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(data / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        ],
    )
    if started.returncode != 0:
        log = (
            (data / "server.log").read_text(errors="replace")
            if (data / "server.log").exists()
            else ""
        )
        raise NoPostgres(f"PostgreSQL did not start: {started.stderr.strip()} {log[-500:]}")
