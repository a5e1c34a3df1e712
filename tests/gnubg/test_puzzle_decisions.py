"""A server's analysed decisions as puzzles: cube decisions and takes from the analysis' own
figures, rolls worth ranking by its two best plays (then ranked by gnubg in a worker). The
decisions are gnubg 1.1.0a16's 2-ply analysis of the first moves of a 3-point match
(tests/gnubg/fixtures/match3-2ply-excerpt.txt)."""

from __future__ import annotations

import pytest

from bot.gnubg import installed
from bot.gnubg.api import Query
from bot.gnubg.decisions import ReviewedDecision
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.puzzles import checker_puzzle, decision_puzzle, worth_ranking
from bot.rules.puzzles import CHECKER, DOUBLE, PLIES, TAKE, CubeEquities
from tests.gnubg.test_review_text import two_ply

DECISIONS = two_ply()


def of_kind(kind: str) -> list[ReviewedDecision]:
    return [d for d in DECISIONS if d.kind == kind]


def test_a_cube_decision_in_the_doubling_window_is_a_double_puzzle() -> None:
    early, wrong = of_kind("cube")
    assert decision_puzzle(early, PLIES) is None  # no double by 0.30: clear, but no question
    puzzle = decision_puzzle(wrong, PLIES)
    assert puzzle is not None and puzzle.kind == DOUBLE
    assert puzzle.gnubg_id == wrong.gnubg_id
    assert puzzle.cube == CubeEquities(0.433, 0.295, 1.0)
    verdict = puzzle.grade(wrong.played or "")  # the match's player doubled
    assert not verdict.right and verdict.loss == wrong.loss == 0.138
    assert puzzle.best.answer == wrong.best == "No double"


def test_a_take_of_a_double_offered_is_a_take_puzzle() -> None:
    (take,) = of_kind("take")
    puzzle = decision_puzzle(take, PLIES)
    assert puzzle is not None and puzzle.kind == TAKE
    assert puzzle.grade("take").right and puzzle.gap == 0.705
    assert puzzle.decider == take.player


def test_only_a_2_ply_analysis_makes_puzzles() -> None:
    (take,) = of_kind("take")
    assert decision_puzzle(take, 0) is None
    assert not any(worth_ranking(d, 0) for d in DECISIONS)


def test_rolls_worth_ranking_have_two_best_plays_005_apart() -> None:
    worth = [d for d in of_kind(CHECKER) if worth_ranking(d, PLIES)]
    assert [(d.best, d.candidates[1].play) for d in worth] == [("13/11(2) 6/4(2)", "13/9 6/4(2)")]
    assert all(decision_puzzle(d, PLIES) is None for d in of_kind(CHECKER))


@pytest.mark.slow
@pytest.mark.skipif(not installed(), reason="needs gnubg")
@pytest.mark.asyncio(loop_scope="module")
async def test_a_roll_worth_ranking_is_ranked_in_full_by_a_worker(engine: GnubgEngine) -> None:
    (decision,) = [d for d in of_kind(CHECKER) if worth_ranking(d, PLIES)]
    query = Query(decision.gnubg_id)
    puzzle = await engine.play_pool.call(checker_puzzle, query, timeout=120.0)
    assert puzzle is not None and puzzle.best.answer == decision.best
    dice = puzzle.state.dice
    assert dice is not None
    assert len(puzzle.plays) == len(puzzle.state.position.legal_plays(*dice))
