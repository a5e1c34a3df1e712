"""``!review`` end to end: the real ``python -m bot`` (GNU Backgammon in its workers) against the
fake Discord. alice and bob play a few checker plays of a 1-point match, one resigns, the other
accepts; the automatic analysis (0-ply) is posted; ``!review`` posts the first page of the
review with a board and six buttons; the players page through it with the buttons, each press
editing the same message in place (an UPDATE_MESSAGE callback, or an edit of the original
response after a defer) with a new board and the new page's key on its buttons; carol, who did
not play, gets a copy of her own (ephemeral) and the public page is left as it was; ``!review
errors`` lists the marked decisions in one message.

The dice are the process's own: the plays are the first each ``/move`` offers, and whoever
is to roll is found by asking (the one not to roll is refused, harmlessly).
"""

from __future__ import annotations

import re

import pytest

from bot.gnubg import installed
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import FakeUser, Interaction, Message
from tests.e2e.process import BotProcess
from tests.e2e.test_real_process import (
    PROMPT,
    assert_no_unknown_routes,
    is_png,
    legal_play,
    one_reply,
)

pytestmark = [
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(180),
]

PLAYS = 6  # checker plays before the resignation
REVIEW_BUTTON = re.compile(r"bg:(review[a-z]+):v(\d+)\.(\d+)")
ACTIONS = ["reviewfirst", "reviewprevious", "reviewnext", "reviewmine", "reviewerror", "reviewlast"]
PAGE = re.compile(r"decision (\d+)/(\d+)")
LISTED = re.compile(r"^` *(\d+)` (\w+) ", re.MULTILINE)  # a line of !review errors
EPHEMERAL = 1 << 6
UPDATE_MESSAGE = 7


async def replies_to(fake: FakeDiscord, author: FakeUser, text: str, channel: int) -> list[Message]:
    """``author`` types ``text``; every bot message after it, once the bot has gone quiet."""
    typed = await fake.send_message(author, text, channel)
    await fake.wait_for_messages(1, channel, after=typed.id, timeout=15)
    await fake.quiet()
    return fake.bot_messages(channel, typed.id)


def prompt_in(messages: list[Message]) -> re.Match[str] | None:
    found = [m for m in (PROMPT.search(message.content) for message in messages) if m]
    return found[-1] if found else None


async def roll_until_prompted(
    fake: FakeDiscord, channel: int, roller: FakeUser, other: FakeUser
) -> re.Match[str]:
    """``roller`` rolls; when no prompt follows (a dance, or a forced play the bot made), the
    other player is to roll, and so on."""
    for _ in range(8):
        said = await replies_to(fake, roller, "!roll", channel)
        if (found := prompt_in(said)) is not None:
            return found
        roller, other = other, roller
    raise AssertionError("nobody was asked to move after eight rolls")


def page_of(message: Message) -> tuple[int, int]:
    found = PAGE.search(message.content)
    assert found, message.content
    return int(found[1]), int(found[2])


def review_keys(message: Message) -> tuple[list[str], set[tuple[int, int]]]:
    """The actions of a review page's buttons and the keys (match, page) they carry."""
    found = [REVIEW_BUTTON.fullmatch(custom_id) for custom_id in message.custom_ids]
    assert all(found), message.custom_ids
    return [m[1] for m in found if m], {(int(m[2]), int(m[3])) for m in found if m}


def button(message: Message, action: str) -> str:
    [custom_id] = [c for c in message.custom_ids if c.startswith(f"bg:{action}:")]
    return custom_id


def edited_in_place(fake: FakeDiscord, press: Interaction, message: Message, mark: int) -> bool:
    """The press's answer edited ``message``: an UPDATE_MESSAGE callback, or (after a defer) a
    PATCH of the original response, the pressed message."""
    if press.callback_type == UPDATE_MESSAGE:
        return press.original is message
    return press.original is message and any(
        call.method == "PATCH" and press.token in call.path and call.path.endswith("/@original")
        for call in fake.calls_since(mark)
    )


