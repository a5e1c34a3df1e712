"""Benchmark pasted positions: reading an XGID or a gnubg ID, writing both IDs back, the summary
line, and drawing the board of ``!show``.

    python bench/positions.py

Prints microseconds per read/write and milliseconds per board (median and worst).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import render_board
from bot.rules import Position
from bot.rules.pasted import PastedPosition, read_position
from bot.service.gnubg.positions import board_state, summary

T = TypeVar("T")
COUNT = 2000
BOARDS = 40


def random_positions(seed: int, count: int) -> list[PastedPosition]:
    """Positions from seeded random play (each side's checkers where random moves took them)."""
    rng = random.Random(seed)
    found: list[PastedPosition] = []
    position = Position.initial()
    while len(found) < count:
        if position.is_game_over():
            position = Position.initial()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        found.append(
            PastedPosition(
                position,
                on_roll=rng.randint(0, 1),
                dice=dice,
                length=7,
                score=(rng.randint(0, 6), rng.randint(0, 6)),
            )
        )
        position = position.play(rng.choice(position.legal_plays(*dice)))
    return found


def timed(
    label: str, items: Sequence[T], work: Callable[[T], object], unit: float, unit_name: str
) -> None:
    times = []
    for item in items:
        start = time.perf_counter()
        work(item)
        times.append((time.perf_counter() - start) / unit)
    print(
        f"{label:<28} median {statistics.median(times):8.1f} {unit_name}, "
        f"worst {max(times):8.1f} {unit_name} ({len(times)} runs)"
    )


def main() -> None:
    positions = random_positions(2026, COUNT)
    xgids = [position.xgid() for position in positions]
    gnubg_ids = [position.gnubg_id() for position in positions]
    assert [read_position(text) for text in xgids] == positions
    micro = 1e-6
    timed("read an XGID", xgids, read_position, micro, "us")
    timed("read a gnubg ID", gnubg_ids, read_position, micro, "us")
    timed("write both IDs", positions, lambda p: (p.xgid(), p.gnubg_id()), micro, "us")
    timed("summary text", positions, lambda p: summary(p, language="en"), micro, "us")
    sizes = []

    def draw(p: PastedPosition) -> None:
        sizes.append(len(render_board(board_state(p), viewer=p.on_roll)))

    render_board(board_state(positions[0]), viewer=1)  # the renderer's caches
    timed("draw the board (PNG)", positions[:BOARDS], draw, 1e-3, "ms")
    print(
        f"PNG size: median {statistics.median(sizes) / 1024:.1f} KB, "
        f"largest {max(sizes) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
