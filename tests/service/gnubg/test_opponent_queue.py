"""Back-pressure: with many bot turns under way, a person's move is answered at once (their move
shown, the bot's turn queued with how many are ahead), and the bot's turn follows as the job's
last messages; nothing is lost when the bot restarts meanwhile. The bot's requests go to the
engine before hints. Through the service with the stand-in engine (tests/service/fake_engine.py),
held by the test so that turns pile up."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.gnubg.api import ADVICE_PRIORITY, TURN_PRIORITY
from bot.i18n.core import ENGLISH, Language
from bot.i18n.gnubg import QUEUE_DONE
from bot.service.gnubg.opponent import QUEUED_PER_WORKER, queued_text
from bot.service.models import ENGINE_ID, ENGINE_USER, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.driver import FakeClock, public
from tests.service.fake_engine import FakeEngine

PEOPLE = [User(str(3000 + n), f"p{n}") for n in range(3)]
PLACES = [Place("guild", f"table{n}") for n in range(3)]


class HeldEngine(FakeEngine):
    """The stand-in engine, each call held while :attr:`open` is clear; it notes the priority
    each call was made at."""

    def __init__(self) -> None:
        super().__init__()
        self.open = asyncio.Event()
        self.open.set()
        self.waiting = 0
        self.arrived = asyncio.Event()  # replaced (and set) at each call
        self.priorities: list[tuple[str, int]] = []

    async def holding(self, count: int) -> None:
        """Until ``count`` calls are held (the database answers on a thread of its own)."""
        while self.waiting < count:
            await asyncio.wait_for(self.arrived.wait(), 5)

    async def _call(self, name: str, query: object = None, priority: int = ADVICE_PRIORITY) -> None:
        self.priorities.append((name, priority))
        self.waiting += 1
        old, self.arrived = self.arrived, asyncio.Event()
        old.set()
        try:
            await self.open.wait()
        finally:
            self.waiting -= 1
        await super()._call(name, query, priority)  # type: ignore[arg-type]


def make(store: Store, clock: FakeClock, engine: FakeEngine, limit: int = 1) -> TableService:
    settings = Settings(engine_workers=1, analysis_auto=False, match_threads=False)
    service = TableService(
        store, settings=settings, dice=seeded_dice(21), clock=clock, images=False, engine=engine
    )
    service.opponent.queue_limit = limit
    return service


@pytest.fixture
async def engine() -> HeldEngine:
    return HeldEngine()


@pytest.fixture
async def service(
    store: Store, clock: FakeClock, engine: HeldEngine
) -> AsyncIterator[TableService]:
    service = make(store, clock, engine)
    yield service
    engine.open.set()
    service.close()


async def to_the_persons_move(service: TableService, place: Place, user: User) -> str:
    """Play up to a move of the person's (which hands the bot its turn): the play to make."""
    public(await service.matches.challenge(place, user, ENGINE_USER, "5"))
    rng = random.Random(place.channel_id)
    while True:
        table = await service.table(place)
        assert table is not None
        match = table.match
        assert match.turn is not None and table.row.player_ids[match.turn] != ENGINE_ID
        if match.phase == "move":
            return rng.choice(match.legal_plays()).notation
        if match.phase == "roll":
            public(await service.matches.roll(place, user))
        elif match.phase == "doubled":
            public(await service.matches.take(place, user))
        else:
            public(await service.matches.reject(place, user))


async def at_their_moves(
    service: TableService, count: int, name: str
) -> tuple[list[User], list[Place], list[str]]:
    """``count`` people each playing the bot in a channel of their own, up to a move of theirs:
    the people, the places and the plays to make."""
    people = [User(f"{name}-{n}", f"{name}{n}") for n in range(count)]
    places = [Place("guild", f"{name}{n}") for n in range(count)]
    plays = [await to_the_persons_move(service, p, u) for p, u in zip(places, people, strict=True)]
    return people, places, plays


async def all_of(updates: AsyncIterator[Reply]) -> list[Reply]:
    return [update async for update in updates]


