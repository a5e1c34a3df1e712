"""What a long history costs: a server with 100,000 past matches, 100,000 old challenges and
10,000 players against a server with one match, side by side, each timed on what the bot does at
start, ``!stats``, ``!leaderboard``, the deadline check (every 5 s), a new match (challenge and
accept) and a burst of 2,000 ``/move`` autocomplete requests.

    python bench/history.py                                    # SQLite files in a temporary folder
    python bench/history.py --pg postgresql://user@host:port/postgres   # databases made there
    python bench/history.py --matches 20000 --challenges 20000 --players 2000   # smaller

The history is written through the store's own bulk API (bot/store/history.py), which adds to the
players' counters as the bot does when a match ends: each past match has the action log of a real
1-point match played here first, a quarter of them rated 1-7 point matches, then money games,
aborted ones and games against GNU Backgammon; one in ten finished ones is analysed. Each
server then gets a match being played, the same in both.

Budget: each figure within +15 ms of the one-match server's (startup +150 ms), and the burst's
p99 under 50 ms (each request's time counted from the start of the burst, all 2,000 sent at
once; Python's garbage collected first). Figures are medians over the runs (a burst: its p50
and p99). Startup runs on a warm disk cache (dropping the operating system's cache needs root
and would slow the machine for everything else).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import event_loop
from bot.rules.rating import START_RATING, rate_match
from bot.service.models import ENGINE_ID, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import PlayerFigures, Store
from bot.store.copy import counts
from bot.store.history import (
    History,
    PastAnalysis,
    PastChallenge,
    PastMatch,
    PastRating,
)

SERVER = "guild"
LIVE = Place(SERVER, "live")
BATCH = 5_000  # past matches (or challenges) written per transaction
DAY = 86_400.0
LEVELS = ("beginner", "casual", "intermediate", "advanced", "expert", "worldclass")
TYPED = ("", "1", "13/", "8/", "24/", "6/5 ", "13/7 ", "x")
SETTINGS = Settings(match_threads=False, analysis_auto=False)


@dataclass(frozen=True)
class Template:
    """A real finished match, as the store holds it: every past match is written with it."""

    state: str
    snapshot: str
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Figure:
    name: str
    one: float  # milliseconds on the one-match server
    history: float  # on the server with a history
    budget: float  # the most the history may add (ms); or, with ``limit``, the figure's bound
    limit: bool = False

    @property
    def within(self) -> bool:
        if self.limit:
            return self.history <= self.budget and self.one <= self.budget
        return self.history - self.one <= self.budget


async def play_template(folder: Path) -> Template:
    """Play a 1-point match through the service (first legal plays, every double taken)."""
    store = await Store.open(folder / "template.sqlite3")
    service = TableService(store, settings=SETTINGS, dice=seeded_dice(1), images=False)
    a, b = User("1", "a"), User("2", "b")
    place = Place("template", "t")
    try:
        await service.matches.challenge(place, a, b, "1")
        await service.matches.accept(place, b)
        while (table := await service.table(place)) is not None:
            turn = table.match.turn
            assert turn is not None
            user = (a, b)[turn]
            phase = table.match.phase
            if phase == "move":
                await service.matches.move(place, user, table.match.legal_plays()[0].notation)
            elif phase == "doubled":
                await service.matches.take(place, user)
            elif phase == "resigned":
                await service.matches.accept(place, user)
            else:
                await service.matches.roll(place, user)
        row = await store.matches.latest(place.server_id, place.channel_id)
        assert row is not None and row.snapshot is not None and row.status == "finished"
        actions = tuple(action for _, action in await store.matches.actions(row.id))
        return Template(row.state, row.snapshot, actions)
    finally:
        service.close()
        await store.close()


def past_matches(
    count: int, users: list[str], template: Template, rng: random.Random
) -> list[PastMatch]:
    """``count`` past matches between ``users`` over the last year, in the order played, with
    FIBS ratings computed as they went."""
    standing = {user: (START_RATING, 0) for user in users}
    start = time.time() - 365 * DAY
    out = []
    for n in range(count):
        a, b = rng.sample(users, 2)
        kind = rng.random()
        winner: int | None = rng.randrange(2)
        status, ending, level, rated, length = (
            "finished",
            "played",
            None,
            True,
            rng.choice((1, 3, 5, 7)),
        )
        ratings: tuple[PastRating, ...] = ()
        if kind < 0.10:  # against GNU Backgammon, unrated
            b, level, rated = ENGINE_ID, rng.choice(LEVELS), False
        elif kind < 0.15:
            status, ending, winner = "aborted", "aborted", None
        elif kind < 0.25:
            length, rated = 0, False  # a money game
        else:
            won, lost = (a, b) if winner == 0 else (b, a)
            change = rate_match(standing[won], standing[lost], length)
            ratings = (
                PastRating(won, standing[won][0], change.winner_rating, standing[won][1]),
                PastRating(lost, standing[lost][0], change.loser_rating, standing[lost][1]),
            )
            standing[won] = (change.winner_rating, change.winner_experience)
            standing[lost] = (change.loser_rating, change.loser_experience)
        analysis = None
        if status == "finished" and rng.random() < 0.1:
            analysis = PastAnalysis(
                2,
                "{}",
                tuple(
                    PlayerFigures(
                        seat, user, rng.uniform(2, 20), rng.uniform(4, 40), rng.randint(20, 200)
                    )
                    for seat, user in enumerate((a, b))
                ),
            )
        created = start + n * (365 * DAY / count)
        out.append(
            PastMatch(
                SERVER,
                f"c{n % 500}",
                (a, b),
                length,
                template.state,
                template.snapshot,
                template.actions,
                status,
                winner,
                ending,
                created,
                created + 1_800,
                engine_level=level,
                rated=rated,
                ratings=ratings,
                analysis=analysis,
            )
        )
    return out


def old_challenges(count: int, users: list[str], rng: random.Random) -> list[PastChallenge]:
    start = time.time() - 365 * DAY
    statuses = ("accepted", "declined", "cancelled", "expired")
    out = []
    for n in range(count):
        a, b = rng.sample(users, 2)
        created = start + n * (365 * DAY / count)
        out.append(
            PastChallenge(
                SERVER,
                f"o{n % 500}",
                a,
                b,
                rng.choice((1, 3, 5)),
                created,
                created + 3_600,
                statuses[n % 4],
            )
        )
    return out


async def build_history(
    store: Store, template: Template, matches: int, challenges: int, players: int
) -> list[str]:
    """The server's players, past matches and old challenges; its users' ids."""
    rng = random.Random(7)
    users = [f"{100_000 + n}" for n in range(players)]
    started = time.perf_counter()
    for first in range(0, players, BATCH):
        async with store.transaction() as tx:
            named = [(user, f"player {user}") for user in users[first : first + BATCH]]
            await tx.players.ensure_all(SERVER, named, started)
    async with store.transaction() as tx:
        await tx.players.ensure(SERVER, ENGINE_ID, "GNU Backgammon", started)
    past = past_matches(matches, users, template, rng)
    for first in range(0, len(past), BATCH):
        async with store.transaction() as tx:
            await History(tx).add_matches(past[first : first + BATCH])
    old = old_challenges(challenges, users, rng)
    for first in range(0, len(old), BATCH):
        async with store.transaction() as tx:
            await History(tx).add_challenges(old[first : first + BATCH])
    seconds = time.perf_counter() - started
    held = await counts(store)
    print(
        f"  built in {seconds:.0f} s: {held['players']:,} players, {held['matches']:,} matches, "
        f"{held['match_actions']:,} actions, {held['rating_changes']:,} rating changes, "
        f"{held['analyses']:,} analyses, {held['challenges']:,} challenges"
    )
    return users


async def startup(where: str) -> None:
    """What the bot does at start, before its first command: open the store, find the matches
    to re-post and those GNU Backgammon owes a turn in, count the analyses waiting."""
    store = await Store.open(where)
    service = TableService(store, settings=SETTINGS, images=False)
    try:
        await service.unannounced()
        await service.resume_engine()
        await store.analyses.waiting()  # (what resume_analyses reads where gnubg runs)
    finally:
        service.close()
        await store.close()


async def timed(runs: int, work: Callable[[int], Awaitable[object]]) -> float:
    """Median milliseconds of ``work(n)`` over ``runs`` runs (after one run not counted)."""
    await work(-1)
    seconds = []
    for n in range(runs):
        began = time.perf_counter()
        await work(n)
        seconds.append(time.perf_counter() - began)
    return statistics.median(seconds) * 1e3


async def burst(service: TableService, requests: int) -> tuple[float, float]:
    """``requests`` autocomplete requests at once from the player to move at the live table:
    (p50, p99) milliseconds, each counted from the start of the burst."""
    table = await service.table(LIVE)
    assert table is not None and table.match.turn is not None and table.match.phase == "move"
    mover_id = table.row.player_ids[table.match.turn]
    mover = User(mover_id, table.plain[table.match.turn])
    gc.collect()  # not one that the runs before left due (60 ms here, a pause any code may meet)
    began = time.perf_counter()

    async def ask(n: int) -> float:
        await service.matches.move_choices(LIVE, mover, TYPED[n % len(TYPED)])
        return time.perf_counter() - began

    done = sorted(await asyncio.gather(*(ask(n) for n in range(requests))))
    return done[len(done) // 2] * 1e3, done[min(len(done) - 1, int(len(done) * 0.99))] * 1e3


async def measure(where: str, users: list[str], runs: int, requests: int) -> dict[str, float]:
    """Every figure on the server at ``where`` (its players ``users``; the first two play the
    live match)."""
    figures = {"startup": await timed(runs, lambda n: startup(where))}
    store = await Store.open(where)
    service = TableService(store, settings=SETTINGS, dice=seeded_dice(3), images=False)
    rng = random.Random(3)

    def someone() -> User:
        user = rng.choice(users)
        return User(user, f"player {user}")

    try:
        a, b = User(users[0], f"player {users[0]}"), User(users[1], f"player {users[1]}")
        await service.matches.challenge(LIVE, a, b, "5")
        await service.matches.accept(LIVE, b)
        figures["!stats"] = await timed(runs, lambda n: service.server.stats(LIVE, a, someone()))
        figures["!leaderboard"] = await timed(
            runs, lambda n: service.server.leaderboard(LIVE, someone())
        )
        figures["deadline check"] = await timed(runs, lambda n: service.due())

        async def new_match(n: int) -> None:
            place = Place(SERVER, f"new-{n}")
            first, second = User(f"n{n}a", f"new {n}a"), User(f"n{n}b", f"new {n}b")
            replies = await service.matches.challenge(place, first, second, "3")
            assert not replies[0].private, replies[0].text
            replies = await service.matches.accept(place, second)
            assert not replies[0].private, replies[0].text

        figures["new match"] = await timed(runs, new_match)
        await burst(service, requests)  # the first read of the match after a restart: not counted
        p50, p99 = await burst(service, requests)
        figures["autocomplete p50"], figures["autocomplete p99"] = p50, p99
    finally:
        service.close()
        await store.close()
    return figures


async def main(options: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        template = await play_template(Path(folder))
        made: list[str] = []
        if options.pg:
            from bench.stores import drop_database, new_database

            one, one_name = await new_database(options.pg)
            history, history_name = await new_database(options.pg)
            made = [one_name, history_name]
            kind = "PostgreSQL"
        else:
            one, history = str(Path(folder) / "one.sqlite3"), str(Path(folder) / "history.sqlite3")
            kind = "SQLite"
        try:
            print(f"{kind}: building the server with a history", flush=True)
            store = await Store.open(history)
            try:
                users = await build_history(
                    store, template, options.matches, options.challenges, options.players
                )
            finally:
                await store.close()
            pair = ["1001", "1002"]
            one_match = await measure(one, pair, options.runs, options.requests)
            lived = await measure(history, users, options.runs, options.requests)
        finally:
            for name in made:
                await drop_database(options.pg, name)
    budgets = {"startup": 150.0}
    rows = [
        Figure(name, one_match[name], lived[name], budgets.get(name, 15.0))
        for name in ("startup", "!stats", "!leaderboard", "deadline check", "new match")
    ]
    rows.append(
        Figure(
            "autocomplete p50",
            one_match["autocomplete p50"],
            lived["autocomplete p50"],
            50.0,
            limit=True,
        )
    )
    rows.append(
        Figure(
            "autocomplete p99",
            one_match["autocomplete p99"],
            lived["autocomplete p99"],
            50.0,
            limit=True,
        )
    )
    print(
        f"\n{kind}, {options.matches:,} past matches, {options.challenges:,} old challenges, "
        f"{options.players:,} players; medians of {options.runs} runs, "
        f"bursts of {options.requests:,}"
    )
    print(f"{'':22} {'one match':>12} {'history':>12} {'added':>10}   budget")
    for row in rows:
        budget = f"< {row.budget:g} ms" if row.limit else f"+{row.budget:g} ms"
        print(
            f"{row.name:22} {row.one:9.2f} ms {row.history:9.2f} ms "
            f"{row.history - row.one:+7.2f} ms   {budget} {'ok' if row.within else 'OVER'}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="a PostgreSQL server URL (its postgres database)")
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--challenges", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--requests", type=int, default=2_000)
    event_loop.run(main(parser.parse_args()))
