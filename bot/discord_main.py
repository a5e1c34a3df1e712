"""``python -m bot``: settings, logging, the database and the bot's life, start to clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import aiohttp
import discord
import yarl

from bot import event_loop
from bot.discord_bot import BackgammonBot, ShardedBackgammonBot, bot_intents
from bot.service.lifetime import StartError, open_service
from bot.service.table import TableService
from bot.settings import DISCORD_API_URL as API_URL
from bot.settings import DISCORD_GATEWAY_URL as GATEWAY_URL
from bot.settings import Settings, SettingsError
from bot.store import shown

log = logging.getLogger("bot")

NO_TOKEN = (
    "No DISCORD_TOKEN: create a bot at https://discord.com/developers/applications (Bot -> Reset "
    "Token), put DISCORD_TOKEN=... in .env, or try it offline with `python -m bot console`."
)
USAGE = "usage: python -m bot [console [--help] | copy-db SOURCE DEST]"


def main(argv: list[str]) -> int:
    if argv:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"Bad setting: {error}", file=sys.stderr)
        return 2
    token = settings.discord_token
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    use_endpoints(settings)
    try:
        return event_loop.run(serve(settings, token))
    except KeyboardInterrupt:
        return 0


def use_endpoints(settings: Settings) -> None:
    """Point discord.py at the settings' REST API and gateway: Discord's, or a local fake in tests.
    (discord.py's Client connects to its default gateway URL, not the one /gateway/bot names.)"""
    discord.http.Route.BASE = settings.discord_api_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
    if (settings.discord_api_url, settings.discord_gateway_url) != (API_URL, GATEWAY_URL):
        log.warning(
            "Not Discord: API %s, gateway %s (for tests only)",
            settings.discord_api_url,
            settings.discord_gateway_url,
        )


async def serve(settings: Settings, token: str) -> int:
    """Open the database, run the bot until it stops, close everything cleanly."""
    log.info("Database: %s; event loop: %s", shown(settings.database), event_loop.loop_name())
    try:
        async with open_service(settings) as service:
            return await run_bot(service, settings, token)
    except StartError as error:
        log.error("Can't start: %s", error)
        return 1


async def run_bot(service: TableService, settings: Settings, token: str) -> int:
    """Run the bot; without the Message Content intent, start again without it (prefix
    commands off, slash commands and buttons on). SIGTERM closes the bot."""
    loop = asyncio.get_running_loop()
    current: BackgammonBot | None = None
    stopping = False
    closing: set[asyncio.Task[None]] = set()

    def stop() -> None:
        nonlocal stopping
        log.info("SIGTERM: closing")
        stopping = True
        if current is not None:
            task = loop.create_task(current.close())
            closing.add(task)
            task.add_done_callback(closing.discard)

    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        loop.add_signal_handler(signal.SIGTERM, stop)
    message_content = True
    try:
        while not stopping:
            intents = bot_intents(message_content=message_content)
            async with ShardedBackgammonBot(service, settings, intents=intents) as bot:
                current = bot
                try:
                    await bot.start(token)
                    return 0
                except discord.PrivilegedIntentsRequired:
                    if not message_content:
                        raise
                    log.warning("Discord refused the Message Content intent: starting without it")
                    message_content = False
                except discord.LoginFailure:
                    log.error(
                        "Discord rejected DISCORD_TOKEN: copy a fresh one from "
                        "https://discord.com/developers/applications (Bot -> Reset Token)."
                    )
                    return 2
                except (aiohttp.ClientError, OSError) as error:
                    log.error("Can't reach Discord: %s", error)
                    return 1
        return 0
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGTERM)