async def queued_turn(
    service: TableService, engine: HeldEngine
) -> tuple[asyncio.Task[list[Reply]], Reply, Reply]:
    """Each person up to their move; the bot thinking in the first channel (the engine held
    from now on) and, past the limit of one, the person's move in the second: the first
    command, still waiting; the move's reply; the reply that queues the bot's turn."""
    plays = [await to_the_persons_move(service, p, u) for p, u in zip(PLACES, PEOPLE, strict=True)]
    engine.open.clear()
    first = asyncio.create_task(service.matches.move(PLACES[0], PEOPLE[0], plays[0]))
    await engine.holding(1)
    moved, queued = public(await service.matches.move(PLACES[1], PEOPLE[1], plays[1]))
    assert queued.job is not None
    return first, moved, queued


async def test_past_the_limit_a_move_is_answered_at_once_and_the_bots_turn_follows(
    service: TableService, engine: HeldEngine
) -> None:
    first, moved, queued = await queued_turn(service, engine)
    assert not first.done()  # under the limit: the command waits for the bot's turn
    assert moved.announces is not None and "p1 plays" in moved.text  # their move, shown
    assert (
        queued.text
        == queued_text(1, language=ENGLISH)
        == "The bot is busy: your turn is queued (1 ahead)."
    )
    assert queued.job is not None and queued.announces is None
    table = await service.table(PLACES[1])
    assert table is not None and table.match.turn == 1  # saved: the bot's to play
    assert table.row.version == moved.announces[1]

    updates = service.follow(queued.job)
    assert (await anext(updates)).text == queued_text(1, language=ENGLISH)
    engine.open.set()
    rest = await asyncio.wait_for(all_of(updates), 5)
    done = next(i for i, update in enumerate(rest) if update.job is None)
    assert all(update.job == queued.job for update in rest[:done])
    assert {update.text for update in rest[:done]} <= {
        queued_text(0, language=ENGLISH),
        queued_text(1, language=ENGLISH),
    }
    assert rest[done].text == QUEUE_DONE("en")
    [status] = rest[done + 1 :]
    assert "GNU Backgammon" in status.text and status.mention == (PEOPLE[1].id,)
    assert status.place == PLACES[1] and status.announces is not None
    after = await service.table(PLACES[1])
    assert after is not None and after.match.turn == 0  # the person's turn again
    assert status.announces == (after.row.id, after.row.version)
    assert any("GNU Backgammon" in reply.text for reply in await first)


async def test_under_the_limit_the_command_waits_for_the_bots_turn(
    store: Store, clock: FakeClock
) -> None:
    engine = HeldEngine()
    service = make(store, clock, engine, limit=2)
    plays = [await to_the_persons_move(service, p, u) for p, u in zip(PLACES, PEOPLE, strict=True)]
    engine.open.clear()
    waiting = [
        asyncio.create_task(service.matches.move(place, person, play))
        for place, person, play in zip(PLACES[:2], PEOPLE[:2], plays[:2], strict=True)
    ]
    await engine.holding(2)
    [_, queued] = public(await service.matches.move(PLACES[2], PEOPLE[2], plays[2]))
    assert queued.text == queued_text(2, language=ENGLISH) and queued.job is not None
    engine.open.set()
    for task in waiting:
        assert all(reply.job is None for reply in await task)
    rest = await asyncio.wait_for(all_of(service.follow(queued.job)), 5)
    assert "GNU Backgammon" in rest[-1].text
    service.close()


async def test_the_default_limit_is_eight_turns_per_worker(store: Store, clock: FakeClock) -> None:
    settings = Settings(engine_workers=3)
    service = TableService(store, settings=settings, clock=clock, images=False)
    assert service.opponent.queue_limit == QUEUED_PER_WORKER * 3 == 24


async def test_commands_while_the_turn_is_queued_dont_take_it_twice(
    service: TableService, engine: HeldEngine
) -> None:
    first, _, queued = await queued_turn(service, engine)
    await engine.holding(2)  # the queued turn asks the engine in its turn
    [board] = public(await service.matches.board(PLACES[1], PEOPLE[1]))
    assert "GNU Backgammon is thinking" in board.text  # the board, and no second flow
    assert board.job is None
    engine.open.set()
    assert queued.job is not None
    rest = await asyncio.wait_for(all_of(service.follow(queued.job)), 5)
    await first
    assert "GNU Backgammon" in rest[-1].text
    table = await service.table(PLACES[1])
    assert table is not None and table.match.turn == 0
    # One request per decision of the bot's: the board command did not ask again.
    about = [query.gnubg_id for _, query in engine.asked if query.match_key == table.row.id]
    assert about and len(about) == len(set(about))


