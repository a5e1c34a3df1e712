"""A thread per match: the match of an accepted challenge lives at its thread's place, the
channel keeps the challenge, points to the thread and gets the result."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.service.keys import ChallengeKey, Key, MatchKey
from bot.service.matches.commands import MatchCommands
from bot.service.matches.threads import Opened, thread_name
from bot.service.models import ENGINE_USER, Decision, Place, Reply, User, place_link
from bot.service.table import Pressed, TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, public
from tests.service.fake_engine import FakeEngine
from tests.service.gnubg.test_opponent import act


class FakeOpener:
    """Opens thread ``t1``, ``t2``... of the asked place; or none, with ``notice``."""

    def __init__(self, *, opens: bool = True, notice: str | None = None) -> None:
        self.opens = opens
        self.notice = notice
        self.asked: list[tuple[Place, str, Key | None]] = []
        self.discarded: list[Place] = []

    async def open(self, place: Place, name: str, key: Key | None) -> Opened:
        self.asked.append((place, name, key))
        if not self.opens:
            return Opened(None, self.notice)
        return Opened(Place(place.server_id, f"t{len(self.asked)}"), self.notice)

    async def discard(self, thread: Place) -> None:
        self.discarded.append(thread)


def thread(number: int) -> Place:
    return Place(PLACE.server_id, f"t{number}")


@pytest.fixture
def opener() -> FakeOpener:
    return FakeOpener()


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


class ThreadedMatches(MatchCommands):
    """The match commands as a front end with threads drives them: each command that may start
    a match is given the front end's opener (here the fake)."""

    opener: FakeOpener | None = None

    async def challenge(self, *args: Any, **options: Any) -> list[Reply]:
        return await super().challenge(*args, **({"threads": self.opener} | options))

    async def accept(self, *args: Any, **options: Any) -> list[Reply]:
        return await super().accept(*args, **({"threads": self.opener} | options))

    async def rematch(self, *args: Any, **options: Any) -> list[Reply]:
        return await super().rematch(*args, **({"threads": self.opener} | options))


