"""After a match: the result summary and the rematch (same terms; either player offers or
accepts; against GNU Backgammon at once)."""

from __future__ import annotations

import json

import pytest

from bot.rules.match import Match
from bot.service.keys import RematchKey
from bot.service.matches.rematch import REMATCH_LEAD, terms_text
from bot.service.models import ENGINE_ID, ENGINE_USER, Decision, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, CAROL, PLACE
from tests.service.driver import FakeClock, public, start_match
from tests.service.fake_engine import FakeEngine


async def finish_by_resignation(service: TableService, users: tuple[User, User]) -> User:
    """The player on roll resigns a backgammon, the other accepts; returns the loser."""
    while True:
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        mover = users[table.match.turn]
        if table.match.phase == "move":
            break
        public(await service.matches.roll(PLACE, mover))
    public(await service.matches.resign(PLACE, mover, "backgammon"))
    [ended] = public(await service.matches.accept(PLACE, users[1 - users.index(mover)]))
    assert ended.decision is Decision.REMATCH
    return mover


async def test_the_end_sums_up_and_asks_the_loser_for_a_rematch(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    loser = await finish_by_resignation(service, (ALICE, BOB))
    winner = BOB if loser == ALICE else ALICE
    table = await service.latest_table(PLACE)
    assert table is not None
    [end] = public(
        await service.matches.board(PLACE, CAROL)
    )  # the board shows it; the end message:
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending.decision is Decision.REMATCH
    assert pending.user_id == loser.id and pending.others == (winner.id,)
    assert pending.key == RematchKey(table.row.id)
    assert "won the match" in end.text


async def test_the_end_message_has_score_length_winner_ratings_and_analysis(
    service: TableService,
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    table = await service.table(PLACE)
    assert table is not None
    while True:
        table = await service.table(PLACE)
        assert table is not None and table.match.turn is not None
        mover = (ALICE, BOB)[table.match.turn]
        if table.match.phase == "move":
            break
        public(await service.matches.roll(PLACE, mover))
    public(await service.matches.resign(PLACE, mover, "backgammon"))
    winner = BOB if mover == ALICE else ALICE
    [end] = public(await service.matches.accept(PLACE, winner))
    assert f"{winner.name} wins a 3-point match 3-0" in end.text
    assert f"Ratings: {winner.name} 15" in end.text and "(+" in end.text and "(\u2212" in end.text
    assert "`!analysis`" in end.text and "`!rematch`" in end.text
    assert end.decision is Decision.REMATCH and end.decision_for == mover.id
    assert end.decision_key == RematchKey(table.row.id)


async def test_the_loser_offers_the_same_terms_and_the_winner_accepts(
    service: TableService,
) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "money jacoby beavers"))
    public(await service.matches.accept(PLACE, BOB))
    loser = await finish_by_resignation(service, (ALICE, BOB))
    winner = BOB if loser == ALICE else ALICE
    [offer] = public(await service.matches.rematch(PLACE, loser))
    assert offer.text.startswith(f"{REMATCH_LEAD} {loser.name} challenges {winner.name}")
    assert "money game (Jacoby, beavers)" in offer.text
    assert offer.decision is Decision.CHALLENGE and offer.decision_for == winner.id
    challenge = await service.open_challenge(PLACE)
    assert challenge is not None and challenge.challenger_id == loser.id
    assert json.loads(challenge.options) == {"jacoby": True, "beavers": True}
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending.rematch_key is not None  # the old button accepts

    [refusal] = await service.matches.rematch(PLACE, loser)  # asked twice: told, nothing changes
    assert refusal.private and "already" in refusal.text

    [started] = public(await service.matches.rematch(PLACE, winner))  # the other player accepts
    assert f"{winner.name} accepts" in started.text
    table = await service.table(PLACE)
    assert table is not None and table.row.player_ids == (loser.id, winner.id)  # roles swapped
    assert table.match.length == 0 and table.match.options.jacoby and table.match.options.beavers


async def test_hints_carry_over(service: TableService) -> None:
    public(await service.matches.challenge(PLACE, ALICE, BOB, "1 hints"))
    public(await service.matches.accept(PLACE, BOB))
    loser = await finish_by_resignation(service, (ALICE, BOB))
    [offer] = public(await service.matches.rematch(PLACE, loser))
    assert "1-point match with hints (unrated)" in offer.text


