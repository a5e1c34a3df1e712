"""The slash commands in every language the bot speaks: each command, option and choice of the
registry has a name and description in each of Discord's locales el, tr, it, de and es-ES, the
names as Discord accepts them (lower case, 1-32 letters, digits, ``-`` or ``_``; unique among the
commands, and among a command's options), the descriptions at most 100 characters; and the
commands the bot publishes carry them."""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.i18n.commands import SLASH
from bot.service.commands.registry import COMMANDS
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import Wire, start

LOCALES = ("el", "tr", "it", "de", "es-ES")
NAME_MARKS = "-_"


def is_discord_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lower case."""

    def allowed(ch: str) -> bool:
        category = unicodedata.category(ch)
        devanagari_or_thai = "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f"
        return ch in NAME_MARKS or category[0] in "LN" or devanagari_or_thai

    return 1 <= len(name) <= 32 and all(map(allowed, name)) and name == name.lower()


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("ziehen", True),
        ("meydan-oku", True),
        ("ρυθμίσεις", True),
        ("análisis", True),
        ("Ziehen", False),
        ("zwei worte", False),
        ("a" * 33, False),
        ("", False),
        ("tipp!", False),
    ],
)
def test_the_name_rule(name: str, ok: bool) -> None:
    assert is_discord_name(name) is ok


def test_there_are_the_five_locales() -> None:
    assert sorted(SLASH) == sorted(LOCALES)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_command_option_and_choice_is_translated(locale: str) -> None:
    texts = SLASH[locale]
    names = [command.name for command in COMMANDS]
    options = [f"{c.name}.{a.name}" for c in COMMANDS for a in c.arguments]
    choices = sorted({word for c in COMMANDS for a in c.arguments for word in a.choices})
    assert sorted(texts.commands) == sorted(names)
    assert sorted(texts.options) == sorted(options)
    assert sorted(texts.choices) == choices


@pytest.mark.parametrize("locale", LOCALES)
def test_names_are_discord_names_and_descriptions_fit(locale: str) -> None:
    texts = SLASH[locale]
    named = [*texts.commands.values(), *texts.options.values()]
    assert [name for name, _ in named if not is_discord_name(name)] == []
    assert [text for _, text in named if not 1 <= len(text) <= 100] == []
    assert [name for name in texts.choices.values() if not 1 <= len(name) <= 100] == []
    commands = [name for name, _ in texts.commands.values()]
    assert len(set(commands)) == len(commands), "two commands share a name"
    for command in COMMANDS:
        local = [texts.options[f"{command.name}.{a.name}"][0] for a in command.arguments]
        assert len(set(local)) == len(local), command.name


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings)
    yield wire
    await wire.close()


async def test_the_published_commands_carry_the_localisations(wire: Wire) -> None:
    tree = wire.bot.tree
    assert tree.translator is not None
    payloads: list[dict[str, Any]] = [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree._get_all_commands()
    ]
    assert {payload["name"] for payload in payloads} == {command.name for command in COMMANDS}
    for payload in payloads:
        texts = {locale: SLASH[locale] for locale in LOCALES}
        name = payload["name"]
        assert payload["name_localizations"] == {at: t.commands[name][0] for at, t in texts.items()}
        assert payload["description_localizations"] == {
            at: t.commands[name][1] for at, t in texts.items()
        }
        for option in payload.get("options", []):
            key = f"{name}.{option['name']}"
            assert option["name_localizations"] == {
                at: t.options[key][0] for at, t in texts.items()
            }
            for choice in option.get("choices", []):
                assert choice["name_localizations"] == {
                    at: t.choices[choice["value"]] for at, t in texts.items()
                }
    move = next(payload for payload in payloads if payload["name"] == "move")
    assert move["name_localizations"]["de"] == "ziehen"
