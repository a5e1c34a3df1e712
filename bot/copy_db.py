"""``python -m bot copy-db SOURCE DEST``: copy a database (a SQLite file, as a growing bot moves to
PostgreSQL) into a new, empty one, then check the copy: every table's row count, every match's
row and action log as the source has them, and every match replayed from its log to its
snapshot. Nothing is written to the source."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.service.records import storage
from bot.service.records.dicekey import DiceKeyFileError, key_check, parse_key
from bot.settings import Settings, SettingsError, database_setting
from bot.store import DatabaseAddress, Store, StoreError
from bot.store.copy import copy_rows, counts

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
        asyncio.run(copy_database(settings, argv[0], argv[1], out))
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
    source = await Store.open(source_at)
    try:
        key = await _source_key(settings, source)
        destination = await Store.open(dest_at)
        try:
            out.write(f"Copying {source_at.shown} into {dest_at.shown}…\n")
            await copy_rows(source, destination)
            had, has = await counts(source), await counts(destination)
            if had != has:
                raise CopyError(f"the copy's row counts {has} are not the source's {had}")
            checked = await _check_matches(source, destination, key)
        finally:
            await destination.close()
    finally:
        await source.close()
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
    if key is not None and not dest_at.is_sqlite:
        out.write(
            "Every bot process on the new database needs the same dice key as before "
            "(DICE_KEY, or a copy of the key file as backgammon.key or DICE_KEY_FILE).\n"
        )


async def _source_key(settings: Settings, source: Store) -> bytes | None:
    """The dice key the source was used with (None when it never had one); never made anew."""
    check = await source.meta("dice_key_check")
    if check is None:
        return None
    if settings.dice_key:
        key, said = parse_key(settings.dice_key, "DICE_KEY"), "DICE_KEY"
    else:
        path = settings.dice_key_file or source.address.key_file_default()
        try:
            text = Path(path).read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as error:
            raise CopyError(
                f"the source's dice key is needed to check its matches, and the key file "
                f"{path} can't be read ({error}): set DICE_KEY or DICE_KEY_FILE"
            ) from None
        key, said = parse_key(text, f"the key file {path}"), f"the key file {path}"
    if key_check(key) != check:
        raise CopyError(
            f"the dice key ({said}) is not the one {source.address.shown} was used with"
        )
    return key


async def _check_matches(source: Store, destination: Store, key: bytes | None) -> Checked:
    checked = Checked()
    after = 0
    while True:
        ids = [row.id for row in await destination.matches_after(after, MATCH_BATCH)]
        if not ids:
            return checked
        for match_id in ids:
            await _check_match(source, destination, match_id, key, checked)
        after = ids[-1]


async def _check_match(
    source: Store, destination: Store, match_id: int, key: bytes | None, checked: Checked
) -> None:
    row, copied = await source.match(match_id), await destination.match(match_id)
    log, copied_log = (
        await source.match_actions(match_id),
        await destination.match_actions(match_id),
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
