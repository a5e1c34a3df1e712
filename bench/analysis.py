"""Benchmark match analysis: bot.gnubg.analysis.analyse (a worker process, game by game, with
progress) against gnubg's own ``analyse match`` on the same .mat file in this process.

    python bench/analysis.py              # 2-ply, a 5-point match of about 190 checker plays
    python bench/analysis.py --plies 0

Budget (brief): analyse within 1.5x of gnubg's own time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import event_loop
from bot.gnubg import analysis
from bot.gnubg.capture import captured_output
from bot.gnubg.pool import WorkerPool
from bot.rules import Moved
from bot.rules.randomplay import Policy, random_match

POLICY = Policy(resign=0.0, double=0.05)


def bench_mat(plays: int) -> tuple[str, int]:
    """A seeded 5-point match of random play with about ``plays`` checker plays."""
    best: tuple[int, int] | None = None
    for seed in range(1, 60):
        count = sum(isinstance(event, Moved) for event in random_match(seed, 5, POLICY).record)
        if best is None or abs(count - plays) < abs(best[1] - plays):
            best = (seed, count)
    assert best is not None
    return random_match(best[0], 5, POLICY).to_mat(("alice", "bob")), best[1]


def gnubg_own(mat: str, plies: int) -> float:
    import gnubg

    with captured_output(), tempfile.TemporaryDirectory() as folder:
        for command in (
            "set threads 1",
            f"set analysis chequerplay evaluation plies {plies}",
            f"set analysis cubedecision evaluation plies {plies}",
            "set cache 1048576",
        ):
            gnubg.command(command)
        path = Path(folder) / "m.mat"
        path.write_text(mat)
        gnubg.command(f"import mat {path}")
        started = time.perf_counter()
        gnubg.command("analyse match")
        return time.perf_counter() - started


async def ours(mat: str, plies: int) -> tuple[float, float, list[tuple[int, int]]]:
    pool = WorkerPool(1, name="gnubg-analysis")  # the bot's analysis lane
    heard: list[tuple[int, int]] = []

    async def progress(done: int, games: int) -> None:
        heard.append((done, games))

    await pool.start()  # the worker started, gnubg imported
    started = time.perf_counter()
    result = await analysis.analyse(pool, mat, plies=plies, progress=progress)
    seconds = time.perf_counter() - started
    await pool.close()
    return seconds, result.seconds, heard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--plays", type=int, default=190)
    options = parser.parse_args()
    mat, plays = bench_mat(options.plays)
    print(f"5-point match, {plays} checker plays, {mat.count(' Game ')} games, {options.plies}-ply")
    own = gnubg_own(mat, options.plies)
    print(f"gnubg's own 'analyse match' in this process: {own:6.2f} s")
    total, inside, heard = event_loop.run(ours(mat, options.plies))
    print(
        f"bot.gnubg.analysis.analyse (worker, game by game): {total:6.2f} s "
        f"(gnubg analysing {inside:.2f} s; progress {heard})"
    )
    print(f"ratio: {total / own:.2f}x (budget 1.5x)")


if __name__ == "__main__":
    main()
