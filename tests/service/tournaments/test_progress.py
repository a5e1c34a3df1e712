"""What a tournament says while it moves on, once and not at every poll: a match ended without
a winner (left to the organiser), matches played one after another in the tournament's channel
where they get no thread; and a pause's length, kept in the tournament's row."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import SERVER
from bot.service.keys import Key
from bot.service.matches.threads import Opened
from bot.service.models import Place, User
from bot.store import Store
from bot.store import tournaments as db
from tests.service.tournaments.test_tournaments import HOME, Table, created, names

DAY = 86400.0


async def ticks(table: Table, count: int = 3) -> str:
    """What ``count`` deadline polls a minute apart said."""
    return "".join([await table.say("~ 1m") for _ in range(count)])


async def open_pairings(table: Table, tid: int) -> list[db.PairingRow]:
    return [p for p in await table.store.tournaments.pairings(tid) if p.decided_at is None]


async def test_an_aborted_match_is_left_to_the_organiser_once(table: Table) -> None:
    tid = await created(table, "AB knockout 1", names(2))
    await table.say(f"#{HOME} org: !tournament start")
    [pairing] = await open_pairings(table, tid)
    channel = pairing.channel_id
    await table.say(f"#{channel} p1: !abort")
    said = await table.say(f"#{channel} p2: !abort")
    said += await ticks(table)
    assert said.count("ended without a winner") == 1, said
    table.restart()  # another process, or the next start, says nothing more either
    assert "ended without a winner" not in await ticks(table)
    said = await table.say(f"#{HOME} org: !tournament result 1.1 @p1 agreed")
    assert "p1 wins" in said and "is over" in said, said


async def test_a_voided_match_is_left_to_the_organiser_once(table: Table) -> None:
    tid = await created(table, "VO knockout 1", names(2))
    await table.say(f"#{HOME} org: !tournament start")
    [pairing] = await open_pairings(table, tid)
    said = await table.say(f"#{pairing.channel_id} mod: !void")
    said += await ticks(table, 5)
    assert said.count("ended without a winner") == 1, said


async def test_without_threads_matches_are_played_one_by_one_in_the_channel(
    db_path: Path | str,
) -> None:
    store = await Store.open(db_path)
    try:
        table = Table(store, match_threads=False)
        tid = await created(table, "Spam knockout 1 days 2", names(4))
        said = await table.say(f"#{HOME} org: !tournament start")
        said += await ticks(table)
        assert said.count("played in this channel when the one before it is over") == 1, said
        first, second = await open_pairings(table, tid)
        assert first.channel_id == HOME and first.match_id is not None
        assert second.match_id is None  # waits for the channel
        table.clock.advance(DAY)
        await table.finish(HOME)  # the next one starts at once, its deadline from now
        [_, second] = await table.store.tournaments.pairings(tid)
        assert second.channel_id == HOME and second.deadline == table.clock() + 2 * DAY
        await table.finish(HOME)
        said = await ticks(table)  # the final, in the channel too
        await table.finish(HOME)
        row = await store.tournaments.get(tid)
        assert row is not None and row.status == "finished", said
        assert "played in this channel" not in said
    finally:
        await store.close()


class NoThreads:
    """Where no thread can be opened (a tournament made in a thread, a forum, a missing
    permission): the opener's notice once, then nothing."""

    def __init__(self) -> None:
        self.told = False

    async def open(self, place: Place, name: str, key: Key | None) -> Opened:
        notice = None if self.told else "I can't open threads here."
        self.told = True
        return Opened(None, notice)

    async def discard(self, thread: Place) -> None:
        raise AssertionError(f"nothing was opened, {thread} is not to be removed")


async def test_where_no_thread_opens_the_poll_says_nothing_per_pairing(table: Table) -> None:
    tid = await created(table, "Spam knockout 1", names(6))
    home, org = Place(SERVER, HOME), User("org", "org")
    opener = NoThreads()
    said = await table.service.tournament_commands.tournament(
        home, org, "start", organiser=True, threads=opener
    )
    for _ in range(5):
        said += [reply for _, reply in await table.service.due(threads=opener)]
    texts = [reply.text for reply in said]
    assert sum("can't open" in text for text in texts) == 1, texts
    assert sum("played in this channel" in text for text in texts) == 1, texts
    playing = [p for p in await open_pairings(table, tid) if p.match_id is not None]
    assert [p.channel_id for p in playing] == [HOME]


async def test_resume_counts_the_pause_from_its_column_not_the_log(table: Table) -> None:
    """An organiser named ``pausedbob`` deciding a result during the pause made ``resume``
    count 1 minute after 4 days (the pause was looked up in the log by its text)."""
    tid = await created(table, "Spring knockout 1 days 2", names(4))
    await table.say(f"#{HOME} pausedbob: !tournament start")
    before = {p.table_no: p.deadline for p in await open_pairings(table, tid)}
    await table.say(f"#{HOME} pausedbob: !tournament pause")
    table.clock.advance(4 * DAY)
    said = await table.say(f"#{HOME} pausedbob: !tournament result 1.1 @p1 no-show")
    assert "p1 wins" in said, said
    table.clock.advance(60)
    said = await table.say(f"#{HOME} pausedbob: !tournament resume")
    assert "96 h" in said, said
    [left] = await open_pairings(table, tid)
    before_deadline = before[left.table_no]
    assert before_deadline is not None and left.deadline == before_deadline + 4 * DAY + 60
    row = await table.store.tournaments.get(tid)
    assert row is not None and row.paused_at is None


@pytest.mark.parametrize(
    ("verb", "wanted"),
    [
        ("remove @p1 gone", "can remove players from a tournament"),
        ("result 1.1 @p1 x", "can decide results in a tournament"),
        ("start", "can start a tournament"),
    ],
)
async def test_the_refusal_to_members_names_what_they_cannot_do(
    table: Table, verb: str, wanted: str
) -> None:
    await created(table, "Spring knockout 1", names(2))
    [reply] = await table.service.tournament_commands.tournament(
        Place(SERVER, HOME), User("p1", "p1"), verb, organiser=False
    )
    assert reply.private and wanted in reply.text, reply.text
