"""``!drill`` end to end: the real ``python -m bot`` (GNU Backgammon in its workers) against the
fake Discord. alice and bob play a money game with the Jacoby rule: the opening play, then a
double at once (always far too early, whatever the dice: a cube error), taken; a few checker
plays (the first each ``/move`` offers, as in test_review.py); then the one to roll resigns
and the other accepts. The automatic analysis (0-ply) makes drills of their errors. Each player
runs ``/drill`` and ``!drill`` until none is
due: every question shows the board and the roll (or the cube) but never the answer; a checker
drill is answered by typing the play they made in the match (wrong, losing what the analysis
recorded: the grading is at its depth, under the game's Jacoby rule); a cube drill by its
buttons, after the other player's press of them was refused to them alone. ``!drill stats``
counts them all.

The dice are the process's own: the plays are ``/move``'s first, and whoever is to roll is found by
asking (test_review.py's helpers).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque

import pytest

from bot.gnubg import installed
from bot.service.commands.limits import Limits
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import FakeUser, Message
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import assert_no_unknown_routes, is_png, legal_play, one_reply
from tests.e2e.test_review import replies_to

pytestmark = [
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(180),
]

PLAYS = 8  # checker plays after the double, before the resignation
MOVE = re.compile(r"(\w+) to move (\d)-(\d): `!move <from>/<to> …` \(`/move` lists the plays\)")
TO_ROLL = re.compile(r"(\w+): `!roll` or `!double`\.")
ROLLED = re.compile(r"You rolled \*\*(\d)-(\d)\*\*: your play\?")
LOSS = re.compile(r"loses (\d+\.\d{3}) ")
MADE = re.compile(
    r"In the match \(decision \d+/\d+ · game \d+, move \d+, `!review \d+ \d+`\): (.+?) "
    r"\((error \?|blunder \?\?), -(\d+\.\d{3})\)"
)
DUE = re.compile(r"(\d+) due now, (\d+) learned .*?, (\d+) missed last time, (\d+) in all")
DRILL_BUTTON = re.compile(r"bg:(drill[a-z]+):(d\d+\.\d+)")


def move_in(messages: list[Message]) -> re.Match[str] | None:
    found = [m for m in (MOVE.search(message.content) for message in messages) if m]
    return found[-1] if found else None


def roll(first: str, second: str) -> tuple[int, int]:
    high, low = sorted((int(first), int(second)), reverse=True)
    return high, low


# The bot's default rate for a player (this test paces its commands to it, as a person would).
PLAYER_RATE = Limits().player
# Seconds past the bot's window: on a loaded machine an earlier command may reach the bot late,
# bringing two commands closer together in its window than they were sent.
MARGIN = 1.0


class Game:
    """The money game as the test played it: each player's plays, by roll; each player's
    commands paced to the bot's rate for players (faster, it asks them to slow down)."""

    def __init__(self, fake: FakeDiscord, channel: int) -> None:
        self.fake, self.channel = fake, channel
        self.players = {fake.alice.name: fake.alice, fake.bob.name: fake.bob}
        self.plays: dict[tuple[str, tuple[int, int]], list[str]] = {}
        self._sent: dict[int, deque[float]] = {}

    async def pace(self, user: FakeUser) -> None:
        sent = self._sent.setdefault(user.id, deque(maxlen=PLAYER_RATE.count))
        if len(sent) == PLAYER_RATE.count:
            await asyncio.sleep(max(0.0, sent[0] + PLAYER_RATE.seconds + MARGIN - time.monotonic()))
        sent.append(time.monotonic())

    async def say(self, user: FakeUser, text: str) -> list[Message]:
        """``user`` types ``text``: every bot message after it, once the bot is quiet."""
        await self.pace(user)
        return await replies_to(self.fake, user, text, self.channel)

    async def one(self, user: FakeUser, text: str) -> Message:
        """``user`` types ``text``: the bot's first message after it."""
        await self.pace(user)
        return await one_reply(self.fake, user, text, self.channel)

    def other(self, user: FakeUser) -> FakeUser:
        return self.fake.bob if user == self.fake.alice else self.fake.alice

    async def roll_until_asked(self, roller: FakeUser) -> re.Match[str]:
        """``roller`` rolls; when no one is asked to move (a dance, a forced play), the other
        is to roll, and so on."""
        for _ in range(8):
            said = await self.say(roller, "!roll")
            if (found := move_in(said)) is not None:
                return found
            roller = self.other(roller)
        raise AssertionError("nobody was asked to move after eight rolls")

    async def play(self, asked: re.Match[str], plays: int = PLAYS) -> FakeUser:
        """``plays`` checker plays or a few more, from the first ``asked``, until a player is
        to roll: that player."""
        for played in range(plays + 8):
            mover = self.players[asked[1]]
            play = await legal_play(self.fake, mover, self.channel)
            said = await self.say(mover, f"!move {play}")
            assert any(f"{mover.name} plays" in m.content for m in said), [m.content for m in said]
            self.plays.setdefault((mover.name, roll(asked[2], asked[3])), []).append(play)
            found = move_in(said)
            if found is None and played + 1 >= plays:
                # to roll, or to double: the other player, unless their dice were rolled for them
                # (they may not double) and their play was forced, or they had none
                rollers = [m for m in (TO_ROLL.search(message.content) for message in said) if m]
                return self.players[rollers[-1][1]] if rollers else self.other(mover)
            asked = found or await self.roll_until_asked(self.other(mover))
        raise AssertionError("no player was left to roll")


