"""The replies that were the last in English (a challenge refused, abort, void, a rematch, a
match looked up) come in the language of the command, as the catalog has them, and fit Discord
in every language; and every entry of the catalog fits Discord with long fields."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import help_details, tournaments
from bot.i18n import play as say
from bot.i18n.catalog import entries
from bot.i18n.core import ENGLISH, LANGUAGES, Language, Message, Plural, fields_of
from bot.service.models import Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from bot.store.schema import TOURNAMENT_STATUSES
from tests.cogs.test_reply_limits import USERS, check
from tests.service.driver import FakeClock

MESSAGE_LIMIT = 2000
PLACE = Place("guild", "table")
ALONE_MARGIN = 200  # the command's usage line above its details
LONG_FIELD = "x" * 40  # a name at Discord's longest is 32 characters, plus its markdown


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    settings = Settings(database=tmp_path / "table.sqlite3", match_threads=False)
    store = await Store.open(settings.database)
    table = TableService(
        store, settings=settings, dice=seeded_dice(3), clock=FakeClock(), images=False
    )
    yield table
    table.close()
    await store.close()


async def said(service: TableService, user: User, text: str, opponent: User) -> list[str]:
    replies: list[Reply] = await service.run(PLACE, user, text, users=lambda word: opponent)
    check(text, replies)
    return [reply.text for reply in replies]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_refusals_around_a_table_speak_the_commands_language(
    service: TableService, language: Language
) -> None:
    alice, bob = (dataclasses.replace(user, language=language) for user in USERS[:2])
    names = {"first": alice.name, "second": bob.name}

    async def alice_says(text: str, opponent: User = bob) -> list[str]:
        return await said(service, alice, text, opponent)

    assert await alice_says("!accept") == [say.NO_CHALLENGE_TO["accept"](language, prefix="!")]
    assert await alice_says("!challenge @alice", alice) == [say.NOT_YOURSELF(language, prefix="!")]
    assert await alice_says("!challenge @bob money 3 jacoby") == [
        say.NOT_A_MATCH_OPTION(language, quoted="'3'")
    ]
    assert await alice_says("!rematch") == [say.REMATCH_NO_MATCH(language, prefix="!")]
    await alice_says("!challenge @bob 3")
    assert await alice_says("!challenge @bob 3") == [say.CHALLENGE_OPEN(language, prefix="!")]
    assert await alice_says("!decline") == [say.ONLY_CHALLENGED_DECLINES(language, prefix="!")]
    await said(service, bob, "!accept", alice)
    asked = await alice_says("!abort")
    assert asked == [say.ABORT_ASKS(language, who=alice.name, other=bob.name, prefix="!")]
    assert await alice_says("!abort") == [
        say.ABORT_ASKED_ALREADY(language, other=bob.name, prefix="!")
    ]
    assert await alice_says("!void") == [  # the console's users moderate
        say.VOIDED(language, who=alice.name, **names)
    ]
    assert await alice_says("!abort") == [say.NO_MATCH_HERE(language, prefix="!")]
    english = say.ABORT_ASKS(ENGLISH, who=alice.name, other=bob.name, prefix="!")
    assert (asked == [english]) == (language == ENGLISH)  # the language's own words


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_fits_discord_with_long_fields(language: Language) -> None:
    """Each entry with every field 40 characters long stays well within a message: half of one
    (a reply joins a few of them), or, for a command's details that ``!help <command>`` says
    alone, all of one but room for the command's line above them."""
    alone = {entry.key for entry in vars(help_details).values() if isinstance(entry, Message)}
    for key, entry in entries().items():
        limit = MESSAGE_LIMIT - ALONE_MARGIN if key in alone else MESSAGE_LIMIT // 2
        forms = entry.en if isinstance(entry, Plural) else (entry.en,)
        for form in forms:
            fields = {name: LONG_FIELD for name in fields_of(form) - {"n"}}
            if isinstance(entry, Plural):
                text = entry(language, 2, **fields)
            else:
                text = entry(language, **fields)
            assert len(text) <= limit, (key, len(text))


def test_every_tournament_status_has_its_words() -> None:
    """A status the store may hold is said from the catalog (`!tournament`, its report)."""
    assert set(tournaments.STATUS) == set(TOURNAMENT_STATUSES)
