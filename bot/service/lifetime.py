"""The service's life: :func:`open_service` builds the store, the dice key, GNU Backgammon's
workers and the service, and closes them in the reverse order. The console and the Discord bot
both run inside it."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from bot.gnubg.engine import make_engine, start_in_background, stop
from bot.service.records.dice import DiceFactory
from bot.service.records.dicekey import DiceKeyFileError, server_key
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import Store, StoreError

log = logging.getLogger(__name__)


class StartError(Exception):
    """The service can't start (a database that can't be opened, a dice key that is missing or
    not the database's): the text says why, for the one line the front end prints."""


@asynccontextmanager
async def open_service(
    settings: Settings,
    *,
    database: Path | str | None = None,
    dice: DiceFactory | None = None,
    images: bool = True,
    clock: Callable[[], float] = time.time,
) -> AsyncIterator[TableService]:
    """The service over ``database`` (default: the settings'); raises :class:`StartError`
    before anything runs. ``dice``: a seeded source for tests, else the server's keyed dice."""
    database = database if database is not None else settings.database
    try:
        store = await Store.open(database, busy_seconds=settings.database_busy_seconds)
    except (StoreError, OSError) as error:
        raise StartError(str(error)) from None
    try:
        try:
            key = await server_key(settings, store)
        except (StoreError, DiceKeyFileError) as error:
            raise StartError(str(error)) from None
        engine = make_engine(settings)
        starting = start_in_background(engine)
        try:
            service = TableService(
                store,
                settings=settings,
                dice=dice,
                dice_key=key,
                images=images,
                engine=engine,
                clock=clock,
            )
            try:
                yield service
            finally:
                service.close()
        finally:
            await stop(engine, starting)
            log.info("GNU Backgammon workers stopped")
    finally:
        await store.close()
        log.info("Database closed")
