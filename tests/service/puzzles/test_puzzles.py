"""``!puzzle`` through the TableService, on SQLite and PostgreSQL: puzzles from the starter pool,
graded from their stored ranking, rated by Glicko-2 (the player here and across servers, the
puzzle), the cube puzzles' buttons, ``rating``, ``top`` and ``misses``, and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from bot.rules.glicko import Rating
from bot.rules.puzzles import CHECKER, DOUBLE, TAKE, Puzzle
from bot.service.keys import MatchKey, PuzzleKey
from bot.service.models import Decision, Reply, User
from bot.service.puzzles import pool
from bot.service.puzzles.room import RECENT, rating_change
from bot.service.table import TableService
from bot.store import Store, schema
from bot.store.puzzles import EVERY_SERVER, AnswerRow, Rated
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock


async def say(service: TableService, text: str, user: User = ALICE) -> Reply:
    replies = await service.run(PLACE, user, text, users=lambda word: None)
    assert len(replies) == 1, replies
    return replies[0]


async def awaited(store: Store, user: User = ALICE) -> tuple[AnswerRow, Puzzle]:
    rows = await store.puzzles.answers(PLACE.server_id, user.id, 1)
    assert rows and rows[0].answered_at is None
    puzzle = await pool.find(store.puzzles, PLACE.server_id, rows[0].puzzle)
    assert puzzle is not None
    return rows[0], puzzle


def answer_of(puzzle: Puzzle, best: bool) -> str:
    """gnubg's best answer (a play spelt another way: its moves reversed), or a worse one."""
    ranking = puzzle.ranking()
    if puzzle.kind != CHECKER:
        return ranking[0 if best else 1].answer
    play = ranking[0 if best else -1].answer
    return " ".join(reversed(play.split()))


async def test_a_right_answer_is_graded_from_the_ranking_and_rated(
    service: TableService, store: Store
) -> None:
    question = await say(service, "!puzzle")
    assert "Puzzle for alice" in question.text and "1500?" in question.text
    row, puzzle = await awaited(store)
    verdict = await say(service, f"!puzzle {answer_of(puzzle, True)}")
    assert not verdict.private
    assert f"✅ **{puzzle.best.answer}** is gnubg's best." in verdict.text, verdict.text
    for ranked in puzzle.ranking()[:3]:
        assert f"{ranked.answer} {ranked.equity:+.3f}" in verdict.text
    assert puzzle.xgid in verdict.text
    here = await store.puzzles.player(PLACE.server_id, ALICE.id)
    everywhere = await store.puzzles.player(EVERY_SERVER, ALICE.id)
    assert here is not None and everywhere is not None and here.answers == 1
    assert here.rating.rating > 1500 and here.rating.provisional
    assert f"Your puzzle rating: {rating_change(Rating(), here.rating)}" in verdict.text
    rated = (await store.puzzles.puzzle_ratings([puzzle.key]))[puzzle.key]
    assert (
        puzzle.first_rating - 20 <= rated.rating.rating < puzzle.first_rating
    )  # capped, and lower
    done = (await store.puzzles.answers(PLACE.server_id, ALICE.id, 1))[0]
    assert done.id == row.id and done.right == 1 and done.loss == 0


async def test_a_wrong_answer_says_what_it_loses_and_lowers_the_rating(
    service: TableService, store: Store
) -> None:
    await say(service, "!puzzle")
    _, puzzle = await awaited(store)
    verdict = await say(service, f"!puzzle {answer_of(puzzle, False)}")
    graded = puzzle.grade(answer_of(puzzle, False))
    assert f"loses {graded.loss:.3f}; gnubg's best: **{puzzle.best.answer}**" in verdict.text
    here = await store.puzzles.player(PLACE.server_id, ALICE.id)
    assert here is not None and here.rating.rating < 1500
    rated = (await store.puzzles.puzzle_ratings([puzzle.key]))[puzzle.key]
    assert puzzle.first_rating < rated.rating.rating <= puzzle.first_rating + 20


async def test_bad_input_gets_one_private_reply_and_changes_nothing(
    service: TableService, store: Store
) -> None:
    nothing = await say(service, "!puzzle 13/7 8/7")
    assert nothing.private and "No puzzle is waiting for your answer" in nothing.text
    await say(service, "!puzzle")
    row, puzzle = await awaited(store)
    wrong = "24/23/22/21/20" if puzzle.kind == CHECKER else "maybe"
    refused = await say(service, f"!puzzle {wrong}")
    assert refused.private and "Your puzzle is still waiting" in refused.text
    assert len(refused.text) < 300
    assert (await awaited(store))[0] == row
    assert await store.puzzles.player(PLACE.server_id, ALICE.id) is None
    again = await say(service, "!puzzle")  # the same puzzle, still waiting
    assert "waiting for your answer" in again.text and (await awaited(store))[0] == row


async def _shown(store: Store, kind: str, user: User = ALICE) -> tuple[AnswerRow, Puzzle]:
    puzzle = next(p for p in pool._starter().puzzles if p.kind == kind)
    async with store.transaction() as tx:
        shown = await tx.puzzles.show(PLACE.server_id, user.id, puzzle.key, 1.0)
    return shown, puzzle


