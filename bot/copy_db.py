"""``python -m bot copy-db SOURCE DEST``: copy a database (a SQLite file, as a growing bot moves to
PostgreSQL) into a new, empty one, then check the copy: every table's row count, every match's
row and action log as the source has them, and every match replayed from its log to its
snapshot. Nothing is written to the source."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from sqlalchemy import exc as sa

from bot import event_loop
from bot.service.records import storage
from bot.service.records.dicekey import DiceKeyFileError, key_check, parse_key
from bot.settings import Settings, SettingsError, database_setting
from bot.store import DatabaseAddress, OutdatedSchema, Store, StoreError
from bot.store.copy import clear_rows, copy_rows, counts
from bot.store.rows import describe_error

USAGE = (
    "usage: python -m bot copy-db SOURCE DEST\n"
    "  SOURCE, DEST: a SQLite file or a postgresql://user:password@host:port/database URL;\n"
    "  DEST must be empty. The dice key of SOURCE (DICE_KEY, DICE_KEY_FILE or the key file\n"
    "  beside it) is needed to check its matches."
)
MATCH_BATCH = 500  # matches compared at a time


class CopyError(RuntimeError):
    """The copy can't be made or doesn't check out: the message says why."""


@dataclass
class Checked:
    matches: int = 0
    replayed: int = 0
    damaged: list[int] = field(default_factory=list)  # could not be replayed on either side


def main(argv: list[str], out: TextIO = sys.stdout) -> int:
    if len(argv) != 2 or argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"Bad setting: {error}", file=sys.stderr)
        return 2
    try:
        event_loop.run(copy_database(settings, argv[0], argv[1], out))
    except (CopyError, StoreError, DiceKeyFileError) as error:
        print(f"Can't copy: {error}", file=sys.stderr)
        return 1
    return 0


async def copy_database(settings: Settings, source_text: str, dest_text: str, out: TextIO) -> None:
    source_at = DatabaseAddress.parse(database_setting(source_text))
    dest_at = DatabaseAddress.parse(database_setting(dest_text))
    if source_at.path is not None and not source_at.path.is_file():
        raise CopyError(f"there is no database {source_at.shown} to copy")
    if source_at == dest_at:
        raise CopyError("SOURCE and DEST are the same database")
    created = dest_at.path is not None and not dest_at.path.exists()
    with tempfile.TemporaryDirectory(prefix="copy-db-") as scratch:
        source = await _open_source(source_at, Path(scratch), out)
        try:
            await _copy_from(settings, source, source_at, dest_at, created, out)
        finally:
            await source.close()


async def _open_source(source_at: DatabaseAddress, scratch: Path, out: TextIO) -> Store:
    """The source as it is: nothing is written to it. A SQLite file at an older schema is read
    through a copy of it in ``scratch``, upgraded there; an older PostgreSQL database is
    refused (the bot upgrades it when it starts on it)."""
    try:
        return await Store.open(source_at, upgrade=False)
    except OutdatedSchema as outdated:
        if source_at.path is None:
            raise CopyError(
                f"{outdated}: start the bot on it once (it upgrades it), then copy"
            ) from None
        upgraded = scratch / source_at.path.name
        await asyncio.to_thread(_snapshot_sqlite, source_at.path, upgraded)
        out.write(
            f"{source_at.shown} is at schema version {outdated.found}: copied from an upgraded "
            "temporary copy of it (the source itself is left as it is).\n"
        )
        return await Store.open(upgraded)


def _snapshot_sqlite(path: Path, into: Path) -> None:
    """A consistent copy of the SQLite file ``path`` (with what its WAL holds), by a connection
    that may only read (a read-only one would leave the WAL's files behind it)."""
    source = sqlite3.connect(path)
    try:
        source.execute("PRAGMA query_only = ON")
        copy = sqlite3.connect(into)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()


async def _copy_from(
    settings: Settings,
    source: Store,
    source_at: DatabaseAddress,
    dest_at: DatabaseAddress,
    created: bool,
    out: TextIO,
) -> None:
    key = await _source_key(settings, source, source_at)
    destination = await Store.open(dest_at)
    try:
        out.write(f"Copying {source_at.shown} into {dest_at.shown}…\n")
        had, checked = await _copy_and_check(source, destination, key)
    except BaseException:
        await _undo(destination, dest_at, created)
        raise
    finally:
        await destination.close()
    rows = ", ".join(f"{n} {name}" for name, n in had.items() if n)
    out.write(f"Copied {rows or 'nothing (the source is empty)'}.\n")
    out.write(
        f"Checked: every table's row count; all {checked.matches} matches as the source has "
        f"them; {checked.replayed} replayed from their logs to their snapshots.\n"
    )
    if checked.damaged:
        out.write(
            f"Copied as they were, damaged before the copy (they can't be replayed from the "
            f"source either): matches {', '.join(map(str, checked.damaged))}.\n"
        )
    if key is not None:
        out.write(f"{_key_needed(dest_at)}\n")


def _key_needed(dest_at: DatabaseAddress) -> str:
    """What every bot process on the copy needs of the source's dice key, and where."""
    if dest_at.is_sqlite:
        return (
            "The bot on the new database needs the same dice key as before (DICE_KEY, or a "
            f"copy of the key file as {dest_at.key_file_default()} or DICE_KEY_FILE)."
        )
    return (
        "Every bot process on the new database needs the same dice key as before "
        "(DICE_KEY, or a copy of the key file as backgammon.key or DICE_KEY_FILE)."
    )


async def _copy_and_check(
    source: Store, destination: Store, key: bytes | None
) -> tuple[dict[str, int], Checked]:
    """Copy, then check the copy: the source's row counts (before and after: a source still in
    use changes under the copy) and every match."""
    try:
        await copy_rows(source, destination)
        had, has = await counts(source), await counts(destination)
    except (sa.DBAPIError, sqlite3.Error) as error:
        raise CopyError(
            f"the copy stopped on an error of the database ({describe_error(error)}); "
            "nothing was copied"
        ) from None
    if had != has:
        changed = ", ".join(
            f"{name} {has.get(name, 0)} copied, {n} now"
            for name, n in had.items()
            if has.get(name) != n
        )
        raise CopyError(
            f"the source changed while it was being copied ({changed}): stop every bot process "
            "that uses it, then copy again (nothing was copied)"
        )
    return had, await _check_matches(source, destination, key)


async def _undo(destination: Store, dest_at: DatabaseAddress, created: bool) -> None:
    """Leave the destination as it was before a copy that failed: a SQLite file the copy made
    is removed (with its journal files), any other is emptied of the copied rows."""
    if created and dest_at.path is not None:
        await destination.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{dest_at.path}{suffix}").unlink(missing_ok=True)
        return
    await clear_rows(destination)


async def _source_key(
    settings: Settings, source: Store, source_at: DatabaseAddress
) -> bytes | None:
    """The dice key the source was used with (None when it never had one); never made anew."""
    check = await source.meta.get("dice_key_check")
    if check is None:
        return None
    if settings.dice_key:
        key, said = parse_key(settings.dice_key, "DICE_KEY"), "DICE_KEY"
    else:
        path = settings.dice_key_file or source_at.key_file_default()
        try:
            text = Path(path).read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as error:
            raise CopyError(
                f"the source's dice key is needed to check its matches, and the key file "
                f"{path} can't be read ({error}): set DICE_KEY or DICE_KEY_FILE"
            ) from None
        key, said = parse_key(text, f"the key file {path}"), f"the key file {path}"
    if key_check(key) != check:
        raise CopyError(f"the dice key ({said}) is not the one {source_at.shown} was used with")
    return key


async def _check_matches(source: Store, destination: Store, key: bytes | None) -> Checked:
    checked = Checked()
    after = 0
    while True:
        ids = [row.id for row in await destination.matches.after(after, MATCH_BATCH)]
        if not ids:
            return checked
        for match_id in ids:
            await _check_match(source, destination, match_id, key, checked)
        after = ids[-1]


async def _check_match(
    source: Store, destination: Store, match_id: int, key: bytes | None, checked: Checked
) -> None:
    row, copied = await source.matches.get(match_id), await destination.matches.get(match_id)
    log, copied_log = (
        await source.matches.actions(match_id),
        await destination.matches.actions(match_id),
    )
    if row != copied or log != copied_log:
        raise CopyError(f"match {match_id} differs between the source and the copy")
    assert copied is not None
    checked.matches += 1
    try:
        replayed = await asyncio.to_thread(storage.replay, copied.state, copied_log, key)
    except ValueError:
        checked.damaged.append(match_id)
        return
    if copied.snapshot is not None and (wrong := storage.check(copied.snapshot, replayed)):
        if copied.status == "aborted":
            checked.damaged.append(match_id)
            return
        raise CopyError(
            f"match {match_id}'s log does not replay to its snapshot ({', '.join(wrong)})"
        )
    checked.replayed += 1
