"""The slash commands in the players' languages: a :class:`discord.app_commands.Translator`
that looks each command, option and choice up by its registry name in
:mod:`bot.i18n.commands` (the registry's English is the source). Set in ``setup_hook``, so the
commands ``tree.sync`` publishes carry their localisations."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.commands import SLASH


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        texts = SLASH.get(locale.value)
        if texts is None:
            return None
        data = context.data
        if context.location in (Where.command_name, Where.command_description):
            command = texts.commands.get(getattr(data, "name", ""))
            if command is None:
                return None
            return command[0] if context.location is Where.command_name else command[1]
        if context.location in (Where.parameter_name, Where.parameter_description):
            parent = getattr(getattr(data, "command", None), "name", "")
            option = texts.options.get(f"{parent}.{getattr(data, 'name', '')}")
            if option is None:
                return None
            return option[0] if context.location is Where.parameter_name else option[1]
        if context.location is Where.choice_name:
            return texts.choices.get(str(getattr(data, "value", "")))
        return None
