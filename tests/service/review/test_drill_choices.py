"""``/drill``'s autocomplete (:meth:`TableService.drill_choices`): the answers of the drill
awaiting the user's answer, filtered as ``/move``'s plays are, never ranked, and nothing written.
The drills are made as in tests/service/review/test_drills.py (a finished match analysed by the
stand-in analyst), on a new SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import delete

from bot.console import SERVER, ConsoleClock
from bot.rules.position import Position
from bot.service.commands.choices import CHOICES_SHOWN, play_choices
from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Kind, read_arguments
from bot.service.models import Place, User
from bot.store import Store, schema
from bot.store.drills import DrillRow
from tests.service.review.test_drills import HOME, START, Drilled, Grader, first_play, new_service

PLACE = Place(SERVER, HOME)
ALICE, BOB, CAROL = User("alice", "alice"), User("bob", "bob"), User("carol", "carol")


@pytest.fixture
async def drilled(tmp_path: Path) -> AsyncIterator[Drilled]:
    """alice and bob's 1-point match, resigned and analysed: both have drills, none shown."""
    store = await Store.open(tmp_path / "table.sqlite3")
    clock = ConsoleClock(START)
    service = new_service(store, clock, Grader())
    table = Drilled(service, store, clock)
    await table.resigned_match(PLACE.channel_id)
    try:
        yield table
    finally:
        table.service.close()
        await table.store.close()


async def offered(drilled: Drilled, user: User, typed: str = "", place: Place = PLACE) -> list[str]:
    return await drilled.service.review_commands.drill_choices(place, user, typed)


def legal_plays(row: DrillRow) -> list[str]:
    """The rules' own legal plays of a checker drill, in their order."""
    assert row.dice is not None
    position = Position.from_position_id(row.gnubg_id.partition(":")[0])
    return [play.notation for play in position.legal_plays(*divmod(row.dice, 10))]


async def test_a_checker_drill_offers_its_legal_plays_unranked(drilled: Drilled) -> None:
    first = (await drilled.rows("alice"))[0]
    assert first.kind == "checker" and first.best is not None
    await drilled.say("alice: !drill")
    legal = legal_plays(first)
    assert len(legal) > CHOICES_SHOWN  # 2-2: the cap is met
    choices = await offered(drilled, ALICE)
    assert choices == legal[:CHOICES_SHOWN]  # the rules' order, as /move offers them
    # Filtered by what was typed, as /move filters: every play offered fits it.
    start = legal[-1].split("/")[0]
    narrowed = await offered(drilled, ALICE, f"{start}/")
    assert narrowed == play_choices(legal, f"{start}/")
    assert narrowed and all(f"{start}/" in play for play in narrowed)
    assert len(narrowed) <= CHOICES_SHOWN
    whole = await offered(drilled, ALICE, legal[-1])
    assert whole[0] == legal[-1] and set(whole) <= set(legal)
    # A typo still offers plays (as /move does), never words
    assert set(await offered(drilled, ALICE, "zz")) <= set(legal)


async def test_a_cube_drill_offers_double_and_no_double(drilled: Drilled) -> None:
    first = (await drilled.rows("alice"))[0]
    await drilled.say("alice: !drill")
    await drilled.say(f"alice: !drill {first_play(first)}")
    assert "double?" in await drilled.say("alice: !drill")  # the next one: a cube decision
    assert await offered(drilled, ALICE) == ["double", "no double"]
    assert await offered(drilled, ALICE, "d") == ["double"]
    assert await offered(drilled, ALICE, "No ") == ["no double"]
    assert await offered(drilled, ALICE, "nod") == ["no double"]
    assert await offered(drilled, ALICE, "take") == ["double", "no double"]  # not this one's


async def test_a_take_drill_offers_take_and_pass(drilled: Drilled) -> None:
    take = next(row for row in await drilled.rows("bob") if row.kind == "take")
    async with drilled.store.transaction() as tx:
        await tx.drills.mark_shown(take, START)
    assert await offered(drilled, BOB) == ["take", "pass"]
    assert await offered(drilled, BOB, "p") == ["pass"]
    assert await offered(drilled, BOB, "TA") == ["take"]


async def test_no_drill_awaiting_offers_stats_only(drilled: Drilled) -> None:
    assert await offered(drilled, CAROL) == ["stats"]  # no drills at all
    assert await offered(drilled, ALICE) == ["stats"]  # drills due, none shown yet
    assert await offered(drilled, ALICE, "st") == ["stats"]
    assert await offered(drilled, ALICE, "13/") == ["stats"]  # nothing that reveals an answer


async def test_another_users_awaiting_drill_is_not_offered(drilled: Drilled) -> None:
    await drilled.say("alice: !drill")
    assert len(await offered(drilled, ALICE)) == CHOICES_SHOWN
    assert await offered(drilled, BOB) == ["stats"]
    assert await offered(drilled, CAROL) == ["stats"]
    assert await offered(drilled, ALICE, place=Place("elsewhere", HOME)) == ["stats"]


async def test_the_choices_change_nothing(drilled: Drilled) -> None:
    before = await drilled.rows("alice")
    await offered(drilled, ALICE)  # none awaiting: no drill is shown by asking
    assert await drilled.rows("alice") == before
    await drilled.say("alice: !drill")
    shown = await drilled.rows("alice")
    assert shown[0].shown_at == START
    drilled.clock.advance(60)
    for typed in ("", "2", "13/", "double", "stats"):
        await offered(drilled, ALICE, typed)
    after = await drilled.rows("alice")
    assert after == shown and after[0].shown_at == START  # still awaiting, as shown
    engine = drilled.service.engine
    assert isinstance(engine, Grader) and engine.rated == []  # the engine was never asked
    # Matches analysed before drills are made into drills by !drill, never by its choices.
    async with drilled.store.transaction() as tx:
        await tx.execute(delete(schema.drills))
    drilled.service = new_service(drilled.store, drilled.clock, Grader())
    assert await offered(drilled, ALICE) == ["stats"]
    assert await drilled.rows("alice") == []


async def test_the_choices_do_not_wait_for_the_channels_lock(drilled: Drilled) -> None:
    await drilled.say("alice: !drill")
    async with drilled.service.locks.held(PLACE):
        choices = await asyncio.wait_for(offered(drilled, ALICE), timeout=1)
    assert choices


def test_the_drill_answer_is_still_the_rest_of_the_line_when_typed() -> None:
    drill = COMMANDS.by_name["drill"]
    [what] = drill.arguments
    assert what.kind is Kind.DRILL_ANSWER and what.rest_of_line and what.kind.autocompleted
    assert drill.usage == "drill [stats|answer]"

    def nobody(word: str) -> None:
        return None

    assert read_arguments(drill, " 13/7  8/7 ", nobody, "!", language="en") == ("13/7  8/7",)
    assert read_arguments(drill, "no double", nobody, "!", language="en") == ("no double",)
    assert read_arguments(drill, "", nobody, "!", language="en") == (None,)
