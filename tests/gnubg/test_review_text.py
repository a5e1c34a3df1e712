"""Every decision read from gnubg's ``export match text`` (review_text.review), and kept in the
store (MatchAnalysis.decisions), on text gnubg 1.1.0a16 printed (tests/gnubg/fixtures): no gnubg.

match3-game1*.txt: game 1 of a 3-point match analysed at 0-ply (the exports as analysis.py takes
them, boards and all); match3-2ply-excerpt*.txt: its first moves at 2-ply;
money-beaver-excerpt.txt: moves of a money game with a double beavered, and a roll that could
not be played."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from bot.gnubg import analysis_text
from bot.gnubg.analysis_text import AnalysisTextError, parse_export
from bot.gnubg.api import (
    ANALYSIS_DATA_VERSION,
    AnalysisDataError,
    ChartPoint,
    MatchAnalysis,
    Mistake,
    PlayerAnalysis,
)
from bot.gnubg.decisions import Candidate, CubeFigures, ReviewedDecision
from bot.gnubg.review_text import review
from bot.gnubg.stored_decisions import decisions_from_data, decisions_to_data

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def match_game() -> list[ReviewedDecision]:
    return review(
        [fixture("match3-game1.txt")], money=False, mwc_games=[fixture("match3-game1-mwc.txt")]
    )


def two_ply() -> list[ReviewedDecision]:
    return review(
        [fixture("match3-2ply-excerpt.txt")],
        money=False,
        mwc_games=[fixture("match3-2ply-excerpt-mwc.txt")],
    )


def money_game() -> list[ReviewedDecision]:
    return review([fixture("money-beaver-excerpt.txt")], money=True, beavers=True)


def test_every_decision_of_a_game_in_order() -> None:
    summary = [(d.move, d.player, d.kind, d.played, d.best, d.mark) for d in match_game()]
    assert summary == [
        (1, 1, "checker", "13/2", "24/13", "??"),
        (2, 0, "cube", "No double", "No double", ""),  # before the roll, then the roll
        (2, 0, "checker", "8/4 8/6(2)", "13/11(2) 6/4(2)", "??"),
        (3, 1, "cube", "Double", "No double", "??"),
        (4, 0, "take", "Take", "Take", ""),
        (5, 1, "checker", "24/21* 8/7", "8/7(2) 6/5(2)", "??"),
        (6, 0, "cube", "No redouble", "No redouble", ""),
        (6, 0, "checker", "bar/18*", "bar/18*", ""),
        (7, 1, "checker", "bar/22 6/5", "bar/23 6/5(2)", "??"),
        (8, 0, "cube", "Redouble", "No redouble", "??"),
        (9, 1, "take", "Pass", "Take", "??"),
    ]


def test_a_checker_play_with_gnubgs_list() -> None:
    first = match_game()[0]
    assert first.gnubg_id == "4HPwATDgc/ABMA:cAl3AAAAAAAE"  # game state "playing" (see review)
    assert first.dice == (6, 5)
    assert first.candidates[:2] == (
        Candidate(1, "24/13", 0, 0.1, 0.0, mwc=0.51, mwc_difference=0.0),
        Candidate(2, "24/18 13/8", 0, 0.044, -0.056, mwc=0.5043, mwc_difference=-0.0056),
    )
    assert [c.rank for c in first.candidates] == [1, 2, 3, 4, 5]
    assert first.played_candidate == first.candidates[3]
    assert (first.loss, first.loss_mwc, first.skill) == (0.262, 0.0261, "very bad")
    assert (first.luck, first.luck_mwc, first.luck_mark) == (0.1, 0.00995, "")  # "Rolled 65"
    assert first.candidates[0].evaluation == "Cubeful 0-ply"
    assert (first.error, first.blunder, first.forced) == (True, True, False)


def test_a_play_ranked_below_the_list_is_kept_with_its_rank() -> None:
    roll = match_game()[2]  # "*   73. Cubeful 0-ply    8/4 8/6(2)   Eq.: -0.396 (-0.808)"
    assert len(roll.candidates) == 6
    assert roll.candidates[-1] == Candidate(
        73, "8/4 8/6(2)", 0, -0.396, -0.808, mwc=0.4606, mwc_difference=-0.0804
    )
    assert (roll.loss, roll.loss_mwc) == (0.808, 0.0804)  # "Alert: very bad move ( -0.808)"


def test_unknown_rank_is_none() -> None:
    decisions = review(
        [fixture("match3-game3-excerpt.txt")],
        money=False,
        mwc_games=[fixture("match3-game3-excerpt-mwc.txt")],
    )
    roll = decisions[0]  # "*   ??  Cubeful 0-ply    bar/24 13/10 ..."
    assert (roll.played, roll.candidates[-1].rank, roll.loss) == ("bar/24 13/10", None, 0.425)
    restored = decisions_from_data(json.loads(json.dumps(decisions_to_data(decisions, 0))), 0)
    assert restored == tuple(decisions)


def test_cube_decisions_from_the_doublers_side() -> None:
    decisions = match_game()
    no_double, double, take = decisions[1], decisions[3], decisions[4]
    assert no_double.gnubg_id == "wufgATDgc/ABMA:MAFgAAAAAAAE"  # before the roll: no dice
    assert no_double.dice is None
    assert no_double.cube == CubeFigures(
        0.162, -0.182, 1.0, "No double, take", 0, 0.5161, 0.4819, 0.5995
    )
    assert (no_double.loss, no_double.loss_mwc, no_double.error) == (0.0, 0.0, False)
    assert double.cube == CubeFigures(
        0.396, 0.209, 1.0, "No double, take", 0, 0.5394, 0.5208, 0.5995
    )
    assert (double.loss, double.loss_mwc, double.skill) == (0.187, 0.0186, "very bad")
    assert double.error and double.cube.best == 0.396
    # The answer's block prints the figures from the taker's side, and nonsense in MWC: both
    # come from the doubler's side, as the double's.
    assert take.cube == double.cube
    assert take.gnubg_id.endswith(":cBFgAAAAAAAE")  # the double offered, the taker to act
    drop = decisions[-1]
    assert (drop.played, drop.best, drop.loss, drop.loss_mwc) == ("Pass", "Take", 1.047, 0.2626)
    assert drop.error and drop.blunder


def test_candidates_evaluated_at_different_depths() -> None:
    first = two_ply()[0]
    # gnubg lists "3. Cubeful 2-ply 13/2 (-0.241)" (the play made, moved up among the plays it
    # read at 2-ply) above "4. Cubeful 1-ply 13/8 13/7 (-0.169)": the review's order is by equity
    assert [(c.rank, c.plies, c.play) for c in first.candidates] == [
        (1, 2, "24/13"),
        (2, 2, "24/18 13/8"),
        (3, 1, "13/8 13/7"),  # gnubg's move filters dropped these at 1-ply
        (4, 2, "13/2"),
        (5, 1, "24/18 8/3"),
    ]
    assert [c.difference for c in first.candidates] == [0.0, -0.047, -0.169, -0.241, -0.265]
    assert first.loss == 0.241
    cube = two_ply()[1].cube
    assert cube is not None and cube.plies == 2
    data = decisions_to_data(two_ply(), 2)
    assert data[0][0]["y"] == [2, 2, 1, 2, 1]
    assert decisions_from_data(data, 2) == tuple(two_ply())


def test_a_money_game_with_a_beaver_and_a_roll_without_a_play() -> None:
    decisions = money_game()
    summary = [(d.move, d.player, d.kind, d.played, d.best, d.skill) for d in decisions]
    assert summary == [
        (1, 0, "checker", "8/2 6/2", "24/14", "doubtful"),
        (2, 1, "cube", "No double", "No double", ""),
        (2, 1, "checker", "24/18(2) 13/7(2)", "24/18(2) 13/7(2)", ""),
        (3, 0, "cube", "Double", "No double", "very bad"),  # "No double, beaver"
        (4, 1, "take", "Beaver", None, ""),  # gnubg: "Cannot analyse beaver nor raccoons!"
        (5, 0, "take", "Take", None, ""),  # the beaver taken
        (6, 0, "checker", "8/3 8/2", "13/2", "bad"),
        (18, 0, "checker", None, None, ""),  # "* p0 cannot move"
    ]
    assert all(d.loss_mwc is None and d.luck_mwc is None for d in decisions)
    assert all(c.mwc is None for d in decisions for c in d.candidates)
    beaver, taken = decisions[4], decisions[5]
    assert (beaver.cube, beaver.loss, beaver.error) == (None, 0.0, False)
    assert (taken.cube, taken.error) == (None, False)
    stuck = decisions[-1]
    assert (stuck.candidates, stuck.loss, stuck.forced) == ((), 0.0, True)
    assert (stuck.luck, stuck.luck_mark) == (-0.367, "unlucky")
    assert decisions[2].luck_mark == "lucky"  # "Alert: lucky roll! ( +0.490)"
    assert decisions[6].loss == 0.116 and decisions[6].error and not decisions[6].blunder


def test_marks_follow_gnubgs_thresholds() -> None:
    """gnubg 1.1.0a16 marks a loss past 0.03 doubtful, 0.06 bad, 0.12 very bad."""
    every = [*match_game(), *money_game(), *two_ply()]
    for d in every:
        if d.kind == "checker" and d.candidates:
            expected = (
                "very bad"
                if d.loss > 0.12
                else "bad"
                if d.loss > 0.06
                else "doubtful"
                if d.loss > 0.03
                else ""
            )
            assert d.skill == expected, d


def test_a_cube_decision_marked_without_an_alert() -> None:
    """gnubg writes "Alert: double decision marked ..." when it marks a cube decision it has
    no other alert for."""
    text = fixture("match3-game1.txt").replace(
        "Proper cube action: No double, take (29.1%)",
        "Proper cube action: No double, take (29.1%)\nAlert: double decision marked doubtful",
        1,
    )
    decisions = review([text], money=False, mwc_games=[fixture("match3-game1-mwc.txt")])
    assert (decisions[1].kind, decisions[1].skill, decisions[1].mark) == ("cube", "doubtful", "?!")


def test_a_roll_without_luck_analysis() -> None:
    text = fixture("money-beaver-excerpt.txt").replace("Rolled 64 (+0.032):", "Rolled 64:")
    assert review([text], money=True)[0].luck is None


def test_the_mistakes_are_the_decisions_that_lost_equity() -> None:
    """The worst decisions (from parse_export) are decisions here, with the same losses."""
    for texts, mwc, money in (
        ([fixture("match3-game1.txt")], [fixture("match3-game1-mwc.txt")], False),
        ([fixture("money-game1.txt")], None, True),
    ):
        mistakes = analysis_text.mistakes(parse_export(texts, money=money, mwc_games=mwc))
        decisions = review(texts, money=money, mwc_games=mwc)
        lost = [
            (d.game, d.move, "checker" if d.kind == "checker" else "cube", d.loss)
            for d in decisions
            if d.loss > 0
        ]
        assert sorted(lost) == sorted((m.game, m.move, m.kind, m.cost) for m in mistakes)


def test_wrong_cube_actions_are_gnubgs_other_action() -> None:
    decision = match_game()[3]  # a double where gnubg says "No double, take"
    assert decision.wrong and decision.error  # marked very bad
    too_good = replace(decision, played="No double", best="Too good to double", loss=0.0)
    assert not too_good.wrong  # not doubling is right when too good to double
    tiny = replace(decision, played="No double", best="Double", loss=0.0, skill="")
    assert tiny.wrong  # gnubg's statistics count a missed double that rounds to 0.000 ...
    assert not tiny.error and not tiny.agrees  # ... but it is unmarked: no error
    optional = replace(decision, played="No double", best="Optional double", loss=0.0)
    assert not optional.wrong
    beaver = replace(match_game()[4], best="Beaver")
    assert not beaver.wrong and beaver.agrees  # a take where gnubg would beaver is right


def test_a_missing_mwc_block_is_refused() -> None:
    mwc = fixture("match3-game1-mwc.txt").replace("Move number 5:", "Move number 55:")
    with pytest.raises(AnalysisTextError, match="move 5 of game 1 has no MWC"):
        review([fixture("match3-game1.txt")], money=False, mwc_games=[mwc])


# -- the stored form -------------------------------------------------------------------------


def player(name: str) -> PlayerAnalysis:
    return PlayerAnalysis(
        name, 10, 2, 1, 40.5, 3, 1, 0, 12.25, 35.0, 17.5, 4.5, 0.321, 52.5, "Advanced"
    )


def analysis(decisions: tuple[ReviewedDecision, ...], plies: int = 0) -> MatchAnalysis:
    worst = Mistake(
        1, 1, 1, "checker", "4HPwATDgc/ABMA:cAl3AAAAAAAE", (6, 5), "13/2", "24/13", 0.262
    )
    return MatchAnalysis(
        plies=plies,
        length=3,
        players=(player("alice"), player("bob")),
        worst=((), (worst,)),
        chart=(ChartPoint(1, 1, 0.48, True),),
        seconds=0.5,
        decisions=decisions,
    )


def test_decisions_read_back_as_they_were() -> None:
    games = [*match_game(), *(replace(d, game=2) for d in two_ply())]
    for decisions, plies in ((tuple(match_game()), 0), (tuple(two_ply()), 2), (tuple(games), 0)):
        stored = json.loads(json.dumps(analysis(decisions, plies).to_data()))
        assert stored["version"] == ANALYSIS_DATA_VERSION == 3
        assert MatchAnalysis.from_data(stored) == analysis(decisions, plies)
    money = tuple(money_game())
    assert decisions_from_data(json.loads(json.dumps(decisions_to_data(money, 0))), 0) == money


def test_a_game_without_decisions_keeps_its_place() -> None:
    later = tuple(replace(d, game=3) for d in money_game())
    data = decisions_to_data(later, 0)
    assert [len(game) for game in data] == [0, 0, len(later)]
    assert decisions_from_data(data, 0) == later


def test_the_stored_form_is_terse() -> None:
    data = decisions_to_data(match_game(), 0)
    size = len(json.dumps(data, separators=(",", ":")))
    assert size < 200 * len(match_game())  # a roll with six candidates and MWC: about 260
    second = data[0][2]  # the roll after a cube decision: no position, just the dice
    assert "id" not in second and second["d"] == 22


def test_version_1_data_is_read_without_decisions() -> None:
    old = analysis(tuple(match_game())).to_data()
    del old["decisions"]
    old["version"] = 1
    read = MatchAnalysis.from_data(json.loads(json.dumps(old)))
    assert read.decisions == ()
    assert read == replace(analysis(tuple(match_game())), decisions=())


def test_other_versions_and_damaged_decisions_are_refused() -> None:
    data = analysis(tuple(match_game())).to_data()
    with pytest.raises(AnalysisDataError, match="version 4"):
        MatchAnalysis.from_data({**data, "version": 4})
    for damaged in (
        [[{"m": 1}]],  # no position
        [[{"id": "4HPwATDgc/ABMA:cAl3AAAAAAAE", "x": 4, "c": [["24/13", 100]]}]],
        [[{"id": "4HPwATDgc/ABMA:cAl3AAAAAAAE", "k": "prime"}]],
        [[{"id": "not a position"}]],
        "nonsense",
    ):
        with pytest.raises(AnalysisDataError):
            MatchAnalysis.from_data({**data, "decisions": damaged})


def test_version_2_data_is_read_in_the_reviews_order() -> None:
    """Version 2 kept gnubg's own order (the play made "3." at 2-ply above better 1-ply plays)
    and counted every wrong cube action a cube error: read now, the plays are in the review's
    order with no rank made up, and cube errors are gnubg's marks."""
    gnubgs = review(
        [fixture("match3-2ply-excerpt.txt")],
        money=False,
        mwc_games=[fixture("match3-2ply-excerpt-mwc.txt")],
    )
    roll = gnubgs[0]
    as_printed = (  # gnubg's order and ranks, as version 2 stored them
        roll.candidates[0],
        roll.candidates[1],
        replace(roll.candidates[3], rank=3),
        replace(roll.candidates[2], rank=4),
        roll.candidates[4],
    )
    old = analysis((replace(roll, candidates=as_printed), *gnubgs[1:]), 2).to_data()
    old["version"] = 2
    wrong = [replace(p, cube_errors=7) for p in analysis(()).players]
    old["players"] = [asdict(p) for p in wrong]
    read = MatchAnalysis.from_data(json.loads(json.dumps(old)))
    first = read.decisions[0]
    assert [(c.rank, c.play) for c in first.candidates] == [
        (1, "24/13"),
        (2, "24/18 13/8"),
        (3, "13/8 13/7"),
        (4, "13/2"),  # among the plays kept, by equity
        (5, "24/18 8/3"),
    ]
    cube = [d for d in read.decisions if d.kind != "checker"]
    for side, figures in enumerate(read.players):
        assert figures.cube_errors == sum(d.error for d in cube if d.player == side) != 7
