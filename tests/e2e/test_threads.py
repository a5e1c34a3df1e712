"""A thread per match, with the real bot process against the fake Discord: an accepted challenge
opens a public thread from the challenge's message, the match goes on inside it (after a
restart too), the channel points to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import (
    actions,
    assert_no_unknown_routes,
    is_png,
    legal_play,
    one_reply,
    turn_in,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def threaded_bot(own_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(
        own_fake, tmp_path, tmp_path / "backgammon.sqlite3", {"MATCH_THREADS": "1"}
    )
    try:
        yield process
    finally:
        await process.stop()


async def test_an_accepted_challenge_is_played_in_its_thread(
    own_fake: FakeDiscord, threaded_bot: BotProcess
) -> None:
    fake, bot = own_fake, threaded_bot
    channel = fake.add_channel("club")
    await bot.start()
    challenge = await one_reply(fake, fake.alice, f"!challenge <@{fake.bob.id}> 3", channel)
    assert actions(challenge) == ["accept", "decline"]

    press = await fake.press(fake.bob, challenge, challenge.custom_ids[0])
    await fake.wait_for_callback(press)  # deferred at once: the thread comes after
    await fake.wait_for(lambda: bool(fake.threads_of(channel)), "the match's thread", 5)
    [thread] = fake.threads_of(channel)
    assert thread["name"] == "alice vs bob · 3 points"
    assert int(thread["id"]) == challenge.id  # opened from the challenge's message
    assert thread["thread_metadata"]["auto_archive_duration"] == 10080
    thread_id = int(thread["id"])
    [pointer] = await fake.wait_for_messages(1, channel, after=press.id)
    assert pointer.content == (
        f"bob accepts alice's challenge. The match is played in its thread: <#{thread_id}>"
    )
    [status] = await fake.wait_for_messages(1, thread_id)
    assert "Dice commitment" in status.content and is_png(status)
    await fake.wait_for(lambda: not challenge.custom_ids, "the answered challenge's buttons", 5)

    # The match goes on in the thread; typed in the channel, a command points there.
    turn = turn_in(fake, status)
    play = await legal_play(fake, turn.mover, thread_id)
    elsewhere = await one_reply(fake, turn.mover, f"!move {play}", channel)
    assert elsewhere.content == (
        f"Matches from this channel are played in their threads: alice vs bob in <#{thread_id}>."
    )
    moved = await one_reply(fake, turn.mover, f"!move {play}", thread_id)
    assert f"{turn.mover.name} plays" in moved.content and is_png(moved)
    assert "roll" in actions(moved)

    # Another challenge in the same channel while the first match goes on in its thread.
    second = await one_reply(fake, fake.carol, f"!challenge <@{fake.alice.id}> 1", channel)
    assert "carol challenges alice" in second.content
    accepted = await one_reply(fake, fake.alice, "!accept", channel)
    assert "The match is played in its thread" in accepted.content
    assert len(fake.threads_of(channel)) == 2

    # After a restart the thread's match is found where it was, and its old buttons work.
    await bot.kill()
    await bot.start()
    board = await one_reply(fake, turn.other, "!board", thread_id)
    assert is_png(board) and f"{turn.other.name}: `!roll` or `!double`" in board.content
    roll = await fake.press(turn.other, moved, next(i for i in moved.custom_ids if "roll" in i))
    await fake.wait_for_callback(roll)
    [rolled] = await fake.wait_for_messages(1, thread_id, after=roll.id)
    assert f"{turn.other.name} rolls" in rolled.content or "to move" in rolled.content
    assert_no_unknown_routes(fake)


async def test_without_the_permission_the_match_stays_in_the_channel(
    own_fake: FakeDiscord, threaded_bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = own_fake, threaded_bot
    monkeypatch.setattr(
        "tests.e2e.payloads.EVERYONE",
        __import__("tests.e2e.payloads", fromlist=["EVERYONE"]).EVERYONE & ~(1 << 35),
    )
    channel = fake.add_channel("no-threads")
    await bot.start()
    await one_reply(fake, fake.alice, f"!challenge <@{fake.bob.id}> 3", channel)
    typed = await fake.send_message(fake.bob, "!accept", channel)
    notice, status = await fake.wait_for_messages(2, channel, after=typed.id)
    assert notice.content.startswith("I can't give matches a thread of their own here")
    assert "Create Public Threads" in notice.content
    assert "bob accepts" in status.content and is_png(status)
    assert fake.threads_of(channel) == []
    assert_no_unknown_routes(fake)