@pytest.mark.parametrize("kind", [DOUBLE, TAKE])
async def test_a_cube_puzzle_is_answered_by_its_buttons(
    service: TableService, store: Store, kind: str
) -> None:
    shown, puzzle = await _shown(store, kind)
    question = await say(service, "!puzzle")
    want = Decision.PUZZLE_DOUBLE if kind == DOUBLE else Decision.PUZZLE_TAKE
    assert question.decision is want and question.decision_key == PuzzleKey(shown.id)
    word = {"Double": "double", "No double": "nodouble", "Take": "take", "Pass": "pass"}
    action = f"puzzle{word[puzzle.best.answer]}"
    refused = await service.press(PLACE, BOB, action, PuzzleKey(shown.id))  # not his puzzle
    assert refused.replies[0].private and "not the one waiting" in refused.replies[0].text
    stale = await service.press(PLACE, ALICE, action, MatchKey(1, 3))
    assert stale.replies[0].private
    assert (await awaited(store))[0] == shown
    pressed = await service.press(PLACE, ALICE, action, PuzzleKey(shown.id))
    assert pressed.closed and "✅" in pressed.replies[0].text, pressed.replies[0].text
    again = await service.press(PLACE, ALICE, action, PuzzleKey(shown.id))
    assert again.replies[0].private


async def test_puzzles_seen_lately_are_not_given_again(service: TableService, store: Store) -> None:
    keys = []
    for _ in range(8):
        await say(service, "!puzzle")
        _, puzzle = await awaited(store)
        keys.append(puzzle.key)
        await say(service, f"!puzzle {answer_of(puzzle, True)}")
    assert len(set(keys)) == len(keys)
    assert RECENT >= 8


async def test_a_puzzle_is_chosen_near_the_players_rating(store: Store) -> None:
    for strength in (900.0, 1500.0, 2200.0):
        chosen = await pool.choose(store.puzzles, PLACE.server_id, "x", Rating(strength), 0, ())
        assert chosen is not None
        nearest = min(abs(p.first_rating - strength) for p in pool._starter().puzzles)
        assert abs(chosen[1].rating - strength) <= nearest + 100


async def test_rating_top_and_their_refusals(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    assert "no puzzle rating here yet" in (await say(service, "!puzzle rating")).text
    empty = await say(service, "!puzzle top")
    assert empty.private and "RD of 75 or less" in empty.text
    async with store.transaction() as tx:
        now = clock()
        await tx.puzzles.rate_player(
            PLACE.server_id, ALICE.id, "alice", Rated(Rating(1720, 60, 0.06), now, 40)
        )
        await tx.puzzles.rate_player(
            PLACE.server_id, BOB.id, "bob", Rated(Rating(1900, 120, 0.06), now, 3)
        )
    top = await say(service, "!puzzle top")
    assert "1. alice 1720 (40 answers)" in top.text and "bob" not in top.text
    mine = await say(service, "!puzzle rating", BOB)
    assert "1900? here" in mine.text


async def test_misses_replays_the_latest_miss_unrated(service: TableService, store: Store) -> None:
    assert "No missed puzzle" in (await say(service, "!puzzle misses")).text
    await say(service, "!puzzle")
    _, missed = await awaited(store)
    await say(service, f"!puzzle {answer_of(missed, False)}")
    before = await store.puzzles.player(PLACE.server_id, ALICE.id)
    replay = await say(service, "!puzzle misses")
    assert "Replay of a puzzle you missed (unrated)" in replay.text
    shown, puzzle = await awaited(store)
    assert puzzle.key == missed.key and not shown.rated
    verdict = await say(service, f"!puzzle {answer_of(puzzle, True)}")
    assert "A replay: no rating changes." in verdict.text
    assert await store.puzzles.player(PLACE.server_id, ALICE.id) == before
    assert "No missed puzzle" in (await say(service, "!puzzle misses")).text  # solved since


async def test_autocomplete_offers_the_legal_plays_never_ranked(
    service: TableService, store: Store
) -> None:
    choices = service.puzzles.puzzle_choices
    assert await choices(PLACE, ALICE, "") == [
        "rating",
        "top",
        "misses",
        "storm",
        "storm top",
        "daily",
    ]
    await _shown(store, CHECKER)
    _, puzzle = await awaited(store)
    dice = puzzle.state.dice
    assert dice is not None
    legal = [p.notation for p in puzzle.state.position.legal_plays(*dice)]
    offered = await choices(PLACE, ALICE, "")
    assert offered == legal[: len(offered)] and set(offered) <= set(legal)
    await _shown(store, TAKE)
    assert await choices(PLACE, ALICE, "") == ["take", "pass"]


async def test_the_awaited_puzzle_survives_a_restart(
    db_path: Path | str, store: Store, clock: FakeClock
) -> None:
    from bot.service.table import seeded_dice
    from bot.settings import Settings

    first = TableService(store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False)
    await say(first, "!puzzle")
    row, puzzle = await awaited(store)
    first.close()
    second = TableService(
        store, settings=Settings(), dice=seeded_dice(1), clock=clock, images=False
    )
    try:
        verdict = await say(second, f"!puzzle {answer_of(puzzle, True)}")
        assert "✅" in verdict.text
    finally:
        second.close()
    a = schema.puzzle_answers
    found = await store.fetch_all(select(a.c.id).where(a.c.id == row.id, a.c.right == 1))
    assert len(found) == 1


def test_a_rating_change_reads_as_the_issue_writes_it() -> None:
    assert rating_change(Rating(), Rating(1532, 300)) == "1500? -> 1532? (+32)"
    assert rating_change(Rating(1700, 80), Rating(1690, 70)) == "1700 -> 1690 (-10)"
