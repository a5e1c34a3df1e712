"""A position's text board (:meth:`~bot.rules.position.Position.text_board`): GNU Backgammon's
ASCII layout from the mover's side (X, on roll, home bottom right), and the two lines under it.
Apart from :mod:`bot.rules.position`, which plays reach at every command: only the console and
``str(position)`` draw it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import rules as say
from bot.i18n.core import Said

Pair = tuple[int, int]  # (the mover's, the opponent's)


def text_grid(mover: Sequence[int], opponent: Sequence[int]) -> str:
    """The board's grid: X is on roll, their home bottom right (sides as in a Position)."""

    def cell(point: int, row: int) -> str:
        mine, theirs = mover[point - 1], opponent[24 - point]
        count, mark = (mine, "X") if mine else (theirs, "O")
        if count > row:
            if row == 4 and count > 5:
                return f"{count:>2} "
            return f" {mark} "
        return "   "

    def row_text(points: Sequence[int], row: int) -> str:
        left = "".join(cell(p, row) for p in points[:6])
        right = "".join(cell(p, row) for p in points[6:])
        return f" |{left}|   |{right}|"

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [" +13-14-15-16-17-18-------19-20-21-22-23-24-+"]
    lines += [row_text(top, row) for row in range(5)]
    lines.append(f" |{'':18}|BAR|{'':18}|")
    lines += [row_text(bottom, row) for row in range(4, -1, -1)]
    lines.append(" +12-11-10--9--8--7--------6--5--4--3--2--1-+")
    return "\n".join(lines)


def text_legend(bars: Pair, off: Pair, pips: Pair) -> tuple[Said, Said]:
    """The lines under the grid: O's bar, borne-off checkers and pips, then X's (on roll), to be
    worded in the reader's language."""
    o_side = say.BOARD_SIDE.said(mark="O", bar=bars[1], off=off[1], pips=pips[1])
    x_side = say.BOARD_SIDE.said(mark="X", bar=bars[0], off=off[0], pips=pips[0])
    return o_side, say.BOARD_ON_ROLL.said(side=x_side)
