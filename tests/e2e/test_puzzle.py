"""``/puzzle`` end to end: the real ``python -m bot`` against the fake Discord. alice asks for a
puzzle by the slash command: the board and the question, never the answer. A checker puzzle is
answered with a play ``/puzzle`` autocompletes (the legal plays, not ranked); a cube puzzle by
its buttons, after bob's press of them was refused to him alone. The verdict gives gnubg's top
three, the XGID and the rating change; ``!puzzle rating`` then shows the rating, provisional."""

from __future__ import annotations

import re

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import Message
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import assert_no_unknown_routes, is_png, one_reply

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

PUZZLE_BUTTON = re.compile(r"bg:(puzzle[a-z]+):(p\d+)")
CHANGE = re.compile(r"Your puzzle rating: \d+\? -> (\d+)\? \(([+-]\d+)\)")
PUZZLES = 40  # a third of the pool is cube puzzles: none in 40 one run in ten million


async def cube_answer(fake: FakeDiscord, question: Message, button: str) -> str:
    """bob's press of alice's cube puzzle is refused to him alone; alice's gives the verdict."""
    nosy = await fake.press(fake.bob, question, button)
    await fake.wait_for_callback(nosy)
    await fake.quiet()
    refused = nosy.original or (nosy.followups[0] if nosy.followups else None)
    assert refused is not None and refused.ephemeral, refused
    press = await fake.press(fake.alice, question, button)
    await fake.wait_for_callback(press)
    await fake.quiet()
    said = [m for m in (press.original, *press.followups) if m is not None]
    return next(m for m in said if "gnubg 2-ply" in m.content).content


async def checker_answer(fake: FakeDiscord, channel: int) -> str:
    """One of the plays ``/puzzle`` offers (the legal ones, never ranked), answered by slash."""
    asked = await fake.autocomplete(fake.alice, "puzzle", channel, "what", "")
    choices = [c["value"] for c in (await fake.wait_for_callback(asked))["data"]["choices"]]
    assert choices and all("/" in choice or choice == "none" for choice in choices), choices
    answered = await fake.slash(fake.alice, "puzzle", channel, {"what": choices[0]})
    await fake.wait_for_callback(answered)
    await fake.quiet()
    assert answered.original is not None
    return answered.original.content


async def test_a_puzzle_by_slash_command_answered_and_rated(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    alice = fake.alice
    await bot.start()
    channel = await fake.create_channel("puzzles")

    kinds: set[str] = set()
    for _ in range(PUZZLES):  # until both kinds were answered
        used = await fake.slash(alice, "puzzle", channel, {})
        await fake.wait_for_callback(used)
        await fake.quiet()
        question = used.original
        assert question is not None and "**Puzzle for alice**" in question.content, question
        assert is_png(question) and "gnubg" not in question.content, question.content
        buttons = [m for m in map(PUZZLE_BUTTON.fullmatch, question.custom_ids) if m]
        if buttons:
            kinds.add("cube")
            verdict = await cube_answer(fake, question, buttons[0][0])
        else:
            kinds.add("checker")
            verdict = await checker_answer(fake, channel)
        assert "gnubg 2-ply: 1. " in verdict and "`XGID=" in verdict, verdict
        change = CHANGE.search(verdict)
        assert change, verdict
        assert ("✅" in verdict) == (int(change[2]) > 0), verdict
        if kinds == {"cube", "checker"}:
            break
    else:
        raise AssertionError(f"only {kinds} in {PUZZLES} puzzles")

    rating = await one_reply(fake, alice, "!puzzle rating", channel)
    assert f"{change[1]}? here" in rating.content, rating.content  # the last answer's
    assert_no_unknown_routes(fake)
    assert "Traceback" not in bot.output()
