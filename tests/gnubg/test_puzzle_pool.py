"""The starter pool shipped in the package: its size, every puzzle a clear decision with gnubg's
ranking of every legal play, and the documented command building the same bytes again."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.gnubg import installed
from bot.gnubg.puzzles import STARTER_POOL, starter_pool
from bot.rules.puzzles import CHECKER, DOUBLE, KINDS, MIN_GAP, PLIES, encode_pool, qualifies

STARTER_SEED = 1  # the seed the shipped pool was built with (docs/puzzles.md)
STARTER_SIZE = 1000


def test_the_starter_pool_holds_a_thousand_clear_decisions() -> None:
    pool = starter_pool()
    assert len(pool) == STARTER_SIZE
    assert len({puzzle.key for puzzle in pool}) == len(pool)
    assert all(qualifies(puzzle) and puzzle.plies == PLIES for puzzle in pool)
    kinds = Counter(puzzle.kind for puzzle in pool)
    assert set(kinds) == set(KINDS)
    lengths = Counter(puzzle.state.length for puzzle in pool)
    assert lengths[0] and len(lengths) >= 4  # money games and matches of several lengths
    assert any(puzzle.state.crawford for puzzle in pool)


def test_every_checker_puzzle_ranks_every_legal_play_once() -> None:
    for puzzle in starter_pool():
        if puzzle.kind != CHECKER:
            continue
        dice = puzzle.state.dice
        assert dice is not None
        legal = {play.notation for play in puzzle.state.position.legal_plays(*dice)}
        ranked = [ranked.answer for ranked in puzzle.plays]
        assert len(ranked) == len(set(ranked)) and set(ranked) == legal, puzzle.xgid
        best, second = puzzle.plays[:2]
        assert puzzle.grade(best.answer).right
        assert puzzle.grade(second.answer).loss == puzzle.gap >= MIN_GAP


def test_every_cube_puzzle_is_graded_from_its_three_equities() -> None:
    for puzzle in starter_pool():
        if puzzle.kind == CHECKER:
            continue
        words = ("double", "no double") if puzzle.kind == DOUBLE else ("take", "pass")
        verdicts = [puzzle.grade(word) for word in words]
        assert sorted(v.right for v in verdicts) == [False, True], puzzle.xgid
        assert max(v.loss for v in verdicts) == puzzle.gap >= MIN_GAP


@pytest.mark.slow
@pytest.mark.skipif(not installed(), reason="needs gnubg")
@pytest.mark.timeout(300)
def test_the_documented_command_builds_the_shipped_pools_bytes(tmp_path: Path) -> None:
    """The shipped pool was built with two workers; one builds its first puzzles alike."""
    out = tmp_path / "pool.jsonl.gz"
    count = 3
    assert (
        bot_main(
            [
                "puzzles",
                "build",
                "--seed",
                str(STARTER_SEED),
                "--count",
                str(count),
                "--out",
                str(out),
                "--workers",
                "1",
            ]
        )
        == 0
    )
    assert out.read_bytes() == encode_pool(starter_pool()[:count])
    assert STARTER_POOL.stat().st_size < 1_000_000
