"""``python -m bot``: no token, bad settings, start-up sync, intents and a clean stop."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

import bot.discord_main as discord_main
from bot.discord_bot import NO_MESSAGE_CONTENT, BackgammonBot, bot_intents
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import StoreError

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_token_it_says_how_to_get_one(tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISCORD_TOKEN", "BACKGAMMON_DB", "LOG_LEVEL", "DEV_GUILD_ID")
    }
    env["DISCORD_TOKEN"] = ""
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "https://discord.com/developers/applications" in lines[0]
    assert "python -m bot console" in lines[0]
    assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no database created


def test_a_bad_setting_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DEFAULT_MATCH_LENGTH", "seven")
    assert discord_main.main([]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["Bad setting: DEFAULT_MATCH_LENGTH must be a whole number, not 'seven'"]


def test_unknown_arguments_get_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert discord_main.main(["--frobnicate"]) == 2
    assert "usage: python -m bot" in capsys.readouterr().err


class Synced:
    def __init__(self) -> None:
        self.calls: list[discord.abc.Snowflake | None] = []

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.calls.append(guild)
        return ["one", "two"]


async def test_no_sync_at_start_without_a_dev_guild(
    service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = BackgammonBot(service, settings)
    sync = Synced()
    monkeypatch.setattr(bot.tree, "sync", sync)
    await bot.setup_hook()
    assert sync.calls == []


async def test_the_dev_guild_is_synced_at_start(
    service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    dev = Settings(database=settings.database, dev_guild_id=4242)
    bot = BackgammonBot(service, dev)
    sync = Synced()
    monkeypatch.setattr(bot.tree, "sync", sync)
    await bot.setup_hook()
    assert [guild.id if guild else None for guild in sync.calls] == [4242]
    names = {command.name for command in bot.tree.get_commands(guild=discord.Object(4242))}
    assert {"move", "challenge", "help"} <= names


async def test_without_message_content_the_log_says_so(
    service: TableService, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    bot = BackgammonBot(service, settings, intents=bot_intents(message_content=False))
    with caplog.at_level(logging.WARNING):
        await bot.setup_hook()
    assert NO_MESSAGE_CONTENT in caplog.messages
    assert "slash commands and buttons still work" in NO_MESSAGE_CONTENT


async def test_a_refused_intent_restarts_without_it(
    service: TableService,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tried: list[bool] = []

    async def start(self: BackgammonBot, token: str, *, reconnect: bool = True) -> None:
        tried.append(self.intents.message_content)
        if self.intents.message_content:
            raise discord.PrivilegedIntentsRequired(None)

    monkeypatch.setattr(BackgammonBot, "start", start)
    with caplog.at_level(logging.WARNING):
        assert await discord_main.run_bot(service, settings, "token") == 0
    assert tried == [True, False]
    assert any("Message Content intent" in message for message in caplog.messages)


async def test_a_rejected_token_exits_2(
    service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def start(self: BackgammonBot, token: str, *, reconnect: bool = True) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(BackgammonBot, "start", start)
    assert await discord_main.run_bot(service, settings, "bad") == 2


async def test_no_network_exits_1(
    service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def start(self: BackgammonBot, token: str, *, reconnect: bool = True) -> None:
        raise aiohttp.ClientConnectionError("Name or service not known")

    monkeypatch.setattr(BackgammonBot, "start", start)
    assert await discord_main.run_bot(service, settings, "token") == 1


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
async def test_sigterm_closes_the_bot_and_the_database(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = asyncio.Event()
    services: list[TableService] = []

    async def start(self: BackgammonBot, token: str, *, reconnect: bool = True) -> None:
        services.append(self.service)
        started.set()
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(BackgammonBot, "start", start)
    serving = asyncio.create_task(discord_main.serve(settings, "token"))
    await asyncio.wait_for(started.wait(), 10)
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(serving, 10) == 0
    with pytest.raises(StoreError, match="closed"):
        await services[0].store.schema_version()
    assert Path(settings.database).exists()
    assert not Path(f"{settings.database}-wal").exists()
