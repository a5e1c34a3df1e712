"""A whole tournament with the real ``python -m bot`` against the fake Discord: a knockout of
1-point matches created by an organiser, joined with the sign-up message's Join button and with
``!join``, started, each match played (resigned) in a thread of its own, the results and the
final standings posted in the tournament's channel, and the report.

alice owns the fake server, so she has every permission (Manage Server among them): she
organises. The dice are the process's own: who is on roll, so who resigns and who wins, is read
from the bot's messages, and the test holds whoever is seeded and drawn where.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import FakeUser, Json, Message
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import PROMPT, assert_no_unknown_routes, is_png, one_reply

pytestmark = pytest.mark.asyncio(loop_scope="module")

SIGNUP_BUTTON = re.compile(r"bg:(join|leave):t(\d+)")
MENTION = re.compile(r"<@!?(\d+)>")


@pytest_asyncio.fixture(loop_scope="module")
async def threaded_bot(own_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(
        own_fake,
        tmp_path,
        tmp_path / "backgammon.sqlite3",
        {"MATCH_THREADS": "1", "ANALYSIS_AUTO": "0"},  # no analysis messages after each match
    )
    try:
        yield process
    finally:
        await process.stop()


def add_member(fake: FakeDiscord, name: str) -> FakeUser:
    """One more member of the fake server (alice, bob and carol are the fake's own)."""
    user = FakeUser(fake.snowflake(), name)
    fake.users[user.id] = user
    return user


def pinged(message: Message) -> set[int]:
    return {int(user_id) for user_id in MENTION.findall(message.content)}


def players_of(thread: Json, members: list[FakeUser]) -> tuple[FakeUser, FakeUser]:
    """The two players of a match's thread, from its name (``Spring R1-1 · bob vs carol``)."""
    first, second = str(thread["name"]).split(" · ", 1)[1].split(" vs ")
    by_name = {user.name: user for user in members}
    return by_name[first], by_name[second]


async def press_join(fake: FakeDiscord, user: FakeUser, signup: Message, join: str) -> Message:
    """``user`` presses Join: the sign-up message names them among its entrants, and the
    answer is for them alone."""
    press = await fake.press(user, signup, join)
    await fake.wait_for_callback(press)
    await fake.quiet()
    assert press.original is signup and user.name in signup.content, signup.content
    [answer] = press.followups
    assert answer.ephemeral, press.callbacks
    return answer


async def resign_and_accept(
    fake: FakeDiscord, thread: int, players: tuple[FakeUser, FakeUser]
) -> FakeUser:
    """The player on roll in ``thread`` resigns and the other accepts: the winner."""
    [status] = await fake.wait_for_messages(1, thread)
    on_roll = PROMPT.search(status.content)
    assert on_roll, status.content
    [loser] = [user for user in players if user.name == on_roll[1]]
    [winner] = [user for user in players if user != loser]
    offer = await one_reply(fake, loser, "!resign", thread)
    assert f"{loser.name} offers to resign" in offer.content, offer.content
    accepted = await one_reply(fake, winner, "!accept", thread)
    assert f"{winner.name} accepts the resignation" in accepted.content, accepted.content
    assert f"{winner.name} wins a 1-point match" in accepted.content, accepted.content
    return winner


async def said_in(fake: FakeDiscord, channel: int, after: int, text: str) -> Message:
    """The bot's first message in ``channel`` after ``after`` that contains ``text``."""

    def found() -> list[Message]:
        return [m for m in fake.bot_messages(channel, after) if text in m.content]

    await fake.wait_for(lambda: bool(found()), f"{text!r} in channel {channel}", 10)
    return found()[0]


async def test_a_knockout_from_signup_to_the_final_standings(
    own_fake: FakeDiscord, threaded_bot: BotProcess
) -> None:
    fake, bot = own_fake, threaded_bot
    dave = add_member(fake, "dave")
    organiser = fake.alice
    members = [fake.alice, fake.bob, fake.carol, dave]
    channel = fake.add_channel("tournaments")
    await bot.start()

    # The organiser creates it: the sign-up message has Join and Leave buttons.
    signup = await one_reply(fake, organiser, "!tournament create Spring knockout 1", channel)
    assert "alice opens a tournament. **Spring**: knockout, 1-point matches" in signup.content
    assert [SIGNUP_BUTTON.fullmatch(i) is not None for i in signup.custom_ids] == [True, True]
    join, leave = signup.custom_ids
    assert (join.split(":")[1], leave.split(":")[1]) == ("join", "leave")

    # Three players press Join, each answered; the message keeps its buttons for the next one
    # (and after the organiser's typed !join).
    for user in (fake.bob, fake.carol, dave):
        answer = await press_join(fake, user, signup, join)
        assert f"{user.name} joins Spring" in answer.content, answer.content
        assert signup.custom_ids == [join, leave], signup.custom_ids
    joined = await one_reply(fake, organiser, "!join", channel)
    assert "alice joins Spring: 4 entrants" in joined.content, joined.content
    await fake.quiet()
    assert signup.custom_ids == [join, leave], signup.custom_ids

    # Only an organiser starts it; then round 1 is paired, with the bracket, and opened.
    refused = await one_reply(fake, fake.bob, "!tournament start", channel)
    assert refused.content.startswith("Only organisers"), refused.content
    started = await fake.send_message(organiser, "!tournament start", channel)
    await fake.wait_for(lambda: len(fake.threads_of(channel)) == 2, "round 1's threads", 15)
    await said_in(fake, channel, started.id, "Spring 1.2: ")
    start = await said_in(fake, channel, started.id, "**Spring** starts: 4 players")
    paired = await said_in(fake, channel, started.id, "(round 1 of 2)")
    assert start.id < paired.id
    assert [a.filename for a in paired.attachments] == ["bracket.png"] and is_png(paired)

    # Each match of round 1 in its own thread, both players pinged there; the channel points
    # to it. Joining is closed now (the button answers so, to the presser alone).
    round_one = fake.threads_of(channel)
    for number, thread in enumerate(round_one, start=1):
        assert str(thread["name"]).startswith(f"Spring R1-{number} · "), thread["name"]
        players = players_of(thread, members)
        [status] = await fake.wait_for_messages(1, int(thread["id"]))
        assert "**Spring**, round 1" in status.content and is_png(status), status.content
        assert {user.id for user in players} <= pinged(status), status.content
        pointer = await said_in(fake, channel, started.id, f"Spring 1.{number}: ")
        assert pointer.content.endswith(f"in <#{thread['id']}>"), pointer.content
    # A press after the start: the sign-up message loses its buttons, the presser is told why.
    late = await fake.press(fake.bob, signup, join)
    await fake.wait_for_callback(late)
    await fake.quiet()
    assert signup.custom_ids == [], late.callbacks
    [told] = late.followups
    assert told.ephemeral and "joining is closed" in told.content, told.content
    assert {a.name for a in players_of(round_one[0], members)} | {
        a.name for a in players_of(round_one[1], members)
    } == {user.name for user in members}

    # Round 1 played: each result in the tournament's channel, then the final in a new thread.
    finalists = []
    for number, thread in enumerate(round_one, start=1):
        before = fake.snowflake()
        winner = await resign_and_accept(fake, int(thread["id"]), players_of(thread, members))
        finalists.append(winner)
        result = await said_in(fake, channel, before, f"Spring: `1.{number}` ")
        assert f"**{winner.name}** wins" in result.content, result.content
    await fake.wait_for(lambda: len(fake.threads_of(channel)) == 3, "the final's thread", 15)
    final_round = await said_in(fake, channel, before, "(round 2 of 2)")
    assert "**Spring: Final**" in final_round.content, final_round.content
    assert is_png(final_round)
    final = fake.threads_of(channel)[2]
    assert str(final["name"]).startswith("Spring R2-1 · "), final["name"]
    players = players_of(final, members)
    assert set(players) == set(finalists)
    [status] = await fake.wait_for_messages(1, int(final["id"]))
    assert {user.id for user in finalists} <= pinged(status), status.content

    # The final played: the final standings in the tournament's channel; the report.
    before = fake.snowflake()
    champion = await resign_and_accept(fake, int(final["id"]), players)
    over = await said_in(fake, channel, before, "is over")
    assert f"🏆 **Spring** is over: **{champion.name}** wins!" in over.content, over.content
    assert f"\n1. {champion.name}: champion\n2. " in over.content, over.content
    assert over.content.count(": out in the semi-finals") == 2, over.content
    report = await one_reply(fake, organiser, "!tournament report", channel)
    assert "**Spring** is over." in report.content, report.content
    assert f"Winner: **{champion.name}**" in report.content, report.content
    await fake.quiet()
    assert_no_unknown_routes(fake)
