"""One numbering for a decision: the analysis' worst decisions, the drill's question and verdict
and the review's page all name it alike (``decision k/n · game g, move m``), on the decisions
and worst mistakes of a game GNU Backgammon really analysed (the review tests' export), through
the console's adapter."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.console import ConsoleClock
from bot.gnubg.analysis_text import parse_export, worst
from bot.service.review.numbering import decision_label, page_of
from bot.store import Store
from tests.gnubg.test_review_text import fixture
from tests.service.review.test_drills import HOME, START, Drilled, Grader, first_play, new_service
from tests.service.review.test_review import DECISIONS, PAGES

EXPORT = [fixture("match3-game1.txt")]
MISTAKES = worst(parse_export(EXPORT, money=False, mwc_games=[fixture("match3-game1-mwc.txt")]))
LABEL = re.compile(r"decision (\d+)/(\d+) · game (\d+), move (\d+)")


@pytest.fixture
async def table(db_path: Path | str) -> AsyncIterator[Drilled]:
    store = await Store.open(db_path)
    clock = ConsoleClock(START)
    grader = Grader()
    grader.result = replace(grader.result, worst=MISTAKES, decisions=DECISIONS)
    service = new_service(store, clock, grader)
    drilled = Drilled(service, store, clock)
    await drilled.resigned_match(HOME)
    try:
        yield drilled
    finally:
        service.close()
        await store.close()


async def review_header(table: Drilled, page: int) -> str:
    said = await table.say(f"alice: !review 1 {page}")
    header = next(line for line in said.splitlines() if "**Match #1" in line)
    found = LABEL.search(header)
    assert found is not None, header
    return found.group(0)


def test_the_export_has_worst_decisions_of_both_kinds_in_two_players() -> None:
    assert {m.kind for side in MISTAKES for m in side} == {"checker", "cube"}
    assert all(MISTAKES)


async def test_the_analysis_and_the_review_name_each_worst_decision_alike(table: Drilled) -> None:
    said = await table.say("alice: !analysis 1")
    listed = re.findall(rf"  - ({LABEL.pattern})[^\n]*`!review 1 (\d+)`", said)
    assert len(listed) == sum(len(side) for side in MISTAKES), said
    for label, page, count, game, move, command_page in listed:
        assert page == command_page and int(count) == len(PAGES)
        assert await review_header(table, int(page)) == label
        d = PAGES[int(page) - 1]
        assert (d.game, d.move) == (int(game), int(move))
        assert any(
            (m.game, m.move, m.player) == (d.game, d.move, d.player) for s in MISTAKES for m in s
        )


async def test_a_drill_names_its_decision_as_the_review_does(table: Drilled) -> None:
    for row in await table.rows("alice"):
        page, count = page_of(PAGES, DECISIONS, row.decision) or (None, 0)
        assert page is not None and count == len(PAGES)
        label = decision_label(row.game, row.move, page, count, language="en")
        question = await table.say("alice: !drill")
        assert f"(match #1, {label}, an error of yours)" in question, question
        assert await review_header(table, page + 1) == label
        assert PAGES[page] is DECISIONS[row.decision]
        answer = first_play(row) if row.kind == "checker" else "double"
        verdict = await table.say(f"alice: !drill {answer}")
        assert f"In the match ({label}, `!review 1 {page + 1}`)" in verdict, verdict
        table.clock.advance(86_400 * 30)
