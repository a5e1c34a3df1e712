"""The analysis chart's marks come from GNU Backgammon's own judgement of each decision: real
exports (tests/gnubg/fixtures) read as the analysis reads them, then joined move by move."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.gnubg import analysis_text, review_text
from bot.gnubg.api import ChartPoint, MatchAnalysis
from bot.render.chart import cube_action, error_class
from bot.service.gnubg.analysis import chart_png, chart_points
from bot.service.gnubg.analysis_text import result_text
from bot.service.review.pages import shown
from tests.gnubg.test_review_text import fixture
from tests.service.fake_analyst import result

EXPORTS = [
    ("match3-game1.txt", "match3-game1-mwc.txt"),
    ("match3-game3-excerpt.txt", "match3-game3-excerpt-mwc.txt"),
    ("money-game1.txt", None),
    ("money-beaver-excerpt.txt", None),
]


def analysed(name: str, mwc: str | None) -> MatchAnalysis:
    games, money = [fixture(name)], mwc is None
    mwc_games = None if mwc is None else [fixture(mwc)]
    decisions = analysis_text.parse_export(games, money=money, beavers=money, mwc_games=mwc_games)
    reviewed = review_text.review(games, money=money, beavers=money, mwc_games=mwc_games)
    return replace(
        result(),
        length=0 if money else 3,
        chart=analysis_text.chart(decisions),
        decisions=tuple(reviewed),
    )


@pytest.mark.parametrize(("name", "mwc"), EXPORTS)
def test_each_mark_is_gnubgs_at_that_move(name: str, mwc: str | None) -> None:
    analysis = analysed(name, mwc)
    points = chart_points(analysis)
    assert [(p.game, p.chance) for p in points] == [(c.game, c.chance) for c in analysis.chart]
    classes = {"doubtful": "doubtful", "bad": "error", "very bad": "blunder"}
    for chart_point, point in zip(analysis.chart, points, strict=True):
        made = [
            d
            for d in analysis.decisions
            if (d.game, d.move, d.player) == (chart_point.game, chart_point.move, point.player)
        ]
        assert made, chart_point
        skills = {d.skill for d in made} - {""}
        worst = max(skills, key=list(classes).index) if skills else None
        assert error_class(point) == (classes[worst] if worst else None), (chart_point, made)
        assert point.player == chart_point.player


@pytest.mark.parametrize(("name", "mwc"), EXPORTS)
def test_every_double_take_and_pass_on_the_chart_is_marked(name: str, mwc: str | None) -> None:
    analysis = analysed(name, mwc)
    points = chart_points(analysis)
    charted = {(c.game, c.move, c.player) for c in analysis.chart}
    expected = [
        {"Double": "double", "Redouble": "double", "Take": "take", "Beaver": "take"}.get(
            d.played or "", "pass"
        )
        for d in analysis.decisions
        if d.kind in ("cube", "take")
        and d.played in ("Double", "Redouble", "Take", "Beaver", "Pass")
        and (d.game, d.move, d.player) in charted
    ]
    assert expected, "the export has cube actions"
    assert [cube_action(p) for p in points if cube_action(p) not in (None, "no double")] == (
        expected
    )


def test_not_doubling_is_marked_only_where_it_was_an_error() -> None:
    analysis = analysed("match3-game1.txt", "match3-game1-mwc.txt")
    refusals = [
        d
        for d in analysis.decisions
        if d.kind == "cube" and d.played in ("No double", "No redouble")
    ]
    assert refusals and not any(d.wrong for d in refusals)
    assert not any(cube_action(p) == "no double" for p in chart_points(analysis))
    missed = replace(refusals[0], best="Double")  # gnubg would have doubled: wrong
    assert missed.wrong
    decisions = tuple(missed if d is refusals[0] else d for d in analysis.decisions)
    points = chart_points(replace(analysis, decisions=decisions))
    assert [cube_action(p) for p in points].count("no double") == 1


def test_an_analysis_stored_before_the_moves_marks_its_blunders_only() -> None:
    analysis = analysed("match3-game1.txt", "match3-game1-mwc.txt")
    old = replace(analysis, chart=tuple(replace(c, move=0) for c in analysis.chart))
    points = chart_points(old)
    assert all(p.cube is None and p.error is None for p in points)
    assert [error_class(p) for p in points] == [
        "blunder" if c.blunder else None for c in analysis.chart
    ]


def test_the_chart_round_trips_its_moves_and_reads_older_points() -> None:
    analysis = analysed("match3-game1.txt", "match3-game1-mwc.txt")
    again = MatchAnalysis.from_data(analysis.to_data())
    rounded = tuple(replace(c, chance=round(c.chance, 5)) for c in analysis.chart)
    assert again.chart == rounded and all(c.move for c in again.chart)
    data = analysis.to_data()
    data["chart"] = [item[:4] for item in data["chart"]]
    assert [c.move for c in MatchAnalysis.from_data(data).chart] == [0] * len(analysis.chart)
    assert ChartPoint(1, 0, 0.5).move == 0


def test_the_marked_chart_draws() -> None:
    analysis = analysed("match3-game1.txt", "match3-game1-mwc.txt")
    png = chart_png(analysis, ("alice", "GNU Backgammon"), winner=1, language="en")
    assert png is not None and png.startswith(b"\x89PNG")


@pytest.mark.parametrize(("name", "mwc"), EXPORTS)
def test_each_worst_decision_names_its_review_page(name: str, mwc: str | None) -> None:
    games = [fixture(name)]
    money = mwc is None
    found = analysis_text.parse_export(
        games, money=money, beavers=money, mwc_games=None if mwc is None else [fixture(mwc)]
    )
    analysis = replace(analysed(name, mwc), worst=analysis_text.worst(found))
    pages = shown(analysis.decisions)
    text = result_text(7, ("alice", "bob"), analysis, prefix="?", language="en")
    named = [int(page) for page in re.findall(r"`\?review 7 (\d+)`", text)]
    mistakes = [m for side in analysis.worst for m in side]
    assert mistakes and len(named) == len(mistakes)
    for mistake, page in zip(mistakes, named, strict=True):
        decision = pages[page - 1]
        assert (decision.game, decision.move, decision.player) == (
            mistake.game,
            mistake.move,
            mistake.player,
        )
        assert (decision.kind == "checker") == (mistake.kind == "checker")
        assert decision.loss == pytest.approx(mistake.cost, abs=0.0015)
    without = result_text(7, ("alice", "bob"), replace(analysis, decisions=()), language="en")
    assert "review" not in without
