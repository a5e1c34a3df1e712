"""The acceptance test of slash-first play, with the real ``python -m bot`` against the fake
Discord: a whole match played with slash commands, autocomplete and buttons only, in its thread,
its result posted back to the channel; then deadlines across a SIGKILL and a restart: a reminder
of an idle player, and a clock that runs out.

The dice are the process's own (secret, random): the tests read the state back from the bot's
messages. Deadlines are made test-sized by the settings alone (``REMINDER_HOURS``,
``CLOCK_DELAY_SECONDS``, ``DEADLINE_POLL_SECONDS``), never by a hook inside the bot.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord, SlashOptions
from tests.e2e.payloads import FakeUser, Interaction, Message
from tests.e2e.process import PLAYER_RATE, BotProcess
from tests.e2e.rest import Call
from tests.e2e.test_real_process import (
    PROMPT,
    actions,
    assert_no_unknown_routes,
    button,
    globally_limited,
    is_png,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

# `!` in a server, `/` in a DM or group DM (tests/e2e/test_user_install.py)
ROLL_PROMPT = re.compile(r"(\w+): `([!/])roll` or `\2double`\.")
TAKE_PROMPT = re.compile(r"(\w+): `([!/])take` or `\2drop` \(the cube would be 2\)\.")
WON = re.compile(r"\*\*(\w+) wins a 2-point match (\d+)-0\.\*\*")
# A backgammon game by the plays chosen below lasts about 30 turns a side: a bound for the loop.
MOST_DECISIONS = 400
ROLLS_BEFORE_THE_DOUBLE = 4
REMINDER_HOURS = 0.001  # 3.6 s
POLL_SECONDS = 0.2


def bot_process(fake: FakeDiscord, workdir: Path, settings: dict[str, str]) -> BotProcess:
    return BotProcess(fake, workdir, workdir / "backgammon.sqlite3", settings)


@pytest_asyncio.fixture(loop_scope="module")
async def threaded_bot(own_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """Threads on, deadlines as in production (no reminder disturbs the match)."""
    process = bot_process(own_fake, tmp_path, {"MATCH_THREADS": "1"})
    try:
        yield process
    finally:
        await process.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def hasty_bot(own_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """Threads on, a reminder after 3.6 s idle, no free delay on a clock, deadlines looked at
    five times a second."""
    settings = {
        "MATCH_THREADS": "1",
        "REMINDER_HOURS": str(REMINDER_HOURS),
        "CLOCK_DELAY_SECONDS": "0",
        "DEADLINE_POLL_SECONDS": str(POLL_SECONDS),
    }
    process = bot_process(own_fake, tmp_path, settings)
    try:
        yield process
    finally:
        await process.stop()


# -- helpers ------------------------------------------------------------------------------------


def player(players: tuple[FakeUser, FakeUser], name: str) -> FakeUser:
    [found] = [user for user in players if user.name == name]
    return found


async def slash_answer(
    fake: FakeDiscord, user: FakeUser, name: str, channel: int, options: SlashOptions
) -> Message:
    """``user`` uses ``/name``; its public response (within Discord's 3 s)."""
    used = await fake.slash(user, name, channel, options)
    await fake.wait_for_callback(used)
    assert used.callback_type == 4, used.callbacks
    assert used.original is not None and not used.original.ephemeral, used.original
    return used.original


async def challenge_accepted_in_thread(
    fake: FakeDiscord,
    channel: int,
    players: tuple[FakeUser, FakeUser],
    points: int,
    clock: str = "",
) -> tuple[int, Message, tuple[Message, str]]:
    """``/challenge`` by the first player, Accept pressed by the second: the thread opened from
    the challenge's message, the match's first message in it, and the challenge with its Accept
    button's custom id (the message loses it)."""
    challenger, challenged = players
    terms = f"{points} {clock}".strip()
    challenge = await slash_answer(
        fake, challenger, "challenge", channel, {"opponent": challenged, "length": terms}
    )
    assert f"{challenger.name} challenges {challenged.name}" in challenge.content
    assert actions(challenge) == ["accept", "decline"]
    accept = button(challenge, "accept")
    press = await fake.press(challenged, challenge, accept)
    await fake.wait_for_callback(press)
    await fake.wait_for(lambda: bool(fake.threads_of(channel)), "the match's thread", 5)
    [thread] = fake.threads_of(channel)
    thread_id = int(thread["id"])
    assert thread_id == challenge.id  # opened from the challenge's message
    assert thread["name"] == (
        f"{challenger.name} vs {challenged.name} · {points} point{'s' if points > 1 else ''}"
    )
    [pointer] = await fake.wait_for_messages(1, channel, after=press.id)
    assert pointer.content.endswith(f"The match is played in its thread: <#{thread_id}>")
    [first] = await fake.wait_for_messages(1, thread_id)
    assert is_png(first)
    await fake.wait_for(lambda: not challenge.custom_ids, "the answered challenge's buttons", 5)
    return thread_id, first, (challenge, accept)


def channel_posts(fake: FakeDiscord) -> list[Call]:
    """The messages the bot posted through the channel API (under Discord's global limit)."""
    route = "/channels/{channel}/messages"
    return [call for call in fake.calls if call.method == "POST" and call.route == route]


def quickest(choices: list[str]) -> str:
    """A play that hits nothing if there is one, and bears off the most checkers: with no
    checker sent back, the game is about a race and ends in some 30 turns a side."""
    return min(choices, key=lambda choice: ("*" in choice, -choice.count("/off")))


@dataclass
class Played:
    """What playing a match through its buttons and ``/move`` took; each player's commands
    paced to the bot's rate for players (faster, it asks them to slow down, as it should)."""

    decisions: int = 0
    moves: int = 0
    presses: dict[str, int] = field(default_factory=dict)  # by action
    autocomplete_seconds: float = 0.0
    sent: dict[int, deque[float]] = field(default_factory=dict)
    # Seconds past the bot's window: the bot reads a command later than it was sent, and on a
    # loaded machine an earlier command may reach it late, bringing the two closer together.
    margin: float = 1.0

    async def pace(self, user: FakeUser) -> None:
        sent = self.sent.setdefault(user.id, deque(maxlen=PLAYER_RATE.count))
        if len(sent) == PLAYER_RATE.count:
            wait = sent[0] + PLAYER_RATE.seconds + self.margin - time.monotonic()
            await asyncio.sleep(max(0.0, wait))
        sent.append(time.monotonic())


async def move_by_autocomplete(
    fake: FakeDiscord, mover: FakeUser, thread: int, played: Played
) -> Message:
    """``mover`` opens ``/move``, takes a choice from the autocomplete, sends it."""
    asked = await fake.autocomplete(mover, "move", thread, "play", "")
    callback = await fake.wait_for_callback(asked)
    assert callback["type"] == 8
    played.autocomplete_seconds = max(
        played.autocomplete_seconds, (asked.callback_at or 0) - asked.dispatched_at
    )
    choices = [choice["value"] for choice in callback["data"]["choices"]]
    assert choices, f"/move offers {mover.name} no play"
    play = quickest(choices)
    if played.moves == 0:  # a German player's illegal play: refused in German, to them alone
        await played.pace(mover)
        refused = await fake.slash(replace(mover, locale="de"), "move", thread, {"play": "24/30"})
        await fake.wait_for_callback(refused)
        assert refused.original is not None and refused.original.ephemeral, refused.callbacks
        assert refused.original.content.startswith("Das ist kein Zug: es gibt keinen Punkt 30")
    await played.pace(mover)
    moved = await slash_answer(fake, mover, "move", thread, {"play": play})
    assert f"{mover.name} plays" in moved.content and is_png(moved), moved.content
    played.moves += 1
    return moved


async def press_for(
    fake: FakeDiscord, user: FakeUser, asking: Message, action: str, played: Played
) -> Message:
    """``user`` presses ``action`` on ``asking``: the response (type 7) takes the message's
    buttons off, the new board follows (the last followup: it may show the next turn too)."""
    await played.pace(user)
    press = await fake.press(user, asking, button(asking, action))
    assert (await fake.wait_for_callback(press))["type"] == 7
    await fake.wait_for(lambda: bool(press.followups), f"the board after {action}", 5)
    assert not asking.custom_ids
    answer = press.followups[-1]
    assert is_png(answer), answer.content
    played.presses[action] = played.presses.get(action, 0) + 1
    return answer


async def play_to_the_end(
    fake: FakeDiscord,
    thread: int,
    players: tuple[FakeUser, FakeUser],
    first: Message,
    played: Played | None = None,
) -> tuple[re.Match[str], Message, Played]:
    """Every decision from ``first`` on, by buttons and ``/move`` only: Roll pressed a few
    times, then Double, and Take (the cube at 2 then wins the match: nobody is asked again, the
    dice are rolled for the players). The line saying who won, the
    last message and the tally (``played``'s, which paced what came before, if given)."""
    latest, played = first, played or Played()
    while played.decisions < MOST_DECISIONS:
        played.decisions += 1
        if won := WON.search(latest.content):
            return won, latest, played
        if to_move := PROMPT.search(latest.content):
            mover = player(players, to_move[1])
            latest = await move_by_autocomplete(fake, mover, thread, played)
        elif to_roll := ROLL_PROMPT.search(latest.content):
            rolled = played.presses.get("roll", 0)
            choice = "double" if rolled == ROLLS_BEFORE_THE_DOUBLE else "roll"
            assert actions(latest) == ["roll", "double"], latest.custom_ids
            latest = await press_for(fake, player(players, to_roll[1]), latest, choice, played)
            if choice == "double":
                assert f"{to_roll[1]} doubles to 2." in latest.content, latest.content
        elif to_take := TAKE_PROMPT.search(latest.content):
            assert actions(latest)[:2] == ["take", "drop"], latest.custom_ids
            latest = await press_for(fake, player(players, to_take[1]), latest, "take", played)
            assert f"{to_take[1]} takes: the cube is at 2." in latest.content, latest.content
        else:
            raise AssertionError(f"neither a move, a cube action nor the end: {latest.content!r}")
    raise AssertionError(f"no end after {MOST_DECISIONS} decisions")


# -- a whole match ------------------------------------------------------------------------------


async def test_a_whole_match_by_slash_commands_autocomplete_and_buttons_in_its_thread(
    own_fake: FakeDiscord, threaded_bot: BotProcess, record_property: Callable[[str, object], None]
) -> None:
    """A 2-point match: the shortest with a cube to turn (in a 1-point match every game is a
    Crawford game, the dice are rolled for the players and no button is ever offered). Its first
    mover also sends an illegal ``/move`` from a German Discord: refused in German."""
    fake, bot = own_fake, threaded_bot
    channel = fake.add_channel("slash-club")
    await bot.start()
    players = (fake.alice, fake.bob)
    started = await challenge_accepted_in_thread(fake, channel, players, 2)
    thread, first, (challenge, accept) = started
    assert "Dice commitment" in first.content

    before, mark = len(channel_posts(fake)), fake.mark()
    began = time.monotonic()
    won, last, played = await play_to_the_end(fake, thread, players, first)
    seconds = time.monotonic() - began
    assert played.presses.get("double") == played.presses.get("take") == 1
    assert played.moves > 10 and played.presses.get("roll") == ROLLS_BEFORE_THE_DOUBLE
    assert played.autocomplete_seconds < 3.0
    assert is_png(last) and [c.split(":")[1] for c in last.custom_ids] == ["rematch"]

    # The result, back in the channel the challenge was made in, with a link to the thread.
    winner = player(players, won[1])
    loser = players[1 - players.index(winner)]
    said = f"{winner.name} beats {loser.name} {won[2]}-0 in a 2-point match. (<#{thread}>)"
    await fake.wait_for(
        lambda: any(m.content == said for m in fake.bot_messages(channel)), "the result", 5
    )
    await fake.quiet()
    # The whole match went through interaction responses and followups, exempt from the global
    # rate limit: the channel API carried only the result (and a board-less message's edits).
    posted = channel_posts(fake)[before:]
    assert [call.path.split("/")[2] for call in posted] == [str(channel)], posted
    assert globally_limited(fake.calls_since(mark)) == ["POST /channels/{channel}/messages"]
    figures = {
        "api_calls": len(fake.calls_since(mark)),
        "decisions": played.decisions,
        "moves": played.moves,
        "presses": played.presses,
        "seconds": round(seconds, 1),
        "slowest_autocomplete_ms": round(played.autocomplete_seconds * 1000, 1),
    }
    record_property("whole_match", figures)
    print(f"A whole match by slash commands and buttons: {figures}")

    # At once, both players and a watcher ask for what comes after a match, and press the
    # challenge's Accept again (a lagging client): every interaction is answered within 3 s,
    # and none of it is a channel message.
    posts_before = len(channel_posts(fake))
    asked: list[Interaction] = []
    for user in (*players, fake.carol):
        for name, options in AFTER_A_MATCH:
            asked.append(await fake.slash(user, name, channel, options))
        asked.append(await fake.press(user, challenge, accept, lagging=True))
    for interaction in asked:
        try:
            await fake.wait_for_callback(interaction)
        except AssertionError:
            raise AssertionError(
                f"unanswered: {interaction.user.name} {interaction.data}; answered: "
                f"{[(i.user.name, i.data.get('name')) for i in asked if i.answered]}"
            ) from None
        seconds = (interaction.callback_at or 0) - interaction.dispatched_at
        assert seconds < 3.0, (interaction.data, seconds)
    # A press's response takes the buttons off; what it says follows as a followup.
    await fake.wait_for(lambda: all(map(answer_text, asked)), "every answer's words", 5)
    texts = [answer_text(interaction) for interaction in asked]
    per_user = len(AFTER_A_MATCH) + 1
    presses = texts[per_user - 1 :: per_user]
    assert all(text.startswith("This button is out of date") for text in presses[:2]), presses
    slowed = [text.startswith("Slow down") for text in texts]
    assert not any(slowed[: 2 * per_user]), texts  # the players, just after their match
    assert slowed[2 * per_user :] == [False] * 2 + [True] * (per_user - 2)  # carol: 2 per 10 s
    await fake.quiet()
    assert channel_posts(fake)[posts_before:] == []
    assert_no_unknown_routes(fake)


AFTER_A_MATCH: list[tuple[str, SlashOptions]] = [
    ("stats", {}),
    ("export", {}),
    ("help", {}),
    ("leaderboard", {}),
]


def answer_text(interaction: Interaction) -> str:
    """What the user saw of the bot's answer: the response's text or its first followup's (a
    file or an embed alone counts too). A response of type 7 edits the pressed message."""
    own = interaction.original if interaction.callback_type != 7 else None
    for message in (own, *interaction.followups):
        if message is None:
            continue
        if message.content:
            return message.content
        if message.embeds:
            return str(message.embeds[0].get("title"))
        if message.attachments:
            return "(a file)"
    return ""


# -- deadlines across a restart -----------------------------------------------------------------


async def test_a_reminder_and_a_clock_carry_on_across_a_sigkill_and_restart(
    own_fake: FakeDiscord, hasty_bot: BotProcess
) -> None:
    fake, bot = own_fake, hasty_bot
    lounge, blitz = fake.add_channel("lounge"), fake.add_channel("blitz")
    await bot.start()
    correspondence = (fake.alice, fake.bob)
    slow_thread, slow, _ = await challenge_accepted_in_thread(fake, lounge, correspondence, 1)
    clocked = (fake.carol, fake.alice)
    fast_thread, fast, _ = await challenge_accepted_in_thread(fake, blitz, clocked, 1, "clock 10s")
    assert "on the clock (10 s per point, 0 s delay per move)" in fast.content, fast.content
    to_move = PROMPT.search(fast.content)
    assert to_move, fast.content
    idle = player(clocked, to_move[1])

    # Killed before either deadline; both are due (or nearly) by the time it is back.
    await bot.kill()
    killed_at = fake.snowflake()
    assert not any(
        "Reminder" in m.content or "ran out of time" in m.content
        for m in fake.bot_messages(slow_thread) + fake.bot_messages(fast_thread)
    )
    await bot.start()

    # The reminder: the player to act in the correspondence match, pinged in its thread.
    slow_turn = PROMPT.search(slow.content)
    assert slow_turn, slow.content
    sleeper = player(correspondence, slow_turn[1])
    waiting = player(correspondence, ({"alice", "bob"} - {sleeper.name}).pop())
    [reminder] = await fake.wait_for_messages(1, slow_thread, after=killed_at, timeout=10)
    assert reminder.content.startswith(
        f"<@{sleeper.id}> Reminder: {sleeper.name}, {waiting.name} is waiting for you to move"
    ), reminder.content
    [posted] = [
        call
        for call in channel_posts(fake)
        if call.path.split("/")[2] == str(slow_thread) and "Reminder" in call.body["content"]
    ]
    pinged = posted.body["allowed_mentions"]["users"]
    assert [int(user) for user in pinged] == [sleeper.id]  # a real ping, for the sleeper only

    # The clock: the idle player's 10 s bank ran out; the thread says so and the channel hears
    # the result, both from the restarted process.
    winner = player(clocked, ({"carol", "alice"} - {idle.name}).pop())
    flagged = f"{idle.name} ran out of time on the clock: {winner.name} wins the match"
    await fake.wait_for(
        lambda: any(flagged in m.content for m in fake.bot_messages(fast_thread, killed_at)),
        "the flag in the clocked match's thread",
        15,
    )
    result = f"(<#{fast_thread}>)"
    await fake.wait_for(
        lambda: any(result in m.content for m in fake.bot_messages(blitz, killed_at)),
        "the clocked match's result in its channel",
        5,
    )
    # Its analysis (automatic) judges the match as far as it went: too few decisions to rate.
    await fake.wait_for(
        lambda: any(
            m.content.startswith("**Analysis of") and "Too few decisions for a PR" in m.content
            for m in fake.bot_messages(fast_thread, killed_at)
        ),
        "the analysis of the match lost on time",
        15,
    )
    # Once per decision: no second reminder, and the finished match gets none.
    await fake.quiet(period=4 * POLL_SECONDS)
    reminders = [m for m in fake.bot_messages(slow_thread) if "Reminder" in m.content]
    assert reminders == [reminder]
    assert_no_unknown_routes(fake)
