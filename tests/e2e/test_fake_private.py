"""The fake Discord's rules for a user install, checked on the fake alone (no bot): what it
must refuse, as Discord does, for the DM tests to mean anything."""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.e2e import payloads as p
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import Interaction
from tests.e2e.rest import MAX_FOLLOWUPS, TOKEN_LIFETIME

ON_THE_FAKES_LOOP = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def used_in(fake: FakeDiscord, channel: int) -> Interaction:
    """A slash command of alice's in ``channel``, as the fake keeps it (not dispatched: no bot
    is connected)."""
    interaction = Interaction(
        id=fake.snowflake(),
        token="fake-interaction." + secrets.token_urlsafe(24),
        type=2,
        application_id=fake.application_id,
        user=fake.alice,
        guild_id=None,
        channel_id=channel,
        data={"name": "board", "type": 1},
        dispatched_at=time.monotonic(),
        context=p.PRIVATE_CHANNEL,
        owners={"1": str(fake.alice.id)},
    )
    fake.interactions[interaction.token] = interaction
    return interaction


async def call(
    http: aiohttp.ClientSession, fake: FakeDiscord, method: str, path: str, body: Any
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.request(method, fake.api_url + path, json=body, headers=headers) as answer:
        return answer.status, await answer.json() if answer.content_length else None


@ON_THE_FAKES_LOOP
async def test_five_followups_then_none_and_no_token_after_15_minutes(
    own_fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = own_fake
    group = fake.add_group_dm("friends", fake.alice, fake.bob)
    used = used_in(fake, group)
    answered = await call(
        http,
        fake,
        "POST",
        f"/interactions/{used.id}/{used.token}/callback",
        {"type": 4, "data": {"content": "the board"}},
    )
    assert answered[0] == 204
    webhook = f"/webhooks/{fake.application_id}/{used.token}"
    statuses = [
        (await call(http, fake, "POST", webhook + "?wait=true", {"content": f"{n}"}))[0]
        for n in range(MAX_FOLLOWUPS + 1)
    ]
    assert statuses == [200] * MAX_FOLLOWUPS + [400]
    assert len(used.followups) == MAX_FOLLOWUPS

    later = used_in(fake, group)
    await call(
        http,
        fake,
        "POST",
        f"/interactions/{later.id}/{later.token}/callback",
        {"type": 4, "data": {"content": "the board"}},
    )
    later.dispatched_at -= TOKEN_LIFETIME + 1  # as if 15 minutes had gone by
    webhook = f"/webhooks/{fake.application_id}/{later.token}"
    status, body = await call(http, fake, "POST", webhook, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)
    status, body = await call(http, fake, "PATCH", webhook + "/messages/@original", {"content": ""})
    assert (status, body["code"]) == (401, 50027)


@ON_THE_FAKES_LOOP
async def test_no_channel_api_in_a_group_dm_but_in_the_bots_own_dm(
    own_fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = own_fake
    group = fake.add_group_dm("friends", fake.alice, fake.bob)
    status, body = await call(http, fake, "POST", f"/channels/{group}/messages", {"content": "hi"})
    assert (status, body["code"]) == (403, 50001)
    dm = fake.add_dm(fake.alice)
    status, body = await call(http, fake, "POST", f"/channels/{dm}/messages", {"content": "hi"})
    assert status == 200 and "guild_id" not in body


@ON_THE_FAKES_LOOP
async def test_a_dms_interaction_has_a_user_its_context_and_its_owner(
    own_fake: FakeDiscord,
) -> None:
    fake = own_fake
    group = fake.add_group_dm("friends", fake.alice, fake.bob)
    payload = used_in(fake, group).payload(fake.channels[group])
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(fake.alice.id)
    assert payload["context"] == p.PRIVATE_CHANNEL
    assert payload["authorizing_integration_owners"] == {"1": str(fake.alice.id)}
    assert payload["channel"]["type"] == p.GROUP_DM


def test_a_command_is_offered_where_it_was_published() -> None:
    both = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
    servers = {"integration_types": [0], "contexts": [0]}
    assert p.usable(both, p.PRIVATE_CHANNEL, p.USER_INSTALLED)
    assert not p.usable(servers, p.PRIVATE_CHANNEL, p.USER_INSTALLED)
    assert not p.usable(servers, p.BOT_DM, p.USER_INSTALLED)
    assert p.usable(servers, p.GUILD, p.GUILD_INSTALL)
    # Published before user installs: a server install's, in servers and the bot's DM.
    assert not p.usable({"dm_permission": True}, p.BOT_DM, p.USER_INSTALLED)
    assert p.command_problem({"name": "x", "description": "x", "contexts": [3]})