async def turn_page(
    fake: FakeDiscord, user: FakeUser, page: Message, action: str, match: int, to: int
) -> None:
    """``user`` (a player) presses ``action`` on ``page``: the same message now shows page
    ``to`` (1-based), with a new board and buttons keyed to it."""
    before = [a.id for a in page.attachments]
    edits = page.edits
    _, count = page_of(page)
    mark = fake.mark()
    press = await fake.press(user, page, button(page, action))
    await fake.wait_for_callback(press)
    await fake.wait_for(lambda: page.edits > edits, f"message {page.id} edited", 10)
    await fake.quiet()
    assert edited_in_place(fake, press, page, mark), (press.callbacks, fake.calls_since(mark))
    assert not page.ephemeral and not press.followups
    assert page_of(page) == (to, count), page.content
    assert is_png(page) and len(page.images) == 1, page.attachments
    assert [a.id for a in page.attachments] != before, "the board was not replaced"
    assert review_keys(page) == (ACTIONS, {(match, to - 1)}), page.custom_ids


async def press_or_refused(
    fake: FakeDiscord,
    user: FakeUser,
    page: Message,
    action: str,
    match: int,
    pages: list[int],
    refusal: str,
) -> None:
    """A press that goes to the first of ``pages``; with none, a refusal for ``user`` alone and
    the page as it was."""
    if pages:
        await turn_page(fake, user, page, action, match, pages[0])
        return
    content, edits = page.content, page.edits
    press = await fake.press(user, page, button(page, action))
    await fake.wait_for_callback(press)
    await fake.quiet()
    assert press.original is not None and press.original.ephemeral, press.callbacks
    assert refusal in press.original.content, press.original.content
    assert (page.content, page.edits) == (content, edits)


