"""GnubgEngine end to end: its answers are carried out by the bot's own Match."""

from __future__ import annotations

import pytest

from bot.gnubg.api import LEVELS, Query, TurnChoice
from bot.gnubg.engine import GnubgEngine, make_engine
from bot.gnubg.samples import Case, Context, cases
from bot.gnubg.session import QueryError, Situation
from bot.gnubg.unavailable import UnavailableEngine
from bot.rules import Match, Position
from bot.settings import Settings

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_make_engine_is_gnubg_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = make_engine(Settings())
    assert isinstance(engine, GnubgEngine)
    assert engine.available
    monkeypatch.setattr("bot.gnubg.engine.installed", lambda: False)
    assert isinstance(make_engine(Settings()), UnavailableEngine)


async def test_the_bot_plays_a_whole_match_through_match_actions(engine: GnubgEngine) -> None:
    match = Match.start(3)
    level = LEVELS["expert"]
    moves = 0
    while not match.is_over and moves < 400:
        player = match.turn
        assert player is not None
        if match.phase == "roll":
            if match.can_double(player):
                advice = await engine.cube_advice(Query.of(match), level)
                if advice.double:
                    match = match.double(player)
                    continue
            match = match.roll(player)
        elif match.phase == "doubled":
            advice = await engine.cube_advice(Query.of(match), level)
            match = match.take(player) if advice.take else match.drop(player)
        elif match.phase == "move":
            play = await engine.choose_play(Query.of(match), level)
            match = match.move(player, play or "")
            moves += 1
    assert match.is_over


async def test_a_position_without_dice_has_no_play(engine: GnubgEngine) -> None:
    case = Case(Position.initial(), None, 0, Context())
    with pytest.raises(QueryError, match="no dice rolled"):
        await engine.choose_play(case.query(), LEVELS["expert"])


async def test_a_malformed_query_is_refused_quoting_it(engine: GnubgEngine) -> None:
    with pytest.raises(QueryError, match="'nonsense' is not PositionID:MatchID"):
        await engine.choose_play(Query("nonsense"), LEVELS["expert"])
    with pytest.raises(QueryError, match="can't be read"):
        await engine.evaluate(Query("4HPwATDgc/ABMA:!!!!!!!!!!!!"))


async def test_evaluate_before_and_after_the_roll(engine: GnubgEngine) -> None:
    before = Case(Position.initial(), None, 0, Context())
    evaluation = await engine.evaluate(before.query(), plies=0)
    assert 0.4 < evaluation.probabilities.win < 0.6
    assert evaluation.cube is not None and not evaluation.cube.double
    assert evaluation.plays == ()
    rolled = Case(Position.initial(), (3, 1), 0, Context())
    evaluation = await engine.evaluate(rolled.query(), plies=0)
    assert evaluation.cube is None
    assert evaluation.plays[0].play == "8/5 6/5"


async def test_rate_play_against_the_best(engine: GnubgEngine) -> None:
    case = Case(Position.initial(), (3, 1), 0, Context())
    best = await engine.rate_play(case.query(), "8/5 6/5", plies=2)
    assert best.loss == 0 and best.played == best.best
    worse = await engine.rate_play(case.query(), "24/20", plies=2)
    assert worse.best.play == "8/5 6/5"
    assert worse.loss > 0.1
    with pytest.raises(ValueError, match="24/10"):
        await engine.rate_play(case.query(), "24/10", plies=2)


async def test_resignation_answers(engine: GnubgEngine) -> None:
    # The one on roll (about to bear off their last checkers) is offered a single by the
    # opponent, who hasn't borne off any and has checkers far from home: a gammon is likely,
    # so a single is refused; a backgammon offer is accepted.
    winner = Position.from_points({1: 2, 2: 1}, {19: 15})
    for level, accept in ((1, False), (3, True)):
        query = _resigned(winner, level)
        assert await engine.resignation_answer(query, LEVELS["expert"]) is accept


