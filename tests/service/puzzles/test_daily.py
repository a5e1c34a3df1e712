"""The daily puzzle through the TableService, on SQLite and PostgreSQL, with an injected clock:
set by an admin, posted once a day in the server's time zone (across a restart and two
services racing on one database), the same puzzle for every member, answered privately once
each and rated, and the next day's post saying how many found it."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, date, datetime
from pathlib import Path

from bot.i18n.puzzles import DAILY_ADMINS_ONLY
from bot.rules.puzzles import CHECKER, DOUBLE, Puzzle
from bot.service.keys import DailyKey, PuzzleKey
from bot.service.models import Decision, Place, Reply, User
from bot.service.puzzles import pool
from bot.service.puzzles.daily import GIVE_UP
from bot.service.puzzles.schedule import latest_due, next_due, read_time, zone_of
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import Store
from bot.store.dailies import LEASE, DailyPost, DailySetting
from bot.store.puzzles import EVERY_SERVER
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock
from tests.service.puzzles.test_puzzles import answer_of

DAILY = Place(PLACE.server_id, "daily")


def at(text: str) -> float:
    """``2026-11-27T08:30``, UTC, as the clock's seconds."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


async def say(service: TableService, text: str, user: User = ALICE) -> Reply:
    replies = await service.run(PLACE, user, text, users=lambda word: None)
    assert len(replies) == 1, replies
    return replies[0]


def make(store: Store, clock: FakeClock) -> TableService:
    return TableService(store, settings=Settings(), clock=clock, images=False)


async def due(service: TableService) -> list[tuple[Place, Reply]]:
    """What fell due, sent as an adapter sends it (and says so)."""
    posts = await service.due()
    await service.sent(reply for _, reply in posts)
    return posts


async def today(store: Store) -> tuple[DailyPost, Puzzle]:
    post = await store.dailies.last_post(PLACE.server_id)
    assert post is not None
    puzzle = await pool.find(store.puzzles, PLACE.server_id, post.puzzle)
    assert puzzle is not None
    return post, puzzle


async def set_daily(service: TableService, line: str = "!puzzle daily #daily 09:00") -> Reply:
    reply = await say(service, line)
    assert not reply.private, reply.text
    return reply


