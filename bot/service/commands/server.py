"""The server's commands, as the registry points at them: the leaderboard, a player's stats,
``!help`` and the server's dice counts. Reads only: no lock."""

from __future__ import annotations

from bot.service.commands.views import Views
from bot.service.models import Place, Reply, User
from bot.service.records.dicestats import dice_reply
from bot.store import Store


class ServerCommands:
    """``!leaderboard``, ``!stats``, ``!help``, ``!dice``."""

    def __init__(self, views: Views, store: Store) -> None:
        self._views = views
        self._store = store

    async def leaderboard(self, place: Place, user: User) -> list[Reply]:
        return await self._views.leaderboard(place, user)

    async def stats(self, place: Place, user: User, target: User | None = None) -> list[Reply]:
        return await self._views.stats(place, user, target)

    async def help(self, place: Place, user: User, topic: str | None = None) -> list[Reply]:
        return self._views.help(topic)

    async def dice(self, place: Place, user: User) -> list[Reply]:
        return [dice_reply(await self._store.dice.counts(place.server_id))]
