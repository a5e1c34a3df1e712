"""Matches in a DM or group DM (a user install's): a place in no server, so on no server's
leaderboard: unrated, and said so when the match is offered and when it starts."""

from __future__ import annotations

import pytest

from bot.i18n.records import PRIVATE_RECORD
from bot.service.models import ENGINE_USER, PRIVATE_SERVER, Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.conftest import ALICE, BOB, PLACE
from tests.service.driver import FakeClock, public
from tests.service.fake_engine import FakeEngine

GROUP_DM = Place(PRIVATE_SERVER, "555")
UNRATED = "(unrated: games in DMs are)"


def test_only_the_places_of_dms_are_private() -> None:
    assert GROUP_DM.private
    assert not PLACE.private and not Place("123", "456").private


@pytest.mark.parametrize("place", [GROUP_DM, PLACE], ids=["group DM", "server"])
async def test_a_match_between_people_in_a_dm_is_unrated_and_says_so(
    service: TableService, store: Store, place: Place
) -> None:
    [challenge] = public(await service.matches.challenge(place, ALICE, BOB, "3"))
    started = public(await service.matches.accept(place, BOB))
    row = await store.matches.latest(place.server_id, place.channel_id)
    assert row is not None
    assert row.rated == (not place.private)
    said = (UNRATED in challenge.text, UNRATED in started[0].text)
    assert said == (place.private, place.private), (challenge.text, started[0].text)


async def test_hints_say_why_a_dm_match_is_unrated_once(service: TableService) -> None:
    [challenge] = public(await service.matches.challenge(GROUP_DM, ALICE, BOB, "3 hints"))
    assert "with hints (unrated)" in challenge.text and UNRATED not in challenge.text


@pytest.mark.parametrize("place", [GROUP_DM, PLACE], ids=["bot's DM", "server"])
async def test_a_game_against_the_bot_in_a_dm_is_unrated_even_where_bot_games_are_rated(
    store: Store, clock: FakeClock, place: Place
) -> None:
    service = TableService(
        store,
        settings=Settings(bot_games_rated=True),
        dice=seeded_dice(7),
        clock=clock,
        images=False,
        engine=FakeEngine(),
    )
    started = public(await service.matches.challenge(place, ALICE, ENGINE_USER, "1"))
    row = await store.matches.latest(place.server_id, place.channel_id)
    assert row is not None and row.rated == (not place.private)
    assert ("unrated;" in started[0].text) == place.private, started[0].text


async def test_a_record_read_in_a_dm_says_its_games_are_unrated(service: TableService) -> None:
    public(await service.matches.challenge(GROUP_DM, ALICE, BOB, "1"))
    public(await service.matches.accept(GROUP_DM, BOB))
    table = await service.table(GROUP_DM)
    assert table is not None
    on_turn, other = (ALICE, BOB) if table.match.turn == 0 else (BOB, ALICE)
    public(await service.matches.resign(GROUP_DM, on_turn, None))
    public(await service.matches.accept(GROUP_DM, other))
    [record] = public(await service.server.stats(GROUP_DM, ALICE))
    assert record.text.endswith(PRIVATE_RECORD("en")), record.text
    assert "rated matches 0 won, 0 lost" in record.text, record.text
    [elsewhere] = public(await service.server.stats(PLACE, ALICE))
    assert PRIVATE_RECORD("en") not in elsewhere.text


async def test_in_a_dm_commands_are_shown_as_slash_commands(service: TableService) -> None:
    """A typed message may never reach the bot there: the prompts show the slash commands."""
    [challenge] = public(await service.matches.challenge(GROUP_DM, ALICE, BOB, "3"))
    assert "bob: `/accept` or `/decline`" in challenge.text, challenge.text
    started = "\n".join(r.text for r in public(await service.matches.accept(GROUP_DM, BOB)))
    assert "to move" in started and "`/move <from>/<to> …`" in started, started
    assert "`!" not in challenge.text + started
    [server] = public(await service.matches.challenge(PLACE, ALICE, BOB, "3"))
    assert "bob: `!accept` or `!decline`" in server.text, server.text


async def test_a_dms_match_is_read_by_number_only_in_that_dm(service: TableService) -> None:
    public(await service.matches.challenge(GROUP_DM, ALICE, BOB, "1"))
    public(await service.matches.accept(GROUP_DM, BOB))
    table = await service.table(GROUP_DM)
    assert table is not None
    number = table.row.id
    [there] = await service.matches.export(GROUP_DM, ALICE, str(number))
    assert not there.private and "Match ID" in there.text, there.text
    for elsewhere, said in (
        (Place(PRIVATE_SERVER, "556"), "in this DM"),
        (PLACE, "on this server"),
    ):
        [refused] = await service.matches.export(elsewhere, ALICE, str(number))
        assert refused.private and refused.text == f"There is no match #{number} {said}."
