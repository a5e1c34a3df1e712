"""Every reply of every command, built at its largest, fits what Discord accepts: 2,000
characters of content (none cut off), embed limits, 5 rows of buttons, 10 files of at most
10 MB, 25 autocomplete choices of at most 100 characters.

"At its largest": the longest names (cut to 32 characters), a 25-point match played to its end
with the cube, a leaderboard of ten such names, the analysis of that match and its review, an
evaluation with every play listed, and the help of every command, in every language the bot
speaks (the match is played once; its replies are asked for in each). Each reply goes through
the very code that sends it (:func:`bot.cogs.sending.message_kwargs`), and what would be sent
is checked as the fake Discord of the end-to-end tests checks it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cogs.sending import MESSAGE_LIMIT, message_kwargs
from bot.cogs.table import help_topics
from bot.gnubg.api import Evaluation, PlayOption, Probabilities, Query
from bot.i18n.core import LANGUAGES
from bot.service.commands.registry import COMMANDS
from bot.service.models import MAX_GRAPHEMES, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.e2e.payloads import Attachment, message_problem
from tests.service.driver import FakeClock, play_out, start_match, take_turn
from tests.service.fake_analyst import FakeAnalyst, result

PLACE = Place("guild", "big-table")
NAMES = [f"{'Ω' * 40} player {n}" for n in range(12)]  # each cut to 32 characters
USERS = [User(str(1000 + n), name) for n, name in enumerate(NAMES)]
CHANCES = Probabilities(0.542, 0.151, 0.006, 0.12, 0.005)
OPENING_DOUBLES = "XGID=-b----E-C---eE---c-e----B-:0:0:1:66:0:0:0:0:10"


class BigEngine(FakeAnalyst):
    """A match analysis as for a 25-point match, and an evaluation with 30 plays listed."""

    def __init__(self) -> None:
        super().__init__(result(length=25))

    async def evaluate(self, query: Query, *, plies: int = 2) -> Evaluation:
        plays = tuple(
            PlayOption("24/18(2) 13/7(2)", -0.01 * n, -0.01 * n, 2, CHANCES) for n in range(30)
        )
        return Evaluation(CHANCES, 0.123, 2, plays=plays)


def sent_body(reply: Reply) -> tuple[dict[str, Any], list[Attachment]]:
    """The JSON body and files discord.py would send for ``reply``."""
    kwargs = message_kwargs(reply)
    body: dict[str, Any] = {"content": kwargs["content"]}
    if "embed" in kwargs:
        body["embeds"] = [kwargs["embed"].to_dict()]
    view = kwargs.get("view")
    if isinstance(view, discord.ui.View):
        body["components"] = view.to_components()
    files = [
        Attachment(n, file.filename or "", file.fp.read(), "application/octet-stream")
        for n, file in enumerate(kwargs.get("files", []))
    ]
    return body, files


def check(name: str, replies: list[Reply]) -> int:
    """Fails the test on a reply Discord would refuse, or whose text would be cut."""
    assert replies, name
    for reply in replies:
        if reply.sheet is None:
            assert len(reply.text) <= MESSAGE_LIMIT - 30, (name, len(reply.text))  # + a ping
        body, files = sent_body(reply)
        problem = message_problem(body, files, new=True)
        assert problem is None, (name, problem)
    return len(replies)


async def finish_a_long_match(service: TableService) -> None:
    """A 25-point match between the two longest names, played to its end with the cube; every
    ``/move`` autocomplete on the way is checked."""
    players = (USERS[0], USERS[1])
    await start_match(service, PLACE, *players, 25)
    rng = random.Random(4)
    for _ in range(20_000):
        table = await service.table(PLACE)
        if table is None:
            return
        match = table.match
        if match.phase == "move" and match.turn is not None:
            mover = players[match.turn]
            for typed in ("", "2", "24/", "bar"):
                choices = await service.matches.move_choices(PLACE, mover, typed)
                assert len(choices) <= 25 and all(len(c) <= 100 for c in choices), choices
        await take_turn(service, PLACE, players, rng, double_rate=0.05, drop_rate=0.2)
    raise AssertionError("the 25-point match did not end")


async def every_largest_reply(service: TableService, asker: User) -> int:
    """Each reply at its largest, in ``asker``'s language: ``!help`` and every command's,
    ``!stats``, the leaderboard, ``!dice``, ``!export``, the board, ``!eval``, the analysis (the
    first language's queued and followed, the others' from the stored one) and its review."""
    checked = check("help", await service.server.help(PLACE, asker))
    for command in COMMANDS:
        checked += check(
            f"help {command.name}", await service.server.help(PLACE, asker, command.name)
        )
    checked += check("stats", await service.server.stats(PLACE, asker))
    checked += check("leaderboard", await service.server.leaderboard(PLACE, asker))
    checked += check("dice", await service.server.dice(PLACE, asker))
    checked += check("export", await service.matches.export(PLACE, asker))
    checked += check("board", await service.matches.board(PLACE, asker))
    checked += check("eval", await service.gnubg.evaluate(PLACE, asker, OPENING_DOUBLES))
    [asked] = await service.gnubg.analysis(PLACE, asker)
    checked += check("analysis (queued)", [asked])
    if asked.job is not None:
        asked = [update async for update in service.follow(asked.job)][-1]
        checked += check("analysis", [asked])
    assert asked.file is not None, (asker.language, asked.text)  # the chart
    checked += check("review", await service.review_commands.review(PLACE, asker, "1"))
    checked += check("review errors", await service.review_commands.review(PLACE, asker, "errors"))
    return checked


@pytest.mark.slow  # a 25-point match played out, with every autocomplete on the way
async def test_every_reply_at_its_largest_fits_discord(
    store: Store, clock: FakeClock, tmp_path: Path
) -> None:
    settings = Settings(database=tmp_path / "big.sqlite3", match_threads=False, analysis_auto=False)
    service = TableService(
        store, settings=settings, dice=seeded_dice(9), clock=clock, engine=BigEngine()
    )
    try:
        await finish_a_long_match(service)
        for n in range(2, 12, 2):  # ten more long names on the leaderboard
            place = Place(PLACE.server_id, f"side-{n}")
            await start_match(service, place, USERS[n], USERS[n + 1], 1)
            await play_out(service, place, (USERS[n], USERS[n + 1]), n)
        checked = 0
        for language in LANGUAGES:  # the longest replies in every language
            checked += await every_largest_reply(service, replace(USERS[0], language=language))
        assert checked >= len(LANGUAGES) * (len(COMMANDS) + 10)
        assert len(help_topics("")) <= 25
        board = (await service.matches.board(PLACE, USERS[0]))[0].text
        assert f"{NAMES[0][: MAX_GRAPHEMES - 1]}…" in board  # the names were at their longest
    finally:
        await service.analyses.stop()
        service.close()
