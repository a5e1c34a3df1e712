from __future__ import annotations

import pytest

from bot.rules import Position
from bot.rules.position import decode_position_id, encode_position_id


def test_position_id_round_trip_and_orientation() -> None:
    start = Position.initial()
    assert encode_position_id(start.opponent, start.mover) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == (start.opponent, start.mover)
    after = start.push_play("24/18 13/8", (6, 5))
    assert Position.from_position_id(after.position_id()) == after


@pytest.mark.parametrize(
    "bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "!!!!!!!!!!!!!!", "//////////////"]
)
def test_bad_position_ids(bad: str) -> None:
    with pytest.raises(ValueError):
        Position.from_position_id(bad)
