"""The analysis message's figures: players with too few decisions to rate, and the
luck-adjusted result held to the range of a match-winning chance."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.gnubg.api import MIN_RATED_DECISIONS, MatchAnalysis, PlayerAnalysis
from bot.service.gnubg.analysis_text import (
    charted,
    luck_adjusted_chance,
    luck_adjusted_text,
    pr_figure,
    result_text,
)
from tests.service.fake_analyst import player, result

NAMES = ("alice", "bob")


def with_decisions(base: PlayerAnalysis, checker: int, cube: int = 0) -> PlayerAnalysis:
    return replace(base, checker_decisions=checker, cube_decisions=cube)


def short_match(alice: int, bob: int) -> MatchAnalysis:
    base = result()
    players = (
        with_decisions(base.players[0], alice),
        with_decisions(base.players[1], bob),
    )
    return replace(base, players=players)


def test_nobody_rated_is_one_line_with_no_figures_and_no_chart() -> None:
    analysis = short_match(1, 0)
    text = result_text(1, NAMES, analysis, language="en")
    header, *rest = text.splitlines()
    assert header.startswith("**Analysis of match #1 (alice vs bob)**")
    assert rest == [
        f"Too few decisions for a PR: **alice** 1, **bob** 0 ({MIN_RATED_DECISIONS} needed); "
        "nothing to chart."
    ]
    assert not re.search(r"PR \d", text) and "Luck" not in text and "Advanced" not in text
    assert not charted(analysis)


def test_one_short_player_keeps_the_others_figures() -> None:
    analysis = short_match(40, MIN_RATED_DECISIONS - 1)
    text = result_text(1, NAMES, analysis, language="en")
    assert f"Too few decisions for a PR: **bob** {MIN_RATED_DECISIONS - 1} (" in text
    assert "nothing to chart" not in text and charted(analysis)
    assert "**alice**: PR 6.5" in text and "**bob**: PR" not in text
    assert text.count("Luck ") == 1 and text.count("Worst decisions") == 1


def test_the_minimum_itself_is_rated_cube_decisions_counted() -> None:
    base = result()
    alice = with_decisions(base.players[0], MIN_RATED_DECISIONS - 3, 3)
    bob = with_decisions(base.players[1], MIN_RATED_DECISIONS - 3, 2)
    analysis = replace(base, players=(alice, bob))
    assert alice.rated and not bob.rated
    text = result_text(1, NAMES, analysis, language="en")
    assert "**alice**: PR" in text and f"**bob** {MIN_RATED_DECISIONS - 1} (" in text


def test_a_match_with_no_chart_points_sends_none() -> None:
    assert not charted(replace(result(), chart=()))


@pytest.mark.parametrize(
    ("figure", "chance", "said"),
    [
        (25.83, 0.7583, "luck-adjusted match-winning chance 75.8%"),
        (-50.0, 0.0, "luck-adjusted match-winning chance 0.0%"),
        (
            109.4,
            1.0,
            "luck-adjusted match-winning chance 100.0% (gnubg's +109.40% from even, past the "
            "scale)",
        ),
        (
            -64.42,
            0.0,
            "luck-adjusted match-winning chance 0.0% (gnubg's -64.42% from even, past the scale)",
        ),
    ],
)
def test_the_luck_adjusted_result_is_a_chance_within_0_and_100(
    figure: float, chance: float, said: str
) -> None:
    assert luck_adjusted_chance(figure) == pytest.approx(chance)
    assert luck_adjusted_text(figure, 1, language="en") == said


def test_money_keeps_gnubgs_points_and_no_figure_says_nothing() -> None:
    assert luck_adjusted_text(-2.25, 0, language="en") == "luck-adjusted result -2.250 points"
    assert luck_adjusted_text(None, 3, language="en") == ""
    stopped = replace(result(), players=(replace(player("alice", 3.0), luck_adjusted=None),) * 2)
    text = result_text(1, NAMES, stopped, language="en")
    assert "PR 3.0" in text and "Luck " in text
    assert "luck-adjusted" not in text and "None" not in text


def test_the_longest_analysis_fits_one_discord_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 25-point match of 1,300 pages, names of 32 characters that markdown escapes to 64,
    long plays at the last pages, luck past gnubg's scale: still one message of 2,000."""
    from bot.gnubg.api import Mistake
    from bot.service.gnubg import analysis_text
    from bot.service.models import markdown_safe

    monkeypatch.setattr(analysis_text, "shown", lambda decisions: (None,) * 1300)
    monkeypatch.setattr(analysis_text, "review_page", lambda pages, mistake: 1299)
    name = markdown_safe("_" * 32)
    play, best = "bar/22* 22/16* 16/10* 10/4*", "bar/19* 19/13* 13/7* 7/1*"

    def mistakes(seat: int) -> tuple[Mistake, ...]:
        return tuple(
            Mistake(seat, 12, 345, "checker", "x", (6, 6), play, best, 1.234) for _ in range(3)
        )

    def lucky(sign: int) -> PlayerAnalysis:
        return replace(player(name, 123.4, 1000), luck_adjusted=sign * 109.4, luck_rate=-123.4)

    worst = (mistakes(0), mistakes(1))
    players = (lucky(1), lucky(-1))
    analysis = replace(result(length=25), players=players, worst=worst, seconds=1234.5)
    text = result_text(99999, (name, name), analysis, language="en")
    assert len(name) == 64 and text.count("`!review 99999 1300`") == 6
    assert len(text) <= 2000, len(text)


def test_a_line_of_figures_elsewhere_gives_no_pr_below_the_minimum() -> None:
    analysis = short_match(40, 1)
    assert [pr_figure(p, language="en") for p in analysis.players] == [
        "PR 6.5",
        "1 decision, too few for a PR",
    ]
