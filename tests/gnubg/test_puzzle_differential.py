"""Every shipped puzzle's answer is gnubg's best: each asked of a gnubg that has done nothing
else (:mod:`tests.gnubg.gnubgs_own`) at 2-ply, checker plays by its ``hint``'s first play (and
its equity where it scored it at 2-ply), cube puzzles by its ``Proper cube action``.

CI checks a seeded sample of every kind; ``PUZZLE_CHECK=all`` checks the whole starter pool
(``PUZZLE_CHECK=50``: 50 of them).
"""

from __future__ import annotations

import os
import random

import pytest

from bot.gnubg import installed
from bot.gnubg.puzzles import starter_pool
from bot.gnubg.samples import Case, Context
from bot.rules.puzzles import CHECKER, DOUBLE, KINDS, PLIES, Puzzle
from tests.gnubg.gnubgs_own import hint_first_play, oracle, proper_cube_action

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not installed(), reason="needs gnubg")]

CHECK = os.environ.get("PUZZLE_CHECK", "12")
SEED = 33


def chosen() -> list[Puzzle]:
    """The whole pool, or a seeded sample holding every kind."""
    pool = list(starter_pool())
    if CHECK == "all":
        return pool
    wanted = int(CHECK)
    sample = random.Random(SEED).sample(pool, len(pool))
    by_kind = [[p for p in sample if p.kind == kind] for kind in KINDS]
    picked = [p for kind in by_kind for p in kind[:2]]
    return picked + [p for p in sample if p not in picked][: max(0, wanted - len(picked))]


def case_of(puzzle: Puzzle) -> Case:
    """The puzzle's state as the oracle takes it: the doubler's, before the roll, for a cube."""
    state = puzzle.state
    owner = None
    if state.cube_owner is not None:
        owner = "me" if state.cube_owner == state.on_roll else "them"
    context = Context(
        length=state.length,
        score=state.score,
        cube=state.cube,
        owner=owner,
        crawford=state.crawford,
        jacoby=state.jacoby,
        beavers=state.beavers,
    )
    return Case(state.position, state.dice, state.on_roll, context)


@pytest.mark.timeout(max(120, 3 * len(starter_pool()) if CHECK == "all" else 120))
def test_every_puzzles_answer_is_gnubgs_best() -> None:
    puzzles = chosen()
    assert {p.kind for p in puzzles} == set(KINDS)
    with oracle() as own:
        checker = [
            (p, own.submit(hint_first_play, case_of(p), PLIES))
            for p in puzzles
            if p.kind == CHECKER
        ]
        cube = [
            (p, own.submit(proper_cube_action, case_of(p), PLIES))
            for p in puzzles
            if p.kind != CHECKER
        ]
        for puzzle, answer in checker:
            play, equity, plies = answer.result()
            assert puzzle.grade(play).right, (puzzle.xgid, play, puzzle.best)
            if plies == PLIES:
                assert equity == puzzle.best.equity, (puzzle.xgid, equity, puzzle.best)
        for puzzle, proper in cube:
            doubler, _, taker = (part.strip() for part in proper.result().partition(","))
            said = doubler if puzzle.kind == DOUBLE else taker
            refused = said.lower().startswith(("too good", "never"))  # not doubling, for a reason
            verdict = puzzle.grade("no double" if refused else said)
            assert verdict.right, (puzzle.xgid, proper.result(), puzzle.ranking())