def _resigned(winner: Position, level: int) -> Query:
    """The loser (player 1, on roll) offers ``level``; player 0 (``winner``'s mover) decides."""
    from bot.rules.matchid import MatchIdFields, encode_match_id

    loser_on_roll = winner.swapped()
    fields = MatchIdFields(on_roll=1, turn=0, resigned=level)
    return Query(f"{loser_on_roll.position_id()}:{encode_match_id(fields)}")


async def test_the_bot_resigns_before_its_roll_only_when_certain(engine: GnubgEngine) -> None:
    # The opponent bears off their last checker next turn; none of ours is off.
    for points, level in (({13: 15}, 2), ({19: 15}, 3)):  # 19: the opponent's home board
        loser = Position.from_points(points, {1: 1})
        query = Case(loser, None, 0, Context()).query()
        assert await engine.take_turn(query, LEVELS["expert"]) == TurnChoice(resign=level)
        asked_already = await engine.take_turn(query, LEVELS["expert"], may_resign=False)
        assert asked_already == TurnChoice()  # it rolls (no double in a lost position)
    even = Case(Position.initial(), None, 0, Context()).query()
    assert await engine.take_turn(even, LEVELS["expert"]) == TurnChoice()
    jacoby = Case(Position.from_points({13: 15}, {1: 1}), None, 0, Context(jacoby=True)).query()
    turn = await engine.take_turn(jacoby, LEVELS["expert"])
    assert turn.resign == 1  # gammons don't count


@pytest.mark.parametrize("name", ["expert", "worldclass"])
async def test_the_bot_resigns_after_its_roll_from_the_play_it_found(
    engine: GnubgEngine, name: str
) -> None:
    loser = Position.from_points({13: 15}, {1: 1})
    query = Case(loser, (2, 1), 0, Context()).query()
    assert await engine.take_turn(query, LEVELS[name]) == TurnChoice(resign=2)
    turn = await engine.take_turn(query, LEVELS[name], may_resign=False)
    assert turn.resign == 0 and turn.play == await engine.choose_play(query, LEVELS[name])


@pytest.mark.parametrize("name", ["beginner", "expert", "worldclass"])
async def test_the_bots_play_is_choose_plays(engine: GnubgEngine, name: str) -> None:
    level = LEVELS[name]
    for case in cases(seed=31, count=12 if name == "worldclass" else 40):
        turn = await engine.take_turn(case.query(), level)
        assert turn == TurnChoice(play=await engine.choose_play(case.query(), level))


async def test_the_bot_doubles_where_the_cube_advice_says_double(engine: GnubgEngine) -> None:
    # Only in gnubg's market window is the cube analysed; outside it no double is right here.
    level = LEVELS["expert"]
    doubles = checked = 0
    for case in cases(seed=8, count=160, rolled=False):
        query = case.query()
        turn = await engine.take_turn(query, level, may_resign=False)
        if not Situation.of(query).may_double():
            assert turn == TurnChoice()
            continue
        advice = await engine.cube_advice(query, level)
        assert turn == TurnChoice(double=advice.double), query
        doubles += advice.double
        checked += 1
    assert checked > 80 and 10 < doubles < checked - 10


async def test_resignation_answer_after_the_resigner_rolled(engine: GnubgEngine) -> None:
    # The resigner (on roll, dice rolled) is far behind in a race with no chance; a single
    # still leaves them a gammon to lose, so it is refused; a gammon is accepted.
    from bot.rules.matchid import MatchIdFields, encode_match_id

    loser = Position.from_points({13: 15}, {1: 1})
    for level, accept in ((1, False), (2, True)):
        fields = MatchIdFields(on_roll=0, turn=1, resigned=level, dice=(2, 1))
        query = Query(f"{loser.position_id()}:{encode_match_id(fields)}")
        assert await engine.resignation_answer(query, LEVELS["worldclass"]) is accept