async def test_a_queued_turn_that_fails_says_so_and_waits(
    service: TableService, engine: HeldEngine
) -> None:
    first, _, queued = await queued_turn(service, engine)
    engine.failures = 2
    engine.open.set()
    assert queued.job is not None
    rest = await asyncio.wait_for(all_of(service.follow(queued.job)), 5)
    assert "could not take its turn" in rest[-1].text
    await first
    table = await service.table(PLACES[1])
    assert table is not None and table.match.turn == 1  # still the bot's: tried again later


async def test_nothing_is_lost_when_the_bot_restarts_with_a_turn_queued(
    store: Store, db_path: Path, clock: FakeClock
) -> None:
    engine = HeldEngine()
    first = make(store, clock, engine)
    thinking, _, queued = await queued_turn(first, engine)
    assert queued.job is not None
    following = first.follow(queued.job)
    assert (await anext(following)).job == queued.job
    # The bot stops: its queued turn and the one it was thinking about end with it.
    first.close()
    thinking.cancel()
    await asyncio.gather(thinking, return_exceptions=True)
    [gone] = await asyncio.wait_for(all_of(following), 5)
    assert "no longer queued" in gone.text and gone.job is None

    reopened = await Store.open(db_path)  # the next process, on the same database
    try:
        second = make(reopened, clock, FakeEngine())
        resumed = await second.resume_engine()
        assert set(resumed) == {PLACES[0], PLACES[1]}
        for place, person in zip(PLACES[:2], PEOPLE[:2], strict=True):
            assert "GNU Backgammon" in resumed[place][0].text
            table = await second.table(place)
            assert table is not None and table.match.turn == 0  # the person's turn again
            assert resumed[place][0].mention == (person.id,)
        assert queued.job is not None
        [old] = await all_of(second.follow(queued.job))  # a handle from before the restart
        assert "no longer queued" in old.text
        second.close()
    finally:
        await reopened.close()


async def test_the_bots_requests_go_before_hints(service: TableService, engine: HeldEngine) -> None:
    play = await to_the_persons_move(service, PLACES[0], PEOPLE[0])
    engine.priorities.clear()
    [hint] = await service.gnubg.hint(PLACES[0], PEOPLE[0])  # private: to the one who asked
    assert "Best plays" in hint.text
    public(await service.matches.move(PLACES[0], PEOPLE[0], play))
    assert engine.priorities[0] == ("hint_plays", ADVICE_PRIORITY)
    assert engine.priorities[1:] and {p for _, p in engine.priorities[1:]} == {TURN_PRIORITY}


async def test_a_move_handing_the_bot_its_turn_draws_one_board(
    store: Store, clock: FakeClock
) -> None:
    """The person's board would be replaced by the bot's at once: it is drawn only when the
    bot fails to take its turn. A queued turn's board comes with the bot's turn (nothing more
    to draw while the bot is busy)."""
    engine = HeldEngine()
    settings = Settings(engine_workers=1, analysis_auto=False, match_threads=False)
    service = TableService(
        store, settings=settings, dice=seeded_dice(21), clock=clock, engine=engine
    )
    service.opponent.queue_limit = 1
    drawn: list[int] = []
    render = service.images._render

    async def counted(state: object, viewer: int | None, language: Language) -> bytes:
        drawn.append(1)
        return await render(state, viewer, language)  # type: ignore[arg-type]

    service.images._render = counted  # type: ignore[method-assign]
    try:
        plays = [
            await to_the_persons_move(service, p, u) for p, u in zip(PLACES, PEOPLE, strict=True)
        ]
        drawn.clear()
        replies = public(await service.matches.move(PLACES[0], PEOPLE[0], plays[0]))
        assert len(drawn) == 1  # the bot's board only
        assert replies[0].image is None and replies[-1].image is not None
        assert "GNU Backgammon" in replies[-1].text

        engine.failures = 1
        drawn.clear()
        moved, failed = public(await service.matches.move(PLACES[1], PEOPLE[1], plays[1]))
        assert "could not take its turn" in failed.text
        assert moved.image is not None and len(drawn) == 1  # the person's board after all

        engine.open.clear()
        first = asyncio.create_task(service.matches.board(PLACES[1], PEOPLE[1]))  # the bot retries
        await engine.holding(1)
        drawn.clear()
        moved, queued = public(await service.matches.move(PLACES[2], PEOPLE[2], plays[2]))
        assert queued.job is not None and "p2 plays" in moved.text
        assert moved.image is None and drawn == []
        engine.open.set()
        [*_, turn] = await all_of(service.follow(queued.job))
        assert "GNU Backgammon" in (await first)[-1].text
        assert turn.image is not None and len(drawn) == 2  # the bot's, in both channels
    finally:
        engine.open.set()
        service.close()


