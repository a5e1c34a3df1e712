"""Benchmark the board renderer on a fixed set of positions; optionally save them as samples.

    python bench/render.py                 # ms per image (min, median, worst; CPU), PNG sizes
    python bench/render.py --save docs     # also write docs/board-<name>.png

The first board is timed in this fresh process (cold caches), then the renderer's warm-up the
bot runs at start (every sprite made); then each sample position is drawn ``--repeat`` times,
and a seeded game's boards (each new: other pips, dice, plays) once each.
Goal (issue 32): median <= 3 ms, worst <= 6 ms per image, every PNG <= 80 KB, the first board
under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import BoardState, LastPlay, render_board, warm_up
from bot.rules import Play, Position

PLAYERS = ("alice", "bob")


def _play(position: Position, text: str, dice: tuple[int, int]) -> Play:
    return position.parse_play(text, dice)


def sample_states() -> dict[str, tuple[BoardState, int | None]]:
    """Name -> (state, viewer): start, middle game, bar, bear-off, doubled, game over."""
    samples: dict[str, tuple[BoardState, int | None]] = {}

    start = Position.initial()
    samples["start"] = (BoardState(start, 0, PLAYERS, match_length=7), 0)

    before = Position.from_points(
        {6: 6, 8: 2, 13: 3, 24: 1, 20: 1, 4: 2}, {6: 5, 7: 2, 8: 2, 13: 4, 15: 1, 25: 1}
    )
    hit = _play(before, "20/10*", (6, 4))
    samples["middle"] = (
        BoardState(
            before.play(hit),
            1,
            PLAYERS,
            match_length=7,
            score=(2, 4),
            cube_value=2,
            cube_owner=1,
            dice=(3, 1),
            phase="move",
            last_play=LastPlay(0, hit),
        ),
        1,
    )

    bar = Position.from_points(
        {25: 3, 13: 5, 8: 3, 6: 4}, {25: 1, 6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 8: 2}
    )
    samples["bar"] = (BoardState(bar, 0, PLAYERS, dice=(1, 3), phase="move"), None)

    bearing = Position.from_points({6: 3, 5: 2, 4: 3, 3: 1, 2: 2}, {5: 2, 4: 3, 2: 1, 1: 2})
    bear_play = _play(bearing, "6/off 5/off", (6, 5))
    bearoff = bearing.play(bear_play)
    samples["bearoff"] = (
        BoardState(
            bearoff,
            1,
            PLAYERS,
            match_length=7,
            score=(6, 5),
            crawford=True,
            cube_value=1,
            dice=(4, 4),
            dice_used=2,
            phase="move",
            last_play=LastPlay(0, bear_play),
        ),
        1,
    )

    long_names = ("Sir Reginald Backgammonington III", "the_quiet_one_from_discord_12345")
    doubled = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 4, 8: 3, 13: 4, 20: 2, 18: 2})
    samples["doubled"] = (
        BoardState(
            doubled,
            0,
            long_names,
            match_length=11,
            score=(3, 8),
            cube_value=2,
            cube_owner=0,
            phase="doubled",
        ),
        1,
    )

    last = Position.from_points({1: 1}, {6: 2, 5: 3, 20: 1, 25: 1})
    final = _play(last, "1/off", (3, 2))
    samples["over"] = (
        BoardState(
            last.play(final),
            1,
            PLAYERS,
            match_length=7,
            score=(7, 5),
            phase="over",
            winner=0,
            cube_value=2,
            cube_owner=1,
            last_play=LastPlay(0, final),
        ),
        0,
    )
    return samples


def game_states(seed: int = 32, turns: int = 60) -> list[tuple[BoardState, int | None]]:
    """A seeded game's boards, one a turn: random legal plays from the start, each board
    showing the roll to play and the play before it (no two boards alike)."""
    rng = random.Random(seed)
    position = Position.initial()
    on_roll = 0
    last: LastPlay | None = None
    states: list[tuple[BoardState, int | None]] = []
    for turn in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        board = BoardState(
            position,
            on_roll,
            PLAYERS,
            match_length=7,
            score=(turn // 20, turn // 30),
            dice=dice,
            phase="move",
            last_play=last,
        )
        states.append((board, turn % 2))
        play = rng.choice(position.legal_plays(*dice))
        position = position.play(play)
        last = LastPlay(on_roll, play) if play.steps else None
        on_roll = 1 - on_roll
        if position.is_game_over():
            break
    return states


def _row(name: str, wall: list[float], cpu: list[float], size: int) -> str:
    return (
        f"{name:<10} {min(wall):>8.2f} {statistics.median(wall):>10.2f} {max(wall):>10.2f} "
        f"{statistics.median(cpu):>8.2f} {max(cpu):>10.2f} {size / 1024:>8.1f}"
    )


def _timed(state: BoardState, viewer: int | None) -> tuple[float, float, bytes]:
    """Wall and CPU ms of one board (the CPU time is what a busy machine does not inflate)."""
    wall, cpu = time.perf_counter(), time.process_time()
    png = render_board(state, viewer=viewer)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40, help="renders per position")
    parser.add_argument("--save", type=Path, help="write board-<name>.png samples here")
    args = parser.parse_args()

    samples = sample_states()
    took, used, _ = _timed(*samples["start"])
    print(f"first board in this process (cold caches): {took:.1f} ms ({used:.1f} ms of CPU)")
    started = time.process_time()
    warm_up()
    print(f"the warm-up at start (every sprite): {(time.process_time() - started) * 1e3:.0f} ms")

    walls: list[float] = []
    cpus: list[float] = []
    largest = 0
    print(
        f"{'position':<10} {'min ms':>8} {'median ms':>10} {'worst ms':>10} {'CPU ms':>8} "
        f"{'worst CPU':>10} {'PNG KB':>8}"
    )
    for name, (state, viewer) in samples.items():
        wall: list[float] = []
        cpu: list[float] = []
        png = b""
        for _ in range(args.repeat):
            took, used, png = _timed(state, viewer)
            wall.append(took)
            cpu.append(used)
        walls += wall
        cpus += cpu
        largest = max(largest, len(png))
        print(_row(name, wall, cpu, len(png)))
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"board-{name}.png").write_bytes(png)
    print(_row("all", walls, cpus, largest))

    walls, cpus, largest = [], [], 0
    for state, viewer in game_states():
        took, used, png = _timed(state, viewer)
        walls.append(took)
        cpus.append(used)
        largest = max(largest, len(png))
    print(_row(f"game ({len(walls)})", walls, cpus, largest))


if __name__ == "__main__":
    main()
