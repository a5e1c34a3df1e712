"""Time through the service: reminders once per decision, clocked matches, expired challenges,
all done by ``TableService.due`` and all surviving a restart (a new service on the same file)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.service.models import Decision, Place, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock, public, start_match, take_turn

HOUR = 3600.0
SETTINGS = Settings(reminder_hours=12, claim_timeout_hours=24, clock_delay_seconds=15)


def make(store: Store, clock: FakeClock) -> TableService:
    return TableService(store, settings=SETTINGS, dice=seeded_dice(7), clock=clock, images=False)


async def waiting(service: TableService) -> User:
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    return (ALICE, BOB)[table.match.turn]


async def act(service: TableService) -> None:
    """One decision by whoever must act."""
    assert await take_turn(service, PLACE, (ALICE, BOB), random.Random(1), double_rate=0)


# -- reminders -------------------------------------------------------------------------------


async def test_the_player_to_act_is_reminded_once_per_decision(
    store: Store, clock: FakeClock
) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, 5)
    clock.advance(12 * HOUR - 1)
    assert await service.due() == []
    clock.advance(1)
    [(place, reminder)] = await service.due()
    player = await waiting(service)
    assert place == PLACE
    assert reminder.mention == (player.id,)
    assert f"Reminder: {player.name}" in reminder.text and "12 h 00 min" in reminder.text
    assert "claim` the match in 12 h 00 min" in reminder.text
    clock.advance(5 * HOUR)
    assert await service.due() == []  # once per decision, not again
    await act(service)
    clock.advance(12 * HOUR)
    [(_, again)] = await service.due()  # a new decision: a new reminder
    assert again.mention == ((await waiting(service)).id,)


async def test_acting_before_the_reminder_starts_the_wait_again(
    store: Store, clock: FakeClock
) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, 5)
    clock.advance(11 * HOUR)
    await act(service)
    clock.advance(11 * HOUR)
    assert await service.due() == []
    clock.advance(1 * HOUR)
    assert len(await service.due()) == 1


async def test_a_reminder_falls_due_across_a_restart(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path)
    await start_match(make(store, clock), PLACE, ALICE, BOB, 3)
    await store.close()
    clock.advance(13 * HOUR)
    store = await Store.open(db_path)
    try:
        service = make(store, clock)
        [(_, reminder)] = await service.due()
        assert reminder.mention == ((await waiting(service)).id,)
        assert await service.due() == []
    finally:
        await store.close()


async def test_no_reminder_once_the_match_is_over(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, 3)
    public(await service.matches.abort(PLACE, ALICE))
    public(await service.matches.abort(PLACE, BOB))
    clock.advance(30 * HOUR)
    assert await service.due() == []


# -- clocks ----------------------------------------------------------------------------------


async def test_a_clocked_challenge_says_its_terms(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "5 clock 2m"))
    assert "a 5-point match on the clock (2 min per point, 15 s delay per move)" in offer.text
    [started] = public(await service.matches.accept(PLACE, BOB))
    assert "on the clock (2 min per point" in started.text
    table = await service.table(PLACE)
    assert table is not None and table.timer is not None
    assert table.timer.banks == (600.0, 600.0) and table.timer.delay == 15


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        ("5 clock", "how much time per point"),
        ("5 clock soon", "'soon' is not a time per point"),
        ("5 clock 2s", "out of range"),
        ("money clock 2m", "A clock is for matches"),
    ],
)
async def test_bad_clocks_are_refused(
    store: Store, clock: FakeClock, terms: str, said: str
) -> None:
    service = make(store, clock)
    [refused] = await service.matches.challenge(PLACE, ALICE, BOB, terms)
    assert refused.private and said in refused.text
    assert await service.open_challenge(PLACE) is None


async def test_the_bank_runs_after_the_delay(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, "3 clock 1m")  # banks of 180 s
    first = await waiting(service)
    seat = (ALICE, BOB).index(first)
    clock.advance(10)  # within the delay: free
    await act(service)
    table = await service.table(PLACE)
    assert table is not None and table.timer is not None and table.timer.banks is not None
    assert table.timer.banks[seat] == 180.0
    now_acting = await waiting(service)
    if now_acting == first:  # the same player decides again (a roll, then the move)
        clock.advance(15 + 40)
        await act(service)
        table = await service.table(PLACE)
        assert table is not None and table.timer is not None and table.timer.banks is not None
        assert table.timer.banks[seat] == pytest.approx(140.0)
    else:
        clock.advance(15 + 40)
        await act(service)
        table = await service.table(PLACE)
        assert table is not None and table.timer is not None and table.timer.banks is not None
        assert table.timer.banks[1 - seat] == pytest.approx(140.0)
        assert table.timer.banks[seat] == 180.0


async def test_running_out_of_time_loses_the_match(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, "3 clock 1m")
    loser = await waiting(service)
    winner = BOB if loser == ALICE else ALICE
    clock.advance(15 + 180 - 1)
    assert await service.due() == []
    clock.advance(1)
    [(place, flag)] = await service.due()
    assert place == PLACE
    assert f"{loser.name} ran out of time on the clock: {winner.name} wins the match (rated)" in (
        flag.text
    )
    assert await service.table(PLACE) is None
    latest = await service.latest_table(PLACE)
    assert latest is not None and latest.row.ending == "time"
    assert latest.row.winner == (ALICE, BOB).index(winner)
    won = await store.players.get(PLACE.server_id, winner.id)
    assert won is not None and won.wins == 1 and won.rating > 1500
    assert await store.matches.timer(latest.row.id) is None
    assert await service.due() == []


async def test_acting_after_the_flag_fell_loses_on_time(store: Store, clock: FakeClock) -> None:
    """The background task hasn't run yet: the late action itself ends the match."""
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, "3 clock 1m")
    loser = await waiting(service)
    clock.advance(15 + 180 + 5)
    table = await service.table(PLACE)
    assert table is not None
    if table.match.phase == "move":
        play = table.match.legal_plays()[0].notation
        [late] = await service.matches.move(PLACE, loser, play)
    else:
        [late] = await service.matches.roll(PLACE, loser)
    assert not late.private and "ran out of time" in late.text
    assert await service.table(PLACE) is None
    assert await service.due() == []


