"""Milliseconds to pair each round of a big Swiss and to compute its standings.

Builds P entrants (default 256), plays R Swiss rounds (default 8) with seeded random results
(a few forfeits both ways and withdrawals, so score groups come out odd too) and times
``pair_round`` for each round and ``standings``/``is_over`` at the end, N times each (median,
max), and the standings image; then, through the service on a SQLite file, round 1 paired and
posted (statements, image size) and its matches opened. Prints figures only; the goals: a
round of 256 paired under 1 s, the standings image under 100 ms and 200 KB.
Run: python bench/tournament.py [--players P] [--rounds R] [--times N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TypeVar

from bot import event_loop
from bot.console import ConsoleChannels
from bot.render.standings import render_standings
from bot.rules.tournaments import (
    Entrant,
    Format,
    Pairing,
    Result,
    is_over,
    pair_round,
    seed,
    standings,
)
from bot.service.models import Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store

T = TypeVar("T")


def timed(call: Callable[[], T], times: int) -> tuple[list[float], T]:
    """Seconds per call, and the last call's value."""
    out: list[float] = []
    for _ in range(times):
        start = time.perf_counter()
        value = call()
        out.append(time.perf_counter() - start)
    return out, value


def decide(p: Pairing, rng: random.Random) -> Result:
    if p.second is None:
        return Result(p.round, p.table, p.first, None, p.first, reason="bye")
    if rng.random() < 0.03:
        return Result(p.round, p.table, p.first, p.second, None, reason="forfeit")
    winner = rng.choice((p.first, p.second))
    loser_points = rng.randint(0, 6)
    points = (7, loser_points) if winner == p.first else (loser_points, 7)
    return Result(p.round, p.table, p.first, p.second, winner, *points)


def extra_timings(
    entrants: Sequence[Entrant], results: Sequence[Result], withdrawn: frozenset[int], times: int
) -> list[tuple[str, list[float]]]:
    """The standings image of the finished tournament (its PNG's size printed too)."""
    table = standings(Format.SWISS, entrants, results, withdrawn=withdrawn)
    seconds, png = timed(
        lambda: render_standings(title="Bench", subtitle="Swiss", standings=table), times
    )
    print(f"standings image: {len(png) / 1024:.0f} KB")
    return [("standings image", seconds)]


async def posted(players: int, folder: Path) -> None:
    """A round 1 of ``players`` paired and posted through the service, on a SQLite file: the
    organiser's ``start`` (seeding, pairing, the writes, the standings image), then the
    opening of every match (a console channel each, with its board image)."""
    store = await Store.open(folder / "bench.sqlite3")
    service = TableService(store, settings=Settings(analysis_auto=False), dice=seeded_dice(1))
    place, organiser = Place("bench", "lobby"), User("org", "org")
    try:
        await service.tournament_commands.tournament(
            place, organiser, "create Big swiss 8 rounds 1 limit 256", organiser=True
        )
        for n in range(1, players + 1):
            await service.tournament_commands.join(place, User(f"p{n}", f"player{n}"))
        statements: list[str] = []
        await store.trace(statements.append)
        start = time.perf_counter()
        replies = await service.tournament_commands.tournament(
            place, organiser, "start", organiser=True
        )
        paired = time.perf_counter() - start
        counted = len(statements)
        assert any(reply.paired is not None for reply in replies)
        start = time.perf_counter()
        opened = await service.open_rounds(replies, ConsoleChannels())
        opening = time.perf_counter() - start
        await store.trace(None)
        image = max((len(r.file.data) for r in replies if r.file is not None), default=0)
        print(
            f"service: round 1 of {players} paired and posted in {paired * 1e3:.0f} ms "
            f"({counted} statements, image {image / 1024:.0f} KB); its "
            f"{sum(r.announces is not None for r in opened)} matches opened in "
            f"{opening * 1e3:.0f} ms ({len(statements) - counted} statements)"
        )
    finally:
        service.close()
        await store.close()


def row(label: str, seconds: list[float]) -> str:
    return f"{label:<24} {statistics.median(seconds) * 1e3:10.1f} {max(seconds) * 1e3:10.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--times", type=int, default=5, help="timings per call")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    entrants = seed([(n, f"player{n}", rng.gauss(1500, 200)) for n in range(1, args.players + 1)])
    results: list[Result] = []
    withdrawn: set[int] = set()
    print(f"{args.players} players, {args.rounds} Swiss rounds, each call timed {args.times} times")
    print(f"{'call':<24} {'median ms':>10} {'max ms':>10}")
    for round_no in range(1, args.rounds + 1):
        gone = frozenset(withdrawn)
        call = partial(pair_round, Format.SWISS, entrants, tuple(results), round_no, withdrawn=gone)
        seconds, value = timed(call, args.times)
        print(row(f"pair_round round {round_no}", seconds))
        results += [decide(p, rng) for p in value]
        if rng.random() < 0.5:
            withdrawn.add(rng.choice([e.player_id for e in entrants if e.player_id not in gone]))
    gone = frozenset(withdrawn)
    seconds, _ = timed(
        lambda: standings(Format.SWISS, entrants, results, withdrawn=gone), args.times
    )
    print(row(f"standings ({args.players})", seconds))
    seconds, _ = timed(
        lambda: is_over(Format.SWISS, entrants, results, swiss_rounds=args.rounds, withdrawn=gone),
        args.times,
    )
    print(row("is_over", seconds))
    for label, seconds in extra_timings(entrants, results, gone, args.times):
        print(row(label, seconds))
    with tempfile.TemporaryDirectory() as folder:
        event_loop.run(posted(args.players, Path(folder)))


if __name__ == "__main__":
    main()
