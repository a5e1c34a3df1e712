"""Board images: drawn in a worker thread, and kept, so a board already drawn costs nothing.

A match's picture depends only on its state (its row's version), the side it is seen from and
the players' names, so :class:`BoardImages` keeps the PNGs it drew under that key, the least
recently shown dropped first once they pass a total size.
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bot.render import BoardState, LastPlay, render_board
from bot.rules import Position
from bot.rules.events import GameStarted, Moved
from bot.rules.match import Match
from bot.rules.state import MAX_CUBE
from bot.service.matches.repository import ClockReading, Table, clock_reading
from bot.service.models import clean_name

IMAGE_BYTES_KEPT = 32 * 1024 * 1024  # PNGs kept in memory, in all

# match id, version, viewer, names, and the clock as shown (whole seconds)
ImageKey = tuple[int, int, int | None, tuple[str, str], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class RecordedPlay:
    """A play as the record keeps it, enough for the board to mark it."""

    dice: tuple[int, int]
    notation: str
    steps: tuple[tuple[int, int], ...]
    hits: tuple[int, ...]


def last_play(match: Match) -> LastPlay | None:
    """The latest play of the current game, for the board to mark."""
    for event in reversed(match.record):
        if isinstance(event, GameStarted):
            return None
        if isinstance(event, Moved) and event.steps:
            recorded = RecordedPlay(event.dice, event.play, event.steps, event.hits)
            return LastPlay(event.player, recorded)
    return None


def board_state(
    match: Match, names: tuple[str, str], clock: ClockReading | None = None
) -> BoardState:
    """What the board image of ``match`` shows (``clock``: its clock as read now)."""
    winner = match.winner
    last = match.games[-1] if match.phase == "over" and match.games else None
    if last is not None:
        winner = last.winner
    return BoardState(
        position=match.position,
        on_roll=match.on_roll,
        players=(clean_name(names[0]), clean_name(names[1])),
        match_length=match.length,
        score=match.score,
        crawford=match.crawford,
        cube_value=match.cube_value,
        cube_owner=match.cube_owner,
        dice=match.dice,
        phase=match.phase,
        winner=winner,
        last_play=last_play(match),
        resignation=match.resignation if match.phase == "resigned" else 0,
        beavers=match.options.beavers and match.cube_value * 4 <= MAX_CUBE,
        result=None if last is None else "single" if last.jacoby else last.result,
        points=0 if last is None else last.points,
        clock=None if clock is None else clock.banks,
        clock_running=None if clock is None else clock.running,
        clock_delay=0.0 if clock is None else clock.delay_left,
    )


class BoardImages:
    """The board PNGs of matches, drawn one at a time off the event loop (Pillow lets go of
    the GIL while it quantises and compresses), or none at all when ``enabled`` is false."""

    def __init__(self, *, enabled: bool = True, bytes_kept: int = IMAGE_BYTES_KEPT) -> None:
        self.enabled = enabled
        self._bytes_kept = bytes_kept
        self._kept: OrderedDict[ImageKey, bytes] = OrderedDict()
        self._kept_bytes = 0
        self._renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")

    async def warm_up(self) -> None:
        """Draw one board so the first player doesn't wait for the renderer's caches."""
        if self.enabled:
            state = BoardState(Position.initial(), on_roll=0, players=("", ""))
            await self._render(state, 0)

    def close(self) -> None:
        self._renderer.shutdown(wait=True)

    async def board(
        self, table: Table, viewer: int | None, now: float | None = None
    ) -> bytes | None:
        """``table``'s board seen by ``viewer`` (None: from the side on roll), or None when
        images are off. A clock is shown as it reads at ``now`` (None: as the decision under
        way began)."""
        if not self.enabled:
            return None
        timer = table.timer
        if now is None and timer is not None:
            now = timer.turn_started_at
        clock = None if now is None else clock_reading(timer, table.match, now)
        shown = () if clock is None else (*map(int, clock.banks), math.ceil(clock.delay_left))
        key = (table.row.id, table.row.version, viewer, table.plain, shown)
        image = self._kept.get(key)
        if image is not None:
            self._kept.move_to_end(key)
            return image
        image = await self._render(board_state(table.match, table.plain, clock), viewer)
        self._keep(key, image)
        return image

    async def picture(self, state: BoardState, viewer: int | None) -> bytes | None:
        """Any board state (a pasted position's) seen by ``viewer``, drawn but not kept; None
        when images are off."""
        if not self.enabled:
            return None
        return await self._render(state, viewer)

    async def _render(self, state: BoardState, viewer: int | None) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._renderer, functools.partial(render_board, state, viewer=viewer)
        )

    def _keep(self, key: ImageKey, image: bytes) -> None:
        if len(image) > self._bytes_kept:
            return
        old = self._kept.pop(key, None)
        if old is not None:
            self._kept_bytes -= len(old)
        self._kept[key] = image
        self._kept_bytes += len(image)
        while self._kept_bytes > self._bytes_kept:
            _, dropped = self._kept.popitem(last=False)
            self._kept_bytes -= len(dropped)
