"""End to end with GNU Backgammon: the real ``python -m bot`` (its gnubg workers too) against
the local fake of Discord. A person mentions the bot to play it, plays, resigns, and sees the
automatic analysis message edited into the analysis (too short to rate: no chart); no gnubg
worker outlives the bot, whether it is stopped (SIGTERM) or killed (SIGKILL)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.gnubg import installed
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import FakeUser, Message
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import legal_play

pytestmark = [
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(120),
]

PNG = b"\x89PNG\r\n\x1a\n"
PROMPT = re.compile(r"alice to move \d-\d: `!move <from>/<to> …` \(`/move` lists the plays\)")
THINKING_SECONDS = 30.0  # the bot's reply to a move waits for its own turn (expert: 0-ply)


class GnubgBotProcess(BotProcess):
    """The bot with a quick analysis (0-ply) and one play worker."""

    def environment(self) -> dict[str, str]:
        return {**super().environment(), "ANALYSIS_PLIES": "0", "ENGINE_WORKERS": "1"}

    def gnubg_workers(self) -> list[int]:
        """Pids of the bot's gnubg workers: its children started by multiprocessing's spawn
        (not its resource tracker)."""
        assert self.process is not None
        return spawned_children(self.process.pid)


def spawned_children(parent: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
            command = (status.parent / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if int(fields.get("PPid", "0").strip()) == parent and b"spawn_main" in command:
            found.append(int(status.parent.name))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


async def all_dead(pids: list[int], timeout: float = 10.0) -> list[int]:
    """The pids still alive after ``timeout`` seconds (none, hopefully)."""
    deadline = time.monotonic() + timeout
    while (left := [pid for pid in pids if alive(pid)]) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return left


def is_png(message: Message) -> bool:
    return any(attachment.data.startswith(PNG) for attachment in message.images)


@pytest_asyncio.fixture(loop_scope="module")
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[GnubgBotProcess]:
    process = GnubgBotProcess(fake, tmp_path, tmp_path / "backgammon.sqlite3")
    try:
        yield process
    finally:
        await process.stop()


async def reply_to(
    fake: FakeDiscord,
    author: FakeUser,
    text: str,
    channel: int,
    until: str,
    timeout: float = THINKING_SECONDS,
) -> Message:
    """``author`` types ``text``; the first bot message after it that contains ``until``."""
    typed = await fake.send_message(author, text, channel)

    def found() -> list[Message]:
        return [m for m in fake.bot_messages(channel, typed.id) if until in m.content]

    await fake.wait_for(lambda: bool(found()), f"a reply with {until!r}", timeout)
    return found()[0]


async def started_workers(bot: GnubgBotProcess) -> list[int]:
    await bot.wait_for_log("GNU Backgammon workers are ready", timeout=30)
    workers = bot.gnubg_workers()
    assert len(workers) == 2, workers  # one play worker, the analysis worker
    return workers


async def test_a_match_against_the_bot_its_analysis_and_no_worker_left_after_sigterm(
    fake: FakeDiscord, bot: GnubgBotProcess
) -> None:
    await bot.start()
    workers = await started_workers(bot)
    channel = await fake.create_channel("versus-gnubg")
    me = fake.bot_user.id
    started = await reply_to(
        fake,
        fake.alice,
        f"<@{me}> challenge bot 1 expert",
        channel,
        "alice vs GNU Backgammon (expert): a 1-point match",
    )
    # The opening roll's board comes with the start, or with the bot's first play.
    prompt = await prompt_for_alice(fake, channel, after=started.id - 1)
    assert is_png(prompt), prompt.attachments

    for _ in range(3):  # three plays of alice's, each answered by the bot's turn with a board
        assert PROMPT.search(prompt.content), prompt.content
        play = await legal_play(fake, fake.alice, channel)
        moved = await reply_to(fake, fake.alice, f"!move {play}", channel, "alice plays")
        prompt = await prompt_for_alice(fake, channel, after=moved.id - 1)
        said = "\n".join(
            m.content for m in fake.bot_messages(channel, moved.id - 1) if m.id <= prompt.id
        )
        assert "GNU Backgammon plays" in said or "GNU Backgammon can't move" in said, said
        assert "could not take its turn" not in said
        assert is_png(prompt)

    mark = fake.mark()
    resigned = await reply_to(fake, fake.alice, "!resign", channel, "GNU Backgammon accepts")
    assert "GNU Backgammon wins" in resigned.content, resigned.content
    progress = await reply_to_after(fake, channel, resigned, "will analyse match")
    # Edited in place into the analysis, with the chart attached.
    await fake.wait_for(
        lambda: progress.content.startswith("**Analysis of match"),
        "the progress message edited into the analysis",
        60,
    )
    # Three plays each are too few decisions to rate (bot.gnubg.api.MIN_RATED_DECISIONS): one
    # line says so, and no chart comes with it (the service's tests attach one).
    assert "Too few decisions for a PR: **alice** " in progress.content, progress.content
    # The dice are the process's own: GNU Backgammon may have had no decision, too few, or (a
    # long run of turns alice could not move in) enough for a PR of its own, and its chart.
    bot_rated = "**GNU Backgammon**: PR " in progress.content
    assert bot_rated or "PR " not in progress.content, progress.content
    assert "at 0-ply" in progress.content and (bot_rated or not is_png(progress))
    edits = [
        call
        for call in fake.calls_since(mark)
        if call.method == "PATCH" and call.path.endswith(f"/messages/{progress.id}")
    ]
    assert edits, [f"{c.method} {c.path}" for c in fake.calls_since(mark)]

    asked = time.monotonic()
    again = await reply_to(fake, fake.alice, "!analysis", channel, "**Analysis of match", timeout=5)
    assert time.monotonic() - asked < 5
    assert is_png(again) == bot_rated  # the same analysis: a chart only for a PR of its own
    assert again.content == progress.content

    assert sorted(bot.gnubg_workers()) == sorted(workers)  # the same workers all along
    assert await bot.terminate(timeout=15) == 0
    assert await all_dead(workers) == []
    assert fake.unknown_routes == []
    assert "Traceback" not in bot.output()


async def test_no_worker_is_left_after_sigkill(fake: FakeDiscord, bot: GnubgBotProcess) -> None:
    await bot.start()
    workers = await started_workers(bot)
    await bot.kill()
    assert await all_dead(workers) == []


async def prompt_for_alice(fake: FakeDiscord, channel: int, after: int) -> Message:
    """The bot's first message after ``after`` that asks alice to move. A question of another
    kind that the dice may bring first (the bot offering to resign) is answered on the way:
    rejected, so that the match goes on."""
    ping = f"<@{fake.alice.id}>"

    def asked() -> list[Message]:
        return [
            m
            for m in fake.bot_messages(channel, after)
            if ping in m.content or PROMPT.search(m.content)
        ]

    for _ in range(5):
        await fake.wait_for(lambda: bool(asked()), "a question for alice", THINKING_SECONDS)
        question = asked()[0]
        if PROMPT.search(question.content):
            return question
        assert "the resignation" in question.content, question.content
        rejected = await reply_to(fake, fake.alice, "!reject", channel, "rejects")
        after = rejected.id - 1
    raise AssertionError("alice was never asked to move")


async def reply_to_after(fake: FakeDiscord, channel: int, message: Message, text: str) -> Message:
    def found() -> list[Message]:
        return [m for m in fake.bot_messages(channel, message.id - 1) if text in m.content]

    await fake.wait_for(lambda: bool(found()), f"a message with {text!r}", THINKING_SECONDS)
    return found()[0]
