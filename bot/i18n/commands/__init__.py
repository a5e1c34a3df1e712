"""The slash commands in each language, by the registry's names
(:data:`bot.service.commands.registry.COMMANDS` is the English source): ``COMMANDS[name]`` its
name and description, ``OPTIONS["name.argument"]`` an option's, ``CHOICES[word]`` a choice's
name (its value stays the English word the service reads). Keyed by Discord's locale codes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n.commands import de, el, es, it, tr


@dataclass(frozen=True, slots=True)
class SlashTexts:
    commands: Mapping[str, tuple[str, str]]
    options: Mapping[str, tuple[str, str]]
    choices: Mapping[str, str]


SLASH: Mapping[str, SlashTexts] = {
    "el": SlashTexts(el.COMMANDS, el.OPTIONS, el.CHOICES),
    "tr": SlashTexts(tr.COMMANDS, tr.OPTIONS, tr.CHOICES),
    "it": SlashTexts(it.COMMANDS, it.OPTIONS, it.CHOICES),
    "de": SlashTexts(de.COMMANDS, de.OPTIONS, de.CHOICES),
    "es-ES": SlashTexts(es.COMMANDS, es.OPTIONS, es.CHOICES),
}
