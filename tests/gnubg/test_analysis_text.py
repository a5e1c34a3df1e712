"""Reading gnubg's analysis text, on text gnubg 1.1.0a16 printed (tests/gnubg/fixtures)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.gnubg import analysis_text, review_text
from bot.gnubg.analysis_text import AnalysisTextError, parse_export, parse_statistics
from bot.gnubg.decisions import cube_marks

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_match_statistics() -> None:
    first, second = parse_statistics(fixture("match3-statistics.txt"), ("alice", "bob"), (0, 3))
    assert (first.name, second.name) == ("alice", "bob")
    assert (first.checker_decisions, first.checker_errors, first.checker_blunders) == (158, 118, 92)
    assert (second.checker_decisions, second.checker_errors, second.checker_blunders) == (
        156,
        109,
        95,
    )
    assert (first.checker_error_rate, second.checker_error_rate) == (204.0, 211.5)
    assert (first.cube_decisions, first.cube_errors, first.cube_blunders) == (19, 3, 0)
    assert (second.cube_decisions, second.cube_errors, second.cube_blunders) == (8, 4, 3)
    assert (first.cube_error_rate, second.cube_error_rate) == (52.2, 98.2)
    assert (first.error_rate, second.error_rate) == (187.7, 206.0)
    assert first.pr == pytest.approx(500 * 33.226 / 177)
    assert second.pr == pytest.approx(500 * 33.779 / 164)
    assert first.decisions == 177
    assert (first.luck_rate, first.luck_total, first.luck_adjusted) == (14.5, 2.674, -60.67)
    assert (second.luck_rate, second.luck_total, second.luck_adjusted) == (1.3, 0.24, 60.67)
    assert (first.rating, second.rating) == ("Beginner", "Beginner")


def test_money_statistics() -> None:
    first, second = parse_statistics(fixture("money-statistics.txt"), ("a", "b"))
    assert (first.checker_decisions, second.checker_decisions) == (2, 3)
    assert (first.cube_errors, second.cube_errors) == (1, 2)
    assert (first.error_rate, second.error_rate) == (325.5, 467.3)
    assert second.pr == pytest.approx(500 * 2.336 / 5)
    assert (first.luck_total, first.luck_adjusted, second.luck_adjusted) == (0.24, 2.25, -2.25)


def test_text_that_is_not_statistics_is_refused() -> None:
    with pytest.raises(AnalysisTextError, match="Player p0 p1"):
        parse_statistics("No game in progress.\n", ("a", "b"))
    damaged = fixture("match3-statistics.txt").replace("Unforced moves", "Unforced")
    with pytest.raises(AnalysisTextError, match="Unforced moves"):
        parse_statistics(damaged, ("a", "b"))


def test_a_double_and_its_take_read_from_the_export() -> None:
    decisions = parse_export(
        [fixture("match3-game3-excerpt.txt")],
        money=False,
        mwc_games=[fixture("match3-game3-excerpt-mwc.txt")],
    )
    moves = {d.move: d for d in decisions}
    assert sorted(moves) == [12, 13, 14, 15]
    play = moves[12]  # the played move isn't among the top five ("*   ??")
    assert (play.player, play.dice, play.played, play.best) == (
        0,
        (3, 1),
        "bar/24 13/10",
        "bar/22* 7/6",
    )
    assert (play.checker_cost, play.checker_blunder) == (0.425, True)
    double = moves[13]
    assert (double.kind, double.player, double.cube_action, double.cube_best) == (
        "double",
        1,
        "Double",
        "Too good to double",
    )
    assert (double.cube_cost, double.cube_blunder) == (0.425, True)
    assert double.chance == pytest.approx(0.5)  # the double is worth a pass
    take = moves[14]
    assert (take.kind, take.player, take.cube_action, take.cube_best, take.cube_cost) == (
        "answer",
        0,
        "Take",
        "Pass",
        0.918,
    )
    assert take.gnubg_id == "HmpKgDhKZ/AIIg:cBFgACAACAAE"
    assert take.chance == pytest.approx(1 - 0.7294)  # from the doubler's side of the double
    worst = analysis_text.worst(decisions)
    assert [m.cost for m in worst[0]] == [0.918, 0.425]
    assert [(m.kind, m.played) for m in worst[1]] == [("cube", "Double"), ("checker", "16/10 13/9")]
    chart = analysis_text.chart(decisions)
    assert [(p.player, p.blunder) for p in chart] == [(0, True), (1, True), (0, True), (1, True)]
    assert chart[2].chance == pytest.approx(1 - 0.7294)  # player 0's chances


def test_a_money_game_read_from_the_export() -> None:
    decisions = parse_export([fixture("money-game1.txt")], money=True)
    mistakes = analysis_text.mistakes(decisions)
    checker = {(m.player, m.cost) for m in mistakes if m.kind == "checker"}
    assert checker == {(1, 0.225), (0, 0.714), (1, 0.219), (1, 0.301)}
    cube = [(m.player, m.move, m.played, m.best, m.cost) for m in mistakes if m.kind == "cube"]
    assert cube == [
        (1, 3, "Double", "No double", 0.175),
        (0, 8, "Redouble", "No redouble", 0.588),
        (1, 9, "Pass", "Take", 1.416),
    ]
    reviewed = review_text.review([fixture("money-game1.txt")], money=True)
    assert cube_marks(reviewed) == ([1, 2], [1, 2])  # each "[very bad]"
    chart = analysis_text.chart(decisions)
    assert chart[-1].chance == 1.0  # player 1 passed: player 0 won the game
    assert chart[0].chance == pytest.approx(1 - 0.464)  # player 1 played 13/2: 46.4% to win


def test_a_missed_double_is_a_cube_mistake_before_the_roll() -> None:
    text = fixture("money-game1.txt").replace(
        "Proper cube action: No double, take (25.7%)\nAlert: very bad move ( -0.714)",
        "Proper cube action: Double, take\nAlert: missed double (-0.050)!\n [doubtful]",
        1,
    )
    assert "missed double" in text
    mistake = next(
        m
        for m in analysis_text.mistakes(parse_export([text], money=True))
        if m.kind == "cube" and m.move == 2
    )
    assert (mistake.player, mistake.played, mistake.best, mistake.dice) == (
        0,
        "No double",
        "Double",
        None,
    )
    assert mistake.gnubg_id == "wufgATDgc/ABMA:MAEAAAAAAAAE"  # the dice (22) taken out


def test_mat_names() -> None:
    mat = (
        " 3 point match\n\n Game 1\n alice smith : 0                bob : 0\n"
        "  1)                             52: 13/11 13/8\n"
    )
    assert analysis_text.mat_names(mat) == ("alice smith", "bob")
    assert analysis_text.mat_names("nonsense") == ("Player 1", "Player 2")