async def test_a_burst_of_moves_at_one_instant_is_counted_at_admission(
    store: Store, clock: FakeClock
) -> None:
    """Moves in many channels sent at the same instant, each handing the bot its turn: the
    first ``queue_limit`` wait for the bot, every other one is queued at once (each turn used
    to count only once its match was read, so the whole burst got past the limit)."""
    engine = HeldEngine()
    service = make(store, clock, engine, limit=2)
    moves: list[asyncio.Future[list[Reply]]] = []
    try:
        people, places, plays = await at_their_moves(service, 6, "burst")
        engine.open.clear()
        moves += [
            asyncio.ensure_future(service.matches.move(place, person, play))
            for place, person, play in zip(places, people, plays, strict=True)
        ]
        burst = asyncio.gather(*moves)
        await engine.holding(2)
        await asyncio.wait_for(
            asyncio.wait(moves, return_when=asyncio.FIRST_COMPLETED), 5
        )  # the queued ones answer at once
        for _ in range(20):  # every queued move's reply is in before the engine lets go
            await asyncio.sleep(0.01)
        answered = [move.result() for move in moves if move.done()]
        assert len(answered) == 4  # the other two wait for the bot's turn
        jobs = [reply.job for replies in answered for reply in replies if reply.job is not None]
        assert sorted(reply.text for replies in answered for reply in replies if reply.job) == [
            queued_text(ahead, language=ENGLISH) for ahead in (2, 3, 4, 5)
        ]
        engine.open.set()
        await asyncio.wait_for(burst, 10)
        for job in jobs:
            assert job is not None
            rest = await asyncio.wait_for(all_of(service.follow(job)), 5)
            assert "GNU Backgammon" in rest[-1].text
    finally:
        engine.open.set()
        await asyncio.gather(*moves, return_exceptions=True)
        service.close()


class InLine(HeldEngine):
    """The held engine answering one call at a time, in the order they came (as the play
    workers take the bot's turns), once :attr:`open` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.one = asyncio.Lock()  # (its waiters go in the order they came)

    async def _call(self, name: str, query: object = None, priority: int = ADVICE_PRIORITY) -> None:
        async with self.one:
            await super()._call(name, query, priority)


async def test_a_turn_far_back_in_the_queue_is_shown_when_half_the_line_ahead_has_gone(
    store: Store, clock: FakeClock
) -> None:
    """Eight turns ahead, the queued message is not changed for each turn that ends (a wake-up
    of every follower at each, 1.5-2 ms of CPU a play at 64 channels): it shows 8, then once
    fewer than 6 are ahead, then each step (:func:`~bot.service.gnubg.turn_line.next_shown`;
    a follower that looks late shows where the turn is then)."""
    if store.dialect != "sqlite":
        pytest.skip("PostgreSQL's connections read the queued matches, then ask, in any order")
    engine = InLine()
    service = make(store, clock, engine, limit=1)
    tasks: list[asyncio.Future[list[Reply]]] = []
    try:
        people, places, plays = await at_their_moves(service, 9, "line")
        engine.open.clear()
        tasks.append(asyncio.ensure_future(service.matches.move(places[0], people[0], plays[0])))
        await engine.holding(1)
        queued = [
            public(await service.matches.move(place, person, play))[-1]
            for place, person, play in zip(places[1:], people[1:], plays[1:], strict=True)
        ]
        last = queued[-1]
        assert last.job is not None and last.text == queued_text(8, language=ENGLISH)
        following = asyncio.ensure_future(all_of(service.follow(last.job)))
        tasks.append(following)
        engine.open.set()
        updates = await asyncio.wait_for(following, 10)
        texts = {queued_text(ahead, language=ENGLISH): ahead for ahead in range(9)}
        shown = [texts[update.text] for update in updates if update.job is not None]
        assert shown[0] == 8 and 2 < len(shown) < 8 and not {6, 7} & set(shown)
        assert shown == sorted(set(shown), reverse=True)
        assert "GNU Backgammon" in updates[-1].text
    finally:
        engine.open.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        service.close()
