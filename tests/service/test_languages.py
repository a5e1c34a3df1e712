"""Replies in the language of the command: a German player's illegal move is refused in German
through the service (and in English without it), each language saying the same reason; a
server's language (``!settings language``) answers its typed commands in the console."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.i18n import gnubg
from bot.i18n.core import LANGUAGES, Language
from bot.service.models import AnalysisQueued, Place, TurnQueued
from bot.service.table import TableService
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.console_lines import ConsoleTable
from tests.service.driver import start_match

PLACE = Place("guild", "languages")
NO_USERS = lambda word: None  # noqa: E731


async def mover(service: TableService) -> tuple[str, str]:
    """The name of the player to move after the opening roll, and the other's."""
    table = await service.table(PLACE)
    assert table is not None and table.match.turn is not None and table.match.phase == "move"
    return (ALICE.name, BOB.name) if table.match.turn == 0 else (BOB.name, ALICE.name)


async def refusal(
    service: TableService, text: str, user_name: str, language: Language = "en"
) -> str:
    user = replace(ALICE if user_name == ALICE.name else BOB, language=language)
    [reply] = await service.run(PLACE, user, text, users=NO_USERS)
    assert reply.private
    return reply.text


async def test_a_german_players_illegal_move_is_refused_in_german(service: TableService) -> None:
    await start_match(service, PLACE, ALICE, BOB, 3)
    who, other = await mover(service)
    english = await refusal(service, "!move 24/30", who)
    assert english == (
        "That is not a move: there is no point 30 (1-24) (you typed '24/30'). "
        "`/move` lists your legal plays."
    )
    german = await refusal(service, "!move 24/30", who, "de")
    assert german == (
        "Das ist kein Zug: es gibt keinen Punkt 30 (1-24) (du hast '24/30' eingegeben). "
        "`/move` listet deine legalen Züge."
    )
    roll = await dice(service)
    assert await refusal(service, "!move 13/9 13/9 13/9", who, "de") == (
        f"Zu viele Züge: dein Wurf {roll} spielt 2 Würfel, einen Zug pro Würfel, und das "
        "sind 3 Züge (du hast '13/9 13/9 13/9' eingegeben). `/move` listet deine legalen Züge."
    )
    assert await refusal(service, "!roll", other, "de") == (
        f"Du bist nicht an der Reihe zu würfeln: wir warten, bis {who} zieht."
    )
    german_alice = replace(ALICE, language="de")
    [score] = await service.run(PLACE, german_alice, "!score", users=NO_USERS)
    assert score.text == "alice 0, bob 0 (Match auf 3). Partie 1; Doppler 1, in der Mitte."
    [pips] = await service.run(PLACE, german_alice, "!pips", users=NO_USERS)
    assert pips.text == "Pips: alice 167, bob 167 (gleichauf)."
    assert await refusal(service, "!roll", other) == (
        f"It's not your turn to roll: waiting for {who} to move."
    )


async def dice(service: TableService) -> str:
    table = await service.table(PLACE)
    assert table is not None and table.match.dice is not None
    first, second = table.match.dice
    return f"{first}-{second}"


@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_language_refuses_in_its_own_words(
    service: TableService, language: Language
) -> None:
    """The same refusals in each language: the reason is there, never the English one (but
    in English), and the play typed is quoted."""
    await start_match(service, PLACE, ALICE, BOB, 3)
    who, other = await mover(service)
    said = [
        await refusal(service, "!move 24/30", who, language),
        await refusal(service, "!move bar/20", who, language),
        await refusal(service, "!roll", other, language),
        await refusal(service, "!double", who, language),
    ]
    english = [
        await refusal(service, "!move 24/30", who),
        await refusal(service, "!move bar/20", who),
        await refusal(service, "!roll", other),
        await refusal(service, "!double", who),
    ]
    assert "'24/30'" in said[0] and "'bar/20'" in said[1]
    if language == "en":
        assert said == english
    else:
        assert all(mine != theirs for mine, theirs in zip(said, english, strict=True))


async def test_a_servers_language_answers_its_typed_commands(service: TableService) -> None:
    table = ConsoleTable(service)
    assert "English (`en`)" in await table.say("carol: !settings")
    said = await table.say("carol: !settings language Deutsch")
    assert "'Deutsch' is not a language I speak" in said
    assert "is not a setting" in await table.say("carol: !settings colour blue")
    # The console's user is the bot's operator: a moderator.
    said = await table.say("carol: !settings language de")
    assert "Getippte Befehle auf diesem Server bekommen jetzt Antworten auf Deutsch." in said
    assert "Tippe `!help` für die Befehle." in await table.say("carol: !")
    await table.say("carol: !settings language en")
    assert "Type `!help` for the commands." in await table.say("carol: !")


