"""Driving the console adapter in tests: one input line, and what it printed."""

from __future__ import annotations

import io

from bot.console import Console


async def said(console: Console, out: io.StringIO, line: str) -> str:
    """Carry out one console ``line`` (``console`` writes to ``out``); what the bot printed for
    it."""
    start = out.tell()
    await console.handle(line)
    out.seek(start)
    text = out.read()
    out.seek(0, io.SEEK_END)
    return text
