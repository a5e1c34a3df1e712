"""Replies to pasted positions found wrong by playing with real XGIDs (no engine needed)."""

from __future__ import annotations

from bot.gnubg.unavailable import UnavailableEngine
from bot.rules.pasted import read_position
from bot.service.gnubg.positions import Positions, summary
from bot.service.matches.presentation import BoardImages

OPENING = "-b----E-C---eE---c-e----B-"


def test_a_one_point_match_is_not_called_post_crawford() -> None:
    pasted = read_position(f"XGID={OPENING}:0:0:1:00:0:0:0:1:10")
    assert "1-point match, X 0, O 0 ·" in summary(pasted, language="en")
    assert "Crawford" not in summary(pasted, language="en")


def test_post_crawford_is_still_said_in_longer_matches() -> None:
    pasted = read_position(f"XGID={OPENING}:0:0:1:00:2:0:0:3:10")
    assert "3-point match, X 2, O 0, post-Crawford" in summary(pasted, language="en")


async def test_a_crawford_game_with_both_players_at_match_point_is_refused() -> None:
    positions = Positions(UnavailableEngine(), BoardImages(enabled=False))
    [reply] = await positions.show(f"XGID={OPENING}:0:0:1:00:2:2:1:3:10", language="en")
    assert reply.private
    assert reply.text.startswith(
        "Not a position in play: the Crawford game is played when one player, not both, is 1 "
        "point from winning"
    ), reply.text
    [crawford] = await positions.show(f"XGID={OPENING}:0:0:1:00:2:1:1:3:10", language="en")
    assert not crawford.private and "Crawford game" in crawford.text
