"""gnubg's own answers, each from a gnubg that has done nothing else: the oracle of the
differential tests. Run these functions in a spawned process of their own (:func:`oracle`):
nothing else in it touches gnubg, so gnubg's settings stay its defaults (its move filters above
all), and the cache is emptied before every question. The IDs are built by gnubg's functions."""

from __future__ import annotations

import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.gnubg.samples import Case

_FIRST_LINE = re.compile(r"^\s*1\.\s+Cubeful\s+(\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]\d+\.\d+)")


def oracle() -> ProcessPoolExecutor:
    """One spawned process for gnubg's own answers (shut it down after use)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def _gnubg_id(gnubg: Any, case: Case) -> str:
    c = case.context
    owner = -1 if case.owner is None else case.owner
    cubeinfo = gnubg.cubeinfo(c.cube, owner, case.on_roll, c.length, c.score, int(c.crawford), 0)
    if not c.length:  # gnubg's match_id reads the money game's Jacoby rule from it
        cubeinfo = {**cubeinfo, "jacoby": int(c.jacoby)}
    posinfo = gnubg.posinfo(case.on_roll, 0, 0, 1, case.dice or (0, 0))
    return f"{gnubg.position_id(case.board())}:{gnubg.match_id(cubeinfo, posinfo)}"


def hint_first_play(case: Case, plies: int) -> tuple[str, float, int]:
    """The first line of gnubg's ``hint`` for ``case`` (rolled) at ``plies``, pruning on, with
    everything else as gnubg starts: (play, equity, its ply)."""
    import gnubg  # here only: the process that runs this

    from bot.gnubg.capture import captured_output

    c = case.context
    with captured_output() as out:
        for command in (
            "set threads 1",
            f"set jacoby {'on' if c.jacoby else 'off'}",
            f"set beavers {1 if c.beavers else 0}",
            f"set evaluation chequerplay evaluation plies {plies}",
            "set evaluation chequerplay evaluation prune on",
            "set evaluation chequerplay evaluation cubeful on",
            "set cache 1",  # empties it: gnubg empties the cache only when its size changes
            "set cache 65536",
        ):
            gnubg.command(command)
        gnubg.set_gnubg_id(_gnubg_id(gnubg, case))
        gnubg.command("hint 1")
    for line in out.text.splitlines():
        if found := _FIRST_LINE.match(line):
            return found[2], float(found[3]), int(found[1])
    raise AssertionError(f"gnubg gave no hint for {case}: {out.text[-400:]!r}")


_PROPER = re.compile(r"Proper cube action:\s*(.+?)\s*(?:\(|$)", re.MULTILINE)


def proper_cube_action(case: Case, plies: int) -> str:
    """gnubg's ``Proper cube action`` for ``case`` (before the roll) at ``plies``, pruning on,
    with everything else as gnubg starts: ``"No double, take"``, ``"Double, pass"``..."""
    import gnubg  # here only: the process that runs this

    from bot.gnubg.capture import captured_output

    c = case.context
    with captured_output() as out:
        for command in (
            "set threads 1",
            f"set jacoby {'on' if c.jacoby else 'off'}",
            f"set beavers {1 if c.beavers else 0}",
            f"set evaluation cubedecision evaluation plies {plies}",
            "set evaluation cubedecision evaluation prune on",
            "set evaluation cubedecision evaluation cubeful on",
            "set cache 1",  # empties it: gnubg empties the cache only when its size changes
            "set cache 65536",
        ):
            gnubg.command(command)
        gnubg.set_gnubg_id(_gnubg_id(gnubg, case))
        gnubg.command("hint")
    if found := _PROPER.search(out.text):
        return found[1]
    raise AssertionError(f"gnubg gave no cube action for {case}: {out.text[-400:]!r}")
