"""A tournament's room in a player's language: a German press of the sign-up buttons is
answered in German (its entrants counted in German), English as it was."""

from __future__ import annotations

from bot.console import SERVER
from bot.service.keys import SignupKey
from bot.service.models import Place, User
from tests.service.tournaments.test_tournaments import HOME, Table, created


async def test_a_german_player_joins_and_leaves_in_german(table: Table) -> None:
    tid = await created(table, "Spring knockout 1", [])
    place, p7 = Place(SERVER, HOME), User("p7", "p7")
    german = User("p7", "p7", "de")
    joined = (await table.service.press(place, german, "join", SignupKey(tid))).replies[1]
    again = (await table.service.press(place, german, "join", SignupKey(tid))).replies[1]
    left = (await table.service.press(place, german, "leave", SignupKey(tid))).replies[1]
    assert joined.text == "p7 tritt Spring bei: 1 Teilnehmer (p7)."
    assert again.private and again.text == "Du bist schon in Spring (1 Teilnehmer)."
    assert left.text == "p7 verlässt Spring."
    english = (await table.service.press(place, p7, "join", SignupKey(tid))).replies[1]
    assert english.text == "p7 joins Spring: 1 entrant (p7)."


async def test_a_tournaments_status_is_said_in_the_servers_language(table: Table) -> None:
    await created(table, "Spring knockout 1", ["p1", "p2"])
    assert "cancels Spring" in await table.say(f"#{HOME} org: !tournament Spring cancel")
    await table.say(f"#{HOME} org: !settings language de")
    shown = await table.say(f"#{HOME} p1: !tournament Spring")
    refused = await table.say(f"#{HOME} org: !tournament Spring remove @p1 gone")
    assert "abgesagt" in shown and "cancelled" not in shown, shown
    assert "Spring ist abgesagt: seine Ergebnisse sind endgültig." in refused, refused


async def test_a_tournaments_start_and_pairings_are_said_in_the_servers_language(
    table: Table,
) -> None:
    await created(table, "Spring knockout 1", ["p1", "p2", "p3", "p4"])
    await table.say(f"#{HOME} org: !settings language el")
    started = await table.say(f"#{HOME} org: !tournament start")
    assert "Το **Spring** ξεκινά: 4 παίκτες" in started, started  # noqa: RUF001
    shown = await table.say(f"#{HOME} p1: !tournament")
    assert " εναντίον " in shown and " vs " not in shown, shown
    cancelled = await table.say(f"#{HOME} org: !tournament cancel")
    assert "(χωρίς αιτιολογία)" in cancelled and "no reason" not in cancelled, cancelled
