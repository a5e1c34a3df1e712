"""The language a command is answered in: its user's Discord locale on an interaction (a slash
command, a press) where the bot speaks it, else the server's choice (``!settings language``),
else English. The adapters hand it to the service with the command, as the user's
:attr:`~bot.service.models.User.language`."""

from __future__ import annotations

import discord

from bot.i18n.core import Language, language_of
from bot.service.languages import Languages
from bot.service.models import Place


async def spoken(languages: Languages, place: Place, locale: discord.Locale | None) -> Language:
    if locale is not None:
        language = language_of(locale.value)
        if language is not None:
            return language
    return await languages.of(place.server_id)
