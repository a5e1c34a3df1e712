"""``Position.legal_plays`` against a straightforward generator kept here: every sequence of
single-die moves, in either die order (four of the die for doubles), keeping those that use the
most dice (the larger die when only one can be played), each resulting position once, by its
first sequence.

The search visits each die's moves from the bar, then from the highest point down, so its first
sequence for a position is the one that moves from the highest points first: the order the
production search, which only tries doubles' moves from no higher than the one before, keeps.
Checked on a seeded sample of self-play positions with every roll, both ways round; the order
of the plays is seen (autocomplete lists, seeded choices), so it is compared as well as the
content. ``RULES_GENERATE_POSITIONS=N`` checks N positions instead of the default.
"""

from __future__ import annotations

import os
import random

import pytest

from bot.rules import Position
from bot.rules.notation import BAR, OFF, Step

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)]  # both ways round
POSITIONS = int(os.environ.get("RULES_GENERATE_POSITIONS", "160"))

_Key = tuple[tuple[int, ...], frozenset[int]]  # the mover's side, the points hit


def single_moves(mover: list[int], opponent: tuple[int, ...], die: int) -> list[Step]:
    """The mover's moves of one die: from the bar if a checker is there, else from each point,
    highest first; bearing off once every checker is home, from the point the die names or from
    the highest point when the die is larger."""
    sources = [BAR] if mover[24] else [point for point in range(24, 0, -1) if mover[point - 1]]
    home = not any(mover[6:])
    moves: list[Step] = []
    for source in sources:
        dest = source - die
        if dest >= 1:
            if opponent[24 - dest] < 2:  # the mover's point p is the opponent's 25 - p
                moves.append((source, dest))
        elif home and (dest == 0 or not any(mover[source:6])):
            moves.append((source, OFF))
    return moves


def reference_plays(position: Position, die1: int, die2: int) -> list[tuple[Step, ...]]:
    orders = [(die1,) * 4] if die1 == die2 else [(die1, die2), (die2, die1)]
    ends: list[tuple[tuple[int, int], _Key, tuple[Step, ...]]] = []  # (dice used, pips), ...
    seen: set[tuple[_Key, tuple[int, ...]]] = set()

    def search(
        mover: list[int], hits: frozenset[int], order: tuple[int, ...], steps: list[Step]
    ) -> None:
        key = (tuple(mover), hits)
        left = order[len(steps) :]
        if (key, left) in seen:  # the same state again: everything below was found already
            return
        seen.add((key, left))
        moves = single_moves(mover, position.opponent, left[0]) if left else []
        if not moves:
            ends.append(((len(steps), sum(order[: len(steps)])), key, tuple(steps)))
            return
        for source, dest in moves:
            after = list(mover)
            after[source - 1] -= 1
            hit = hits
            if dest != OFF:
                after[dest - 1] += 1
                if position.opponent[24 - dest] == 1:
                    hit = hits | {dest}
            search(after, hit, order, [*steps, (source, dest)])

    for order in orders:
        search(list(position.mover), frozenset(), order, [])
    best = max(rank for rank, _, _ in ends)
    if best[0] == 0:
        return [()]
    plays: dict[_Key, tuple[Step, ...]] = {}
    for rank, key, steps in ends:
        if rank == best and key not in plays:
            plays[key] = steps
    return list(plays.values())


def sample(count: int, seed: int) -> list[Position]:
    """Positions of seeded random games played out (bar entries and bear-offs included)."""
    rng = random.Random(seed)
    positions: list[Position] = []
    position = Position.initial()
    while len(positions) < count:
        positions.append(position)
        position = rng.choice(position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))).result
        if position.is_game_over():
            position = Position.initial()
    return positions


@pytest.mark.parametrize("seed", [1, 2])
def test_legal_plays_are_the_reference_plays_in_the_same_order(seed: int) -> None:
    for position in sample(POSITIONS // 2, seed):
        for die1, die2 in ROLLS:
            plays = position.legal_plays(die1, die2)
            expected = reference_plays(position, die1, die2)
            assert [play.steps for play in plays] == expected, (position.position_id(), die1, die2)
