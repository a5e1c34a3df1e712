"""One message per table, end to end: the real ``python -m bot`` (gnubg workers too) plays a
1-point match against GNU Backgammon on the local fake of Discord by typed ``!move``, once with a
message per reply (``TABLE_LAYOUT=0``, as before) and once with the table's one layout message
edited at each move, and counts the messages and REST calls each cost (printed, and recorded as
the test's properties: the figures of docs/playing.md). The layout match is stopped and started
again halfway: the restarted bot edits the same message, found in the database.

The dice are the process's own (it has no seed), so the match's length varies; the figures are
per move of alice's as well as per match. A second test (not slow, no gnubg) presses Roll on a
table message between two people: one REST call, the press's response with the new board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.gnubg import installed
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import Message
from tests.e2e.process import BotProcess
from tests.e2e.rest import Call
from tests.e2e.test_gnubg_process import GnubgBotProcess
from tests.e2e.test_real_process import globally_limited, is_png, legal_play

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(300)]

PROMPT = re.compile(r"alice to move \d-\d: `!move")
ENDED = ("alice wins", "GNU Backgammon wins")
THINKING_SECONDS = 30.0
MOVES_BEFORE_RESTART = 3


@dataclass(frozen=True)
class Cost:
    """What a match cost on Discord: the bot's messages and its REST calls."""

    moves: int  # alice's typed moves
    messages: int  # messages the bot created in the channel
    calls: int  # REST calls, the /move autocompletes the test asks for its plays left out
    limited: int  # of them under Discord's global rate limit (with the bot's token)
    table_ids: frozenset[int]  # the messages that showed alice the board she moved on

    def __str__(self) -> str:
        return (
            f"{self.moves} moves: {self.messages} messages, {self.calls} REST calls "
            f"({self.limited} under the global limit); per move "
            f"{self.messages / self.moves:.2f} messages, {self.calls / self.moves:.2f} calls"
        )


def counted(calls: list[Call]) -> list[Call]:
    """The bot's calls, without its answers to the test's own autocompletes (type 8)."""
    return [
        call
        for call in calls
        if not (isinstance(call.body, dict) and call.body.get("type") == 8) and call.method != "GET"
    ]


def bot_process(fake: FakeDiscord, tmp_path: Path, layout: bool) -> GnubgBotProcess:
    workdir = tmp_path / ("layout" if layout else "classic")
    workdir.mkdir()
    settings = {"TABLE_LAYOUT": "1" if layout else "0", "ANALYSIS_AUTO": "0"}
    return GnubgBotProcess(fake, workdir, workdir / "backgammon.sqlite3", settings)


async def play_a_match(
    fake: FakeDiscord, bot: GnubgBotProcess, channel: int, *, restart: bool = False
) -> Cost:
    """alice challenges the bot to 1 point and plays the first legal play of each roll until
    the match ends (accepting the bot's resignation if it offers one); ``restart``: the bot is
    stopped and started again after a few moves."""
    mark = fake.mark()
    first = fake.snowflake()
    seen: dict[int, int] = {}
    asked: set[int] = set()
    moves = 0

    def changed() -> list[Message]:
        return [m for m in fake.bot_messages(channel, first) if seen.get(m.id, -1) < m.edits]

    async def say(text: str) -> list[Message]:
        """What the bot posted or edited in answer (a command's replies come together, the
        bot's turn in them)."""
        seen.clear()
        seen.update({m.id: m.edits for m in fake.bot_messages(channel, first)})
        await fake.send_message(fake.alice, text, channel)
        await fake.wait_for(lambda: bool(changed()), f"an answer to {text!r}", THINKING_SECONDS)
        await fake.quiet()
        return changed()

    news = await say(f"<@{fake.bot_user.id}> challenge bot 1 expert")
    for _ in range(200):
        if any(e in m.text for m in news for e in ENDED):
            break
        resigning = [m for m in news if "resign" in m.text and "accept" in m.text]
        if resigning and not any(PROMPT.search(m.text) for m in news):
            news = await say("!accept")
            continue
        # The board that asks alice to move (its words may be cut short after a long run of
        # the bot's turns while she can't move: the prompt is then past Discord's limit).
        boards = [m for m in news if is_png(m)]
        assert boards, [m.text for m in news]
        asked.add(boards[-1].id)
        if restart and moves == MOVES_BEFORE_RESTART:
            await bot.terminate(timeout=15)
            await bot.start()
            await fake.quiet()
        news = await say(f"!move {await legal_play(fake, fake.alice, channel)}")
        moves += 1
    else:
        raise AssertionError("the match never ended")
    calls = counted(fake.calls_since(mark))
    created = [m for m in fake.bot_messages(channel, first) if not m.ephemeral]
    return Cost(moves, len(created), len(calls), len(globally_limited(calls)), frozenset(asked))