async def test_a_clock_flags_across_a_restart(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path)
    await start_match(make(store, clock), PLACE, ALICE, BOB, "2 clock 30s")
    await store.close()
    clock.advance(15 + 60 + 1)
    store = await Store.open(db_path)
    try:
        service = make(store, clock)
        [(_, flag)] = await service.due()
        assert "ran out of time" in flag.text
    finally:
        await store.close()


# -- challenges ------------------------------------------------------------------------------


async def test_an_expired_challenge_is_announced_once(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    other = Place("guild", "other")
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    public(await service.matches.challenge(other, BOB, ALICE, "5"))
    clock.advance(10 * 60)
    said = await service.due()
    assert [place for place, _ in said] == [PLACE, other]
    assert "alice's challenge to bob expired unanswered" in said[0][1].text
    assert await service.due() == []
    assert await service.open_challenge(PLACE) is None


async def test_a_match_lost_on_time_asks_for_a_rematch(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, "3 clock 1m")
    loser = await waiting(service)
    clock.advance(15 + 180)
    [(_, flag)] = await service.due()
    assert flag.decision is Decision.REMATCH and flag.decision_for == loser.id
    assert "`!rematch`" in flag.text and "Ratings:" in flag.text


# -- the clock shown -------------------------------------------------------------------------


async def test_the_status_after_each_action_shows_both_banks(
    store: Store, clock: FakeClock
) -> None:
    service = make(store, clock)
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3 clock 1m"))
    [started] = public(await service.matches.accept(PLACE, BOB))
    first = await waiting(service)
    assert f"Clock: alice 3:00 · bob 3:00 ({first.name}'s runs after 15 s of delay)." in (
        started.text
    )
    clock.advance(15 + 40)
    table = await service.table(PLACE)
    assert table is not None
    user = await waiting(service)
    if table.match.phase == "move":
        [after] = public(
            await service.matches.move(PLACE, user, table.match.legal_plays()[0].notation)
        )
    else:
        [after] = public(await service.matches.roll(PLACE, user))
    banks = {first.name: "2:20", ({ALICE, BOB} - {first}).pop().name: "3:00"}
    assert f"Clock: alice {banks['alice']} · bob {banks['bob']}" in after.text


async def test_score_and_board_show_the_bank_running_now(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    await start_match(service, PLACE, ALICE, BOB, "3 clock 1m")
    first = await waiting(service)
    clock.advance(6)
    [score] = public(await service.matches.score(PLACE, ALICE))
    assert f"({first.name}'s runs after 9 s of delay)" in score.text
    clock.advance(9 + 61)
    [score] = public(await service.matches.score(PLACE, ALICE))
    [board] = public(await service.matches.board(PLACE, ALICE))
    for said in (score.text, board.text):
        assert f"{first.name} 1:59" in said and f"({first.name}'s is running)" in said


async def test_a_match_without_a_clock_shows_none(store: Store, clock: FakeClock) -> None:
    service = make(store, clock)
    public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    [started] = public(await service.matches.accept(PLACE, BOB))
    [score] = public(await service.matches.score(PLACE, ALICE))
    assert "Clock:" not in started.text and "Clock:" not in score.text


async def test_the_board_image_shows_the_clock_as_it_reads(store: Store, clock: FakeClock) -> None:
    service = TableService(store, settings=SETTINGS, dice=seeded_dice(7), clock=clock)
    try:
        await start_match(service, PLACE, ALICE, BOB, "3 clock 1m")
        table = await service.table(PLACE)
        assert table is not None and table.timer is not None
        start = table.timer.turn_started_at
        fresh = await service.images.board(table, 0, language="en")
        began = await service.images.board(table, 0, start, language="en")
        assert fresh == began  # as the decision began
        later = await service.images.board(table, 0, start + 60, language="en")
        assert later != fresh  # bank ran 45 s
        plain = TableService(store, settings=SETTINGS, clock=clock)
        unclocked = replace(table, timer=None)
        assert await plain.images.board(unclocked, 0, language="en") != fresh
        plain.close()
    finally:
        service.close()
