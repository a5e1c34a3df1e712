"""A server's own puzzles, made from its analysed matches. Cube decisions and takes when an
analysis is stored (:meth:`Analyses._analyse <bot.service.gnubg.analysis.Analyses>` writes them
in the analysis's transaction), from the analysis' own 2-ply figures
(:func:`~bot.gnubg.puzzles.decision_puzzle`: no engine call). Rolls after it
(:func:`add_checker_puzzles`): those whose two best plays in the analysis are 0.05 apart
(:func:`~bot.gnubg.puzzles.worth_ranking`) are ranked in full by the engine's
:meth:`~bot.gnubg.api.Engine.checker_puzzle` in its analysis lane, one at a time, and kept if
they still qualify. A puzzle keeps the position and gnubg's figures, never the players' names.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from bot.gnubg.api import Engine, EngineFailure, EngineUnavailable, Query
from bot.gnubg.decisions import ReviewedDecision
from bot.gnubg.puzzles import decision_puzzle, worth_ranking
from bot.rules.puzzles import Puzzle, qualifies
from bot.store import Store

log = logging.getLogger(__name__)

RANKED_PER_MATCH = 30  # rolls of one match ranked at most (the widest gaps first)


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
        rows[puzzle.key] = _row(server_id, match_id, puzzle, now)
    return list(rows.values())


def _row(server_id: str, match_id: int, puzzle: Puzzle, now: float) -> dict[str, Any]:
    return {
        "server_id": server_id,
        "puzzle": puzzle.key,
        "data": json.dumps(puzzle.to_data(), separators=(",", ":")),
        "first_rating": puzzle.first_rating,
        "match_id": match_id,
        "created_at": now,
    }


def rolls_to_rank(decisions: Sequence[ReviewedDecision], plies: int) -> list[ReviewedDecision]:
    """The analysed rolls worth gnubg's whole ranking, each position once, the widest gaps
    between the two best plays first, :data:`RANKED_PER_MATCH` at most."""
    found: dict[str, ReviewedDecision] = {}
    for decision in decisions:
        if worth_ranking(decision, plies):
            found.setdefault(decision.gnubg_id, decision)

    def gap(decision: ReviewedDecision) -> float:
        return decision.candidates[0].equity - decision.candidates[1].equity

    return sorted(found.values(), key=lambda d: -gap(d))[:RANKED_PER_MATCH]


async def add_checker_puzzles(
    store: Store,
    engine: Engine,
    server_id: str,
    match_id: int,
    decisions: Sequence[ReviewedDecision],
    plies: int,
    now: float,
    *,
    jacoby: bool = False,
    beavers: bool = False,
) -> int:
    """Rank the analysed rolls worth it (:func:`rolls_to_rank`) in the engine's worker, one at a
    time, and add those that qualify to the server's puzzles; how many were added. The engine
    failing or missing stops the ranking: the puzzles found so far are kept."""
    rows = []
    for decision in rolls_to_rank(decisions, plies):
        query = Query(decision.gnubg_id, jacoby=jacoby, beavers=beavers, match_key=match_id)
        try:
            puzzle = await engine.checker_puzzle(query)
        except (EngineFailure, EngineUnavailable) as error:
            log.warning("Checker puzzles of match %s: stopped (%s)", match_id, error)
            break
        if puzzle is not None and qualifies(puzzle):
            rows.append(_row(server_id, match_id, puzzle, now))
    if rows:
        async with store.transaction() as tx:
            await tx.puzzles.add_server_puzzles(rows)
    return len(rows)
