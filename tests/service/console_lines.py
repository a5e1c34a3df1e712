"""Driving the console adapter in tests: one input line, and what it printed."""

from __future__ import annotations

import io
from collections.abc import Callable

from bot.console import Console
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

    def __init__(self, service: TableService, clock: Callable[[], float] | None = None) -> None:
        self.service = service
        self.out = io.StringIO()
        self.console = Console(service, self.out, images=None, as_json=False, clock=clock)

    async def say(self, line: str) -> str:
        return await said(self.console, self.out, line)
