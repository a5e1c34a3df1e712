"""PLAYER_COMMANDS and PLAYER_SECONDS: how fast the bot answers one player in one channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.commands.limits import Limits
from bot.service.models import Rate
from bot.settings import Settings, SettingsError

NO_DOTENV = Path("/nonexistent/.env")


def test_a_players_command_rate_is_a_setting_whose_default_is_the_limiters() -> None:
    assert Rate(Settings().player_commands, Settings().player_seconds) == Limits().player
    chosen = Settings.load({"PLAYER_COMMANDS": "20", "PLAYER_SECONDS": "2.5"}, NO_DOTENV)
    assert (chosen.player_commands, chosen.player_seconds) == (20, 2.5)
    with pytest.raises(SettingsError, match="PLAYER_COMMANDS"):
        Settings.load({"PLAYER_COMMANDS": "0"}, NO_DOTENV)
