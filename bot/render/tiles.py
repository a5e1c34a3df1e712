"""A board's pieces as tiles: the things drawn over the static board (:data:`Op`) gathered in
groups whose boxes do not overlap, each group's pixels mapped on the palette once and kept by
what it shows (a checker stack, a stack with the last play's ring on it, a die...), so that a
board pastes the groups it has seen and draws and maps only the new ones.

A group's pixels are those of the whole board in its box: no other group draws there, and its own
ops are drawn in the board's order (:func:`groups`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.pieces import Box, Op

Group = tuple[Box, tuple[int, ...]]
"""A group's box (around its ops') and its ops' indices, in the order they are drawn."""


def groups(ops: Sequence[Op]) -> list[Group] | None:
    """``ops`` gathered in groups whose boxes are apart (a box meeting another's only at its edge
    is apart): ops whose boxes overlap are in one group, and so are groups whose boxes would
    overlap. ``None`` where the boxes could not be made apart in one sweep (never seen on a
    board: its caller draws the board whole)."""
    order = sorted(range(len(ops)), key=lambda index: ops[index][0][0])
    done: list[list[int]] = []  # x0, y0, x1, y1, then the members
    active: list[list[int]] = []
    for index in order:
        x0, y0, x1, y1 = ops[index][0]
        if any(group[2] <= x0 for group in active):
            done += [group for group in active if group[2] <= x0]
            active = [group for group in active if group[2] > x0]
        group = [x0, y0, x1, y1, index]
        found = True
        while found:
            found = False
            for other in active:
                if _overlap(group, other):
                    active.remove(other)
                    group = [
                        min(group[0], other[0]),
                        min(group[1], other[1]),
                        max(group[2], other[2]),
                        max(group[3], other[3]),
                        *group[4:],
                        *other[4:],
                    ]
                    found = True
                    break
        active.append(group)
    done += active
    out = [((g[0], g[1], g[2], g[3]), tuple(sorted(g[4:]))) for g in done]
    return out if _apart([box for box, _ in out]) else None


def _overlap(a: Sequence[int], b: Sequence[int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _apart(boxes: list[Box]) -> bool:
    """Whether no two of ``boxes`` overlap (a sweep left to right)."""
    active: list[Box] = []
    for box in sorted(boxes):
        active = [other for other in active if other[2] > box[0]]
        for other in active:
            if other[1] < box[3] and box[1] < other[3]:
                return False
        active.append(box)
    return True
