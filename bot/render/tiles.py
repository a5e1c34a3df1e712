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
    done: list[tuple[int, int, int, int, list[int]]] = []
    active: list[tuple[int, int, int, int, list[int]]] = []  # groups still open left to right
    for (x0, y0, x1, y1), index in sorted([(op[0], index) for index, op in enumerate(ops)]):
        if active:
            still = []
            for group in active:
                if group[2] <= x0:
                    done.append(group)
                else:
                    still.append(group)
            active = still
        members = [index]
        joined = True
        while joined:
            joined = False
            for group in active:
                if group[0] < x1 and x0 < group[2] and group[1] < y1 and y0 < group[3]:
                    active.remove(group)
                    x0, y0 = min(x0, group[0]), min(y0, group[1])
                    x1, y1 = max(x1, group[2]), max(y1, group[3])
                    members += group[4]
                    joined = True
                    break
        active.append((x0, y0, x1, y1, members))
    done += active
    out = [((g[0], g[1], g[2], g[3]), tuple(sorted(g[4]))) for g in done]
    return out if _apart([box for box, _ in out]) else None


def _apart(boxes: list[Box]) -> bool:
    """Whether no two of ``boxes`` overlap (a sweep left to right)."""
    active: list[Box] = []
    for box in sorted(boxes):
        x0, y0, _, y1 = box
        active = [other for other in active if other[2] > x0]
        for other in active:
            if other[1] < y1 and y0 < other[3]:
                return False
        active.append(box)
    return True


def overlap(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
