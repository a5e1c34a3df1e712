"""The server's dice key: kept outside the database, so a copy of the database doesn't reveal
the seed of any live match (see :class:`bot.rules.dice.KeyedDice`).

The key comes from the ``DICE_KEY`` setting (hex) or from a key file (``DICE_KEY_FILE``, by
default next to the database) created on first start. The database keeps only a check value of
the key, so starting with the wrong key (a lost or swapped file) fails at once with one clear
line instead of voiding every live match.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from bot.settings import Settings
from bot.store import Store, StoreError

KEY_BYTES = 32
_CHECK_NAME = "dice_key_check"


class DiceKeyFileError(RuntimeError):
    """The key file can't be read or made: the message says which file and why."""


def parse_key(text: str, source: str) -> bytes:
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        raise DiceKeyFileError(f"{source} must be hex digits") from None
    if len(key) < 16:
        raise DiceKeyFileError(f"{source} must be at least 32 hex digits (16 bytes)")
    return key


def load_or_create_key(path: Path) -> bytes:
    """The key in ``path``; a new random one, written there (owner-only), when it is absent.
    Two processes starting at once end up with the same key."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            return parse_key(path.read_text(encoding="ascii"), f"the dice key file {path}")
        except (OSError, UnicodeDecodeError) as error:
            raise DiceKeyFileError(f"can't read the dice key file {path}: {error}") from None
    except OSError as error:
        raise DiceKeyFileError(f"can't create the dice key file {path}: {error}") from None
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(key.hex() + "\n")
    return key


def key_check(key: bytes) -> str:
    """A value that tells keys apart and reveals nothing of the key."""
    return hmac.new(key, b"bot-dice-key-check", hashlib.sha256).hexdigest()[:16]


async def check_key(store: Store, key: bytes, source: str) -> None:
    """Remember ``key``'s check value in a new database; refuse a key the database wasn't
    used with."""
    stored = await store.meta.get(_CHECK_NAME)
    if stored is None:
        async with store.transaction() as tx:
            await tx.meta.set_first(_CHECK_NAME, key_check(key))
        stored = await store.meta.get(_CHECK_NAME)  # another process may have set it first
    if stored is None or not secrets.compare_digest(stored, key_check(key)):
        shared = "" if store.is_sqlite else " (every host of this database needs the same key)"
        raise StoreError(
            f"the dice key ({source}) is not the one this database was used with: restore the "
            f"key file that belongs with it (or its DICE_KEY), or live matches can't "
            f"continue{shared}"
        )


async def server_key(settings: Settings, store: Store) -> bytes:
    """The dice key for the store's database: from ``DICE_KEY``, else from the key file (made
    on first start; beside a SQLite file, else ``backgammon.key``), checked against the
    database. Every host sharing a PostgreSQL database needs the same key."""
    if settings.dice_key:
        key, source = parse_key(settings.dice_key, "DICE_KEY"), "DICE_KEY"
    else:
        path = settings.dice_key_file or store.address.key_file_default()
        if not path.exists() and await store.meta.get(_CHECK_NAME) is not None:
            shared = "" if store.is_sqlite else " (every host of this database needs the same key)"
            raise StoreError(
                f"the dice key file {path} is missing: this database was used with a key kept "
                "there. Restore that file (or set its DICE_KEY), or live matches can't "
                f"continue{shared}"
            )
        key, source = load_or_create_key(path), f"the key file {path}"
    await check_key(store, key, source)
    return key
