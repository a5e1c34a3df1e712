"""A user install, end to end: the real ``python -m bot`` against the fake Discord.

The owner publishes the slash commands globally (``!sync``): each command that makes sense
outside a server is published for server and user installs and for servers, the bot's DM and
group DMs; a server's own commands stay in servers. Then a match is played to its end in
alice's DM against GNU Backgammon, and a match between alice and bob in their group DM, the
bot no member there: by slash commands and buttons only (no message content reaches the bot
from a group DM), every reply inside the interaction that asked for it. The fake refuses a
followup past Discord's five per interaction or after its token's 15 minutes, and any
channel message from the bot in the group DM.

The dice are the process's own (secret, random): the tests read the state back from the bot's
messages.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio

from bot.gnubg import installed
from bot.service.commands.registry import COMMANDS
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import Interaction, Message
from tests.e2e.process import BotProcess
from tests.e2e.rest import MAX_FOLLOWUPS, Call
from tests.e2e.test_acceptance import Played, play_to_the_end, press_for, quickest
from tests.e2e.test_real_process import (
    PROMPT,
    actions,
    assert_no_unknown_routes,
    button,
    globally_limited,
    is_png,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(240)]

# A 1-point match is won 1-0, or 2-0 and 3-0 by a gammon or a backgammon.
BOT_WON = re.compile(r"\*\*(alice|GNU Backgammon) wins a 1-point match [1-3]-0\.\*\*")
MOST_DECISIONS = 200
THINKING_SECONDS = 30.0  # a reply that waits for the bot's own turn


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def bot(
    fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotProcess]:
    """One bot, its slash commands published globally by its owner's ``!sync``."""
    workdir = tmp_path_factory.mktemp("bot")
    settings = {"ANALYSIS_AUTO": "0", "ENGINE_WORKERS": "1"}
    process = BotProcess(fake, workdir, workdir / "backgammon.sqlite3", settings)
    try:
        await process.start()
        general = next(iter(fake.channels))
        typed = await fake.send_message(fake.alice, "!sync", general)
        [said] = await fake.wait_for_messages(1, general, after=typed.id, timeout=10)
        assert said.content.startswith("Synced ") and "globally" in said.content, said.content
        yield process
    finally:
        await process.stop()


def channel_calls(fake: FakeDiscord, channel: int) -> list[Call]:
    """The bot's calls to the channel API in ``channel`` (none may succeed in a group DM)."""
    return [call for call in fake.calls if call.path.startswith(f"/channels/{channel}/")]


def followups_within_limits(interactions: list[Interaction]) -> None:
    for interaction in interactions:
        assert len(interaction.followups) <= MAX_FOLLOWUPS, interaction


def figures(
    fake: FakeDiscord, mark: int, used: list[Interaction], began: float
) -> dict[str, object]:
    """What a match cost: API calls (none under the global limit), interactions, the most
    followups one needed, seconds."""
    calls = fake.calls_since(mark)
    return {
        "api_calls": len(calls),
        "globally_limited": len(globally_limited(calls)),
        "interactions": len(used),
        "most_followups": max(len(interaction.followups) for interaction in used),
        "seconds": round(time.monotonic() - began, 1),
    }