async def drill_question(game: Game, user: FakeUser, *, slash: bool) -> Message | None:
    """``user``'s next drill (``/drill`` or ``!drill``): the question, None when none is due."""
    fake = game.fake
    if slash:
        await game.pace(user)
        used = await fake.slash(user, "drill", game.channel, {})
        await fake.wait_for_callback(used)
        await fake.wait_for(lambda: used.original is not None, "the /drill answer", 15)
        await fake.quiet()
        question = used.original
        assert question is not None
    else:
        question = await game.one(user, "!drill")
        await fake.quiet()
    # (the dice are the process's own: the taker's plays may hold no error at all)
    if "No drill is due" in question.content or "You have no drills yet" in question.content:
        return None
    assert f"**Drill for {user.name}**" in question.content, question.content
    assert not question.ephemeral and is_png(question), question.attachments
    return question


async def answer_checker(
    game: Game, user: FakeUser, question: Message, plays: list[str]
) -> tuple[str, str]:
    """Type the plays ``user`` made with this roll until one is legal here (the others are
    refused, and the drill still waits): the play, and the verdict."""
    for play in plays:
        assert play not in question.content, "the question gives the play away"
    for play in plays:
        said = await game.say(user, f"!drill {play}")
        text = "\n".join(m.content for m in said)
        if "still waiting" in text:
            assert len(said) == 1 and not said[0].attachments, text
            continue
        assert len(said) == 1, text
        return play, text
    raise AssertionError(f"none of {plays} was legal for {question.content!r}")


async def answer_cube(game: Game, user: FakeUser, question: Message) -> str:
    """The other player's press of the drill's button is refused to them alone; ``user``'s
    press of the first button (double, or pass) gives the verdict."""
    fake, other = game.fake, game.other(user)
    found = [DRILL_BUTTON.fullmatch(custom_id) for custom_id in question.custom_ids]
    assert found and all(found), question.custom_ids
    buttons = {m[1]: m[0] for m in found if m}
    assert set(buttons) in ({"drilldouble", "drillnodouble"}, {"drilltake", "drillpass"})
    first = sorted(buttons)[0]  # drilldouble or drillpass
    content, edits = question.content, question.edits
    await game.pace(other)
    refused = await fake.press(other, question, buttons[first])
    await fake.wait_for_callback(refused)
    await fake.quiet()
    private = [refused.original, *refused.followups]
    said = [m for m in private if m is not None and "not the one waiting" in m.content]
    assert said and all(m.ephemeral for m in said), [(m and m.content) for m in private]
    assert (question.content, question.edits) == (content, edits)
    mark = fake.snowflake()
    await game.pace(user)
    pressed = await fake.press(user, question, buttons[first])
    await fake.wait_for_callback(pressed)

    def verdicts() -> list[Message]:
        return [
            m
            for m in [*fake.bot_messages(game.channel, mark), *pressed.followups]
            if "Right." in m.content or "Not this time." in m.content
        ]

    await fake.wait_for(lambda: bool(verdicts()), "the cube drill's verdict", 15)
    await fake.quiet()
    (verdict,) = {m.id: m for m in verdicts()}.values()
    assert not verdict.ephemeral
    return verdict.content