async def test_review_a_played_match_page_by_page(fake: FakeDiscord, bot: BotProcess) -> None:
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    await bot.start()
    await bot.wait_for_log("GNU Backgammon workers are ready", timeout=30)
    channel = await fake.create_channel("review")
    players = {alice.name: alice, bob.name: bob}

    # A 1-point match: a few checker plays, then the one on roll resigns and the other accepts.
    await one_reply(fake, alice, f"!challenge <@{bob.id}> 1", channel)
    accepted = await one_reply(fake, bob, "!accept", channel)
    prompt = PROMPT.search(accepted.content)
    assert prompt, accepted.content
    for _ in range(PLAYS):
        mover = players[prompt[1]]
        other = bob if mover == alice else alice
        play = await legal_play(fake, mover, channel)
        said = await replies_to(fake, mover, f"!move {play}", channel)
        assert any(f"{mover.name} plays" in m.content for m in said), [m.content for m in said]
        prompt = prompt_in(said) or await roll_until_prompted(fake, channel, other, mover)
    loser = players[prompt[1]]
    winner = bob if loser == alice else alice
    offer = await one_reply(fake, loser, "!resign", channel)
    assert f"{loser.name} offers to resign" in offer.content, offer.content
    over = await one_reply(fake, winner, "!accept", channel)
    assert f"{winner.name} wins a 1-point match" in over.content, over.content

    # The automatic analysis: its message becomes the analysis.
    def progress() -> list[Message]:
        return [m for m in fake.bot_messages(channel, over.id - 1) if "will analyse" in m.content]

    await fake.wait_for(lambda: bool(progress()), "the analysis's progress message", 15)
    analysis = progress()[0]
    await fake.wait_for(
        lambda: analysis.content.startswith("**Analysis of match"), "the analysis", 90
    )

    # !review: the first page, with the board and the six buttons keyed v<match>.0.
    page = await one_reply(fake, alice, "!review", channel)
    first, count = page_of(page)
    assert first == 1 and count >= 3, page.content
    numbered = re.search(r"Match #(\d+)", page.content)
    assert numbered, page.content
    match = int(numbered[1])
    assert review_keys(page) == (ACTIONS, {(match, 0)}), page.custom_ids
    assert is_png(page) and not page.ephemeral

    # The players page with the buttons: each press edits this very message.
    await turn_page(fake, alice, page, "reviewnext", match, 2)
    await turn_page(fake, bob, page, "reviewprevious", match, 1)
    await turn_page(fake, alice, page, "reviewlast", match, count)
    await turn_page(fake, bob, page, "reviewfirst", match, 1)

    # carol did not play: ▶ gives her a page 2 of her own, and the public page stays at 1.
    content, attachments, edits = page.content, list(page.attachments), page.edits
    before = fake.snowflake()
    press = await fake.press(carol, page, button(page, "reviewnext"))
    await fake.wait_for_callback(press)
    await fake.quiet()
    [own] = [m for m in fake.bot_messages(channel, before) if m.interaction is press]
    assert own.flags & EPHEMERAL, own.flags
    assert page_of(own) == (2, count), own.content
    assert is_png(own), own.attachments
    assert review_keys(own) == (ACTIONS, {(match, 1)}), own.custom_ids
    assert (page.content, page.attachments, page.edits) == (content, attachments, edits)
    assert review_keys(page) == (ACTIONS, {(match, 0)})

    # The analysis' Review button: a player's press opens a review of its own (a new message)
    # and the analysis keeps its button; carol's press gives her a copy, and her ▶ on that copy
    # turns it in place.
    assert analysis.custom_ids == [f"bg:reviewopen:v{match}.0"], analysis.custom_ids
    analysed = analysis.content
    before = fake.snowflake()
    press = await fake.press(bob, analysis, analysis.custom_ids[0])
    await fake.wait_for_callback(press)
    await fake.quiet()
    [opened] = [m for m in fake.bot_messages(channel, before) if m.interaction is press]
    assert not opened.ephemeral and page_of(opened) == (1, count), opened.content
    assert review_keys(opened) == (ACTIONS, {(match, 0)}) and is_png(opened)
    assert analysis.content == analysed and analysis.custom_ids, analysis.custom_ids
    before = fake.snowflake()
    press = await fake.press(carol, analysis, analysis.custom_ids[0])
    await fake.wait_for_callback(press)
    await fake.quiet()
    [copy] = [m for m in fake.bot_messages(channel, before) if m.interaction is press]
    assert copy.ephemeral and page_of(copy) == (1, count), copy.content
    edits, before = copy.edits, fake.snowflake()
    press = await fake.press(carol, copy, button(copy, "reviewnext"))
    await fake.wait_for_callback(press)
    await fake.quiet()
    assert copy.edits > edits and page_of(copy) == (2, count), copy.content
    assert review_keys(copy) == (ACTIONS, {(match, 1)}) and is_png(copy)
    assert not [m for m in fake.bot_messages(channel, before) if m.interaction is press]

    # !review errors: one message, the players' figures, then the marked decisions (or a clean
    # match); more than one page of them is paged by its buttons, in place for a player.
    [listing] = await replies_to(fake, bob, "!review errors", channel)
    text = listing.content
    assert "GNU Backgammon marked" in text, text
    for player in (alice, bob):  # a PR, or why there is none (a short match: too few)
        figure = rf"{player.name}: (PR \d+\.\d|\d+ decisions?, too few for a PR), checker"
        assert re.search(figure, text), text
    while listing.custom_ids:
        assert all(c.startswith("bg:review") and f":e{match}." in c for c in listing.custom_ids)
        if ":e" not in button(listing, "reviewnext") or "page" not in listing.content:
            break
        number, count = map(int, re.findall(r"page (\d+)/(\d+)", listing.content)[0])
        if number == count:
            break
        press = await fake.press(bob, listing, button(listing, "reviewnext"))
        await fake.wait_for_callback(press)
        await fake.quiet()
        assert f"page {number + 1}/{count}" in listing.content, listing.content
        text += "\n" + listing.content
    marked = [(int(n), name) for n, name in LISTED.findall(text)]
    assert marked or "a clean match" in text.lower(), text

    # The error buttons stop at the decisions the listing names: any player's, then alice's.
    await fake.quiet()
    errors = [n for n, _ in marked if n > 1]
    await press_or_refused(fake, bob, page, "reviewerror", match, errors, "No more errors")
    at, _ = page_of(page)
    mine = [n for n, name in marked if n > at and name == alice.name]
    await press_or_refused(fake, alice, page, "reviewmine", match, mine, "You made no more errors")
    assert_no_unknown_routes(fake)
    assert "Traceback" not in bot.output()