class ThreadedService(TableService):
    """The service as a front end with threads drives it (see :class:`ThreadedMatches`)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        rooms = self.rooms
        self.matches = ThreadedMatches(
            rooms.guard,
            rooms.repository,
            rooms.challenges,
            rooms.playing,
            rooms.admin,
            rooms.views,
            rooms.opponent,
            rooms.rematches,
        )

    @property
    def opener(self) -> FakeOpener | None:
        assert isinstance(self.matches, ThreadedMatches)
        return self.matches.opener

    @opener.setter
    def opener(self, opener: FakeOpener | None) -> None:
        assert isinstance(self.matches, ThreadedMatches)
        self.matches.opener = opener

    async def press(self, *args: Any, **options: Any) -> Pressed:
        return await super().press(*args, **({"threads": self.opener} | options))


def make_service(
    store: Store, clock: FakeClock, opener: FakeOpener | None, **settings: bool
) -> TableService:
    service = ThreadedService(
        store,
        settings=Settings(analysis_auto=False, **settings),  # type: ignore[arg-type]
        dice=seeded_dice(42),
        clock=clock,
        images=False,
        engine=FakeEngine(),
    )
    service.opener = opener
    return service


@pytest.fixture
def service(store: Store, clock: FakeClock, opener: FakeOpener) -> TableService:
    return make_service(store, clock, opener)


async def accepted(service: TableService, length: str = "5") -> list[Reply]:
    public(await service.matches.challenge(PLACE, ALICE, BOB, length))
    return public(await service.matches.accept(PLACE, BOB))


def test_thread_names() -> None:
    assert thread_name(("alice", "bob"), 5, "en") == "alice vs bob · 5 points"
    assert thread_name(("alice", "bob"), 1, "en") == "alice vs bob · 1 point"
    assert thread_name(("alice", "bob"), 0, "en") == "alice vs bob · money"
    assert len(thread_name(("a" * 80, "b" * 80), 25, "en")) == 100
    assert thread_name(("alice", "bob"), 5, "de") == "alice gegen bob · 5 Punkte"
    assert thread_name(("alice", "bob"), 1, "it") == "alice contro bob · 1 punto"
    assert thread_name(("alice", "bob"), 0, "es") == "alice contra bob · dinero"
    assert place_link(Place("1", "123")) == "<#123>"
    assert place_link(Place("console", "lobby")) == "#lobby"


async def test_an_accepted_challenge_is_played_in_its_thread(
    service: TableService, store: Store, opener: FakeOpener
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "5"))
    challenge = await service.open_challenge(PLACE)
    assert challenge is not None
    pointer, status = public(await service.matches.accept(PLACE, BOB))
    assert opener.asked == [(PLACE, "alice vs bob · 5 points", ChallengeKey(challenge.id))]
    assert pointer.place is None  # said in the channel, where the challenge was
    assert pointer.text == "bob accepts alice's challenge. The match is played in its thread: #t1"
    assert status.place == thread(1)
    assert status.decision is Decision.TURN or "to move" in status.text
    assert "Dice commitment" in status.text
    assert await service.table(PLACE) is None
    table = await service.table(thread(1))
    assert table is not None and table.row.parent_channel_id == PLACE.channel_id
    assert (await store.matches.get(table.row.id)) == table.row
    # The thread's buttons answer there; the channel waits on nothing.
    assert await service.pending_decision(PLACE) is None
    pending = await service.pending_decision(thread(1))
    assert pending is None or pending.key == MatchKey(table.row.id, table.match.action_count)


async def test_commands_in_the_channel_point_to_the_thread(service: TableService) -> None:
    await accepted(service)
    table = await service.table(thread(1))
    assert table is not None
    mover = (ALICE, BOB)[table.match.turn or 0]
    for command in (
        service.matches.roll,
        service.matches.board,
        service.matches.pips,
        service.matches.score,
        service.matches.abort,
    ):
        [pointer] = await command(PLACE, mover)
        assert pointer.private
        assert pointer.text == (
            "Matches from this channel are played in their threads: alice vs bob in #t1."
        )
    [refusal] = await service.matches.move(PLACE, mover, "13/7 8/7")
    assert "#t1" in refusal.text
    # In the thread itself, the match is played as anywhere.
    [board] = public(await service.matches.board(thread(1), mover))
    assert board.place is None


async def test_several_matches_from_one_channel(service: TableService) -> None:
    await accepted(service)
    dave = User("1004", "dave")
    public(await service.matches.challenge(PLACE, CAROL, dave, "3"))
    pointer, status = public(await service.matches.accept(PLACE, dave))
    assert "#t2" in pointer.text and status.place == thread(2)
    [both] = await service.matches.roll(PLACE, CAROL)
    assert both.text == (
        "Matches from this channel are played in their threads: "
        "alice vs bob in #t1, carol vs dave in #t2."
    )
    one, two = await service.table(thread(1)), await service.table(thread(2))
    assert one is not None and two is not None and one.row.id != two.row.id


async def test_the_result_is_posted_to_the_channel_too(service: TableService) -> None:
    await accepted(service, "1")
    table = await service.table(thread(1))
    assert table is not None
    resigner = (ALICE, BOB)[table.match.turn or 0]
    other = BOB if resigner is ALICE else ALICE
    public(await service.matches.resign(thread(1), resigner, "gammon"))
    replies = public(await service.matches.accept(thread(1), other))
    in_thread = [reply for reply in replies if reply.place is None]
    to_channel = [reply for reply in replies if reply.place is not None]
    assert in_thread and "wins" in in_thread[0].text
    assert [reply.place for reply in to_channel] == [PLACE]
    assert to_channel[0].text == f"{other.name} beats {resigner.name} 2-0 in a 1-point match. (#t1)"
    assert await service.table(thread(1)) is None
    # Pointers are for matches being played: the channel is back to "no match".
    [none] = await service.matches.roll(PLACE, ALICE)
    assert "There is no match at this table" in none.text


async def test_a_match_ended_early_is_told_to_the_channel(service: TableService) -> None:
    await accepted(service, "money")
    table = await service.table(thread(1))
    assert table is not None
    resigner = (ALICE, BOB)[table.match.turn or 0]
    other = BOB if resigner is ALICE else ALICE
    public(await service.matches.resign(thread(1), resigner, "single"))
    replies = public(await service.matches.accept(thread(1), other))
    [result] = [reply for reply in replies if reply.place == PLACE]
    assert result.text.startswith(f"{other.name} won the money game")


async def test_setting_off_plays_in_the_channel(
    store: Store, clock: FakeClock, opener: FakeOpener
) -> None:
    service = make_service(store, clock, opener, match_threads=False)
    [status] = await accepted(service)
    assert status.place is None and "Dice commitment" in status.text
    assert opener.asked == []
    table = await service.table(PLACE)
    assert table is not None and table.row.parent_channel_id is None


async def test_without_an_opener_the_match_stays_in_the_channel(
    store: Store, clock: FakeClock
) -> None:
    service = make_service(store, clock, None)
    [status] = await accepted(service)
    assert status.place is None and await service.table(PLACE) is not None


async def test_no_thread_with_a_notice_plays_in_the_channel(store: Store, clock: FakeClock) -> None:
    opener = FakeOpener(opens=False, notice="I can't open threads here.")
    service = make_service(store, clock, opener)
    notice, status = await accepted(service)
    assert notice.text == "I can't open threads here." and notice.place is None
    assert status.place is None and "Dice commitment" in status.text
    table = await service.table(PLACE)
    assert table is not None and table.row.parent_channel_id is None
    # No notice, no thread (a forum, a thread, a DM): nothing more is said.
    quiet = make_service(store, clock, FakeOpener(opens=False))
    public(await quiet.matches.challenge(Place("guild", "other"), ALICE, BOB, "3"))
    [status] = public(await quiet.matches.accept(Place("guild", "other"), BOB))
    assert status.place is None


async def test_a_refused_accept_opens_no_thread(service: TableService, opener: FakeOpener) -> None:
    [none] = await service.matches.accept(PLACE, BOB)
    assert none.private
    public(await service.matches.challenge(PLACE, ALICE, BOB, "5"))
    [not_yours] = await service.matches.accept(PLACE, CAROL)
    assert not_yours.private
    assert opener.asked == []


async def test_a_game_against_the_bot_gets_its_thread(
    service: TableService, opener: FakeOpener
) -> None:
    replies = public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "3 expert"))
    assert opener.asked == [(PLACE, "alice vs GNU Backgammon · 3 points", None)]
    pointer, *rest = replies
    assert pointer.place is None
    assert pointer.text == (
        "alice plays GNU Backgammon (expert). The match is played in its thread: #t1"
    )
    assert rest and all(reply.place == thread(1) for reply in rest)
    assert "alice vs GNU Backgammon (expert)" in rest[0].text
    # The bot's opening turns (if it won the opening roll) were taken in the thread.
    table = await service.table(thread(1))
    assert table is not None and table.row.parent_channel_id == PLACE.channel_id
    assert table.row.player_ids[table.match.turn or 0] == ALICE.id
    # Played on in the thread, to the end; its result goes to the channel.
    rng = random.Random(5)
    told: list[Reply] = []
    for _ in range(2000):
        if await service.table(thread(1)) is None:
            break
        told += [reply for reply in await act(service, ALICE, rng, thread(1)) if reply.place]
    assert await service.table(thread(1)) is None
    [result] = told
    assert result.place == PLACE and result.text.endswith("in a 3-point match. (#t1)")


async def test_accept_again_in_the_channel_points_to_the_thread(service: TableService) -> None:
    await accepted(service)
    [typed] = await service.matches.accept(PLACE, BOB)
    assert typed.private and typed.text == (
        "That challenge was accepted. Matches from this channel are played in their threads: "
        "alice vs bob in #t1."
    )
    # The Accept button pressed again: out of date, and where the match is.
    pressed = await service.press(PLACE, BOB, "accept", ChallengeKey(1))
    assert pressed.closed
    [again] = pressed.replies
    assert again.private and again.text.startswith("This button is out of date")
    assert "alice vs bob in #t1" in again.text


async def test_board_and_export_point_to_the_last_match_in_a_thread(
    store: Store, clock: FakeClock, opener: FakeOpener
) -> None:
    # A match played in the channel first (no thread then), then one in a thread.
    in_place = make_service(store, clock, None)
    public(await in_place.matches.challenge(PLACE, ALICE, BOB, "money"))
    public(await in_place.matches.accept(PLACE, BOB))
    public(await in_place.matches.abort(PLACE, ALICE))
    public(await in_place.matches.abort(PLACE, BOB))
    service = make_service(store, clock, opener)
    await accepted(service, "1")
    for command in (service.matches.board, service.matches.export, service.matches.score):
        [pointer] = await command(PLACE, CAROL)
        assert pointer.private and "alice vs bob in #t1" in pointer.text
    table = await service.table(thread(1))
    assert table is not None
    public(await service.matches.abort(thread(1), ALICE))
    public(await service.matches.abort(thread(1), BOB))
    for command in (service.matches.board, service.matches.export):
        [pointer] = await command(PLACE, CAROL)
        assert pointer.private and pointer.text == (
            "The last match from this channel, alice vs bob, was played in its thread: #t1 "
            "(the command works there)."
        )


async def test_a_thread_opened_for_a_race_lost_is_discarded(
    service: TableService, opener: FakeOpener
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    challenge = await service.open_challenge(PLACE)
    assert challenge is not None
    real_open = opener.open

    async def answered_meanwhile(place: Place, name: str, key: Key | None) -> Opened:
        opened = await real_open(place, name, key)
        async with service.store.transaction() as tx:  # another process accepts first
            await tx.challenges.close(challenge.id, "accepted")
        return opened

    opener.open = answered_meanwhile  # type: ignore[method-assign]
    [lost] = await service.matches.accept(PLACE, BOB)
    assert lost.private and "changed while your command ran" in lost.text
    assert opener.discarded == [thread(1)]
    assert await service.table(thread(1)) is None


async def test_a_match_the_bot_ends_when_it_resumes_tells_the_channel(
    store: Store, clock: FakeClock, opener: FakeOpener
) -> None:
    service = make_service(store, clock, opener)
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "1 expert"))
    engine = service.engine
    assert isinstance(engine, FakeEngine)
    engine.failures = 1_000  # the bot can't answer the resignation: it waits on the bot
    await service.matches.resign(thread(1), ALICE, "single")
    table = await service.table(thread(1))
    assert table is not None and table.match.phase == "resigned"
    restarted = make_service(store, clock, opener)  # the bot answers once it is back
    owed = await restarted.resume_engine()
    assert await restarted.table(thread(1)) is None  # it accepted: the match is over
    [result] = owed[PLACE]
    assert result.place == PLACE and result.text.endswith("in a 1-point match. (#t1)")


async def test_the_result_posted_to_the_channel_is_in_the_enders_language(
    service: TableService,
) -> None:
    await accepted(service, "3")
    table = await service.table(thread(1))
    assert table is not None
    resigner = (ALICE, BOB)[table.match.turn or 0]
    other = dataclasses.replace(BOB if resigner is ALICE else ALICE, language="de")
    public(await service.matches.resign(thread(1), resigner, "backgammon"))
    replies = public(await service.matches.accept(thread(1), other))
    [to_channel] = [reply for reply in replies if reply.place is not None]
    assert to_channel.text == (
        f"{other.name} schlägt {resigner.name} 3-0 in einem Match auf 3 Punkte. (#t1)"
    )
