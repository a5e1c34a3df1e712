"""``copy-db`` that fails leaves the destination as it was: a source that changes under the copy
(the bot still running on it), a damaged source; and the key every copy's bot needs."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from bot import copy_db
from bot.copy_db import CopyError, copy_database
from bot.settings import Settings
from bot.store import Store, schema
from bot.store.copy import copy_rows, counts
from tests.postgres import PostgresServer
from tests.store.fixtures.make_schema11 import DICE_KEY, FIXTURE

SETTINGS = Settings(dice_key=DICE_KEY.hex())


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "source.sqlite3"
    shutil.copy(FIXTURE, path)
    return path


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot goes on writing to the source while it is copied: a challenge comes in after the
    rows are read."""

    async def copy_while_a_bot_plays(source: Store, destination: Store) -> None:
        await copy_rows(source, destination)
        async with source.transaction() as tx:
            await tx.execute(
                schema.challenges.insert(),
                [
                    {
                        "server_id": "guild",
                        "channel_id": "late",
                        "challenger_id": "1001",
                        "challenged_id": "1002",
                        "match_length": 1,
                        "status": "open",
                        "created_at": 0.0,
                        "expires_at": 600.0,
                    }
                ],
            )

    monkeypatch.setattr(copy_db, "copy_rows", copy_while_a_bot_plays)


async def copy(source: Path | str, destination: Path | str) -> str:
    out = io.StringIO()
    await copy_database(SETTINGS, str(source), str(destination), out)
    return out.getvalue()


@pytest.mark.usefixtures("live")
async def test_a_source_in_use_is_not_copied_and_no_file_is_left(
    tmp_path: Path, source: Path
) -> None:
    destination = tmp_path / "copy.sqlite3"
    with pytest.raises(CopyError, match="changed while it was being copied") as raised:
        await copy(source, destination)
    assert "challenges 5 copied, 6 now" in str(raised.value)
    assert "stop every bot process" in str(raised.value)
    assert not list(tmp_path.glob("copy.sqlite3*"))


async def test_a_damaged_source_is_one_line_and_no_file_is_left(
    tmp_path: Path, source: Path
) -> None:
    await (await Store.open(source)).close()  # at today's schema: the damage is met by the copy
    with source.open("r+b") as file:  # pages 4 and 5: rows the copy must read
        file.seek(3 * 4096)
        file.write(b"\xff" * 2 * 4096)
    destination = tmp_path / "copy.sqlite3"
    with pytest.raises(CopyError) as raised:
        await copy(source, destination)
    said = str(raised.value)
    assert said == (
        "the copy stopped on an error of the database (database disk image is malformed); "
        "nothing was copied"
    )
    assert not list(tmp_path.glob("copy.sqlite3*"))


async def test_a_sqlite_copy_names_the_key_file_its_bot_needs(tmp_path: Path, source: Path) -> None:
    said = await copy(source, tmp_path / "copy.sqlite3")
    assert "needs the same dice key as before" in said
    assert f"a copy of the key file as {tmp_path / 'copy.sqlite3.key'}" in said


@pytest.mark.slow
@pytest.mark.usefixtures("live")
async def test_a_postgresql_destination_is_left_empty_and_takes_a_retry(
    source: Path, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    await (await Store.open(source)).close()  # today's schema: the bot writes to the source
    url = await postgres.new_database()
    with pytest.raises(CopyError, match="changed while it was being copied"):
        await copy(source, url)
    destination = await Store.open(url)
    try:
        assert not any((await counts(destination)).values())
    finally:
        await destination.close()
    monkeypatch.setattr(copy_db, "copy_rows", copy_rows)  # the bot has been stopped
    said = await copy(source, url)
    assert "6 challenges" in said and "every table's row count" in said