async def test_drill_own_errors_of_an_analysed_money_game(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    alice, bob = fake.alice, fake.bob
    rate = {"PLAYER_COMMANDS": str(PLAYER_RATE.count), "PLAYER_SECONDS": str(PLAYER_RATE.seconds)}
    bot.settings |= rate
    await bot.start()
    await bot.wait_for_log("GNU Backgammon workers are ready", timeout=30)
    channel = await fake.create_channel("drill")
    game = Game(fake, channel)

    # A money game with the Jacoby rule: the opening play, a double at once, taken; checker
    # plays; a resignation, accepted.
    await game.one(alice, f"!challenge <@{bob.id}> money jacoby")
    accepted = await game.one(bob, "!accept")
    asked = MOVE.search(accepted.content)
    assert asked, accepted.content
    doubler = await game.play(asked, plays=1)
    taker = game.other(doubler)
    offered = await game.one(doubler, "!double")
    assert "double" in offered.content.lower(), offered.content
    took = await game.say(taker, "!take")
    asked = move_in(took) or await game.roll_until_asked(doubler)
    loser = await game.play(asked)
    winner = game.other(loser)
    offer = await game.one(loser, "!resign")
    assert f"{loser.name} offers to resign" in offer.content, offer.content
    over = await game.one(winner, "!accept")
    assert f"{winner.name} wins the money game" in over.content, over.content

    def analysed() -> list[Message]:
        return [
            m
            for m in fake.bot_messages(channel, over.id)
            if m.content.startswith("**Analysis of match")
        ]

    await fake.wait_for(lambda: bool(analysed()), "the analysis", 60)
    await fake.quiet()

    # Each player's drills, until none is due; every one answered (and so missed, or right).
    answered = {"checker": 0, "cube": 0}
    totals = {}
    for user in (taker, doubler):
        stats = await game.one(user, "!drill stats")
        counted = DUE.search(stats.content)
        assert counted, stats.content
        totals[user.name] = int(counted[4])
        assert counted[1] == counted[4], stats.content  # all due, none missed yet
        for shown in range(totals[user.name] + 1):
            question = await drill_question(game, user, slash=shown == 0)
            if question is None:
                assert shown == totals[user.name], (shown, totals)  # each shown once
                break
            if found := ROLLED.search(question.content):
                plays = game.plays.get((user.name, roll(found[1], found[2])), [])
                assert plays, (question.content, game.plays)
                play, verdict = await answer_checker(game, user, question, plays)
                made = MADE.search(verdict)
                assert made, verdict
                if made[1] == play:  # not a play made with the same roll elsewhere
                    # wrong, losing what the analysis recorded at its depth
                    lost = LOSS.search(verdict)
                    assert "Not this time" in verdict and lost, verdict
                    assert abs(float(lost[1]) - float(made[3])) <= 0.002, verdict
                    answered["checker"] += 1
            else:
                assert "double?" in question.content or "You are doubled" in question.content
                verdict = await answer_cube(game, user, question)
                assert "gnubg's proper action" in verdict, verdict
                answered["cube"] += 1
            assert "This drill comes back" in verdict, verdict
        else:
            raise AssertionError(f"{user.name}'s drills never ran out")

    # The early double is a drill; checker errors among the plays made too.
    assert answered["cube"] >= 1 and answered["checker"] >= 1, (answered, totals)
    assert sum(answered.values()) <= sum(totals.values()), (answered, totals)
    for user in (taker, doubler):
        stats = await game.one(user, "!drill stats")
        counted = DUE.search(stats.content)
        assert counted and counted[1] == "0" and counted[4] == str(totals[user.name]), stats.content
    assert_no_unknown_routes(fake)
    assert "Traceback" not in bot.output()
