"""``!help``: every command of a table (:data:`bot.service.commands.registry.COMMANDS`, handed
in: the registry names the rooms, which show the help) with its usage and
one line on what it does, or one command in detail. Numbers that are settings (timeouts, the default
length) are read from the settings when the help is shown."""

from __future__ import annotations

import difflib

from bot.gnubg.api import LEVEL_NAMES
from bot.i18n import help as words
from bot.i18n import help_details as details
from bot.i18n import play as say
from bot.i18n.core import Language, capital
from bot.rules.text import quote
from bot.service.commands.schema import Command, CommandTable, Topic
from bot.service.models import Reply, Section, Sheet
from bot.service.records.durations import quantity, setting_duration
from bot.settings import MAX_MATCH_LENGTH, Settings


def _values(prefix: str, settings: Settings, *, language: Language) -> dict[str, str]:
    return {
        "p": prefix,
        "max_length": str(MAX_MATCH_LENGTH),
        "default_length": str(settings.default_match_length),
        "challenge_minutes": setting_duration(
            settings.challenge_timeout_minutes / 60, language=language
        ),
        "claim_hours": setting_duration(settings.claim_timeout_hours, language=language),
        "reminder_hours": setting_duration(settings.reminder_hours, language=language),
        "clock_delay": quantity(settings.clock_delay_seconds, "second", language=language),
        "bot_level": settings.bot_level,
        "bot_levels": ", ".join(LEVEL_NAMES),
        "tournament_role": f"`{settings.tournament_role}`"
        if settings.tournament_role
        else details.ROLE_UNSET(language),
    }


def habit(word: str, prefix: str, *, beavers: bool = False, language: Language) -> str | None:
    """What this bot has for a word typed by habit from another client (``!undo``), or None;
    ``beavers``: the channel's game allows them."""
    word = word.strip().lower()
    said = words.CUBE_WITH_BEAVERS if beavers and word == "cube" else words.HABITS.get(word)
    return said(language, p=prefix) if said is not None else None


def suggest(word: str, commands: CommandTable) -> str | None:
    """The command a mistyped ``word`` most likely meant, or None when it is not close to any
    (then it is probably meant for another bot that shares the prefix)."""
    word = word.strip().lower()
    if commands.find(word) is not None:
        return word
    close = difflib.get_close_matches(word, commands.words, n=1, cutoff=0.75)
    return close[0] if close else None


def _also(command: Command, prefix: str, *, language: Language) -> str:
    """`` (also `!x`)`` for a command with aliases, else nothing."""
    if not command.aliases:
        return ""
    return words.ALSO(
        language, aliases=", ".join(f"`{prefix}{alias}`" for alias in command.aliases)
    )


def help_text(
    settings: Settings, commands: CommandTable, topic: str | None = None, *, language: Language
) -> str:
    """The whole list, or one command, as text; raises ``KeyError`` for an unknown topic."""
    return help_reply(settings, commands, topic, language=language).text


def help_reply(
    settings: Settings, commands: CommandTable, topic: str | None = None, *, language: Language
) -> Reply:
    """The whole list as a :class:`Sheet` (a section per :class:`Topic`), or one
    command; raises ``KeyError`` for an unknown topic."""
    prefix = settings.command_prefix
    values = _values(prefix, settings, language=language)
    if topic:
        word = topic.strip().lower().removeprefix(prefix).removeprefix("/")
        command = commands.find(word)
        if command is None:
            raise KeyError(topic)
        said = words.summary_of(command.name, command.summary, language)
        summary = capital(said[:1], language) + said[1:]
        lines = [
            f"**{prefix}{command.usage}**",
            summary + _also(command, prefix, language=language),
        ]
        if command.details is not None:
            lines.append(command.details(language, **values))
        lines.append(words.EXAMPLE(language, prefix=prefix, example=command.example))
        return Reply("\n".join(lines))
    sections = tuple(
        Section(
            words.TOPICS[topic.name](language),
            tuple(
                f"`{prefix}{c.usage}` - {words.summary_of(c.name, c.summary, language)}"
                f"{_also(c, prefix, language=language)}"
                for c in commands
                if c.topic is topic
            ),
        )
        for topic in Topic
    )
    sheet = Sheet(
        words.TITLE(language),
        words.INTRO(
            language,
            challenge=values["challenge_minutes"],
            claim=values["claim_hours"],
            prefix=prefix,
        ),
        tuple(section for section in sections if section.lines),
    )
    return Reply(sheet.text(), sheet=sheet)


def unknown_command(
    prefix: str, word: str, commands: CommandTable, *, beavers: bool = False, language: Language
) -> list[Reply]:
    """The answer to ``!word`` when it is no command: a hint for a near miss, else nothing (it
    is probably meant for another bot that shares the prefix). A word players of other clients
    type by habit (``!undo``, ``!quit``) gets what this bot has instead (``beavers``: the
    channel's game allows them)."""
    instead = habit(word, prefix, beavers=beavers, language=language)
    if instead is not None:
        return [Reply(instead, private=True)]
    meant = suggest(word, commands)
    if meant is None:
        return []
    return [
        Reply(
            say.UNKNOWN_COMMAND(
                language, quoted=quote(prefix + word, 30), prefix=prefix, meant=meant
            ),
            private=True,
        )
    ]
