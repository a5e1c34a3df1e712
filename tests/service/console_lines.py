"""Driving the console adapter in tests: one input line, and what it printed."""

from __future__ import annotations

import io

from bot.console import SERVER, Console, ConsoleClock
from bot.service.models import Place
from bot.service.table import TableService


async def said(console: Console, out: io.StringIO, line: str) -> str:
    """Carry out one console ``line`` (``console`` writes to ``out``); what the bot printed for
    it."""
    start = out.tell()
    await console.handle(line)
    out.seek(start)
    text = out.read()
    out.seek(0, io.SEEK_END)
    return text


class ConsoleTable:
    """The console over ``service``, printing to a buffer: ``say`` carries out one line and
    returns what the bot printed for it (no images; the console's own clock unless ``clock``)."""

    def __init__(self, service: TableService, clock: ConsoleClock | None = None) -> None:
        self.service = service
        self.out = io.StringIO()
        self.console = Console(service, self.out, images=None, as_json=False, clock=clock)

    async def say(self, line: str) -> str:
        return await said(self.console, self.out, line)

    async def resigned_match(self, channel: str = "general") -> None:
        """alice challenges bob to a 1-point match in ``channel``, bob accepts, and the player on
        roll resigns it to the other: a match finished at once (analysed, where the service
        analyses)."""
        prefix = "" if channel == "general" else f"#{channel} "
        await self.say(f"{prefix}alice: !challenge @bob 1")
        await self.say(f"{prefix}bob: !accept")
        table = await self.service.table(Place(SERVER, channel))
        assert table is not None and table.match.turn is not None
        turn = table.match.turn
        await self.say(f"{prefix}{table.plain[turn]}: !resign")
        await self.say(f"{prefix}{table.plain[1 - turn]}: !accept")
