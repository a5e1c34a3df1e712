"""Properties of the review over stored analyses of real GNU Backgammon exports
(tests/gnubg/fixtures, gnubg 1.1.0a16 at 0-ply and 2-ply, money and match play, one exported
with every play): each decision is read as the analysis reads it, stored and read back as the
review reads it, and its page and ``!review errors`` lines are checked, decision by decision
(hypothesis draws them, and shuffles gnubg's lists).

- Lists are sorted: gnubg's best first, then by equity; ranks rise; the play made appears once,
  after the listed plays when it ranks lower, with its rank.
- The mark is gnubg's class of the loss shown (0.030, 0.060, 0.120 EMG), and the page's class
  word, its sign and ``!review errors`` follow the mark alone.
- "gnubg agrees" only when the play made is a best play (and the only one: else "one of N equal
  best plays"); a "Best:" line only when it is not.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.gnubg import review_text
from bot.gnubg.api import MatchAnalysis
from bot.gnubg.decisions import (
    CLASSES,
    LISTED,
    MARKS,
    THRESHOLDS,
    Candidate,
    ReviewedDecision,
    in_review_order,
    skill_of,
)
from bot.i18n.core import Language
from bot.service.review.pages import ERRORS_PER_PAGE, errors_pages, page_text, shown
from tests.gnubg.test_review_text import fixture
from tests.service.fake_analyst import result

EXPORTS = (  # (export, its MWC twin or None for money, every play listed)
    ("match3-game1.txt", "match3-game1-mwc.txt", False),
    ("match3-2ply-excerpt.txt", "match3-2ply-excerpt-mwc.txt", False),
    ("match3-game3-excerpt.txt", "match3-game3-excerpt-mwc.txt", False),
    ("match5-2ply-every-play.txt", "match5-2ply-every-play-mwc.txt", True),
    ("money-game1.txt", None, False),
    ("money-beaver-excerpt.txt", None, False),
)
NAMES = ("alice", "bob")


def stored(name: str, mwc: str | None, every_play: bool) -> MatchAnalysis:
    """The analysis of one export as the store keeps it and the review reads it back."""
    money = mwc is None
    decisions = review_text.review(
        [fixture(name)],
        money=money,
        beavers=money,
        mwc_games=None if mwc is None else [fixture(mwc)],
        every_play=every_play,
    )
    analysis = replace(result(), length=0 if money else 3, decisions=tuple(decisions))
    return MatchAnalysis.from_data(json.loads(json.dumps(analysis.to_data())))


ANALYSES = [(stored(*export), export[1] is not None) for export in EXPORTS]
DECISIONS = [(d, match_play) for analysis, match_play in ANALYSES for d in analysis.decisions]
ROLLS = [(d, m) for d, m in DECISIONS if d.kind == "checker" and d.played_candidate is not None]
LINE = re.compile(r"^`( *\d+\.| *\?\?) (.+?) +(Cubeful|Cubeless) (\d)-ply +([+-]\d\.\d{3})")


def page(d: ReviewedDecision, match_play: bool, language: Language = "en") -> str:
    return page_text(
        d, 0, 1, names=NAMES, title="Match #1", match_play=match_play, language=language
    )


def listed(text: str) -> list[tuple[int | None, str, float, bool]]:
    """(rank, play, equity, played) of each candidate line of a page."""
    found = []
    for line in text.splitlines():
        if m := LINE.match(line):
            rank = m[1].strip().rstrip(".")
            found.append(
                (None if rank == "??" else int(rank), m[2], float(m[5]), "← played" in line)
            )
    return found


def test_the_fixtures_hold_every_case() -> None:
    """The properties below are not idle: the exports have each case they speak of."""
    rolls = [d for d, _ in ROLLS]
    assert any(d.played_candidate and d.played_candidate.rank == 53 for d in rolls)  # 2-ply
    assert any(d.agrees and d.best_plays > LISTED for d in rolls)  # one of 9 equal best
    assert any(d.wrong and not d.skill for d in rolls)  # worse than the best, unmarked
    cube = [d for d, _ in DECISIONS if d.kind != "checker"]
    assert {d.skill for d in cube} >= {"", "very bad"} and any(d.agrees for d in cube)
    assert sum(bool(d.skill) for d, _ in DECISIONS) > ERRORS_PER_PAGE  # more than one page


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ROLLS))
def test_a_rolls_list_is_in_equity_order_with_the_play_made_at_its_rank(
    drawn: tuple[ReviewedDecision, bool],
) -> None:
    d, match_play = drawn
    lines = listed(page(d, match_play))
    ranks = [rank for rank, _, _, _ in lines]
    equities = [equity for _, _, equity, _ in lines]
    assert lines[0][1] == d.best and equities[1:] == sorted(equities[1:], reverse=True)
    assert [r for r in ranks if r is not None] == sorted({r for r in ranks if r is not None})
    played = [line for line in lines if line[3]]
    assert len(played) == 1 and played[0][1] == d.played
    if played[0] is lines[-1] and len(lines) > LISTED:  # below the listed plays
        assert played[0][0] is None or played[0][0] > LISTED
    assert len(lines) <= LISTED + 1


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(DECISIONS))
def test_the_mark_the_class_and_the_loss_shown_agree(drawn: tuple[ReviewedDecision, bool]) -> None:
    d, match_play = drawn
    text = page(d, match_play)
    near = any(abs(d.loss - line) <= 0.0005 for line in THRESHOLDS.values())
    assert d.skill == skill_of(d.loss) or near, d  # gnubg's thresholds, on the loss shown
    classes = [word for word in CLASSES.values() if f"**{word}**" in text]
    if d.skill:
        assert classes == [CLASSES[d.skill]]
        assert f"**{CLASSES[d.skill]}** {MARKS[d.skill]} (" in text
        shown_loss = re.search(r"\*\* \S+ \(-(\d\.\d{3})", text)
        assert shown_loss and float(shown_loss[1]) == d.loss
    else:
        assert classes == [] and "error" not in text.split("\n")[2]
    [line] = [
        line
        for line in errors_pages(
            [d], names=NAMES, title="Match #1", match_play=match_play, figures=(), language="en"
        )[0].splitlines()[1:]
    ]
    assert line.startswith("`  1`") == bool(d.skill), line


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(DECISIONS))
def test_agrees_only_when_the_play_is_a_best_play(drawn: tuple[ReviewedDecision, bool]) -> None:
    d, match_play = drawn
    text = page(d, match_play)
    played = d.played_candidate
    if d.kind == "checker":
        best_play = played is not None and played.difference == 0
    else:
        best_play = d.cube is not None and not d.wrong and d.loss == 0
    assert ("gnubg agrees" in text) == (best_play and d.best_plays <= 1), text
    ties = re.search(r"one of (\d+) equal best plays", text)
    assert bool(ties) == (best_play and d.kind == "checker" and d.best_plays > 1), text
    if ties:
        assert int(ties[1]) == d.best_plays >= sum(c.difference == 0 for c in d.candidates)
    assert ("\nBest: " in text) == (d.kind == "checker" and d.best is not None and not best_play)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(ROLLS), st.randoms(use_true_random=False))
def test_the_order_is_gnubgs_best_then_equity_whatever_gnubgs_order(
    drawn: tuple[ReviewedDecision, bool], shuffler: object
) -> None:
    """Whatever order gnubg printed the others in, the review's is the same: by equity."""
    d, _ = drawn
    rest = list(d.candidates[1:])
    shuffler.shuffle(rest)  # type: ignore[attr-defined]
    ordered = in_review_order([d.candidates[0], *rest], d.played, every_play=True)
    assert ordered[0].play == d.best and [c.rank for c in ordered] == list(
        range(1, len(ordered) + 1)
    )
    equities = [c.equity for c in ordered[1:]]
    assert equities == sorted(equities, reverse=True)
    kept = in_review_order([d.candidates[0], *rest], d.played, every_play=True, shown=2)
    assert [c.play for c in kept[:2]] == [c.play for c in ordered[:2]]
    assert d.played in [c.play for c in kept]


