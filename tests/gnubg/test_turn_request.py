"""The bot's turn in one request: the cube decision before the roll and the play for the roll
that follows (``take_turn(..., rolled=...)``) answer as the two requests they replace, on
states of seeded random matches (money with Jacoby and beavers, and 1 to 7 points), at world
class and at a level with noise. CI asks a sample; ``GNUBG_TURN_STATES=200`` asks 200 states."""

from __future__ import annotations

import os
import random

import pytest

from bot.gnubg.api import LEVELS, Query, TurnChoice
from bot.gnubg.engine import GnubgEngine
from bot.rules.match import Match
from bot.rules.randomplay import random_states

pytestmark = pytest.mark.asyncio(loop_scope="module")

STATES = int(os.environ.get("GNUBG_TURN_STATES", "12"))


def states_before_a_searched_roll(count: int) -> list[tuple[Match, Match]]:
    """``count`` states where the player on roll may double and the roll that follows leaves
    more than one play (the bot's turns that ask the engine before the roll), with that roll."""
    rng = random.Random(32)
    found: list[tuple[Match, Match]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        length = rng.choice((0, 1, 3, 5, 7))
        money = length == 0
        for match in random_states(seed, length, jacoby=money, beavers=money):
            player = match.turn
            if player is None or match.phase != "roll" or not match.can_double(player):
                continue
            rolled = match.roll(player)
            if rolled.turn == player and rng.random() < 0.3:
                found.append((match, rolled))
    return found[:count]


@pytest.mark.slow
@pytest.mark.parametrize("level", ["worldclass", "beginner"])
async def test_one_request_answers_as_the_cube_request_and_the_play_request(
    engine: GnubgEngine, level: str
) -> None:
    chosen = LEVELS[level]
    played = 0
    for match, rolled in states_before_a_searched_roll(STATES):
        before = Query.of(match)
        after = Query.of(rolled)
        one = await engine.take_turn(before, chosen, rolled=rolled.gnubg_id())
        cube = await engine.take_turn(before, chosen)
        if cube.resign or cube.double:
            assert one == cube, match.gnubg_id()
            continue
        two = await engine.take_turn(after, chosen, may_resign=False)
        assert one == TurnChoice(play=two.play), match.gnubg_id()
        played += 1
    assert played >= STATES // 2
