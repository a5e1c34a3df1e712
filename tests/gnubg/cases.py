"""The cubeinfo gnubg's own functions build for a sample case (the oracle's input)."""

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
