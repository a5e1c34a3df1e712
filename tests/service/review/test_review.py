"""``!review`` through the console's adapter and the buttons, on SQLite and PostgreSQL: a finished
match analysed by the stand-in analyst, whose analysis carries every decision of a game gnubg
really analysed (tests/gnubg/fixtures: game 1 of a 3-point match, exported at 0-ply)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.console import SERVER, ConsoleClock
from bot.gnubg.decisions import ReviewedDecision
from bot.gnubg.review_text import review
from bot.service.keys import ErrorsKey, ReviewKey
from bot.service.models import Decision, Place, User
from bot.service.review.pages import ERRORS_PER_PAGE, is_error, shown
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.gnubg.test_review_text import fixture
from tests.service.console_lines import ConsoleTable
from tests.service.fake_analyst import FakeAnalyst, result

HOME = "general"
DECISIONS = tuple(
    review([fixture("match3-game1.txt")], money=False, mwc_games=[fixture("match3-game1-mwc.txt")])
)
PAGES = shown(DECISIONS)
PNG = b"\x89PNG"


class Reviewed(ConsoleTable):
    """A console whose finished match 1 (alice vs bob) has the fixture's decisions."""


@pytest.fixture
async def reviewed(db_path: Path | str) -> AsyncIterator[Reviewed]:
    async for table in _reviewed(db_path, DECISIONS):
        yield table


# The fixture's game three times over: more decisions marked than one page of errors holds.
THRICE = tuple(replace(d, game=game) for game in (1, 2, 3) for d in DECISIONS)


@pytest.fixture
async def reviewed_thrice(db_path: Path | str) -> AsyncIterator[Reviewed]:
    async for table in _reviewed(db_path, THRICE):
        yield table


async def _reviewed(
    db_path: Path | str, decisions: tuple[ReviewedDecision, ...]
) -> AsyncIterator[Reviewed]:
    store = await Store.open(db_path)
    analyst = FakeAnalyst(replace(result(), decisions=decisions))
    service = TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(5),
        clock=ConsoleClock(1_790_000_000.0),
        images=True,
        engine=analyst,
    )
    table = Reviewed(service)
    await table.resigned_match(HOME)
    try:
        yield table
    finally:
        service.close()
        await store.close()


async def test_a_review_opens_at_the_first_decision_with_the_board(reviewed: Reviewed) -> None:
    place, alice = Place(SERVER, HOME), User("alice", "alice")
    (page,) = await reviewed.service.review_commands.review(place, alice, "1")
    assert page.text.startswith("**Match #1, alice vs bob")
    assert f"decision 1/{len(PAGES)}" in page.text
    assert page.image is not None and page.image.startswith(PNG)
    assert page.decision is Decision.REVIEW and page.decision_key == ReviewKey(1, 0)
    first = PAGES[0]
    assert f"Played: **{first.played}**" in page.text
    assert "XGID=" in page.text and first.gnubg_id in page.text


async def test_typed_forms_page_the_same_review(reviewed: Reviewed) -> None:
    said = await reviewed.say("alice: !review")  # this table's last finished match
    assert "decision 1/" in said
    said = await reviewed.say("alice: !review 1 3")
    assert f"decision 3/{len(PAGES)}" in said
    said = await reviewed.say("alice: !review next")
    assert f"decision 4/{len(PAGES)}" in said
    said = await reviewed.say("alice: !review errors")
    errors = [d for d in PAGES if is_error(d)]
    assert said.count("\n[#general] bot:") == 0  # one message
    assert said.count(" **") >= len(errors)  # one line per marked decision
    for bad in ("alice: !review 1 999", "alice: !review 7", "alice: !review soon"):
        assert "(only you)" in await reviewed.say(bad)


async def test_the_buttons_turn_the_page_and_watchers_get_their_own_copy(
    reviewed: Reviewed,
) -> None:
    place = Place(SERVER, HOME)
    alice, carol = User("alice", "alice"), User("carol", "carol")
    pressed = await reviewed.service.press(place, alice, "reviewnext", ReviewKey(1, 0))
    (page,) = pressed.replies
    assert page.edits and not page.private and page.decision_key == ReviewKey(1, 1)
    assert not pressed.closed
    last = (await reviewed.service.press(place, alice, "reviewlast", ReviewKey(1, 0))).replies[0]
    assert last.decision_key == ReviewKey(1, len(PAGES) - 1)
    beyond = (await reviewed.service.press(place, alice, "reviewnext", last.decision_key)).replies
    assert beyond[0].private and "last decision" in beyond[0].text
    mine = (await reviewed.service.press(place, alice, "reviewmine", ReviewKey(1, 0))).replies[0]
    seat = 0  # alice is player 0 of the match (the challenger)
    wanted = next(i for i, d in enumerate(PAGES) if i > 0 and is_error(d) and d.player == seat)
    assert mine.decision_key == ReviewKey(1, wanted)
    watcher = (
        await reviewed.service.press(place, carol, "reviewprevious", ReviewKey(1, 2))
    ).replies[0]
    assert watcher.private and not watcher.edits and watcher.decision_key == ReviewKey(1, 1)
    assert watcher.image is not None