async def test_published_for_user_installs_and_dms_except_a_servers_own(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    published = {name: command for (guild, name), command in fake.commands.items() if not guild}
    assert set(published) == {entry.name for entry in COMMANDS}
    for entry in COMMANDS:
        command = published[entry.name]
        if entry.guild_only:
            assert (command["integration_types"], command["contexts"]) == ([0], [0]), command
        else:
            assert (command["integration_types"], command["contexts"]) == ([0, 1], [0, 1, 2])
    assert {"challenge", "move", "roll", "accept", "hint", "puzzle"} <= {
        entry.name for entry in COMMANDS if not entry.guild_only
    }
    # Discord offers a user install's DM only what is published there.
    dm = fake.add_dm(fake.carol)
    with pytest.raises(AssertionError, match="not offered to a user install"):
        await fake.slash(fake.carol, "tournament", dm, {})
    assert_no_unknown_routes(fake)


# -- alice against GNU Backgammon in her DM with the bot ---------------------------------------


async def answer_of(fake: FakeDiscord, used: Interaction, timeout: float) -> Message:
    """The last message the interaction showed (its response, or its last followup)."""
    await fake.wait_for_callback(used)

    def shown() -> list[Message]:
        own = [used.original] if used.original is not None else []
        said = [m for m in [*own, *used.followups] if m.content or m.attachments]
        return [m for m in said if not m.flags & 1 << 7]  # not a "thinking..." left unfilled

    await fake.wait_for(lambda: bool(shown()), f"an answer to {used.data}", timeout)
    await fake.quiet()
    return shown()[-1]


@pytest.mark.skipif(not installed(), reason="needs gnubg")
async def test_a_1_point_match_against_the_bot_in_its_dm_by_interactions_only(
    fake: FakeDiscord, bot: BotProcess, record_property: Callable[[str, object], None]
) -> None:
    dm = fake.add_dm(fake.alice)
    used: list[Interaction] = []
    mark, began = fake.mark(), time.monotonic()
    challenge = await fake.slash(
        fake.alice, "challenge", dm, {"opponent": fake.bot_user, "length": "1"}
    )
    used.append(challenge)
    latest = await answer_of(fake, challenge, THINKING_SECONDS)
    said = "\n".join(m.content for m in [challenge.original, *challenge.followups] if m)
    assert "alice vs GNU Backgammon" in said and "unrated" in said, said
    for _ in range(MOST_DECISIONS):
        if won := BOT_WON.search(latest.content):
            break
        if PROMPT.search(latest.content):
            asked = await fake.autocomplete(fake.alice, "move", dm, "play", "")
            choices = [c["value"] for c in (await fake.wait_for_callback(asked))["data"]["choices"]]
            moved = await fake.slash(fake.alice, "move", dm, {"play": quickest(choices)})
            used.append(moved)
            latest = await answer_of(fake, moved, THINKING_SECONDS)
            assert is_png(latest), latest.content
        elif "accept" in actions(latest):  # GNU Backgammon offers to resign: accepted
            press = await fake.press(fake.alice, latest, button(latest, "accept"))
            used.append(press)
            latest = await answer_of(fake, press, THINKING_SECONDS)
        else:
            raise AssertionError(f"neither a move, a resignation nor the end: {latest.content!r}")
    else:
        raise AssertionError(f"no end after {MOST_DECISIONS} decisions")
    assert won is not None
    followups_within_limits(used)
    cost = figures(fake, mark, [*used, *asked_plays(fake, dm)], began)
    assert cost["globally_limited"] == 0, cost
    record_property("dm_match", cost)
    print(f"A 1-point match against GNU Backgammon in its DM: {cost}")
    # Every message of the match answered an interaction: the bot never posted in the DM.
    assert all(m.interaction is not None for m in fake.bot_messages(dm)), fake.bot_messages(dm)
    shown = "\n".join(m.content for m in fake.bot_messages(dm))
    assert "`!" not in shown, shown
    assert [c for c in channel_calls(fake, dm) if c.method == "POST"] == []
    assert_no_unknown_routes(fake)
    assert "Traceback" not in bot.output()


def asked_plays(fake: FakeDiscord, channel: int) -> list[Interaction]:
    """The autocompletes of ``/move`` in ``channel`` (answered by a type 8 callback)."""
    return [i for i in fake.interactions.values() if i.channel_id == channel and i.type == 4]


@pytest.mark.skipif(not installed(), reason="needs gnubg")
async def test_typed_commands_work_in_the_bots_own_dm(fake: FakeDiscord, bot: BotProcess) -> None:
    """The bot's DM is a channel the bot is in: its messages reach it, so `!challenge bot`
    works there as in a server (the bot a user there, not a member)."""
    dm = fake.add_dm(fake.bob)
    typed = await fake.send_message(fake.bob, "!challenge bot 1", dm)

    def said() -> str:
        return "\n".join(m.content for m in fake.bot_messages(dm, after=typed.id))

    await fake.wait_for(lambda: "bob vs GNU Backgammon" in said(), "the match", THINKING_SECONDS)
    assert "unrated" in said(), said()
    typed = await fake.send_message(fake.bob, "!abort", dm)  # the bot agrees at once
    ended = "Match aborted by agreement: bob vs GNU Backgammon, unrated."
    await fake.wait_for(lambda: ended in said(), "the abort", 5)
    assert_no_unknown_routes(fake)


# -- alice and bob in their group DM -----------------------------------------------------------


async def test_a_2_point_match_between_friends_in_a_group_dm_by_interactions_only(
    fake: FakeDiscord, bot: BotProcess, record_property: Callable[[str, object], None]
) -> None:
    group = fake.add_group_dm("friends", fake.alice, fake.bob)
    mark, began = fake.mark(), time.monotonic()
    players = (fake.alice, fake.bob)
    challenge = await fake.slash(
        fake.alice, "challenge", group, {"opponent": fake.bob, "length": "2"}
    )
    asked = await answer_of(fake, challenge, 5)
    assert "alice challenges bob" in asked.content and "unrated" in asked.content, asked.content
    assert actions(asked) == ["accept", "decline"]
    # Paces each player's commands to the bot's rate, the Accept too, with room for a busy bot.
    played = Played()
    first = await press_for(fake, fake.bob, asked, "accept", played)
    won, last, played = await play_to_the_end(fake, group, players, first, played)
    assert won[1] in ("alice", "bob") and played.moves > 10 and is_png(last)
    used = [i for i in fake.interactions.values() if i.channel_id == group]
    followups_within_limits(used)
    await fake.quiet()
    cost = figures(fake, mark, used, began)
    assert cost["globally_limited"] == 0, cost
    record_property("group_dm_match", cost | {"moves": played.moves, "presses": played.presses})
    print(f"A 2-point match in a group DM: {cost}, moves {played.moves}, {played.presses}")
    assert all(m.interaction is not None for m in fake.bot_messages(group))
    # No typed command reaches the bot there: every command shown is a slash command.
    shown = "\n".join(m.content for m in fake.bot_messages(group))
    assert "`!" not in shown and "`/move <from>/<to> …`" in shown, shown
    # The bot is no member of the group DM: it never tried the channel API there.
    assert channel_calls(fake, group) == []
    assert_no_unknown_routes(fake)
    assert "Traceback" not in bot.output()