@pytest.mark.slow
@pytest.mark.skipif(not installed(), reason="needs gnubg")
async def test_a_match_against_the_bot_costs_one_table_message_edited_at_each_move(
    fake: FakeDiscord, tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    costs: dict[bool, Cost] = {}
    for layout in (False, True):
        bot = bot_process(fake, tmp_path, layout)
        try:
            await bot.start()
            await bot.wait_for_log("GNU Backgammon workers are ready", timeout=30)
            channel = await fake.create_channel(f"layout-{layout}")
            costs[layout] = await play_a_match(fake, bot, channel, restart=layout)
            assert "Traceback" not in bot.output()
        finally:
            await bot.stop()
    before, after = costs[False], costs[True]
    print(f"\nmessage per reply: {before}\none table message: {after}")
    for name, cost in (("before", before), ("after", after)):
        record_property(f"{name}_moves", cost.moves)
        record_property(f"{name}_messages", cost.messages)
        record_property(f"{name}_calls", cost.calls)
        record_property(f"{name}_limited", cost.limited)
    # Before, each move is a new message; after, one message asked every move (across the
    # restart too), and the match's start and its end are the only others.
    assert before.messages > before.moves
    assert len(before.table_ids) == before.moves
    assert len(after.table_ids) == 1, [fake.messages[i].text[-300:] for i in after.table_ids]
    assert after.messages <= 3, after
    assert after.calls <= after.moves + 4, after
    assert fake.unknown_routes == []


async def test_a_roll_pressed_on_the_table_message_is_its_one_call(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Between two people: a play passes the turn (a new table message pings the roller, with
    Roll and Double); the Roll pressed on it shows the roll in the press's response, the
    board and all, and nothing else is sent."""
    bot = BotProcess(fake, tmp_path, tmp_path / "backgammon.sqlite3", {"TABLE_LAYOUT": "1"})
    try:
        await bot.start()
        channel = await fake.create_channel("layout-press")
        typed = await fake.send_message(fake.alice, f"!challenge <@{fake.bob.id}> 3", channel)
        [challenge] = await fake.wait_for_messages(1, channel, after=typed.id)
        accept = await fake.press(fake.bob, challenge, challenge.custom_ids[0])
        await fake.wait_for_callback(accept)
        await fake.quiet()
        [start] = [m for m in fake.bot_messages(channel, challenge.id) if m.layout]
        assert is_png(start) and "to move" in start.text, start.text
        mover = fake.alice if "alice to move" in start.text else fake.bob
        roller = fake.bob if mover is fake.alice else fake.alice
        play = await legal_play(fake, mover, channel)
        moved = await fake.send_message(mover, f"!move {play}", channel)
        [table] = await fake.wait_for_messages(1, channel, after=moved.id)
        assert table.layout and is_png(table), table
        assert table.text.startswith(f"<@{roller.id}>"), table.text  # pinged: a new message
        [roll] = [i for i in table.custom_ids if ":roll:" in i]
        await fake.quiet()
        mark = fake.mark()
        pressed = await fake.press(roller, table, roll)
        callback = await fake.wait_for_callback(pressed)
        await fake.quiet()
        assert [f"{c.method} {c.route}" for c in fake.calls_since(mark)] == [
            "POST /interactions/{interaction}/{token}/callback"
        ]
        assert callback["type"] == 7 and pressed.followups == []
        assert f"{roller.name} to move" in table.text, table.text
        assert table.custom_ids == [] and is_png(table)
        assert [a.filename for a in table.attachments] == ["board.png"]
        assert fake.unknown_routes == []
        assert "Traceback" not in bot.output()
    finally:
        await bot.stop()
