"""GNU Backgammon's time shared fairly: what one user may have it working on at once."""

from __future__ import annotations

import asyncio

from bot.service.gnubg.budget import EngineBudget, EngineRequests, busy_note
from bot.service.models import ENGINE_USER, Place, Refusal, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, play_out, public, start_match
from tests.service.fake_analyst import FakeAnalyst
from tests.service.fake_engine import FakeEngine

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def make(store: Store, clock: FakeClock, engine: FakeEngine | FakeAnalyst) -> TableService:
    settings = Settings(analysis_auto=False, analysis_plies=1, match_threads=False)
    return TableService(
        store, settings=settings, dice=seeded_dice(42), clock=clock, images=False, engine=engine
    )


async def test_three_games_against_the_bot_at_once_per_user(store: Store, clock: FakeClock) -> None:
    service = make(store, clock, FakeEngine())
    places = [Place(PLACE.server_id, f"bot-{n}") for n in range(4)]
    for place in places[:3]:
        public(await service.matches.challenge(place, ALICE, ENGINE_USER, "3"))
    [refusal] = await service.matches.challenge(places[3], ALICE, ENGINE_USER, "3")
    assert refusal.private and refusal.text == (
        "You already play 3 games against the bot (#bot-0, #bot-1, #bot-2): finish or resign "
        "one before you start another."
    )
    assert await service.table(places[3]) is None
    public(await service.matches.challenge(places[3], BOB, ENGINE_USER, "3"))  # per user
    public(await service.matches.abort(places[0], ALICE))  # the bot agrees at once
    public(
        await service.matches.challenge(Place(PLACE.server_id, "bot-4"), ALICE, ENGINE_USER, "3")
    )


async def test_two_requests_at_once_per_user_and_a_note_when_the_queue_is_long(
    store: Store, clock: FakeClock
) -> None:
    engine = FakeEngine()
    service = make(store, clock, engine)
    release = engine.pause_next()
    first = asyncio.create_task(service.gnubg.evaluate(PLACE, ALICE, START))
    await engine.paused.wait()
    second = asyncio.create_task(service.gnubg.evaluate(PLACE, ALICE, START))
    await asyncio.sleep(0)  # it is taken, and waits on the paused engine's turn
    [refusal] = await service.gnubg.evaluate(PLACE, ALICE, START)
    assert refusal.private and refusal.text == (
        "You already have 2 requests to GNU Backgammon in progress: wait for their answers, "
        "then ask again."
    )
    [hint] = await service.gnubg.hint(PLACE, ALICE)  # hints count too
    assert hint.text == refusal.text
    other = asyncio.create_task(service.gnubg.evaluate(PLACE, BOB, START))  # another user: not held
    await asyncio.sleep(0)
    release.set()
    replies = [await task for task in (first, second, other)]
    assert all(not reply.private for [reply] in replies)
    [[_], [_], [bob]] = replies
    assert bob.text.endswith("(GNU Backgammon was busy: 2 requests were ahead of yours.)")
    [again] = await service.gnubg.evaluate(PLACE, ALICE, START)  # done: the budget is free again
    assert not again.private and "busy" not in again.text
    assert service.engine_requests.in_progress == 0


def test_the_budget_is_given_back_after_a_failure() -> None:
    requests = EngineRequests(EngineBudget(requests=1), workers=2)
    for _ in range(3):
        try:
            with requests.taken(ALICE):
                raise RuntimeError("the worker died")
        except RuntimeError:
            pass
    with requests.taken(ALICE) as note:
        assert note == ""
        try:
            with requests.taken(ALICE):
                raise AssertionError("a second request at once")
        except Refusal:
            pass
    assert requests.in_progress == 0
    assert busy_note(1, 2) == "" and "3 requests" in busy_note(3, 2)


async def test_three_analyses_waiting_per_user(store: Store, clock: FakeClock) -> None:
    analyst = FakeAnalyst()
    service = make(store, clock, analyst)
    analyst.hold = asyncio.Event()
    places = [Place(PLACE.server_id, f"t{n}") for n in range(5)]
    for seed, place in enumerate(places, start=1):
        await start_match(service, place, ALICE, BOB, 1)
        await play_out(service, place, (ALICE, BOB), seed)
    for place in places[:3]:
        [queued] = public(await service.gnubg.analysis(place, CAROL))
        assert queued.job is not None
    [refusal] = await service.gnubg.analysis(places[3], CAROL)
    assert refusal.private and refusal.text == (
        "You already have 3 analyses waiting or running: ask for more once one of them is done."
    )
    [joined] = public(await service.gnubg.analysis(places[0], CAROL))  # one already asked: shown
    assert joined.job is not None
    [bobs] = public(await service.gnubg.analysis(places[3], User(BOB.id, BOB.name)))
    assert bobs.job is not None
    analyst.hold.set()
    await service.analyses.stop()
