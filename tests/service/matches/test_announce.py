"""Which match state a reply shows, which were never shown, and who is seated where."""

from __future__ import annotations

import random

from bot.service.commands.limits import RECENT_SECONDS
from bot.service.models import Decision
from bot.service.table import TableService
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, public, start_match, take_turn


def restarted(service: TableService, clock: FakeClock) -> TableService:
    """The bot started again a second later: a new service on the same database."""
    clock.advance(1)
    return TableService(service.store, settings=service.settings, clock=clock, images=False)


async def test_a_status_reply_names_the_state_it_shows(
    service: TableService, clock: FakeClock
) -> None:
    [offer] = public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    assert offer.announces is None  # a challenge is no match state
    [started] = public(await service.matches.accept(PLACE, BOB))
    table = await service.table(PLACE)
    assert table is not None
    assert started.announces == (table.row.id, table.row.version)
    # Not while this service runs: its reply is on its way. After a restart, it was never shown.
    assert await service.unannounced() == []
    later = restarted(service, clock)
    assert await later.unannounced() == [(PLACE, table.row.id, table.row.version)]

    await later.mark_all_announced({table.row.id: table.row.version})
    assert await later.unannounced() == []
    await take_turn(service, PLACE, (ALICE, BOB), random.Random(1), double_rate=0)
    table = await service.table(PLACE)
    assert table is not None
    assert await restarted(service, clock).unannounced() == [
        (PLACE, table.row.id, table.row.version)
    ]


async def test_the_current_status_is_the_prompt_with_board_and_buttons(
    service: TableService,
) -> None:
    assert await service.current_status(PLACE) == []
    await start_match(service, PLACE, ALICE, BOB)
    rng = random.Random(3)
    while True:
        table = await service.table(PLACE)
        assert table is not None
        if table.match.phase == "roll":
            break
        await take_turn(service, PLACE, (ALICE, BOB), rng, double_rate=0)
    [status] = await service.current_status(PLACE)
    turn = table.match.turn
    assert turn is not None
    assert status.text == f"{table.names[turn]}: `!roll` or `!double`."
    assert status.decision is Decision.TURN and status.decision_for == table.row.player_ids[turn]
    assert status.mention == (table.row.player_ids[turn],)
    assert status.announces == (table.row.id, table.row.version)


async def test_seated_follows_the_challenge_the_match_and_its_end(
    service: TableService, clock: FakeClock
) -> None:
    assert await service.seated(PLACE) == frozenset()
    public(await service.matches.challenge(PLACE, ALICE, BOB, "1"))
    assert await service.seated(PLACE) == {ALICE.id, BOB.id}
    clock.advance(service.settings.challenge_timeout_minutes * 60)
    assert await service.seated(PLACE) == frozenset()  # expired

    await start_match(service, PLACE, ALICE, CAROL, 1)
    assert await service.seated(PLACE) == {ALICE.id, CAROL.id}
    public(await service.matches.abort(PLACE, ALICE))
    public(await service.matches.abort(PLACE, CAROL))
    assert await service.seated(PLACE) == {ALICE.id, CAROL.id}  # they ask for stats at once
    clock.advance(RECENT_SECONDS + 1)
    assert await service.seated(PLACE) == frozenset()