def test_terms_text_starts_the_same_match_again() -> None:
    assert terms_text(Match.start(5)) == "5"
    assert terms_text(Match.start(5), hints=True) == "5 hints"
    money = Match.start(0, jacoby=True, automatic_doubles=2)
    assert terms_text(money) == "money jacoby auto 2"


async def test_refusals_change_nothing(service: TableService) -> None:
    [nothing] = await service.matches.rematch(PLACE, ALICE)
    assert nothing.private and "No match has been played" in nothing.text
    await start_match(service, PLACE, ALICE, BOB, 3)
    [playing] = await service.matches.rematch(PLACE, ALICE)
    assert playing.private and "being played" in playing.text
    loser = await finish_by_resignation(service, (ALICE, BOB))
    [watcher] = await service.matches.rematch(PLACE, CAROL)
    assert watcher.private and "Only" in watcher.text
    assert await service.open_challenge(PLACE) is None
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending.user_id == loser.id


async def test_the_winner_may_offer_it_too(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    loser = await finish_by_resignation(service, (ALICE, BOB))
    winner = BOB if loser == ALICE else ALICE
    [offer] = public(await service.matches.rematch(PLACE, winner))
    assert offer.decision_for == loser.id
    [started] = public(await service.matches.rematch(PLACE, loser))
    assert "accepts" in started.text


# -- against GNU Backgammon --------------------------------------------------------------------


@pytest.fixture
def engine_service(store: Store, clock: FakeClock) -> TableService:
    return TableService(
        store,
        settings=Settings(),
        dice=seeded_dice(42),
        clock=clock,
        images=False,
        engine=FakeEngine(),
    )


async def test_against_the_bot_the_rematch_starts_at_once(engine_service: TableService) -> None:
    service = engine_service
    public(await service.matches.challenge(PLACE, ALICE, ENGINE_USER, "1 beginner tutor"))
    for _ in range(200):
        table = await service.table(PLACE)
        if table is None:
            break
        assert table.match.turn is not None
        if table.match.phase == "move":
            public(await service.matches.resign(PLACE, ALICE, "backgammon"))
            continue
        public(await service.matches.roll(PLACE, ALICE))
    last = await service.latest_table(PLACE)
    assert last is not None and last.row.status == "finished"
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending.decision is Decision.REMATCH
    assert pending.user_id == ALICE.id and pending.others == ()
    replies: list[Reply] = public(await service.matches.rematch(PLACE, ALICE))
    assert replies[0].text.startswith(f"{REMATCH_LEAD} alice vs GNU Backgammon (beginner)")
    assert "with the tutor" in replies[0].text
    table = await service.table(PLACE)
    assert table is not None and table.row.player_ids == (ALICE.id, ENGINE_ID)
    assert table.row.engine_level == "beginner" and table.row.tutor
    assert table.match.length == 1


# -- matches that end without a last play ---------------------------------------------------


async def test_a_claimed_match_ends_with_the_summary_and_the_rematch(
    service: TableService, clock: FakeClock
) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    idle = (ALICE, BOB)[table.match.turn]
    claimer = BOB if idle == ALICE else ALICE
    clock.advance(24 * 3600 + 5)
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert "claims the match" in claimed.text
    assert "Ratings:" in claimed.text and f"{claimer.name} 15" in claimed.text
    assert "`!rematch`" in claimed.text and "`!analysis`" in claimed.text
    assert claimed.decision is Decision.REMATCH and claimed.decision_for == idle.id
    assert claimed.decision_key == RematchKey(table.row.id)
    ended = await service.latest_table(PLACE)
    assert ended is not None and claimed.announces == (ended.row.id, ended.row.version)
    pending = await service.pending_decision(PLACE)
    assert pending is not None and pending.key == claimed.decision_key
    [offer] = public(await service.matches.rematch(PLACE, idle))
    assert offer.text.startswith(REMATCH_LEAD) and offer.decision is Decision.CHALLENGE


async def test_a_voided_or_aborted_match_offers_no_rematch(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    [voided] = public(await service.matches.void(PLACE, CAROL, moderator=True))
    assert voided.decision is None and "`!rematch`" not in voided.text
    assert await service.pending_decision(PLACE) is None
    await start_match(service, PLACE, ALICE, BOB, 3)
    public(await service.matches.abort(PLACE, ALICE))
    [aborted] = public(await service.matches.abort(PLACE, BOB))
    assert aborted.decision is None and "`!rematch`" not in aborted.text
    assert await service.pending_decision(PLACE) is None
