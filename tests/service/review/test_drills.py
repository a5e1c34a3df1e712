"""``!drill`` through the console's adapter, on SQLite and PostgreSQL: drills made from a finished
match analysed by the stand-in analyst (the decisions of a game gnubg really analysed, as
tests/service/review/test_review.py has them), graded by the stand-in engine (it ranks plays in
legal-play order: the first legal play is best, each next one 0.1 worse)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import delete, select, update

from bot.console import SERVER, Console, ConsoleClock
from bot.gnubg.api import PlayRating, Query
from bot.rules.position import Position
from bot.service.keys import MatchKey
from bot.service.models import ENGINE_ID, Decision, Place, User
from bot.service.review.drills import drill_rows
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store, schema
from bot.store.drills import DrillRow
from tests.service.console_lines import ConsoleTable
from tests.service.fake_analyst import FakeAnalyst, result
from tests.service.fake_engine import FakeEngine
from tests.service.review.test_review import DECISIONS

HOME = "general"
# The fixture's decisions gnubg marked bad or very bad, by seat (alice is player 0)
ALICE_ERRORS = [
    i for i, d in enumerate(DECISIONS) if d.skill in ("bad", "very bad") and not d.player
]
BOB_ERRORS = [i for i, d in enumerate(DECISIONS) if d.skill in ("bad", "very bad") and d.player]
START = 1_790_000_000.0
DAY = 86_400.0


class Grader(FakeAnalyst):
    """The stand-in analyst that also rates plays as the stand-in engine does."""

    def __init__(self) -> None:
        super().__init__(replace(result(), decisions=DECISIONS))
        self.engine = FakeEngine()
        self.rated: list[tuple[str, str, int]] = []
        self.queries: list[Query] = []

    async def rate_play(self, query: Query, play: str, *, plies: int = 2) -> PlayRating:
        self.rated.append((query.gnubg_id, play, plies))
        self.queries.append(query)
        return await self.engine.rate_play(query, play, plies=plies)


class Drilled(ConsoleTable):
    def __init__(self, service: TableService, store: Store, clock: ConsoleClock) -> None:
        super().__init__(service)
        self.store, self.clock = store, clock

    async def rows(self, user: str) -> list[DrillRow]:
        d = schema.drills
        found = await self.store.fetch_all(
            select(d).where(d.c.user_id == user).order_by(d.c.match_id, d.c.decision)
        )
        return [DrillRow(**row._mapping) for row in found]


def new_service(store: Store, clock: ConsoleClock, engine: Grader) -> TableService:
    return TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(5),
        clock=clock,
        images=True,
        engine=engine,
    )


async def played(db_path: Path | str, terms: str) -> Drilled:
    """A match of ``terms`` between alice and bob, resigned at once and analysed."""
    store = await Store.open(db_path)
    clock = ConsoleClock(START)
    service = new_service(store, clock, Grader())
    table = Drilled(service, store, clock)
    await table.say(f"alice: !challenge @bob {terms}")
    await table.say("bob: !accept")
    found = await service.table(Place(SERVER, HOME))
    assert found is not None and found.match.turn is not None
    on_roll, turn = found.plain, found.match.turn
    await table.say(f"{on_roll[turn]}: !resign")
    await table.say(f"{on_roll[1 - turn]}: !accept")
    return table


@pytest.fixture
async def drilled(db_path: Path | str) -> AsyncIterator[Drilled]:
    table = await played(db_path, "1")
    try:
        yield table
    finally:
        table.service.close()
        await table.store.close()


@pytest.fixture
async def money(db_path: Path | str) -> AsyncIterator[Drilled]:
    table = await played(db_path, "money jacoby beavers")
    try:
        yield table
    finally:
        table.service.close()
        await table.store.close()


def first_play(row: DrillRow) -> str:
    assert row.dice is not None
    position = Position.from_position_id(row.gnubg_id.partition(":")[0])
    return position.legal_plays(*divmod(row.dice, 10))[0].notation


def test_the_engines_seat_gets_no_drills() -> None:
    rows = drill_rows("s", 7, ("alice", ENGINE_ID), DECISIONS, 2, 0.0)
    assert [row["decision"] for row in rows] == ALICE_ERRORS
    assert {row["user_id"] for row in rows} == {"alice"}
    assert drill_rows("s", 7, (ENGINE_ID, ENGINE_ID), DECISIONS, 2, 0.0) == []


async def test_an_analysis_makes_drills_of_both_players_errors_once(drilled: Drilled) -> None:
    alice, bob = await drilled.rows("alice"), await drilled.rows("bob")
    assert ALICE_ERRORS and BOB_ERRORS
    assert [row.decision for row in alice] == ALICE_ERRORS
    assert [row.decision for row in bob] == BOB_ERRORS
    assert {row.kind for row in alice + bob} == {"checker", "cube", "take"}
    assert all(row.due_at == START and row.shown_at is None for row in alice + bob)
    cube = next(row for row in bob if row.kind == "take")
    assert cube.proper == "No redouble, take" and cube.played == "Pass" and cube.dice is None
    # Answered once, then the analysis is stored again: nothing is made twice, nothing reset.
    await drilled.say("alice: !drill")
    await drilled.say(f"alice: !drill {first_play(alice[0])}")
    before = await drilled.rows("alice")
    assert before[0].reps == 1
    rows = drill_rows(SERVER, 1, ("alice", "bob"), DECISIONS, 2, START + 50)
    async with drilled.store.transaction() as tx:
        await tx.analyses.finish(1, SERVER, "{}", [], START + 50, rows)
    assert await drilled.rows("alice") == before
    assert len(await drilled.rows("bob")) == len(BOB_ERRORS)


async def test_a_checker_drill_is_shown_answered_and_rescheduled(drilled: Drilled) -> None:
    first = (await drilled.rows("alice"))[0]
    assert first.kind == "checker" and first.best is not None
    shown = await drilled.say("alice: !drill")
    assert "Drill for alice" in shown and "your play?" in shown and "2-2" in shown
    assert first.best not in shown and "(only you)" not in shown
    # How a play is typed, never a play (one the roll can't make, or a hint).
    form = "`!drill <from>/<to> …` (`/drill` lists the plays)"
    assert f"Answer with {form}." in shown and "e.g." not in shown, shown
    # A bad answer: one private reply, nothing changes.
    for bad in ("alice: !drill 24/10", "alice: !drill soon", "alice: !drill take"):
        said = await drilled.say(bad)
        assert said.count("(only you)") == 1 and said.count("\n") <= 2, said
        assert "still waiting" in said
        if "24/10" in bad:
            assert f"2-2 to play: {form}." in said and "e.g." not in said, said
    (again,) = await drilled.service.review_commands.drill(
        Place(SERVER, HOME), User("alice", "alice")
    )
    assert again.image is not None and again.image.startswith(b"\x89PNG") and not again.private
    waiting = (await drilled.rows("alice"))[0]
    assert waiting.shown_at == START and waiting.reps == 0
    engine = drilled.service.engine
    assert isinstance(engine, Grader) and engine.rated == []
    said = await drilled.say(f"alice: !drill {first_play(first)}")
    assert "Right" in said and "is gnubg's best play" in said
    assert "tomorrow" in said
    assert engine.rated == [(first.gnubg_id, first_play(first), 2)]
    assert engine.queries == [Query(first.gnubg_id, match_key=first.match_id)]  # no money rules
    done = (await drilled.rows("alice"))[0]
    assert (done.reps, done.streak, done.interval_days, done.last_right) == (1, 1, 1.0, 1)
    assert done.due_at == START + DAY and done.shown_at is None
    # The next due drill is alice's cube decision; a wrong action is a miss.
    shown = await drilled.say("alice: !drill")
    assert "double?" in shown
    assert "(only you)" in await drilled.say("alice: !drill 13/7")
    said = await drilled.say("alice: !drill double")
    assert "Not this time" in said and "No redouble" in said
    missed = (await drilled.rows("alice"))[1]
    assert (missed.lapses, missed.last_right, missed.ease) == (1, 0, 2.3)
    said = await drilled.say("alice: !drill stats")
    assert (
        "0 due now, 0 learned (coming back in 21 days or more), 1 missed last time, "
        f"{len(ALICE_ERRORS)} in all" in said
    )
    assert "No drill is due" in await drilled.say("alice: !drill")
    assert "No drill is waiting" in await drilled.say("alice: !drill 13/7 8/7")
    drilled.clock.advance(DAY)
    assert "Drill for alice" in await drilled.say("alice: !drill")


async def test_a_take_drill_and_a_wrong_play(drilled: Drilled) -> None:
    bob = await drilled.rows("bob")
    opening = bob[0]
    assert await drilled.say("bob: !drill")
    other = Position.from_position_id(opening.gnubg_id.partition(":")[0]).legal_plays(6, 5)[1]
    said = await drilled.say(f"bob: !drill {other.notation}")
    assert "Not this time" in said and "loses 0.100 (error ?)" in said
    for row in bob[1:]:
        await drilled.say("bob: !drill")
        answer = (
            "take"
            if row.kind == "take"
            else "no double"
            if row.kind == "cube"
            else (first_play(row))
        )
        said = await drilled.say(f"bob: !drill {answer}")
        assert "Right" in said, said


async def test_a_restart_keeps_the_drill_awaiting_an_answer(drilled: Drilled) -> None:
    first = (await drilled.rows("alice"))[0]
    shown = await drilled.say("alice: !drill")
    drilled.service.close()
    await drilled.store.close()
    store = await Store.open(drilled.store.address)
    drilled.store = store
    drilled.service = new_service(store, drilled.clock, Grader())
    drilled.console = Console(drilled.service, drilled.out, images=None, as_json=False, clock=None)
    assert await drilled.say("alice: !drill") == shown
    said = await drilled.say(f"alice: !drill {first_play(first)}")
    assert "Right" in said


async def test_matches_analysed_before_drills_are_drilled_at_the_first_drill(
    drilled: Drilled,
) -> None:
    async with drilled.store.transaction() as tx:
        await tx.execute(delete(schema.drills))
    drilled.service = new_service(drilled.store, drilled.clock, Grader())
    drilled.console = Console(drilled.service, drilled.out, images=None, as_json=False, clock=None)
    said = await drilled.say("alice: !drill stats")
    assert f"{len(ALICE_ERRORS)} due now" in said
    assert [row.decision for row in await drilled.rows("alice")] == ALICE_ERRORS
    assert await drilled.rows("bob") == []  # only the one who asked


async def test_a_cube_drill_is_answered_by_its_buttons(drilled: Drilled) -> None:
    place, alice, bob = Place(SERVER, HOME), User("alice", "alice"), User("bob", "bob")
    first = (await drilled.rows("alice"))[0]
    await drilled.say("alice: !drill")
    await drilled.say(f"alice: !drill {first_play(first)}")  # the checker drill, answered
    (question,) = await drilled.service.review_commands.drill(place, alice)  # then the cube drill
    assert question.decision is Decision.DRILL_DOUBLE and question.decision_key is not None
    key = question.decision_key
    # bob's press (not his drill) and a take button's question change nothing
    refused = await drilled.service.press(place, bob, "drilldouble", key)
    assert refused.replies[0].private and "not the one waiting" in refused.replies[0].text
    stale = await drilled.service.press(place, alice, "drilldouble", MatchKey(1, 3))
    assert stale.closed and stale.replies[0].stale
    pressed = await drilled.service.press(place, alice, "drillnodouble", key)
    assert pressed.closed and not pressed.replies[0].private
    assert "Right" in pressed.replies[0].text, pressed.replies[0].text
    answered = (await drilled.rows("alice"))[1]
    assert (answered.reps, answered.last_right, answered.shown_at) == (1, 1, None)


async def test_a_money_game_drill_is_graded_under_its_rules(money: Drilled) -> None:
    # The money game's rules are in its options, not in the Match ID: they go to gnubg.
    first = (await money.rows("alice"))[0]
    assert first.kind == "checker"
    await money.say("alice: !drill")
    assert "Right" in await money.say(f"alice: !drill {first_play(first)}")
    engine = money.service.engine
    assert isinstance(engine, Grader)
    (query,) = engine.queries
    assert query == Query(first.gnubg_id, jacoby=True, beavers=True, match_key=first.match_id)


async def test_a_beaver_is_a_take_where_beavers_are_off(drilled: Drilled) -> None:
    # gnubg says "beaver" whatever the rules; the analysis of a match without beavers stored
    # the taker's action as a take (bot.gnubg.analysis_text.proper_action).
    d = schema.drills
    take = next(row for row in await drilled.rows("bob") if row.kind == "take")
    async with drilled.store.transaction() as tx:
        await tx.execute(
            update(d)
            .where((d.c.user_id == "bob") & (d.c.decision == take.decision))
            .values(proper="Double, beaver", best="Take", due_at=START - DAY)
        )
    assert "You are doubled" in await drilled.say("bob: !drill")
    said = await drilled.say("bob: !drill take")
    assert "Right" in said and "**Take** (Double, beaver: beavers are off)" in said, said
    async with drilled.store.transaction() as tx:  # due again, first
        await tx.execute(update(d).where(d.c.user_id == "bob").values(due_at=START + DAY))
        await tx.execute(
            update(d)
            .where((d.c.user_id == "bob") & (d.c.decision == take.decision))
            .values(due_at=START - DAY)
        )
    assert "You are doubled" in await drilled.say("bob: !drill")
    said = await drilled.say("bob: !drill pass")
    assert "Not this time" in said and "**Take**" in said, said


async def test_an_italian_drill_asks_and_grades_in_italian(drilled: Drilled) -> None:
    first = (await drilled.rows("alice"))[0]
    place, alice = Place(SERVER, HOME), User("alice", "alice", "it")
    drills = drilled.service.review_commands
    [shown] = await drills.drill(place, alice, None)
    assert shown.text.startswith("**Esercizio per alice** (match #")
    assert "un tuo errore" in shown.text and "Hai tirato **2-2**" in shown.text
    [refused] = await drills.drill(place, alice, "24/10")
    assert refused.private and "Il tuo esercizio aspetta ancora: 2-2 da giocare" in refused.text
    [said] = await drills.drill(place, alice, first_play(first))
    assert said.text.startswith("✅ Giusto. **") and "è la mossa migliore per gnubg" in said.text
    assert "Nel match (decisione " in said.text and said.text.endswith("torna domani.")
