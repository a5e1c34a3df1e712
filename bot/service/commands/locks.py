"""Each place's lock, and what a command raises turned into replies.

One lock per place serialises its commands (:class:`PlaceLocks`); :func:`replies_of` runs a
command's work and turns a refusal or a race lost into replies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.i18n import play as say
from bot.rules import MoveError
from bot.rules.match import MatchError
from bot.rules.text import sentence
from bot.service.models import Place, Refusal, Reply
from bot.store import DatabaseBusy, DatabaseDown, DiskFull, StaleMatchError

RACE_LOST = (
    "The game changed while your command ran: nothing was done. Look at the board and try again."
)
DATABASE_BUSY = (
    "The database is busy (another program is holding it): nothing changed. Try again in a moment."
)
DISK_FULL = (
    "The bot can't write to its disk (it is full, or failing): nothing was saved, and the game "
    "is as it was. Try again later; the bot's admin must free some space."
)


DATABASE_DOWN = "The database is not answering, retrying: try again in a moment."
# What a command may meet in the store that is nobody's mistake and passes: one line each.
STORE_TROUBLE = (DatabaseBusy, DiskFull, DatabaseDown)


def store_trouble(error: DatabaseBusy | DiskFull | DatabaseDown) -> Reply:
    """The reply to a database that can't be used right now (held by another program, on a
    full disk, a server not answering): what happened, and what to do."""
    if isinstance(error, DatabaseDown):
        return Reply(DATABASE_DOWN, private=True)
    return Reply(DATABASE_BUSY if isinstance(error, DatabaseBusy) else DISK_FULL, private=True)


class _PlaceLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding or waiting


class PlaceLocks:
    """A lock per place that lives only while someone holds or waits for it, so the map
    doesn't grow with every channel ever seen."""

    def __init__(self) -> None:
        self._locks: dict[Place, _PlaceLock] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def held(self, place: Place) -> AsyncIterator[None]:
        entry = self._locks.get(place)
        if entry is None:
            entry = self._locks[place] = _PlaceLock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[place]


async def replies_of(
    work: Callable[[], Awaitable[list[Reply]]], forget: Callable[[int], None]
) -> list[Reply]:
    """``work``'s replies; what it raises as replies (``forget``: a match another process
    changed, to read again)."""
    try:
        return await work()
    except Refusal as refusal:
        return [Reply(refusal.text, private=True)]
    except MoveError as error:  # how to find a legal play, never one (it would read as advice)
        return [Reply(say.MOVE_REFUSED(reason=sentence(str(error))), private=True)]
    except MatchError as error:
        return [Reply(sentence(str(error)), private=True)]
    except StaleMatchError as error:
        if error.match_id is not None:
            forget(error.match_id)
        return [Reply(RACE_LOST, private=True)]
    except STORE_TROUBLE as error:  # nothing was written, nothing kept in memory
        return [store_trouble(error)]
