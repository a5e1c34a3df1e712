"""gnubg's cut bear-off tuples read against our legal plays, and the worldclass play in a
bear-off being gnubg's own (the oracle: gnubg called in the test process)."""

from __future__ import annotations

import gnubg
import pytest

from bot.gnubg import capture, session, worker
from bot.gnubg.api import LEVELS
from bot.gnubg.samples import Case, Context
from bot.gnubg.steps import plays_matching
from bot.rules import Position
from bot.rules.randomplay import self_play_positions
from tests.gnubg.cases import gnubg_default_filters

# Bearing off against a checker left on our 1-point's far side (the opponent's 24-point).
BEARING_OFF = Position.from_points({6: 4, 5: 3, 4: 3, 3: 3, 2: 2}, {24: 1, 6: 5, 5: 4, 4: 4, 3: 1})


def names(position: Position, dice: tuple[int, int], flat: tuple[int, ...]) -> set[str]:
    plays = position.legal_plays(*dice)
    return {play.notation for play in plays_matching(position, dice, flat, plays)}


def test_a_cut_tuple_keeps_the_plays_that_begin_with_its_bear_off() -> None:
    assert names(BEARING_OFF, (6, 2), (6,)) == {
        "6/off 4/2",
        "6/4 6/off",
        "6/off 5/3",
        "6/off 3/1*",
        "6/off 2/off",
    }
    assert names(BEARING_OFF, (6, 2), (6, 4, 6)) == {"6/4 6/off"}
    assert names(BEARING_OFF, (6, 2), (4, 2, 6)) == {"6/off 4/2"}


def test_a_whole_tuple_is_one_play_and_an_impossible_one_none() -> None:
    assert names(Position.initial(), (3, 1), (8, 5, 6, 5)) == {"8/5 6/5"}
    assert names(Position.initial(), (3, 1), (6, 5, 8, 5)) == {"8/5 6/5"}
    assert names(Position.initial(), (3, 1), (13, 7)) == set()  # a 6 with 31
    assert names(BEARING_OFF, (6, 2), (5,)) == set()  # a 5 can't bear off with 62 here


def test_every_legal_plays_own_steps_find_that_play_alone() -> None:
    """Over self-play positions (hits, the bar, bearing off): a play's steps, as gnubg gives a
    whole tuple, match that play and no other."""
    checked = 0
    for position, dice in self_play_positions(7, 600):
        if position.is_game_over():
            continue
        plays = position.legal_plays(*dice)
        for play in plays[:: max(1, len(plays) // 4)]:
            flat = tuple(point for step in play.steps for point in step)
            if not flat or 0 in flat:
                continue  # gnubg cuts a tuple at its first bear-off: the tests above
            assert plays_matching(position, dice, flat, plays) == [play], (position, dice, flat)
            checked += 1
    assert checked > 1000


def bear_off_cases(count: int) -> list[Case]:
    found = []
    for position, dice in self_play_positions(31, 40_000):
        if (
            sum(position.mover[6:]) <= 2
            and not position.is_game_over()
            and len(position.legal_plays(*dice)) > 1
        ):
            found.append(Case(position, dice, 0, Context()))
        if len(found) == count:
            break
    return found


@pytest.mark.timeout(120)
def test_worldclass_bears_off_as_gnubg_does_at_2_ply() -> None:
    """Where the binding cuts gnubg's play, the bot's play is one it can begin with, and has
    gnubg's own 2-ply score for its best play: the worldclass play, not a 1-ply one."""
    level = LEVELS["worldclass"]
    context = gnubg.evalcontext(1, level.plies, 1, int(level.prune), 0.0)
    with capture.captured_output():  # other tests' evaluations at other plies out of the cache
        gnubg.command(f"set cache {session.CACHE_ENTRIES}")
    session.gnubg_module()
    session.state.context = None
    session.state.default_filters = gnubg_default_filters()
    cut = 0
    for case in bear_off_cases(120):
        assert case.dice is not None
        # The worker's cubeinfo: gnubg.cubeinfo() prices gammons by Jacoby, on by default.
        cubeinfo = session.Situation.of(case.query()).cubeinfo()
        flat = tuple(
            gnubg.find_best_move(
                case.board(), cubeinfo, context, case.dice, gnubg_default_filters()
            )
        )
        if len(flat) % 2 == 0:
            continue
        cut += 1
        chosen = worker.choose_play(case.query(), level)
        assert chosen in names(case.position, case.dice, flat), (case.query(), flat, chosen)
        best_score = gnubg.find_best_moves(
            case.board(), cubeinfo, context, case.dice, gnubg_default_filters()
        )[0]["score"]
        gnubg.set_eval_hint_filter(session.state.default_filters)
        options = {
            option.play: option
            for option in worker._hint_options(session.Situation.of(case.query()), 50)
        }
        assert options[chosen].equity == pytest.approx(best_score, abs=1.5e-3), case.query()
    assert cut >= 15, cut