async def test_posted_once_at_its_time_the_same_puzzle_for_every_member(
    store: Store, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27T07:00")
    service = make(store, clock)
    said = await set_daily(service, "!puzzle daily #daily 09:00 Europe/Paris")
    assert "#daily every day at 09:00 (Europe/Paris), the first on Fri 27 Nov 2026" in said.text
    clock.now = at("2026-11-27T07:59:59")  # 08:59:59 in Paris
    assert await due(service) == []
    clock.now = at("2026-11-27T08:00")
    [(place, post)] = await due(service)
    assert place == DAILY and "**Daily puzzle of Fri 27 Nov 2026**" in post.text
    assert not post.private and post.decision_key is not None
    assert await due(service) == []  # once
    clock.advance(3600)
    assert await due(service) == []
    row, puzzle = await today(store)
    assert post.decision_key == DailyKey(row.id) and row.day == "2026-11-27"
    want = {CHECKER: Decision.DAILY_PLAY, DOUBLE: Decision.DAILY_DOUBLE}
    assert post.decision is want.get(puzzle.kind, Decision.DAILY_TAKE)
    shown = [await say(service, "!puzzle daily", user) for user in (ALICE, BOB, CAROL)]
    assert all(reply.private for reply in shown)
    assert shown[0].text == shown[1].text == shown[2].text and puzzle.xgid not in shown[0].text
    for user in (ALICE, BOB, CAROL):
        verdict = await say(service, f"!puzzle daily {answer_of(puzzle, user != CAROL)}", user)
        assert verdict.private and puzzle.xgid in verdict.text
    answered = [await store.dailies.answer_of(row.id, user.id) for user in (ALICE, BOB, CAROL)]
    assert [right for _, right in filter(None, answered)] == [1, 1, 0]
    assert (await today(store))[0].answers == 3 and (await today(store))[0].found == 2


async def test_an_answer_is_private_rated_and_once_a_day(store: Store, clock: FakeClock) -> None:
    clock.now = at("2026-11-27T08:00")
    service = make(store, clock)
    await set_daily(service, "!puzzle daily #daily 09:30")
    clock.now = at("2026-11-27T09:30")
    assert len(await due(service)) == 1
    _, puzzle = await today(store)
    verdict = await say(service, f"!puzzle daily {answer_of(puzzle, True)}")
    assert verdict.private and f"✅ **{puzzle.best.answer}** is gnubg's best." in verdict.text
    here = await store.puzzles.player(PLACE.server_id, ALICE.id)
    everywhere = await store.puzzles.player(EVERY_SERVER, ALICE.id)
    assert here is not None and everywhere is not None and here.answers == 1
    assert here.rating.rating > 1500 and "Your puzzle rating: 1500? -> " in verdict.text
    again = await say(service, f"!puzzle daily {answer_of(puzzle, True)}")
    assert again.private and "You answered today's daily puzzle already" in again.text
    assert (await store.puzzles.player(PLACE.server_id, ALICE.id)) == here
    shown = await say(service, "!puzzle daily")
    assert shown.private and "you answered" in shown.text
    # The daily answer leaves !puzzle's own questions alone.
    assert await store.puzzles.answers(PLACE.server_id, ALICE.id, 5) == []


async def test_the_buttons_answer_for_the_presser_alone(store: Store, clock: FakeClock) -> None:
    clock.now = at("2026-11-27T08:00")
    service = make(store, clock)
    await set_daily(service)
    clock.now = at("2026-11-27T09:00")
    [(_, post)] = await due(service)
    row, puzzle = await today(store)
    key = DailyKey(row.id)
    if puzzle.kind == CHECKER:
        pressed = await service.press(DAILY, BOB, "puzzledaily", key)
        assert pressed.replies[0].private and "`/puzzle daily 13/7 8/7`" in pressed.replies[0].text
        answered = await say(service, f"!puzzle daily {answer_of(puzzle, True)}", BOB)
        assert answered.private and "✅" in answered.text
    else:
        word = {"Double": "double", "No double": "nodouble", "Take": "take", "Pass": "pass"}
        action = f"puzzle{word[puzzle.best.answer]}"
        stale = await service.press(DAILY, BOB, action, DailyKey(row.id + 1))
        assert stale.replies[0].private and "That daily puzzle is over" in stale.replies[0].text
        assert await store.dailies.answer_of(row.id, BOB.id) is None
        pressed = await service.press(DAILY, BOB, action, key)
        assert pressed.replies[0].private and "✅" in pressed.replies[0].text
        assert not pressed.closed  # the others still answer on the same post
        twice = await service.press(DAILY, BOB, action, key)
        assert "already" in twice.replies[0].text
    assert post.decision_key == key
    wrong = await service.press(DAILY, ALICE, "puzzledouble", PuzzleKey(row.id))
    assert wrong.replies[0].private  # a daily post is no one's !puzzle


async def test_the_next_post_says_how_many_found_yesterdays(store: Store, clock: FakeClock) -> None:
    clock.now = at("2026-11-27T08:00")
    service = make(store, clock)
    await set_daily(service)
    clock.now = at("2026-11-27T09:00")
    await due(service)
    first, puzzle = await today(store)
    members = [User(str(2000 + n), f"m{n}") for n in range(8)]
    for n, member in enumerate(members):  # 5 of 8 find it: 62%
        await say(service, f"!puzzle daily {answer_of(puzzle, n < 5)}", member)
    clock.now = at("2026-11-28T09:00")
    [(_, post)] = await due(service)
    assert f"Yesterday's: 62% found {puzzle.best.answer} (8 answers)." in post.text, post.text
    second, _ = await today(store)
    assert second.day == "2026-11-28" and second.puzzle != first.puzzle
    clock.now = at("2026-12-01T08:00")  # nobody answered the 28th's; two days off
    await say(service, "!puzzle daily off")
    await set_daily(service)
    clock.now = at("2026-12-01T09:00")
    [(_, later)] = await due(service)
    best = await pool.find(store.puzzles, PLACE.server_id, second.puzzle)
    assert best is not None
    told = "The last one's (Sat 28 Nov 2026): nobody answered; gnubg's best was"
    told += f" {best.best.answer}."
    assert told in later.text, later.text


async def test_a_restart_and_two_services_racing_post_once(
    db_path: Path | str, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27T08:00")
    first = await Store.open(db_path)
    second = await Store.open(db_path)
    try:
        await set_daily(make(first, clock))
        clock.now = at("2026-11-27T09:00:05")
        one, two = make(first, clock), make(second, clock)
        posted = await asyncio.gather(due(one), due(two))
        assert sorted(len(replies) for replies in posted) == [0, 1]
        restarted = make(await Store.open(db_path), clock)
        try:
            assert await due(restarted) == []
        finally:
            await restarted.store.close()
        clock.now = at("2026-11-28T09:00")
        again = await asyncio.gather(due(two), due(one), due(two))
        assert sorted(len(replies) for replies in again) == [0, 0, 1]
    finally:
        await first.close()
        await second.close()


async def test_a_crash_between_the_claim_and_the_send_posts_the_day_once_after_the_lease(
    db_path: Path | str, clock: FakeClock
) -> None:
    """The process that claimed the day dies before sending (its replies never marked sent): a
    new service on the same database posts it once the lease ends, with the same buttons' key,
    and once only; a post that was sent is never posted again."""
    clock.now = at("2026-11-27T08:00")
    crashed = await Store.open(db_path)
    await set_daily(make(crashed, clock))
    clock.now = at("2026-11-27T09:00")
    [(_, lost)] = await make(crashed, clock).due()  # claimed, never sent
    await crashed.close()
    store = await Store.open(db_path)
    try:
        service = make(store, clock)
        clock.advance(LEASE - 1)
        assert await due(service) == []  # the claim still holds
        clock.advance(1)
        [(place, again)] = await due(service)
        assert place == DAILY and again.decision_key == lost.decision_key
        assert again.text == lost.text and "**Daily puzzle of Fri 27 Nov 2026**" in again.text
        clock.advance(LEASE)
        assert await due(service) == []  # sent: never again
        row, _ = await today(store)
        assert row.sent_at == clock.now - LEASE and row.lease_until is None
    finally:
        await store.close()


async def test_a_failed_send_is_tried_again_by_one_of_two_services_until_it_gives_up(
    db_path: Path | str, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27T08:00")
    first = await Store.open(db_path)
    second = await Store.open(db_path)
    try:
        await set_daily(make(first, clock))
        clock.now = at("2026-11-27T09:00")
        one, two = make(first, clock), make(second, clock)
        [(_, lost)] = await one.due()  # its send failed: not marked
        clock.advance(LEASE)
        tried = await asyncio.gather(one.due(), two.due())
        assert sorted(len(replies) for replies in tried) == [0, 1]
        assert [reply.decision_key for replies in tried for _, reply in replies] == [
            lost.decision_key
        ]
        clock.now = at("2026-11-27T09:00") + GIVE_UP + 1  # still failing an hour on
        assert list(await asyncio.gather(one.due(), two.due())) == [[], []]
        assert await first.dailies.unsent(clock.now + 86400) == []
        clock.now = at("2026-11-28T09:00")  # the next day is posted as ever
        [(_, next_day)] = await due(one)
        assert "**Daily puzzle of Sat 28 Nov 2026**" in next_day.text
        assert "Yesterday's: nobody answered" in next_day.text
    finally:
        await first.close()
        await second.close()


async def test_the_servers_time_zone_decides_the_day_and_the_hour(
    store: Store, clock: FakeClock
) -> None:
    # 09:00 in Auckland (UTC+13 in November) is 20:00 UTC the day before.
    clock.now = at("2026-11-26T12:00")
    service = make(store, clock)
    said = await set_daily(service, "!puzzle daily #daily 09:00 Pacific/Auckland")
    assert "the first on Fri 27 Nov 2026" in said.text
    clock.now = at("2026-11-26T19:59")
    assert await due(service) == []
    clock.now = at("2026-11-26T20:00")
    [(_, post)] = await due(service)
    assert "Daily puzzle of Fri 27 Nov 2026" in post.text
    assert (await today(store))[0].day == "2026-11-27"
    # A second setting without a zone keeps the server's.
    said = await set_daily(service, "!puzzle daily #daily 08:00")
    assert "(Pacific/Auckland), the first on Sat 28 Nov 2026" in said.text
    assert await due(service) == []  # today's was posted: a new time posts no second one


def test_daylight_saving_moves_the_moment_not_the_local_time() -> None:
    paris = zone_of("Europe/Paris")
    minute = read_time("09:00")
    assert minute == 540
    # Summer time starts on 29 Mar 2026: 09:00 is 08:00 UTC before, 07:00 UTC after.
    assert next_due(paris, minute, at("2026-03-28T06:00")) == at("2026-03-28T08:00")
    assert next_due(paris, minute, at("2026-03-28T08:00")) == at("2026-03-29T07:00")
    assert latest_due(paris, minute, at("2026-03-29T07:30")) == (
        date(2026, 3, 29),
        at("2026-03-29T07:00"),
    )
    # 02:30 does not exist on that day in Paris: read with the offset before the change.
    skipped = next_due(paris, 150, at("2026-03-29T00:00"))
    assert skipped == at("2026-03-29T01:30")
    assert [read_time(text) for text in ("9:05", "23h59", "24:00", "9", "09:60")] == [
        545,
        1439,
        None,
        None,
        None,
    ]


async def test_only_admins_set_it_and_bad_input_gets_one_short_reply(
    service: TableService, store: Store
) -> None:
    refused = await service.puzzles.puzzle(PLACE, BOB, "daily #daily 09:00", manager=False)
    assert [(r.text, r.private) for r in refused] == [(DAILY_ADMINS_ONLY("en"), True)]
    refused = await service.puzzles.puzzle(PLACE, BOB, "daily off", manager=False)
    assert [(r.text, r.private) for r in refused] == [(DAILY_ADMINS_ONLY("en"), True)]
    assert await store.dailies.setting(PLACE.server_id) is None
    for line, told in (
        ("!puzzle daily #daily", "At what time?"),
        ("!puzzle daily 09:00 #daily", "Name the channel as `#channel`"),
        ("!puzzle daily #daily 25:00", "`25:00` is not a time of day"),
        ("!puzzle daily #daily 9am", "`9am` is not a time of day"),
        ("!puzzle daily #daily 09:00 Mars/Base", "`Mars/Base` is not a time zone"),
        ("!puzzle daily #daily 09:00 UTC now", "Too many words"),
        ("!puzzle daily off", "No daily puzzle is set on this server."),
        ("!puzzle daily", "This server has no daily puzzle yet"),
        ("!puzzle daily 13/7 8/7", "This server has no daily puzzle yet"),
    ):
        reply = await say(service, line)
        assert reply.private and told in reply.text and len(reply.text) < 300, (line, reply)
    assert await store.dailies.setting(PLACE.server_id) is None
    ok = await service.puzzles.puzzle(PLACE, BOB, "daily <#123> 09:00", manager=True)
    assert "<#123> every day at 09:00 (UTC)" in ok[0].text
    setting = await store.dailies.setting(PLACE.server_id)
    assert setting is not None and setting.channel_id == "123" and setting.minute == 540


async def test_the_choice_is_the_servers_and_dates_and_never_repeats(
    store: Store, clock: FakeClock
) -> None:
    service, other = make(store, clock), make(store, clock)
    days = [date(2026, 11, 27), date(2026, 11, 28), date(2027, 2, 1)]
    for day in days:
        mine = await service.puzzles.daily.choose("guild", day)
        assert mine == await other.puzzles.daily.choose("guild", day)
    assert len({await service.puzzles.daily.choose(f"g{n}", days[0]) for n in range(10)}) > 5
    first = await service.puzzles.daily.choose("guild", days[0])
    assert first is not None
    async with store.transaction() as tx:  # the server had it as its daily another day
        had = DailySetting("guild", "c", 540, 5.0, "a", 0.0)
        await tx.dailies.set(had)
        assert await tx.dailies.claim(had, 6.0, "2020-01-01", first.key, 5.0) is not None
        await tx.dailies.stop("guild")
    instead = await service.puzzles.daily.choose("guild", days[0])
    assert instead is not None and instead.key != first.key
    clock.now = at("2026-11-27T08:00")
    await set_daily(service)
    seen = []
    for n in range(20):
        clock.now = at("2026-11-27T09:00") + n * 86400 + random.Random(n).randrange(3600)
        assert len(await due(service)) == 1
        seen.append((await today(store))[0].puzzle)
    assert len(set(seen)) == 20
