"""The daily puzzle end to end: the real ``python -m bot`` against the fake Discord. bob (no
Manage Server) can't set it; alice (the server's owner) sets it for a channel. The test then
stands in for the hours until its time (the setting's next time, in the database, made now:
the bot's clock is the real one), and the deadline poll posts it there: the board, the question
and its buttons, never the answer. bob answers privately (the Answer button's private help, then
``/puzzle daily`` with a play its autocomplete offers; or a cube button): an ephemeral verdict
with gnubg's top three and the rating change; a second answer is refused to him alone."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import Interaction, Message
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import assert_no_unknown_routes, is_png, one_reply

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

DAILY_BUTTON = re.compile(r"bg:(puzzle[a-z]+):(y\d+)")


def said(interaction: Interaction) -> list[Message]:
    return [m for m in (interaction.original, *interaction.followups) if m is not None]


async def test_the_daily_puzzle_set_posted_and_answered_privately(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "backgammon.sqlite3"
    bot = BotProcess(fake, tmp_path, database, {"DEADLINE_POLL_SECONDS": "0.5"})
    try:
        await bot.start()
        general = next(iter(fake.channels))
        channel = await fake.create_channel("daily")
        refused = await one_reply(fake, fake.bob, f"!puzzle daily <#{channel}> 09:00", general)
        assert "Only admins (Manage Server)" in refused.content, refused.content
        done = await one_reply(fake, fake.alice, f"!puzzle daily <#{channel}> 09:00", general)
        assert f"<#{channel}> every day at 09:00 (UTC)" in done.content, done.content
        with sqlite3.connect(database, timeout=10) as raw:  # the hours until 09:00 pass
            raw.execute("UPDATE puzzle_dailies SET next_at = ?", (time.time(),))
        raw.close()
        [post] = await fake.wait_for_messages(1, channel, timeout=15)
        assert "**Daily puzzle of " in post.content and is_png(post), post.content
        assert "gnubg" not in post.content
        buttons = [m for m in map(DAILY_BUTTON.fullmatch, post.custom_ids) if m]
        assert buttons, post.custom_ids
        if buttons[0][1] == "puzzledaily":  # a play: the button says how, then /puzzle daily
            helped = await fake.press(fake.bob, post, buttons[0][0])
            await fake.wait_for_callback(helped)
            await fake.quiet()
            assert all(m.ephemeral for m in said(helped)), said(helped)
            assert any("/puzzle daily" in m.content for m in said(helped))
            asked = await fake.autocomplete(fake.bob, "puzzle", channel, "what", "daily ")
            choices = [c["value"] for c in (await fake.wait_for_callback(asked))["data"]["choices"]]
            assert choices and all(c.startswith("daily ") for c in choices), choices
            answered = await fake.slash(fake.bob, "puzzle", channel, {"what": choices[0]})
            again = choices[0]
        else:  # a cube puzzle: its buttons answer
            answered = await fake.press(fake.bob, post, buttons[0][0])
            again = buttons[0][1].removeprefix("puzzle")
        await fake.wait_for_callback(answered)
        await fake.quiet()
        verdict = next(m for m in said(answered) if "gnubg 2-ply" in m.content)
        assert verdict.ephemeral and "Your puzzle rating: 1500? -> " in verdict.content
        twice = await fake.slash(
            fake.bob, "puzzle", channel, {"what": f"daily {again.removeprefix('daily ')}"}
        )
        await fake.wait_for_callback(twice)
        await fake.quiet()
        assert any("already" in m.content and m.ephemeral for m in said(twice)), said(twice)
        assert_no_unknown_routes(fake)
        assert "Traceback" not in bot.output()
    finally:
        await bot.stop()
