"""A server's own puzzles, made from its analysed matches when an analysis is stored
(:meth:`Analyses._analyse <bot.service.gnubg.analysis.Analyses>` writes them in the analysis's
transaction). Cube decisions and takes only, from the analysis' own 2-ply figures
(:func:`~bot.gnubg.puzzles.decision_puzzle`: no engine call); a roll would need gnubg's whole
ranking of its plays (a worker's ``checker_puzzle``), which is not asked for yet. A puzzle keeps
the position and gnubg's figures, never the players' names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.gnubg.decisions import ReviewedDecision
from bot.gnubg.puzzles import decision_puzzle
from bot.rules.puzzles import qualifies


def server_puzzle_rows(
    server_id: str,
    match_id: int,
    decisions: Sequence[ReviewedDecision],
    plies: int,
    now: float,
    *,
    jacoby: bool = False,
    beavers: bool = False,
) -> list[dict[str, Any]]:
    """The ``server_puzzles`` rows of an analysed match: its qualifying cube decisions and
    takes (the first of each position)."""
    rows: dict[str, dict[str, Any]] = {}
    for decision in decisions:
        try:
            puzzle = decision_puzzle(decision, plies, jacoby=jacoby, beavers=beavers)
        except ValueError:  # a state the rules refuse (e.g. money rules on a match's ID): none
            continue
        if puzzle is None or not qualifies(puzzle) or puzzle.key in rows:
            continue
        rows[puzzle.key] = {
            "server_id": server_id,
            "puzzle": puzzle.key,
            "data": json.dumps(puzzle.to_data(), separators=(",", ":")),
            "first_rating": puzzle.first_rating,
            "match_id": match_id,
            "created_at": now,
        }
    return list(rows.values())
