"""Sharding: SHARD_COUNT and SHARD_IDS, and the auto-sharded bot that ``python -m bot`` runs."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest

import bot.discord_main as discord_main
from bot.discord_bot import BackgammonBot, ShardedBackgammonBot
from bot.service.table import TableService
from bot.settings import Settings, SettingsError


def load(tmp_path: Path, **environ: str) -> Settings:
    return Settings.load(environ, dotenv=tmp_path / "none.env")


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "0-3", (0, 1, 2, 3)),
        ("4", "0,1,2", (0, 1, 2)),
        ("16", "0-3, 8 ,10-11", (0, 1, 2, 3, 8, 10, 11)),
        ("4", "2,1,2", (1, 2)),
        ("1", "0", (0,)),
    ],
)
def test_shard_ids_are_ranges_and_lists(
    tmp_path: Path, count: str, ids: str, expected: tuple[int, ...]
) -> None:
    settings = load(tmp_path, SHARD_COUNT=count, SHARD_IDS=ids)
    assert settings.shard_count == int(count)
    assert settings.shard_ids == expected


def test_by_default_discord_decides_and_this_process_runs_all(tmp_path: Path) -> None:
    settings = load(tmp_path)
    assert settings.shard_count is None and settings.shard_ids is None
    assert load(tmp_path, SHARD_COUNT="8").shard_ids is None


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SHARD_IDS": "0-3"}, "SHARD_IDS=0-3 needs SHARD_COUNT too"),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "0-4"},
            "goes up to 4, but with SHARD_COUNT=4 the shards are 0 to 3",
        ),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "the empty or negative range '3-1'"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-1"}, "like 0-3 or 0,1,2, not '-1'"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "one"}, "like 0-3 or 0,1,2, not 'one'"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "like 0-3 or 0,1,2, not '0,,1'"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1, not '0'"),
        ({"SHARD_COUNT": "many"}, "SHARD_COUNT must be a whole number, not 'many'"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(
    tmp_path: Path, environ: dict[str, str], message: str
) -> None:
    with pytest.raises(SettingsError, match=message.replace("(", r"\(")):
        load(tmp_path, **environ)


async def test_the_sharded_bot_gets_the_shards(
    service: TableService, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    sharded = Settings(database=settings.database, shard_count=4, shard_ids=(2, 3))
    bot = ShardedBackgammonBot(service, sharded)
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4 and bot.shard_ids == [2, 3]
    with caplog.at_level(logging.INFO):
        await bot.setup_hook()
    assert "Shards: 2, 3 of 4" in caplog.messages

    default = ShardedBackgammonBot(service, settings)
    assert default.shard_count is None and default.shard_ids is None


async def test_python_m_bot_runs_the_sharded_bot(
    service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[BackgammonBot] = []

    async def start(self: BackgammonBot, token: str, *, reconnect: bool = True) -> None:
        ran.append(self)

    monkeypatch.setattr(BackgammonBot, "start", start)
    assert await discord_main.run_bot(service, settings, "token") == 0
    [bot] = ran
    assert isinstance(bot, discord.AutoShardedClient)
