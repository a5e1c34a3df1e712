"""One long match through the table service: does a command cost more as the match grows?

Plays a 25-point match (board images on, as the bot runs) between two seeded random players and
prints the median and p99 time of the first and the last 200 commands, the bytes stored per
action and the largest row, the bytes each command writes, and the time from a restart (a new
service on the same database, nothing cached) to the first reply, measured once a player has half
the points. It counts what either layout writes: the whole ``state`` at every save (before schema
5), or a snapshot and the new rows of the action log (``match_actions``). Then it times the
storage codec on the final match: a save's texts, a restore from the snapshot, a full replay.
Goals: last 200 within 1.2x of the first 200; bytes per action constant; restart under 50 ms.
Run: python bench/long_match.py [--length 25] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path

from bot import event_loop
from bot.rules import Match
from bot.service.models import Place, Reply, User
from bot.service.records import storage
from bot.service.table import TableService, seeded_dice
from bot.store import Store

PLACE = Place("bench", "long")
USERS = (User("a", "amy"), User("b", "ben"))
WINDOW = 200


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class Meter:
    """What the channel's match row and its action log hold, and what each command wrote."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.match_id = 0
        self.logged = 0  # action rows counted so far
        self.log_bytes = 0
        self.written: list[int] = []  # bytes each command wrote
        self.rows: list[int] = []  # the match row's state + snapshot after each command

    async def measure(self) -> None:
        row = await self.store.fetch_one(
            "SELECT id, length(state), COALESCE(length(snapshot), 0) FROM matches "
            "WHERE server_id = ? AND channel_id = ? ORDER BY id DESC LIMIT 1",
            (PLACE.server_id, PLACE.channel_id),
        )
        if row is None:  # a challenge: no match yet
            self.written.append(0)
            self.rows.append(0)
            return
        match_id, state, snapshot = (int(value) for value in row)
        if match_id != self.match_id:
            self.match_id, self.logged, self.log_bytes = match_id, 0, 0
        new = await self.store.fetch_one(
            "SELECT COUNT(*), COALESCE(SUM(length(action)), 0) FROM match_actions "
            "WHERE match_id = ? AND seq >= ?",
            (match_id, self.logged),
        )
        assert new is not None
        self.logged += int(new[0])
        self.log_bytes += int(new[1])
        # Schema 5 rewrites the snapshot and appends the new actions; before, the whole state.
        self.written.append(snapshot + int(new[1]) if snapshot else state)
        self.rows.append(state + snapshot)

    @property
    def stored(self) -> int:
        """Bytes the match takes: its row's texts and its log."""
        return self.rows[-1] + self.log_bytes


async def run(length: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.sqlite3"
        store = await Store.open(path)
        service = TableService(store, dice=seeded_dice(seed))
        await service.warm_up()
        rng = random.Random(seed)
        times: list[float] = []
        meter = Meter(store)
        restart_ms: tuple[float, float] | None = None

        async def timed(command: Awaitable[list[Reply]]) -> None:
            start = time.perf_counter()
            await command
            times.append(time.perf_counter() - start)
            await meter.measure()

        await timed(service.matches.challenge(PLACE, USERS[0], USERS[1], length))
        await timed(service.matches.accept(PLACE, USERS[1]))
        while (table := await service.table(PLACE)) is not None:
            match = table.match
            user = USERS[match.turn or 0]
            if restart_ms is None and max(match.score) >= length // 2:
                restart_ms = await restart(path, seed)
            if match.phase == "roll":
                double = match.can_double(match.on_roll) and rng.random() < 0.01
                await timed(
                    (service.matches.double if double else service.matches.roll)(PLACE, user)
                )
            elif match.phase == "move":
                play = rng.choice(match.legal_plays()).notation
                await timed(service.matches.move(PLACE, user, play))
            elif match.phase == "doubled":
                answer = service.matches.take if rng.random() < 0.5 else service.matches.drop
                await timed(answer(PLACE, user))
            else:
                await timed(service.matches.reject(PLACE, user))
        final = await service.latest_table(PLACE)
        assert final is not None
        actions = final.match.action_count
        replayed = final.match  # the whole match: read back from the log if it is partial
        if not replayed.has_full_record:
            log = await store.matches.actions(final.row.id)
            replayed = storage.replay(final.row.state, log, None)
        service.close()
        await store.close()

    first, last = summary(times[:WINDOW]), summary(times[-WINDOW:])
    print(f"{length}-point match: {len(times)} commands, {actions} actions")
    print(f"first {WINDOW} commands: median {first[0] * 1e3:6.2f} ms, p99 {first[1] * 1e3:6.2f} ms")
    print(f"last  {WINDOW} commands: median {last[0] * 1e3:6.2f} ms, p99 {last[1] * 1e3:6.2f} ms")
    print(f"last / first median: {last[0] / first[0]:.2f}x (goal <= 1.2x)")
    print(
        f"match stored: {meter.stored} bytes at the end, {meter.stored / actions:.0f} per action "
        f"({meter.logged} action rows); largest row {max(meter.rows)} bytes"
    )
    written = meter.written
    print(
        f"bytes written per command: first {WINDOW} {statistics.mean(written[:WINDOW]):.0f}, "
        f"last {WINDOW} {statistics.mean(written[-WINDOW:]):.0f} (goal: constant)"
    )
    codec_figures(replayed)
    if restart_ms is not None:
        print(
            f"restart to first reply, late in the match: {restart_ms[0]:.1f} ms text-only, "
            f"{restart_ms[1]:.1f} ms with the board image (goal < 50 ms)"
        )


def codec_figures(match: Match) -> None:
    """The storage codec on the final match: a save, a load from the snapshot, a replay."""
    state = storage.state_text(match)
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        changes = storage.changes(match, match.action_count - 1)
    save_ms = (time.perf_counter() - start) / rounds * 1e3
    start = time.perf_counter()
    for _ in range(rounds):
        storage.restore(state, changes.snapshot, None)
    restore_ms = (time.perf_counter() - start) / rounds * 1e3
    log = [(seq, storage.action_text(action)) for seq, action in enumerate(match.actions)]
    start = time.perf_counter()
    storage.replay(state, log, None)
    replay_ms = (time.perf_counter() - start) * 1e3
    print(
        f"codec, final match: a save writes {changes.size} bytes (snapshot "
        f"{len(changes.snapshot)}, the action {changes.size - len(changes.snapshot)}), "
        f"made in {save_ms:.3f} ms; restore from the snapshot {restore_ms:.3f} ms; "
        f"replay of the {len(log)}-action log {replay_ms:.0f} ms"
    )


async def restart(path: Path, seed: int) -> tuple[float, float]:
    """A new process's view: a fresh store and service on the same file, then one command."""
    timings = []
    for images in (False, True):
        store = await Store.open(path)
        service = TableService(store, dice=seeded_dice(seed), images=images)
        await service.warm_up()  # the bot warms the renderer before it connects
        start = time.perf_counter()
        await (service.matches.board if images else service.matches.pips)(PLACE, USERS[0])
        timings.append((time.perf_counter() - start) * 1e3)
        service.close()
        await store.close()
    return timings[0], timings[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    event_loop.run(run(args.length, args.seed))


if __name__ == "__main__":
    main()
