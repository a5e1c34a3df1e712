"""The oracle's inputs: the cubeinfo gnubg's own functions build for a sample case, and gnubg's
default move filters."""

from __future__ import annotations

from typing import Any

import gnubg

from bot.gnubg.samples import Case


def cubeinfo(case: Case) -> Any:
    c = case.context
    owner = -1 if case.owner is None else case.owner
    info = gnubg.cubeinfo(c.cube, owner, case.on_roll, c.length, c.score, int(c.crawford), 0)
    if not c.length:
        info = {**info, "jacoby": int(c.jacoby)}
    return info


def gnubg_default_filters() -> list[dict[str, float]]:
    """gnubg's default move filters (``show evaluation``), as a fresh worker reads them: in this
    process other tests' oracles may have changed them."""
    table = {
        1: [(12, 0.24)],
        2: [(12, 0.24), (6, 0.12)],
        3: [(16, 0.32), (8, 0.16), (4, 0.06)],
        4: [(16, 0.32), (12, 0.16), (6, 0.08), (4, 0.06)],
    }
    return [
        {"ply": ply, "level": level, "acceptmoves": 0, "extramoves": extra, "threshold": threshold}
        for ply, levels in table.items()
        for level, (extra, threshold) in enumerate(levels)
    ]
