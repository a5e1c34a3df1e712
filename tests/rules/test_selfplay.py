"""Invariants that hold after every play of random games."""

from __future__ import annotations

import pytest

from bot.rules.randomplay import self_play_positions


@pytest.mark.slow
def test_self_play_invariants() -> None:
    games_finished = 0
    for position, roll in self_play_positions(seed=7, count=4000):
        for play in position.legal_plays(*roll):
            after = position.play(play)
            # The mover is now the opponent of the new position.
            assert sum(after.opponent) + after.borne_off()[1] == 15
            assert sum(after.mover) + after.borne_off()[0] == 15
            mover_before, opponent_before = position.pip_counts()
            opponent_after, mover_after = after.pip_counts()
            assert mover_before - mover_after == play.pips()
            assert opponent_after - opponent_before == sum(play.hits)
            assert after.swapped().borne_off()[0] >= position.borne_off()[0]
            if after.is_game_over():
                games_finished += 1
                assert sum(after.opponent) == 0
            assert len(play.steps) <= (4 if roll[0] == roll[1] else 2)
    assert games_finished > 0


def test_every_play_uses_the_same_number_of_dice() -> None:
    for position, roll in self_play_positions(seed=11, count=1500):
        used = {len(play.steps) for play in position.legal_plays(*roll)}
        assert len(used) == 1
