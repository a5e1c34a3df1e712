"""The server's commands, as the registry points at them: the leaderboard, a player's stats,
``!help``, the server's dice counts and its settings. Reads only, but for a setting: no lock."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.i18n import server as say
from bot.i18n.core import LANGUAGE_NAMES, LANGUAGES, language_of
from bot.rules.text import quote
from bot.service.commands.views import Views
from bot.service.languages import Languages
from bot.service.matches.presentation import typed
from bot.service.models import Place, Reply, User
from bot.service.records.dicestats import dice_reply
from bot.store import Store


class ServerCommands:
    """``!leaderboard``, ``!stats``, ``!help``, ``!dice``, ``!settings``."""

    def __init__(
        self,
        views: Views,
        store: Store,
        languages: Languages,
        *,
        prefix: str = "!",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._views = views
        self._store = store
        self._prefix = prefix
        self._clock = clock
        self.languages = languages

    async def leaderboard(self, place: Place, user: User) -> list[Reply]:
        return await self._views.leaderboard(place, user)

    async def stats(self, place: Place, user: User, target: User | None = None) -> list[Reply]:
        return await self._views.stats(place, user, target)

    async def help(self, place: Place, user: User, topic: str | None = None) -> list[Reply]:
        language = user.language
        return self._views.help(topic, language=language)

    async def dice(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        return [dice_reply(await self._store.dice.counts(place.server_id), language=language)]

    async def settings(
        self, place: Place, user: User, what: str | None = None, *, moderator: bool = False
    ) -> list[Reply]:
        """The server's language, shown (no words) or chosen (``language de``; moderators)."""
        language = user.language
        words = typed(what or "").split()
        codes = ", ".join(f"`{code}` {LANGUAGE_NAMES[code]}" for code in LANGUAGES)
        if not words:
            code = await self.languages.of(place.server_id)
            name = LANGUAGE_NAMES[code]
            shown = say.SETTINGS_SHOWN(
                language, name=name, code=code, prefix=self._prefix, codes=codes
            )
            return [Reply(shown, private=True)]
        if words[0].lower() != "language":
            return _refused(
                say.NOT_A_SETTING(language, quoted=quote(words[0]), prefix=self._prefix)
            )
        chosen = language_of(words[1]) if len(words) > 1 else None
        if chosen is None:
            return _refused(
                say.NOT_A_LANGUAGE(language, quoted=quote(" ".join(words[1:])), codes=codes)
            )
        if not moderator:
            return _refused(say.MODERATORS_ONLY(language))
        await self.languages.choose(place.server_id, chosen, self._clock())
        # Said in the language chosen.
        return [Reply(say.LANGUAGE_SET(chosen, name=LANGUAGE_NAMES[chosen]))]


def _refused(text: str) -> list[Reply]:
    return [Reply(text, private=True)]
