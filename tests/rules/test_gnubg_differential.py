"""The engine against GNU Backgammon itself (test-only dependency) on self-play positions."""

from __future__ import annotations

import os

import gnubg
import gnubg_nn
import pytest

from bot.rules import Position
from bot.rules.randomplay import self_play_positions

pytestmark = pytest.mark.slow

# Self-play positions compared: a sample in CI (each some 8 rolls' plays; GNU Backgammon's
# move generation is the cost), all 2,500 by BACKGAMMON_DIFFERENTIAL_POSITIONS=2500.
POSITIONS = int(os.environ.get("BACKGAMMON_DIFFERENTIAL_POSITIONS", "800"))


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg's board: [player not on roll, player on roll], each from its own side."""
    return [list(position.opponent), list(position.mover)]


def test_legal_plays_notation_and_parsing_agree_with_gnubg() -> None:
    compared = 0
    for position, (d1, d2) in self_play_positions(seed=2026, count=POSITIONS):
        board = gnubg_board(position)
        assert gnubg.position_id(board) == position.position_id()
        assert Position.from_position_id(position.position_id()) == position

        expected: dict[str, str] = {}
        for key, steps in gnubg_nn.moves(board, d1, d2, 1):
            after = gnubg_nn.board_from_position_key(key)  # not swapped: mover is still side 1
            result_id = gnubg.position_id([list(after[1]), list(after[0])])
            expected[result_id] = gnubg.move_tuple_to_string(steps, board)

        plays = position.legal_plays(d1, d2)
        if not expected:
            assert [play.notation for play in plays] == ["no legal move"]
            assert plays[0].result == position.swapped()
            continue
        mine = {play.result.position_id(): play for play in plays}
        assert set(mine) == set(expected), (position.position_id(), d1, d2)
        for result_id, text in expected.items():
            assert mine[result_id].notation == text
            assert position.parse_play(text, (d1, d2)) == mine[result_id]
            compared += 1
    assert compared > 7 * POSITIONS


def test_opening_counts_from_gnubg_notes() -> None:
    start = Position.initial()
    board = gnubg_board(start)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert len(start.legal_plays(d1, d2)) == len(gnubg_nn.moves(board, d1, d2, 1))
