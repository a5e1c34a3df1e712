"""Hypothesis strategies for random boards and the pasted positions around them."""

from __future__ import annotations

from hypothesis import strategies as st

from bot.rules.pasted import PastedPosition
from bot.rules.position import Position

Side = tuple[int, ...]


@st.composite
def boards(draw: st.DrawFn) -> Position:
    """Any position in play: 1-15 checkers a side anywhere (a bar when the point is taken)."""
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    totals = draw(st.tuples(st.integers(1, 15), st.integers(1, 15)))
    for player, total in enumerate(totals):
        mine, theirs = sides[player], sides[1 - player]
        for _ in range(total):
            slot = draw(st.integers(0, 24))
            if slot < 24 and theirs[23 - slot]:
                slot = 24
            mine[slot] += 1
    return Position(tuple(sides[0]), tuple(sides[1]))


@st.composite
def pasted_positions(draw: st.DrawFn) -> PastedPosition:
    """Any state :class:`PastedPosition` accepts."""
    position = draw(boards())
    on_roll = draw(st.integers(0, 1))
    length = draw(st.sampled_from((0, 0, 1, 3, 5, 7, 25)))
    score = (0, 0)
    if length:
        score = draw(st.tuples(st.integers(0, length - 1), st.integers(0, length - 1)))
    else:
        score = draw(st.sampled_from(((0, 0), (0, 0), (3, 1))))  # a money session's tally
    crawford = length > 1 and score.count(length - 1) == 1 and draw(st.booleans())
    cube, owner = 1, None
    if not crawford:
        cube = 1 << draw(st.integers(0, 6))
        owner = None if cube == 1 else draw(st.sampled_from((None, 0, 1)))
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    may_double = dice is None and not crawford and owner != 1 - on_roll
    doubled = may_double and draw(st.booleans())
    jacoby = beavers = False
    if not length:
        jacoby, beavers = draw(st.booleans()), draw(st.booleans())
    return PastedPosition(
        position,
        on_roll=on_roll,
        dice=dice,
        cube=cube,
        cube_owner=owner,
        doubled=doubled,
        length=length,
        score=score,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        max_cube=1 << draw(st.integers(0, 15)),
    )