async def test_the_analysis_has_a_review_button_that_opens_a_review(reviewed: Reviewed) -> None:
    place = Place(SERVER, HOME)
    alice, carol = User("alice", "alice"), User("carol", "carol")
    (analysis,) = await reviewed.service.gnubg.analysis(place, carol, "1")
    assert analysis.text.startswith("**Analysis of match #1")
    assert analysis.decision is Decision.ANALYSED and analysis.decision_key == ReviewKey(1, 0)
    pressed = await reviewed.service.press(place, alice, "reviewopen", analysis.decision_key)
    (page,) = pressed.replies
    assert not pressed.closed  # the analysis keeps its button
    assert not page.edits and not page.private  # a review of its own, for the channel
    assert page.decision is Decision.REVIEW and page.decision_key == ReviewKey(1, 0)
    assert f"decision 1/{len(PAGES)}" in page.text and page.image is not None
    (copy,) = (await reviewed.service.press(place, carol, "reviewopen", ReviewKey(1, 0))).replies
    assert copy.private and not copy.edits and copy.decision_key == ReviewKey(1, 0)


async def test_an_analysis_without_its_decisions_has_no_review_button(db_path: Path | str) -> None:
    store = await Store.open(db_path)
    service = TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(5),
        engine=FakeAnalyst(result()),  # as stored before the decisions were kept
    )
    table = Reviewed(service)
    try:
        await table.resigned_match(HOME)
        (analysis,) = await service.gnubg.analysis(Place(SERVER, HOME), User("carol", "carol"), "1")
        assert analysis.text.startswith("**Analysis of match #1")
        assert analysis.decision is None
    finally:
        service.close()
        await store.close()


async def test_review_errors_is_one_message_paged_by_its_buttons(
    reviewed_thrice: Reviewed,
) -> None:
    """``!review errors`` of a match with more marked decisions than a page holds: one message
    whose buttons (keys ``e<match>.<page>``) turn its pages, in place for a player, in a copy of
    their own for anyone else; a fresh service (a restart) answers the old message's keys."""
    place = Place(SERVER, HOME)
    alice, carol = User("alice", "alice"), User("carol", "carol")
    pages = shown(THRICE)
    marked = [index for index, d in enumerate(pages) if is_error(d)]
    count = -(-len(marked) // ERRORS_PER_PAGE)
    assert count >= 3
    (first,) = await reviewed_thrice.service.review_commands.review(
        place, carol, "errors"
    )  # anyone may ask
    assert first.decision is Decision.REVIEW_ERRORS and first.decision_key == ErrorsKey(1, 0)
    assert f"page 1/{count}" in first.text and len(first.text) < 2000
    assert not first.private  # typed: for the channel, like a typed review page
    assert "checker 4 errors (1 blunder), cube 1 error (0 blunders)" in first.text
    seen = _listed(first.text)
    key = first.decision_key
    for number in range(2, count + 1):
        pressed = await reviewed_thrice.service.press(place, alice, "reviewnext", key)
        (page,) = pressed.replies
        assert page.edits and not page.private and not pressed.closed
        assert (
            page.decision_key == ErrorsKey(1, number - 1) and f"page {number}/{count}" in page.text
        )
        seen += _listed(page.text)
        key = page.decision_key
    assert seen == [index + 1 for index in marked]  # every marked decision once, in order
    (beyond,) = (await reviewed_thrice.service.press(place, alice, "reviewnext", key)).replies
    assert beyond.private and "last page" in beyond.text
    (back,) = (await reviewed_thrice.service.press(place, alice, "reviewfirst", key)).replies
    assert back.decision_key == ErrorsKey(1, 0) and back.text == first.text
    (copy,) = (await reviewed_thrice.service.press(place, carol, "reviewprevious", key)).replies
    assert copy.private and not copy.edits and copy.decision_key == ErrorsKey(1, count - 2)
    assert copy.decision is Decision.REVIEW_ERRORS
    restarted = TableService(
        reviewed_thrice.service.store, settings=Settings(), engine=FakeAnalyst(result())
    )
    try:
        (again,) = (await restarted.press(place, alice, "reviewlast", ErrorsKey(1, 0))).replies
        assert again.edits and again.decision_key == ErrorsKey(1, count - 1)
    finally:
        restarted.close()


async def test_a_clean_or_short_list_of_errors_has_no_buttons(reviewed: Reviewed) -> None:
    (listing,) = await reviewed.service.review_commands.review(
        Place(SERVER, HOME), User("bob", "bob"), "errors"
    )
    assert listing.decision is None and listing.decision_key is None
    assert "page" not in listing.text.splitlines()[0]
    assert _listed(listing.text) == [i + 1 for i, d in enumerate(PAGES) if is_error(d)]


def _listed(text: str) -> list[int]:
    """The review pages a page of ``!review errors`` names, in order."""
    return [int(found) for found in re.findall(r"^` *(\d+)`", text, re.MULTILINE)]
