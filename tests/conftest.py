"""What every test folder may use: the databases a test can run against. A test that takes
``database`` runs twice, on a SQLite file and on a real PostgreSQL server that this test run
starts for itself (:mod:`tests.postgres`); the PostgreSQL runs are among the slow ones."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from bot.event_loop import loop_factory, loop_name
from tests.postgres import URL_VARIABLE, PostgresServer, start_server

DATABASES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.slow),
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold slow tests first, each whole and in its order: a long test handed out
    last would keep one worker busy after the others have finished."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    """Every async test on the loop the bot runs on (:mod:`bot.event_loop`)."""
    return {loop_name(): loop_factory()}


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = start_server()
    yield server
    server.stop()


@pytest.fixture(params=DATABASES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a test's database is: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "table.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres")
    return await server.new_database()


@pytest.fixture
def stoppable_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test's own, which it may stop and start again
    (:meth:`PostgresServer.halt`, :meth:`~PostgresServer.resume`) unnoticed by the others."""
    if os.environ.get(URL_VARIABLE):
        pytest.skip(f"{URL_VARIABLE} names a server that no test may stop")
    server = start_server()
    yield server
    server.stop()
