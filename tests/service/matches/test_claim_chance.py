"""A claim rated by the claimer's match-winning chance where GNU Backgammon can judge it (the
expected rating change), and by today's all-or-nothing rule where it can't or for money."""

from __future__ import annotations

import math

import pytest

from bot.rules.rating import claim_change, expected_change, rate_match
from bot.service.models import User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock, public, start_match
from tests.service.fake_engine import FakeEngine

DAY = 24 * 3600.0
QUIET = Settings(analysis_auto=False)  # a claimed match is not analysed here


def test_the_expected_change_weighs_win_and_loss() -> None:
    claimer, other = (1600.0, 50), (1500.0, 500)
    won = rate_match(claimer, other, 5)
    lost = rate_match(other, claimer, 5)
    change = expected_change(claimer, other, 5, 0.7)
    assert change.winner_rating == pytest.approx(
        1600 + 0.7 * (won.winner_rating - 1600) + 0.3 * (lost.loser_rating - 1600)
    )
    assert change.loser_rating == pytest.approx(
        1500 + 0.7 * (won.loser_rating - 1500) + 0.3 * (lost.winner_rating - 1500)
    )
    assert change.winner_experience == 55 and change.loser_experience == 505
    # Certain outcomes are the plain result.
    assert expected_change(claimer, other, 5, 1.0).winner_rating == won.winner_rating
    assert expected_change(claimer, other, 5, 0.0).winner_rating == lost.loser_rating
    with pytest.raises(ValueError, match=r"1\.5"):
        expected_change(claimer, other, 5, 1.5)


async def claimable(service: TableService, clock: FakeClock, length: str = "5") -> tuple[User, int]:
    await start_match(service, PLACE, ALICE, BOB, length)
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    waiting = table.match.turn
    clock.advance(DAY + 5)
    return (ALICE, BOB)[1 - waiting], 1 - waiting


@pytest.mark.parametrize("mwc", [0.25, 0.75])
async def test_a_claim_is_rated_by_the_claimers_chance(
    store: Store, clock: FakeClock, mwc: float
) -> None:
    engine = FakeEngine(mwc=mwc)  # player 0's chance
    service = TableService(
        store, settings=QUIET, dice=seeded_dice(5), clock=clock, images=False, engine=engine
    )
    claimer, seat = await claimable(service, clock)
    chance = mwc if seat == 0 else 1 - mwc
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert engine.calls == ["match_winning_chance"]
    assert "claims the match" in claimed.text
    assert f"chance to win the match from this position is {100 * chance:.1f}%" in claimed.text
    assert f"{100 * chance:.1f}% of its change for a win" in claimed.text
    expected = claim_change((1500.0, 0), (1500.0, 0), 5, chance)
    winner = await store.players.get(PLACE.server_id, claimer.id)
    loser = await store.players.get(PLACE.server_id, (BOB if claimer == ALICE else ALICE).id)
    assert winner is not None and loser is not None
    assert winner.rating == pytest.approx(expected.winner_rating)
    assert loser.rating == pytest.approx(expected.loser_rating)
    # Equal ratings: a win is worth +4 K sqrt(n) P = 4*5*sqrt(5)*0.5; expected 2p - 1 of it,
    # and nothing at all where that is a loss for the claimer.
    gain = 10 * math.sqrt(5) * (2 * chance - 1)
    assert winner.rating - 1500 == pytest.approx(max(0.0, gain))
    assert loser.rating - 1500 == pytest.approx(min(0.0, -gain))
    held = "neither rating moves" in claimed.text
    assert held == (gain < 0)
    if held:
        assert claimed.text.count("1500.0 (\u00b10.0)") == 2
    assert winner.wins == 1 and loser.losses == 1 and winner.experience == 5


async def test_an_engine_failure_refuses_the_claim_and_changes_nothing(
    store: Store, clock: FakeClock
) -> None:
    engine = FakeEngine(failures=1)
    service = TableService(
        store, settings=QUIET, dice=seeded_dice(5), clock=clock, images=False, engine=engine
    )
    claimer, _ = await claimable(service, clock)
    [refused] = await service.matches.claim(PLACE, claimer)
    assert refused.private and "try `!claim` again" in refused.text
    assert await service.table(PLACE) is not None
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert "%" in claimed.text


async def test_a_refused_claim_never_asks_the_engine(store: Store, clock: FakeClock) -> None:
    engine = FakeEngine()
    service = TableService(
        store, settings=QUIET, dice=seeded_dice(5), clock=clock, images=False, engine=engine
    )
    await start_match(service, PLACE, ALICE, BOB, "5")
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None
    claimer = (ALICE, BOB)[1 - table.match.turn]
    [early] = await service.matches.claim(PLACE, claimer)
    assert early.private and "left to act" in early.text
    assert engine.calls == []


async def test_money_games_and_no_gnubg_keep_the_plain_rule(store: Store, clock: FakeClock) -> None:
    engine = FakeEngine(available=False)
    service = TableService(
        store, settings=QUIET, dice=seeded_dice(5), clock=clock, images=False, engine=engine
    )
    claimer, _ = await claimable(service, clock)
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert "wins (rated)." in claimed.text and "%" not in claimed.text
    winner = await store.players.get(PLACE.server_id, claimer.id)
    assert winner is not None and winner.rating == pytest.approx(1500 + 10 * math.sqrt(5))

    money = FakeEngine()
    service = TableService(
        store, settings=QUIET, dice=seeded_dice(5), clock=clock, images=False, engine=money
    )
    claimer, _ = await claimable(service, clock, "money")
    [claimed] = public(await service.matches.claim(PLACE, claimer))
    assert "%" not in claimed.text and money.calls == []
