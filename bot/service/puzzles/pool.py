"""The puzzles a player may be given: the starter pool shipped in the package (read once per
process) and a server's own (from the store), and how one is chosen near a player's rating.

Choosing reads no growing table whole: the starter pool is in memory, sorted by first rating;
a server's puzzles are read by their first rating through an index, :data:`CANDIDATES` at most.
The candidates nearest the player's rating by first rating are then held against their current
ratings (one read by key), the puzzles the player saw lately left out, and one of the
:data:`NEAREST` nearest by current rating is taken, by a seeded choice (the player and how many
puzzles they have answered: the same state gives the same puzzle).
"""

from __future__ import annotations

import bisect
import json
import random
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from bot.gnubg.puzzles import starter_pool
from bot.rules.glicko import Rating
from bot.rules.puzzles import Puzzle, PuzzleDataError
from bot.store.puzzles import Puzzles

CANDIDATES = 40  # puzzles of each source held against the player's rating
WINDOW = 300.0  # first ratings this far from the player's are a server puzzle's candidates
NEAREST = 5  # the choice is among this many nearest by current rating


@dataclass(frozen=True, slots=True)
class _Starter:
    puzzles: tuple[Puzzle, ...]  # by first rating
    ratings: tuple[float, ...]  # their first ratings, for bisect
    by_key: dict[str, Puzzle]


@cache
def _starter() -> _Starter:
    puzzles = tuple(sorted(starter_pool(), key=lambda p: (p.first_rating, p.key)))
    return _Starter(puzzles, tuple(p.first_rating for p in puzzles), {p.key: p for p in puzzles})


def warm_up() -> int:
    """Read the starter pool now (the first ``!puzzle`` would otherwise); how many it holds."""
    return len(_starter().puzzles)


def starter_keys() -> list[str]:
    """Every starter puzzle's key, in order."""
    return sorted(_starter().by_key)


def starter_puzzle(key: str) -> Puzzle | None:
    return _starter().by_key.get(key)


async def find(puzzles: Puzzles, server_id: str, key: str) -> Puzzle | None:
    """The puzzle ``key``: the starter pool's, or the server's own; None when neither has it."""
    found = starter_puzzle(key)
    if found is not None:
        return found
    data = await puzzles.server_puzzle(server_id, key)
    return None if data is None else _read(data)


def _read(data: str) -> Puzzle | None:
    try:
        return Puzzle.from_data(json.loads(data))
    except (PuzzleDataError, ValueError):
        return None


def _nearest_starters(rating: float, skip: Collection[str]) -> list[Puzzle]:
    starter = _starter()
    at = bisect.bisect_left(starter.ratings, rating)
    low, high = at - 1, at
    found: list[Puzzle] = []
    while len(found) < CANDIDATES and (low >= 0 or high < len(starter.puzzles)):
        below = abs(rating - starter.ratings[low]) if low >= 0 else float("inf")
        above = abs(starter.ratings[high] - rating) if high < len(starter.puzzles) else below + 1
        if below <= above:
            puzzle, low = starter.puzzles[low], low - 1
        else:
            puzzle, high = starter.puzzles[high], high + 1
        if puzzle.key not in skip:
            found.append(puzzle)
    return found


async def choose(
    puzzles: Puzzles,
    server_id: str,
    user_id: str,
    player: Rating,
    answered: int,
    skip: Collection[str],
    *,
    seed: str | None = None,
) -> tuple[Puzzle, Rating] | None:
    """A puzzle for a player rated ``player`` who has answered ``answered`` puzzles, none of
    ``skip`` (seen lately), with its current rating; None when every one was seen. ``seed``:
    the choice's, instead of the player and ``answered`` (a storm's own)."""
    candidates = {p.key: p for p in _nearest_starters(player.rating, skip)}
    for key, data in await puzzles.server_candidates(
        server_id, player.rating - WINDOW, player.rating + WINDOW, CANDIDATES
    ):
        own = _read(data) if key not in skip else None
        if own is not None:
            candidates.setdefault(key, own)
    if not candidates:
        return None
    stored = await puzzles.puzzle_ratings(list(candidates))
    rated = {
        key: stored[key].rating if key in stored else Rating(puzzle.first_rating)
        for key, puzzle in candidates.items()
    }
    nearest = sorted(rated, key=lambda key: (abs(rated[key].rating - player.rating), key))
    key = random.Random(seed or f"{user_id}:{answered}").choice(nearest[:NEAREST])
    return candidates[key], rated[key]
