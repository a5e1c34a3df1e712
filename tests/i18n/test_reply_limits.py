"""Every reply of the play path fits Discord in every language: a match between the longest
names played to its end with the cube and resignations, a money game with beavers, and the
refusals of each kind on the way (a long paste, a play the rules refuse, the wrong player), each
checked as Discord checks what it is sent (:func:`tests.cogs.test_reply_limits.check`: 2,000
characters of content, the embeds' limits, buttons, files)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.i18n.core import LANGUAGES, Language
from bot.service.models import Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.test_reply_limits import USERS, check
from tests.service.driver import FakeClock

PLAYERS = (USERS[0], USERS[1])
WATCHER = USERS[2]
# Beyond the play path, what else the catalog says, checked the same way.
OTHER_COMMANDS = (
    "!settings",
    "!leaderboard",
    "!stats",
    "!dice",
    "!help",
    "!help move",
    "!undo",
    "!puzzle",
    "!puzzle x",
    "!puzzle storm",
    "!puzzle daily",
)
LONG_PASTE = "13/7 " * 300  # a paste far over any limit: quoted only in part
TYPOS = ("!move 24/30", "!move bar/20", "!move 13/x", "!move 6/off", "!move 8/2(5)", LONG_PASTE)


async def said(
    service: TableService, place: Place, user: User, text: str, language: Language
) -> list[Reply]:
    """``user``'s ``text``, answered in ``language``."""
    if not text.startswith("!"):
        text = f"!move {text}"
    speaker = replace(user, language=language)
    return await service.run(place, speaker, text, users=lambda word: PLAYERS[1])


async def play_to_the_end(
    service: TableService, place: Place, seed: int, language: Language
) -> int:
    """Each decision of the match at ``place``, with refusals before it; how many replies
    were checked."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(3000):
        table = await service.table(place)
        if table is None:
            return checked
        match = table.match
        assert match.turn is not None
        user, other = PLAYERS[match.turn], PLAYERS[1 - match.turn]
        checked += check("not their turn", await said(service, place, other, "!roll", language))
        checked += check("a watcher", await said(service, place, WATCHER, "!double", language))
        if match.phase == "roll":
            word = "!double" if rng.random() < 0.2 else "!roll"
            checked += check(
                "a typo", await said(service, place, user, rng.choice(TYPOS), language)
            )
        elif match.phase == "move":
            if rng.random() < 0.05:
                word = f"!resign {rng.choice(['single', 'gammon', 'backgammon'])}"
            else:
                for typo in TYPOS:
                    checked += check(typo[:20], await said(service, place, user, typo, language))
                word = f"!move {rng.choice(match.legal_plays()).notation}"
        elif match.phase == "doubled":
            word = rng.choice(["!take", "!drop", "!beaver", "!take"])
        else:
            word = rng.choice(["!accept", "!reject"])
        checked += check(word, await said(service, place, user, word, language))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_play_path_fits_discord_in_every_language(
    tmp_path: Path, language: Language
) -> None:
    settings = Settings(database=tmp_path / "limits.sqlite3", match_threads=False)
    store = await Store.open(settings.database)
    service = TableService(
        store, settings=settings, dice=seeded_dice(5), clock=FakeClock(), images=False
    )
    try:
        checked = 0
        for place, terms in (
            (Place("guild", "match"), "3"),
            (Place("guild", "money"), "money jacoby beavers auto"),
        ):
            checked += check(
                "challenge",
                await said(service, place, PLAYERS[0], f"!challenge @x {terms}", language),
            )
            checked += check("accept", await said(service, place, PLAYERS[1], "!accept", language))
            if terms == "3":
                checked += await play_to_the_end(service, place, 7, language)
            else:  # a few turns: the beaver's prompt
                for _ in range(12):
                    table = await service.table(place)
                    assert table is not None and table.match.turn is not None
                    checked += await _one(service, place, table.match.phase, language)
        for word in OTHER_COMMANDS:
            checked += check(word, await said(service, place, PLAYERS[0], word, language))
        assert checked > 100
    finally:
        service.close()
        await store.close()
        await store.close()


async def _one(service: TableService, place: Place, phase: str, language: Language) -> int:
    table = await service.table(place)
    assert table is not None and table.match.turn is not None
    user = PLAYERS[table.match.turn]
    word = {"roll": "!double", "doubled": "!beaver", "move": "!move "}[phase]
    if phase == "move":
        word += table.match.legal_plays()[0].notation
    return check(word, await said(service, place, user, word, language))
