"""Start-up of the Discord bot (the Discord layer itself comes with its own issue)."""

from __future__ import annotations

import sys

from bot.settings import Settings, SettingsError

NO_TOKEN = (
    "No DISCORD_TOKEN: create a bot at https://discord.com/developers/applications (Bot -> Reset "
    "Token), put DISCORD_TOKEN=... in .env, or try it offline with `python -m bot console`."
)


def main(argv: list[str]) -> int:
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"Bad setting: {error}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    print("The Discord adapter is not built yet: use `python -m bot console`.", file=sys.stderr)
    return 2
