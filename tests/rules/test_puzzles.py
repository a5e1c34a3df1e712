"""Puzzles as values: what makes one, grading answers from the stored ranking (any spelling of a
play, the cube's words), the first rating, and the pool file's round trip."""

from __future__ import annotations

import gzip
from dataclasses import replace

import pytest

from bot.rules.errors import IllegalMoveError, InvalidMoveError
from bot.rules.pasted import PastedPosition, read_position
from bot.rules.position import Position
from bot.rules.puzzles import (
    CHECKER,
    DOUBLE,
    FIRST_RATINGS,
    MIN_GAP,
    TAKE,
    CubeEquities,
    Puzzle,
    PuzzleDataError,
    Ranked,
    decode_pool,
    encode_pool,
    first_rating,
    qualifies,
)

OPENING_31 = PastedPosition(Position.initial(), on_roll=1, dice=(3, 1), length=7, score=(2, 4))


def opening_puzzle(gap: float = 0.2) -> Puzzle:
    """The opening 3-1, every legal play ranked: 8/5 6/5 first, ``gap`` ahead of the rest
    (made-up equities, in the order the position lists its plays)."""
    plays = [play.notation for play in Position.initial().legal_plays(3, 1)]
    plays.remove("8/5 6/5")
    ranked = [Ranked("8/5 6/5", 0.2)] + [
        Ranked(play, round(0.2 - gap - 0.01 * index, 3)) for index, play in enumerate(plays)
    ]
    return Puzzle(OPENING_31, tuple(ranked))


CUBE = CubeEquities(no_double=0.62, double_take=0.81, double_pass=1.0)  # double, take


def test_a_checker_answer_in_any_spelling_is_graded_from_the_ranking() -> None:
    puzzle = opening_puzzle()
    assert puzzle.kind == CHECKER
    for spelling in ("8/5 6/5", "6/5 8/5", "8-5 6-5", "6/5, 8/5"):
        verdict = puzzle.grade(spelling)
        assert verdict.right and verdict.loss == 0.0
        assert verdict.answer == verdict.best == Ranked("8/5 6/5", 0.2)
    wrong = puzzle.grade("13/10 6/5")
    assert not wrong.right
    assert wrong.answer.answer == "13/10 6/5"
    assert wrong.loss == round(0.2 - wrong.answer.equity, 3) >= 0.2
    assert [ranked.answer for ranked in wrong.top] == [r.answer for r in puzzle.plays[:3]]


def test_a_checker_answer_that_is_no_legal_play_says_why() -> None:
    puzzle = opening_puzzle()
    with pytest.raises(IllegalMoveError):
        puzzle.grade("24/18")
    with pytest.raises(InvalidMoveError):
        puzzle.grade("eight to five")
    with pytest.raises(IllegalMoveError, match="both dice"):
        puzzle.grade("24/23")


def test_a_double_puzzle_ranks_the_doublers_actions() -> None:
    puzzle = Puzzle(replace(OPENING_31, dice=None), cube=CUBE)
    assert puzzle.kind == DOUBLE and puzzle.decider == 1
    assert puzzle.ranking() == (Ranked("Double", 0.81), Ranked("No double", 0.62))
    assert puzzle.gap == 0.19
    assert puzzle.grade("double").right
    assert puzzle.grade(" Redouble ").right
    verdict = puzzle.grade("no  double")
    assert (verdict.right, verdict.loss) == (False, 0.19)
    with pytest.raises(InvalidMoveError, match="'double' or 'redouble'"):
        puzzle.grade("take")


def test_a_take_puzzle_is_from_the_takers_side() -> None:
    puzzle = Puzzle(replace(OPENING_31, dice=None, doubled=True), cube=CUBE)
    assert puzzle.kind == TAKE and puzzle.decider == 0
    assert puzzle.ranking() == (Ranked("Take", -0.81), Ranked("Pass", -1.0))
    assert puzzle.grade("take").right and puzzle.grade("beaver").right
    assert puzzle.grade("drop").loss == puzzle.grade("pass").loss == 0.19
    passing = Puzzle(puzzle.state, cube=CubeEquities(1.2, 1.35, 1.0))  # too good: pass
    assert passing.best == Ranked("Pass", -1.0)
    assert Puzzle(replace(puzzle.state, doubled=False), cube=passing.cube).best.answer == (
        "No double"
    )


def test_the_qualifying_rule_is_a_gap_of_at_least_005() -> None:
    assert qualifies(opening_puzzle(MIN_GAP))
    assert not qualifies(opening_puzzle(MIN_GAP - 0.001))
    close_cube = CubeEquities(0.5, 0.54, 1.0)
    assert not qualifies(Puzzle(replace(OPENING_31, dice=None), cube=close_cube))
    assert qualifies(Puzzle(replace(OPENING_31, dice=None, doubled=True), cube=close_cube))


def test_the_first_rating_falls_as_the_gap_grows() -> None:
    assert first_rating(0.15) == 1500.0
    assert first_rating(0.05) == pytest.approx(2000.0, abs=0.1)
    assert first_rating(0.45) == pytest.approx(1000.0, abs=0.1)
    gaps = [0.05, 0.06, 0.1, 0.2, 0.3, 0.5]
    ratings = [first_rating(gap) for gap in gaps]
    assert ratings == sorted(ratings, reverse=True)
    assert first_rating(5.0) == FIRST_RATINGS[0]
    assert first_rating(0.0) == FIRST_RATINGS[1]
    assert opening_puzzle(0.05).first_rating > opening_puzzle(0.45).first_rating


def test_a_puzzle_carries_its_ids() -> None:
    puzzle = opening_puzzle()
    assert read_position(puzzle.gnubg_id) == OPENING_31
    assert read_position(puzzle.xgid) == OPENING_31
    assert puzzle.xgid == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:4:2:0:7:10"
    assert len(puzzle.key) == 12
    assert puzzle.key == opening_puzzle(gap=0.3).key  # the decision, not gnubg's figures
    assert puzzle.key != replace(puzzle, state=replace(OPENING_31, dice=(4, 2))).key


def test_puzzles_that_cant_be_are_refused() -> None:
    with pytest.raises(ValueError, match="two plays or more"):
        Puzzle(OPENING_31, (Ranked("8/5 6/5", 0.2),))
    with pytest.raises(ValueError, match="best first"):
        Puzzle(OPENING_31, (Ranked("8/5 6/5", 0.2), Ranked("24/21 6/5", 0.3)))
    with pytest.raises(ValueError, match="cube's equities"):
        Puzzle(replace(OPENING_31, dice=None))


def test_the_pool_round_trips_to_the_same_bytes() -> None:
    money = PastedPosition(Position.initial(), dice=None, jacoby=True, beavers=True)
    puzzles = [
        opening_puzzle(),
        Puzzle(money, cube=CUBE),
        Puzzle(replace(money, beavers=False, doubled=True), cube=CUBE),
    ]
    data = encode_pool(puzzles)
    assert decode_pool(data) == tuple(puzzles)
    assert encode_pool(decode_pool(data)) == data
    assert len({p.key for p in puzzles}) == 3


def test_a_damaged_pool_is_refused() -> None:
    with pytest.raises(PuzzleDataError, match="not a puzzle pool"):
        decode_pool(b"not gzip")
    with pytest.raises(PuzzleDataError, match="version"):
        decode_pool(gzip.compress(b'{"puzzles":99}\n'))
    with pytest.raises(PuzzleDataError, match="not a puzzle"):
        decode_pool(gzip.compress(b'{"puzzles":1}\n{"id":"nonsense","plies":2}\n'))
