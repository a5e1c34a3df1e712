"""The console's buttons (``bob: [accept]``) on real questions: a challenge, a resignation, a
rematch, a tournament's sign-up and a review's pages, each pressed by its action alone on the
newest message showing it, and an old message's key answered as out of date."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.console import SERVER, ConsoleClock
from bot.i18n.core import ENGLISH
from bot.i18n.play import OUT_OF_DATE, OUT_OF_DATE_CHALLENGE
from bot.rules.puzzles import CHECKER
from bot.service.models import Place
from bot.service.puzzles import pool
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store, schema
from tests.service.console_lines import ConsoleTable
from tests.service.fake_analyst import FakeAnalyst, result
from tests.service.review.test_review import THRICE

START = 1_790_000_000.0


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[ConsoleTable]:
    store = await Store.open(tmp_path / "buttons.sqlite3")
    service = TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(5),
        clock=ConsoleClock(START),
        images=False,
        engine=FakeAnalyst(replace(result(), decisions=THRICE)),
    )
    yield ConsoleTable(service)
    service.close()
    await store.close()


async def test_a_match_is_answered_by_its_buttons(table: ConsoleTable) -> None:
    assert "No message in #general has a `accept` button" in await table.say("bob: [accept]")
    await table.say("alice: !challenge @bob 1")
    assert "Not your decision: waiting for bob" in await table.say("carol: [accept]")
    assert "bob accepts" in await table.say("bob: [accept]")
    found = await table.service.table(Place(SERVER, "general"))
    assert found is not None and found.match.turn is not None
    mover, other = found.plain[found.match.turn], found.plain[1 - found.match.turn]
    await table.say(f"{mover}: !resign")
    ended = await table.say(f"{other}: [accept]")  # the resignation's Accept, not the challenge's
    assert f"{other} accepts the resignation" in ended and "wins" in ended
    assert OUT_OF_DATE_CHALLENGE(ENGLISH) in await table.say(
        "bob: [accept c1]"
    )  # the old challenge
    assert "challenges" in await table.say(f"{mover}: [rematch]")
    assert "accepts" in await table.say(f"{other}: [accept]")  # the rematch's challenge
    assert OUT_OF_DATE(ENGLISH) in await table.say(f"{other}: [rematch r1]")  # answered already


async def test_a_signup_is_joined_by_its_button(table: ConsoleTable) -> None:
    assert "opens a tournament" in await table.say("org: !tournament create Spring knockout 1")
    assert "p1 joins" in await table.say("p1: [join]")
    said = await table.say("p2: [join]")
    assert "p2 joins" in said and "Entrants (2): p1, p2" in said
    assert "p1 leaves" in await table.say("p1: [leave t1]")


async def test_a_review_is_paged_by_its_buttons(table: ConsoleTable) -> None:
    await table.resigned_match()  # its analysis comes with a Review button
    opened = await table.say("carol: [reviewopen]")
    assert "Match #1" in opened and "decision 1/" in opened
    assert "decision 2/" in await table.say("carol: [reviewnext]")
    listing = await table.say("alice: !review errors")
    assert "page 1/" in listing
    assert "page 2/" in await table.say("alice: [reviewnext]")  # the newest Next: the list's
    assert "`v1.x` is not a question's key" in await table.say("alice: [reviewnext v1.x]")


@pytest.mark.parametrize(
    "line",
    [
        "bob: [accept " + "9" * 5000 + "]",
        "bob: [accept `c1`]",
        "bob: [" + "a" * 5000 + "]",
        "bob: [accept c99999999999999999999999999999999999999]",
        "bob: [accept m1.1.1]",
    ],
)
async def test_a_hostile_press_is_ignored_or_gets_one_short_reply(
    table: ConsoleTable, line: str
) -> None:
    await table.say("alice: !challenge @bob 1")
    said = await table.say(line)  # not a press (nor a command): ignored, as chat is
    assert said.count("bot:") <= 1 and len(said) < 300, said
    assert await table.service.table(Place(SERVER, "general")) is None  # nothing accepted


async def test_a_cube_puzzle_is_answered_by_its_buttons(table: ConsoleTable) -> None:
    """The first cube puzzle alice is given, answered by its button (a checker one typed)."""
    store = table.service.store
    a = schema.puzzle_answers
    for _ in range(30):
        await table.say("alice: !puzzle")
        [row] = await store.fetch_all(select(a).order_by(a.c.id.desc()).limit(1))
        puzzle = await pool.find(store.puzzles, row.server_id, row.puzzle)
        assert puzzle is not None
        if puzzle.kind == CHECKER:
            await table.say(f"alice: !puzzle {puzzle.best.answer}")
            continue
        word = {"Double": "double", "No double": "nodouble", "Take": "take", "Pass": "pass"}
        button = f"puzzle{word[puzzle.best.answer]}"
        assert "not the one waiting" in await table.say(f"bob: [{button}]")
        answered = await table.say(f"alice: [{button}]")
        assert "✅" in answered and puzzle.xgid in answered, answered
        assert "not the one waiting" in await table.say(f"alice: [{button} p{row.id}]")
        return
    raise AssertionError("no cube puzzle in 30")