async def test_only_moderators_choose_the_language(service: TableService) -> None:
    [refused] = await service.server.settings(PLACE, CAROL, "language de")
    assert refused.private and "Only moderators" in refused.text
    assert await service.server.languages.of(PLACE.server_id) == "en"
    [chosen] = await service.server.settings(PLACE, CAROL, "language es", moderator=True)
    assert (
        chosen.text == "Los comandos escritos en este servidor ahora reciben respuestas en Español."
    )
    assert await service.server.languages.of(PLACE.server_id) == "es"
    assert await service.store.servers.language(PLACE.server_id) == "es"


async def test_two_languages_at_once_in_one_channel(service: TableService) -> None:
    """A German and a Greek player's commands run together at one table (the channel's lock
    taken in turn): each refusal and each help comes in its own player's language, as it does
    one at a time."""
    await start_match(service, PLACE, ALICE, BOB, 3)
    who, other = await mover(service)
    german: tuple[str, Language] = (who, "de")
    greek: tuple[str, Language] = (other, "el")

    async def both() -> list[str]:
        return list(
            await asyncio.gather(
                refusal(service, "!move 24/30", *german),
                refusal(service, "!roll", *greek),
                refusal(service, "!move 24/30", *greek),
                refusal(service, "!roll", *german),
            )
        )

    alone = [
        await refusal(service, "!move 24/30", *german),
        await refusal(service, "!roll", *greek),
        await refusal(service, "!move 24/30", *greek),
        await refusal(service, "!roll", *german),
    ]
    assert await both() == alone
    assert alone[0].startswith("Das ist kein Zug") and "'24/30'" in alone[0]
    assert alone[1] != await refusal(service, "!roll", other)  # not the English
    assert alone[2].startswith("Δεν είναι η σειρά σου"), alone[2]  # noqa: RUF001
    assert alone[3].startswith("Du hast schon"), alone[3]
    helps = await asyncio.gather(
        *(
            service.run(PLACE, replace(ALICE, language=language), "!help", users=NO_USERS)
            for language in ("de", "el", "de", "el")
        )
    )
    texts = [sheet[0].text for sheet in helps]
    assert texts[0] == texts[2] and texts[1] == texts[3] and texts[0] != texts[1]
    assert "Backgammon-Befehle" in texts[0]
    assert "Backgammon-Befehle" not in texts[1] and "Backgammon commands" not in texts[1]


def test_a_users_language_changes_no_key() -> None:
    """The language rides with the user but is no part of who they are: the same lock, seat
    and dict key in any language."""
    german, greek = replace(ALICE, language="de"), replace(ALICE, language="el")
    assert german == greek == ALICE and hash(german) == hash(greek) == hash(ALICE)
    assert {german: 1}[greek] == 1


async def test_a_job_follows_in_the_language_it_was_queued_in(service: TableService) -> None:
    """A bot turn or an analysis queued by a command carries that command's language: whoever
    follows it later (the adapter, with no command of its own) hears it in that language."""
    prefix = service.prefix
    [gone] = [reply async for reply in service.follow(TurnQueued(404, "de"))]
    assert (
        gone.text == gnubg.QUEUE_GONE("de", prefix=prefix) != gnubg.QUEUE_GONE("en", prefix=prefix)
    )
    [missing] = [reply async for reply in service.follow(AnalysisQueued(404, "el"))]
    assert missing.text == gnubg.ANALYSIS_NOT_RUNNING("el", id=404, prefix=prefix)
    assert missing.text != gnubg.ANALYSIS_NOT_RUNNING("en", id=404, prefix=prefix)


async def test_greek_says_a_match_in_the_case_its_place_asks(service: TableService) -> None:
    """The object of a verb or a preposition is accusative (σε αγώνα), a phrase standing
    alone after a comma or a colon nominative (αγώνας)."""
    alice, bob = replace(ALICE, language="el"), replace(BOB, language="el")
    [challenge] = await service.run(PLACE, alice, "!challenge @bob 3", users=lambda _: BOB)
    assert "προκαλεί τον bob σε αγώνα 3 πόντων." in challenge.text, challenge.text
    accepted = (await service.run(PLACE, bob, "!accept", users=NO_USERS))[0].text
    assert accepted.startswith("Ο bob δέχεται: alice εναντίον bob, αγώνας 3 πόντων."), accepted  # noqa: RUF001
