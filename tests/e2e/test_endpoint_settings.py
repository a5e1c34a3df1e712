"""DISCORD_API_URL and DISCORD_GATEWAY_URL: Discord's by default, checked, applied to discord.py."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

import bot.discord_main as discord_main
from bot.settings import DISCORD_API_URL, DISCORD_GATEWAY_URL, Settings, SettingsError


def test_the_endpoints_are_discords_by_default(tmp_path: Path) -> None:
    settings = Settings.load({}, dotenv=tmp_path / ".env")
    assert settings.discord_api_url == "https://discord.com/api/v10" == DISCORD_API_URL
    assert settings.discord_gateway_url == "wss://gateway.discord.gg/" == DISCORD_GATEWAY_URL


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("DISCORD_API_URL", "discord.com/api", "must start with https:// or http://"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg", "must start with wss:// or ws://"),
    ],
)
def test_an_endpoint_that_is_no_url_is_refused(
    tmp_path: Path, name: str, value: str, expected: str
) -> None:
    with pytest.raises(SettingsError, match=f"{name} {expected}, not '{value}'"):
        Settings.load({name: value}, dotenv=tmp_path / ".env")


def test_the_endpoints_are_applied_to_discord_py(monkeypatch: pytest.MonkeyPatch) -> None:
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    settings = Settings(
        discord_api_url="http://127.0.0.1:1234/api/v10/",
        discord_gateway_url="ws://127.0.0.1:1234/g",
    )
    discord_main.use_endpoints(settings)
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:1234/api/v10/users/@me"
    assert str(gateway.DEFAULT_GATEWAY) == "ws://127.0.0.1:1234/g"