def test_an_older_list_keeps_no_rank_it_cannot_know() -> None:
    """Data stored before version 3 kept gnubg's first five in its order: a play made that
    gnubg moved up among them goes below them, its rank among all the plays unknown."""
    best = Candidate(1, "24/13", 2, 0.094, 0.0)
    made = Candidate(3, "13/2", 2, -0.147, -0.241)
    lower = [Candidate(4, "13/8 13/7", 1, -0.075, -0.169), Candidate(5, "24/18 8/3", 1, 0.1, 0.006)]
    second = Candidate(2, "24/18 13/8", 2, 0.047, -0.047)
    ordered = in_review_order([best, second, made, *lower], "13/2", every_play=False)
    assert [(c.rank, c.play) for c in ordered] == [
        (1, "24/13"),
        (2, "24/18 8/3"),
        (3, "24/18 13/8"),
        (4, "13/8 13/7"),
        (None, "13/2"),
    ]
    every = in_review_order([best, second, made, *lower], "13/2", every_play=True)
    assert every[-1].rank == 5


def test_errors_are_one_message_of_pages_each_under_discords_limit() -> None:
    for analysis, match_play in ANALYSES:
        pages = shown(analysis.decisions)
        texts = errors_pages(
            pages,
            names=("_" * 32, "*" * 32),  # each sign escaped: 64 characters
            title="Match #123456, " + "a" * 32 + " vs " + "b" * 32 + " (25-point)",
            match_play=match_play,
            figures=["x" * 150, "y" * 150],
            language="en",
        )
        marked = sum(bool(d.skill) for d in pages)
        assert len(texts) == max(1, math.ceil(marked / ERRORS_PER_PAGE))
        assert all(len(text) < 2000 for text in texts), [len(text) for text in texts]
        lines = [line for text in texts for line in text.splitlines() if line.startswith("`")]
        assert len(lines) == marked
