"""Microseconds per ``Position.legal_plays`` call, beside ``gnubg_nn.moves`` on the same boards.

A fixed, seeded mix of self-play positions, each with all 21 rolls. Run: python bench/legal_plays.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bot.rules import Position

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def sample_positions(count: int, seed: int = 1) -> list[Position]:
    rng = random.Random(seed)
    positions: list[Position] = []
    position = Position.initial()
    while len(positions) < count:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        positions.append(position)
        position = rng.choice(position.legal_plays(*roll)).result
        if position.is_game_over():
            position = Position.initial()
    return positions


def timings(call: Callable[[Position, int, int], object], positions: list[Position]) -> list[float]:
    out = []
    for position in positions:
        for d1, d2 in ROLLS:
            start = time.perf_counter()
            call(position, d1, d2)
            out.append(time.perf_counter() - start)
    return out


def main() -> None:
    positions = sample_positions(500)
    timings(lambda p, a, b: p.legal_plays(a, b), positions[:50])  # warm up
    ours = timings(lambda p, a, b: p.legal_plays(a, b), positions)
    with_text = timings(lambda p, a, b: [q.notation for q in p.legal_plays(a, b)], positions)
    calls = len(ours)
    print(f"{len(positions)} positions x {len(ROLLS)} rolls = {calls} calls")
    print(
        f"legal_plays             mean {statistics.fmean(ours) * 1e6:7.1f} us   "
        f"worst {max(ours) * 1e3:6.2f} ms"
    )
    print(
        f"legal_plays + notation  mean {statistics.fmean(with_text) * 1e6:7.1f} us   "
        f"worst {max(with_text) * 1e3:6.2f} ms"
    )
    try:
        import gnubg_nn
    except ImportError:
        print("gnubg_nn not installed: pip install -e '.[test]' for the comparison")
        return
    boards = {id(p): [list(p.opponent), list(p.mover)] for p in positions}
    theirs = timings(lambda p, a, b: gnubg_nn.moves(boards[id(p)], a, b, 1), positions)
    print(
        f"gnubg_nn.moves (C)      mean {statistics.fmean(theirs) * 1e6:7.1f} us   "
        f"worst {max(theirs) * 1e3:6.2f} ms"
    )
    print(f"ratio (ours / gnubg)    {statistics.fmean(ours) / statistics.fmean(theirs):.1f}x")


if __name__ == "__main__":
    main()
