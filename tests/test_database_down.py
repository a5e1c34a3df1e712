"""A PostgreSQL server stopped under a running console, and started again: each command meanwhile
gets one line (the database is not answering, retrying), the console lives on, and once the
server is back the game goes on where it was. The server is one of the test's own (stopped and
started by it), so the others of the run don't notice."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n.core import ENGLISH
from bot.i18n.errors import DATABASE_DOWN
from tests.postgres import PostgresServer
from tests.test_faults import ConsoleProcess, clean_exit, next_line, started, texts

pytestmark = pytest.mark.slow


async def test_the_console_says_one_line_while_the_server_is_down_and_goes_on(
    stoppable_postgres: PostgresServer, tmp_path: Path
) -> None:
    server = stoppable_postgres
    url = await server.new_database()
    console = ConsoleProcess(url, "--clock", "2026-11-22T10:00:00", folder=tmp_path)
    record = started(console, turns=3)
    game = record["game"]
    server.halt()
    try:
        down = [
            console.say(line)
            for line in (
                next_line(record),
                "alice: !board",
                "#other carol: !challenge @dave 1",
                "carol: !leaderboard",
                "~ 1h",
            )
        ]
    finally:
        server.resume()
    for said in down[:-1]:
        assert texts(said) == [DATABASE_DOWN(ENGLISH)], said
    assert texts(down[-1])[-1] == DATABASE_DOWN(ENGLISH)  # the time moved, the deadlines wait

    board = console.say("alice: !board")  # the game as it was: nothing was half-done
    assert board["game"] == game
    record = console.say(next_line(record))
    assert texts(record) != [DATABASE_DOWN(ENGLISH)] and record["game"] != game
    assert texts(console.say("#other carol: !challenge @dave 1"))[0].startswith("carol challenges")
    clean_exit(console)
