"""The real bot, ``python -m bot``, as a child process pointed at a :class:`FakeDiscord`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

from bot.service.models import Rate
from tests.e2e.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
OUR_SETTINGS = (
    "DISCORD_TOKEN",
    "DISCORD_API_URL",
    "DISCORD_GATEWAY_URL",
    "BACKGAMMON_DB",
    "COMMAND_PREFIX",
    "DEV_GUILD_ID",
    "DEFAULT_MATCH_LENGTH",
    "CLAIM_TIMEOUT_HOURS",
    "CHALLENGE_TIMEOUT_MINUTES",
    "LOG_LEVEL",
    "MATCH_THREADS",
    "TABLE_LAYOUT",
    "REMINDER_HOURS",
    "CLOCK_DELAY_SECONDS",
    "DEADLINE_POLL_SECONDS",
    "PLAYER_COMMANDS",
    "PLAYER_SECONDS",
)
# The bot's rate for a player's commands in these tests (PLAYER_COMMANDS, PLAYER_SECONDS): ten
# times the default, so that a test playing a match waits on the bot, not on its pacing; the
# tests of the limit itself use the watchers' rate, which stays the default.
PLAYER_RATE = Rate(80, 4.0)


class BotProcess:
    """``python -m bot`` in ``workdir`` (no .env there) on ``database``; its log in ``log``."""

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        database: Path | str,
        settings: dict[str, str] | None = None,
    ) -> None:
        """``settings``: environment variables over the defaults (matches are played in their
        channel unless ``MATCH_THREADS`` says otherwise, a message per reply unless
        ``TABLE_LAYOUT`` does)."""
        self.fake = fake
        self.settings = {"MATCH_THREADS": "0", "TABLE_LAYOUT": "0", **(settings or {})}
        self.workdir = workdir
        self.database = database
        self.log = workdir / "bot.log"
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in OUR_SETTINGS}
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_URL=self.fake.api_url,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            BACKGAMMON_DB=str(self.database),
            DEV_GUILD_ID=str(self.fake.guild_id),
            LOG_LEVEL="INFO",
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
            PLAYER_COMMANDS=str(PLAYER_RATE.count),
            PLAYER_SECONDS=str(PLAYER_RATE.seconds),
        )
        env.update(self.settings)
        return env

    async def start(self) -> None:
        """Start the bot and wait until the fake gateway has sent it READY and GUILD_CREATE
        (its slash commands are synced by then: that happens before it connects)."""
        self.starts += 1
        with self.log.open("a") as log:
            log.write(f"----- start {self.starts} -----\n")
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.workdir,
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        connected = asyncio.ensure_future(
            self.fake.wait_connected(len(self.fake.sessions) + 1, timeout=20)
        )
        exited = asyncio.ensure_future(self.process.wait())
        await asyncio.wait({connected, exited}, return_when=asyncio.FIRST_COMPLETED)
        if not connected.done():
            connected.cancel()
            raise AssertionError(f"the bot exited with {exited.result()} before connecting")
        exited.cancel()
        connected.result()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    async def wait_for_log(self, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if not self.running or time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared in the bot's log")
            await asyncio.sleep(0.05)

    async def kill(self) -> None:
        """SIGKILL: no goodbye, no clean close."""
        assert self.process is not None
        self.process.kill()
        await self.process.wait()

    async def terminate(self, timeout: float = 10.0) -> int:
        """SIGTERM, and the exit code once it has stopped."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def stop(self) -> None:
        """Whatever state it is in: stopped (the fixtures' finalizer)."""
        if self.process is None or self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, TimeoutError):
            await self.terminate(timeout=5)
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
