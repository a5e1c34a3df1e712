"""What the bot publishes: the slash commands it syncs to Discord (the JSON ``tree.sync`` sends)
and the prefix commands it reads, compared with ``fixtures/commands.json``, captured from the
code before the commands were declared as methods. A deliberate change of a command is
regenerated with ``REGENERATE_COMMANDS=1 pytest tests/cogs/test_published_commands.py``; read
its diff before committing it.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import Wire, start

FIXTURE = Path(__file__).parent / "fixtures" / "commands.json"


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings)
    yield wire
    await wire.close()


def named(value: Any) -> str:
    """A converter or default by name: its module may move, its meaning may not."""
    plain = isinstance(value, type) or inspect.isfunction(value)
    return str(value.__qualname__) if plain else repr(value)


def prefix_command(command: commands.Command[Any, ..., Any]) -> dict[str, Any]:
    """What discord.py reads a typed command with, and what it shows of it."""
    return {
        "name": command.name,
        "aliases": list(command.aliases),
        "cog": command.cog_name,
        "hybrid": isinstance(command, commands.HybridCommand),
        "description": command.description,
        "brief": command.brief,
        "help": command.help,
        "usage": command.usage,
        "signature": command.signature,
        "hidden": command.hidden,
        "enabled": command.enabled,
        "ignore_extra": command.ignore_extra,
        "rest_is_raw": command.rest_is_raw,
        "checks": [named(check) for check in command.checks],
        "parameters": [
            {
                "name": name,
                "kind": parameter.kind.name,
                "required": parameter.required,
                "default": repr(parameter.default),
                "converter": named(parameter.converter),
                "displayed_name": parameter.displayed_name,
                "description": parameter.description,
            }
            for name, parameter in command.clean_params.items()
        ],
    }


async def published(wire: Wire) -> dict[str, Any]:
    tree = wire.bot.tree
    translator = tree.translator
    assert translator is not None  # set in setup_hook: the commands carry their localisations
    return {
        # exactly what ``CommandTree.sync`` sends to Discord, in its order
        "slash": [
            await command.get_translated_payload(tree, translator)
            for command in tree._get_all_commands()
        ],
        "prefix": [
            prefix_command(command)
            for command in sorted(wire.bot.commands, key=lambda c: c.qualified_name)
        ],
    }


async def test_the_published_commands_are_the_fixtures(wire: Wire) -> None:
    now = json.dumps(await published(wire), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("REGENERATE_COMMANDS"):
        FIXTURE.write_text(now, encoding="utf-8")
    assert now == FIXTURE.read_text(encoding="utf-8")
