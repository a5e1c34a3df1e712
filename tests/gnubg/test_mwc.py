"""The match-winning chance a claim is rated by, from gnubg's cubeful evaluation."""

from __future__ import annotations

import pytest

from bot.gnubg.api import Query
from bot.gnubg.engine import GnubgEngine
from bot.rules import Match
from bot.service.records.dice import seeded_dice


def opening(length: int, seed: int = 3) -> Match:
    match = Match.start(length, dice=seeded_dice(seed)())
    while match.phase != "move":
        match = match.roll(match.on_roll)
    return match


async def test_both_players_chances_add_up_and_the_opening_is_even(engine: GnubgEngine) -> None:
    match = opening(5)
    mine = await engine.match_winning_chance(Query.of(match), 0, plies=0)
    theirs = await engine.match_winning_chance(Query.of(match), 1, plies=0)
    assert mine + theirs == pytest.approx(1.0)
    assert 0.4 < mine < 0.6


async def test_the_score_counts(engine: GnubgEngine) -> None:
    """4-0 in a 5-point match: the leader's chance is gnubg's ~80%+ at any position."""
    match = opening(5)
    ahead = Match.from_snapshot(
        {**match.snapshot(), "score": [4, 0], "crawford": True}, match.dice_source
    )
    chance = await engine.match_winning_chance(Query.of(ahead), 0, plies=0)
    assert chance > 0.75


async def test_a_double_offered_is_judged_by_the_takers_best_answer(
    engine: GnubgEngine,
) -> None:
    match = opening(5)
    match = match.move(match.on_roll, match.legal_plays()[0].notation)
    doubler = match.on_roll
    doubled = match.double(doubler)
    chance = await engine.match_winning_chance(Query.of(doubled), doubler, plies=0)
    before = await engine.match_winning_chance(Query.of(match), doubler, plies=0)
    assert chance <= before + 0.02  # an early double gains nothing against a good answer


async def test_money_games_have_no_match_to_win(engine: GnubgEngine) -> None:
    with pytest.raises(Exception, match="money game"):
        await engine.match_winning_chance(Query.of(opening(0)), 0, plies=0)
