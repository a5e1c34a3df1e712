"""``!puzzle storm`` through the TableService with an injected clock, on SQLite and PostgreSQL:
puzzles rising in rating, a wrong answer's cost in time, the end by the clock (the deadline poll,
the console's ``~``) and the leaderboard, a restart that keeps the run, one run at a time,
ratings untouched, no engine asked; and every missed puzzle (a storm's, a rated one's) fed to the
player's drills."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import ConsoleClock, console_user
from bot.rules.puzzles import CHECKER, DOUBLE, TAKE, Puzzle
from bot.service.keys import PuzzleKey, StormKey
from bot.service.models import Decision, Reply, User
from bot.service.puzzles import pool
from bot.service.puzzles.storm import DURATION, FIRST, PENALTY, STEP, clock_left
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from bot.store.storms import StormRow
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.console_lines import ConsoleTable
from tests.service.driver import FakeClock
from tests.service.fake_engine import FakeEngine
from tests.service.puzzles.test_puzzles import answer_of, awaited, say


async def running(store: Store, user: User = ALICE) -> tuple[StormRow, Puzzle]:
    storm = await store.storms.running(user.id)
    assert storm is not None and storm.puzzle is not None
    puzzle = await pool.find(store.puzzles, storm.server_id, storm.puzzle)
    assert puzzle is not None
    return storm, puzzle


async def answer(service: TableService, store: Store, right: bool) -> tuple[Reply, Puzzle]:
    _, puzzle = await running(store)
    return await say(service, f"!puzzle {answer_of(puzzle, right)}"), puzzle


async def test_a_storm_rises_in_rating_and_counts_right_answers(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    started = await say(service, "!puzzle storm")
    assert "Puzzle storm for alice" in started.text and "3:00 left" in started.text
    solved = []
    for step in range(12):
        clock.advance(5)
        reply, puzzle = await answer(service, store, True)
        assert f"✅ **{puzzle.best.answer}** is gnubg's best." in reply.text
        assert f"score {step + 1}" in reply.text and "puzzle " in reply.text
        solved.append(puzzle)
    assert len({p.key for p in solved}) == len(solved)
    for step, puzzle in enumerate(solved):  # none answered before: their first ratings
        assert abs(puzzle.first_rating - (FIRST + STEP * step)) <= 150, (step, puzzle.first_rating)
    assert solved[-1].first_rating > solved[0].first_rating + 400
    storm, _ = await running(store)
    assert storm.score == 12 and storm.wrong == 0 and storm.ends_at == storm.started_at + DURATION
    assert f"{clock_left(DURATION - 60)} left" in reply.text
    # no rating of the player's nor of a puzzle moved
    assert await store.puzzles.player(PLACE.server_id, ALICE.id) is None
    assert await store.puzzles.puzzle_ratings([p.key for p in solved]) == {}


async def test_a_wrong_answer_costs_time_and_becomes_a_drill(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    await say(service, "!puzzle storm")
    before, _ = await running(store)
    reply, missed = await answer(service, store, False)
    graded = missed.grade(answer_of(missed, False))
    assert f"loses {graded.loss:.3f}; gnubg's best: **{missed.best.answer}**" in reply.text
    assert f"-{PENALTY:.0f} s" in reply.text and "score 0" in reply.text
    after, _ = await running(store)
    assert after.ends_at == before.ends_at - PENALTY and after.wrong == 1
    assert f"{clock_left(DURATION - PENALTY)} left" in reply.text
    drill = await say(service, "!drill")  # the storm's miss, brought back by the drills
    assert "a puzzle you missed" in drill.text, drill.text
    shown = await store.drills.awaiting(PLACE.server_id, ALICE.id)
    assert shown is not None and shown.puzzle == missed.key and shown.match_id == 0
    graded_again = await say(service, f"!drill {answer_of(missed, True)}")
    assert "✅ Right." in graded_again.text and "comes back" in graded_again.text
    storm, _ = await running(store)
    assert storm.wrong == 1  # the drill's answer was not the storm's


async def test_the_clock_ends_the_storm_and_the_leaderboard_keeps_the_best(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    none_yet = await say(service, "!puzzle storm top")
    assert none_yet.private and "No puzzle storm has ended here yet" in none_yet.text
    await say(service, "!puzzle storm")
    for _ in range(3):
        await answer(service, store, True)
    await answer(service, store, False)
    clock.advance(DURATION - PENALTY - 1)
    assert await service.due() == []  # a second left
    clock.advance(1)
    told = await service.due()
    assert [place for place, _ in told] == [PLACE]
    over = told[0][1].text
    assert "The puzzle storm of alice is over**: 3 solved, 1 wrong answer." in over, over
    assert "Your best here so far!" in over
    assert await service.due() == []  # told once
    assert await store.storms.running(ALICE.id) is None
    late = await say(service, "!puzzle 13/7 8/7")  # no storm: the rated puzzle's refusal
    assert late.private and "No puzzle is waiting" in late.text
    await say(service, "!puzzle storm", BOB)
    await answer_as(service, store, BOB, True)
    clock.advance(DURATION)
    after_time = await say(service, "!puzzle double", BOB)  # before the poll: not counted
    assert "Time was up before that answer." in after_time.text
    assert "1 solved, 0 wrong answers" in after_time.text
    top = await say(service, "!puzzle storm top")
    assert top.text.splitlines()[1:] == ["1. alice 3 (1 storm)", "2. bob 1 (1 storm)"]


async def answer_as(service: TableService, store: Store, user: User, right: bool) -> None:
    _, puzzle = await running(store, user)
    await say(service, f"!puzzle {answer_of(puzzle, right)}", user)


async def test_a_restart_keeps_the_run_and_one_runs_at_a_time(
    db_path: Path | str, store: Store, clock: FakeClock
) -> None:
    first = TableService(store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False)
    await say(first, "!puzzle")  # a rated puzzle waits meanwhile
    rated, _ = await awaited(store)
    await say(first, "!puzzle storm")
    await answer(first, store, True)
    first.close()
    second = TableService(
        store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False
    )
    try:
        clock.advance(30)
        again = await say(second, "!puzzle storm")  # the same run, its puzzle again
        assert "Storm of alice**: 2:30 left · score 1 · puzzle 2" in again.text, again.text
        shown = await say(second, "!puzzle")
        assert "Storm of alice" in shown.text
        reply, _ = await answer(second, store, True)
        assert "score 2" in reply.text
        storm, _ = await running(store)
        assert storm.score == 2 and len(storm.shown) == 3
        clock.advance(DURATION)
        over = await say(second, "!puzzle storm")
        assert "is over**: 2 solved" in over.text and "`!puzzle storm` for another" in over.text
        assert (await awaited(store))[0] == rated  # the rated puzzle still waits
    finally:
        second.close()


async def test_bad_answers_get_one_private_reply_and_change_nothing(
    service: TableService, store: Store
) -> None:
    assert "starts a storm" in (await say(service, "!puzzle storm now")).text
    await say(service, "!puzzle storm")
    before, puzzle = await running(store)
    wrong = "24/23/22/21/20" if puzzle.kind == CHECKER else "maybe"
    refused = await say(service, f"!puzzle {wrong}")
    assert refused.private and "Your storm's puzzle is still waiting" in refused.text
    assert len(refused.text) < 300
    assert (await running(store))[0] == before
    choices = await service.puzzles.puzzle_choices(PLACE, ALICE, "")
    assert choices and "storm" not in choices  # the storm puzzle's answers


async def test_a_missed_rated_puzzle_is_a_drill_and_still_a_miss(
    service: TableService, store: Store
) -> None:
    await say(service, "!puzzle")
    _, missed = await awaited(store)
    verdict = await say(service, f"!puzzle {answer_of(missed, False)}")
    assert "it is one of your drills now" in verdict.text
    drill = await say(service, "!drill")
    assert "a puzzle you missed" in drill.text
    wrong = await say(service, f"!drill {answer_of(missed, False)}")
    assert "❌ Not this time." in wrong.text
    assert f"gnubg's best: **{missed.best.answer}**" in wrong.text
    replay = await say(service, "!puzzle misses")  # the misses still replay it
    assert "Replay of a puzzle you missed" in replay.text
    assert (await awaited(store))[1].key == missed.key
    await say(service, f"!puzzle {answer_of(missed, False)}")  # missed again: due again now
    drills = await store.drills.counts(PLACE.server_id, ALICE.id, 1e12, 21)
    assert drills.total == 1


async def test_the_consoles_clock_moves_the_storms_timer_and_no_engine_is_asked(
    store: Store,
) -> None:
    clock = ConsoleClock(1_790_000_000.0)
    engine = FakeEngine()
    service = TableService(
        store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False, engine=engine
    )
    table = ConsoleTable(service, clock)
    try:
        started = await table.say("alice: !puzzle storm")
        assert "3:00 left" in started
        await table.say("~ 100s")
        assert "1:20 left" in await table.say("alice: !puzzle")
        _, puzzle = await running(store, console_user("alice"))
        assert "score 1" in await table.say(f"alice: !puzzle {answer_of(puzzle, True)}")
        over = await table.say("~ 80s")
        assert "The puzzle storm of alice is over**: 1 solved, 0 wrong answers." in over, over
        assert engine.calls == []  # graded from the stored rankings
    finally:
        service.close()


@pytest.mark.parametrize("kind", [DOUBLE, TAKE])
async def test_a_storms_cube_puzzle_is_answered_by_its_buttons(
    service: TableService, store: Store, clock: FakeClock, kind: str
) -> None:
    puzzle = next(p for p in pool._starter().puzzles if p.kind == kind)
    async with store.transaction() as tx:
        storm = await tx.storms.start(
            PLACE.server_id, PLACE.channel_id, ALICE.id, "alice", clock(), clock() + 180, puzzle.key
        )
    assert storm is not None
    question = await say(service, "!puzzle")
    want = Decision.STORM_DOUBLE if kind == DOUBLE else Decision.STORM_TAKE
    key = StormKey(storm.id, 1)
    assert question.decision is want and question.decision_key == key
    word = {"Double": "double", "No double": "nodouble", "Take": "take", "Pass": "pass"}
    action = f"puzzle{word[puzzle.best.answer]}"
    for who, stale in ((BOB, key), (ALICE, StormKey(storm.id, 2)), (ALICE, PuzzleKey(1))):
        refused = await service.press(PLACE, who, action, stale)
        assert refused.replies[0].private, (who, stale)
    assert (await running(store))[0] == storm
    pressed = await service.press(PLACE, ALICE, action, key)
    assert pressed.closed and "✅" in pressed.replies[0].text, pressed.replies[0].text
    assert (await running(store))[0].score == 1
    again = await service.press(PLACE, ALICE, action, key)
    assert again.replies[0].private and "not the one your storm" in again.replies[0].text
