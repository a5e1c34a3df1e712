"""A fake Discord at the HTTP edge, for a real :class:`BackgammonBot`.

Gateway events (a typed message, a slash command, a button press) go in as the payloads Discord
sends; everything the bot sends or edits comes back through the REST calls discord.py makes,
recorded here as Discord would store the messages. Everything between is discord.py's own code:
contexts, the command tree, the view store and its dispatch of button presses.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from discord.http import MultipartParameters
from discord.webhook.async_ import async_context

from bot.discord_bot import BackgammonBot

GUILD_ID = 900
CHANNEL_ID = 901
APPLICATION_ID = 4000
BOT_ID = 4001
TIMESTAMP = "2025-01-01T00:00:00+00:00"
MODERATOR_ROLE_ID = 902
# What @everyone may do: all the bot and the players need; moderators also manage messages.
EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    attach_files=True,
    read_message_history=True,
    use_application_commands=True,
)
MODERATOR = EVERYONE | discord.Permissions(manage_messages=True)

# Snowflakes of now: discord.py takes an interaction created long ago for an expired one.
_ids = itertools.count(discord.utils.time_snowflake(datetime.now(UTC)))


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def role_payload(role_id: int, name: str, permissions: discord.Permissions) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "permissions": str(permissions.value),
        "position": 0 if role_id == GUILD_ID else 1,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member_payload(person: Person) -> dict[str, Any]:
    permissions = MODERATOR if person.moderator else EVERYONE
    return {
        "user": user_payload(person.id, person.name),
        "roles": [str(MODERATOR_ROLE_ID)] if person.moderator else [],
        "joined_at": TIMESTAMP,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(permissions.value),  # in the channel (sent with interactions)
    }


def body(params: MultipartParameters) -> dict[str, Any]:
    """The JSON body of a request (it travels as ``payload_json`` when files go with it)."""
    if params.payload is not None:
        return params.payload
    assert params.multipart
    value = json.loads(params.multipart[0]["value"])
    assert isinstance(value, dict)
    return value


def filenames(params: MultipartParameters | None) -> list[str]:
    return [file.filename or "" for file in (params.files or [])] if params else []


@dataclass
class Sent:
    """A message as Discord keeps it, and how it came to be."""

    id: int
    via: str  # "channel", "response", "followup"
    data: dict[str, Any]
    request: dict[str, Any]  # what the bot sent (allowed mentions, a reference...)
    files: list[str] = field(default_factory=list)
    ephemeral: bool = False

    def as_seen(self) -> Sent:
        """The message as a user's screen shows it now (later edits may not reach it)."""
        return copy.deepcopy(self)

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def custom_ids(self) -> list[str]:
        return [
            button["custom_id"]
            for row in self.data.get("components") or []
            for button in row.get("components", [])
        ]


@dataclass(frozen=True)
class Person:
    id: int  # 15 to 20 digits, as Discord's: mentions of shorter ids don't resolve
    name: str
    moderator: bool = False  # may Manage Messages in the channel


class Wire:
    """Discord for one bot, one server and one text channel."""

    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot
        self.state = bot._connection
        self.messages: dict[int, Sent] = {}
        self.order: list[int] = []
        self.responses: list[dict[str, Any]] = []  # every interaction callback, in order
        self.edits: list[tuple[int, dict[str, Any]]] = []
        self._originals: dict[str, int] = {}  # interaction token -> its response message
        self.state.user = discord.ClientUser(
            state=self.state, data=user_payload(BOT_ID, "gammonbot", bot=True)
        )
        self.state.application_id = APPLICATION_ID
        self.guild = self.state._get_or_create_unavailable_guild(GUILD_ID)
        self.channel = discord.TextChannel(
            state=self.state, guild=self.guild, data=self.channel_payload()
        )
        self.guild._add_channel(self.channel)
        for role in (
            role_payload(GUILD_ID, "@everyone", EVERYONE),
            role_payload(MODERATOR_ROLE_ID, "moderators", MODERATOR),
        ):
            self.guild._add_role(discord.Role(guild=self.guild, state=self.state, data=role))  # type: ignore[arg-type]
        me = discord.Member._from_client_user(
            user=self.state.user, guild=self.guild, state=self.state
        )
        self.guild._add_member(me)
        self._install_http()

    # -- what the bot sends -------------------------------------------------------------------

    def _store(self, via: str, params: MultipartParameters, *, ephemeral: bool = False) -> Sent:
        data = body(params)
        data = data.get("data", data)  # an interaction callback wraps the message
        message_id = next(_ids)
        payload = self.message_payload(message_id, data)
        flags = int(data.get("flags") or 0)
        sent = Sent(
            message_id,
            via,
            payload,
            data,
            filenames(params),
            ephemeral=ephemeral or bool(flags & 64),
        )
        self.messages[message_id] = sent
        self.order.append(message_id)
        return sent

    def _edit(self, message_id: int, params: MultipartParameters | None) -> dict[str, Any]:
        sent = self.messages[message_id]
        if params is not None:
            change = body(params)
            self.edits.append((message_id, change))
            sent.data.update(change)
        return sent.data

    def _install_http(self) -> None:
        wire = self
        http = self.bot.http

        async def send_message(channel_id: int, *, params: MultipartParameters) -> Any:
            return wire._store("channel", params).data

        async def edit_message(
            channel_id: int, message_id: int, *, params: MultipartParameters
        ) -> Any:
            return wire._edit(message_id, params)

        async def query_members(guild: discord.Guild, query: str | None, *_: Any, **__: Any) -> Any:
            # A member search over the gateway (a name that is no mention): by name, as Discord.
            name = (query or "").lower()
            return [m for m in guild.members if name and m.name.lower().startswith(name)]

        http.send_message = send_message  # type: ignore[method-assign]
        http.edit_message = edit_message  # type: ignore[assignment]
        self.state.query_members = query_members  # type: ignore[method-assign]

        class Adapter:
            async def create_interaction_response(
                self, interaction_id: int, token: str, *, params: MultipartParameters, **_: Any
            ) -> dict[str, Any]:
                request = body(params)
                wire.responses.append(request)
                interaction: dict[str, Any] = {"id": str(interaction_id), "type": 2}
                result: dict[str, Any] = {"interaction": interaction}
                if request["type"] == 4:  # a message
                    sent = wire._store("response", params)
                    wire._originals[token] = sent.id
                    interaction["response_message_id"] = str(sent.id)
                    result["resource"] = {"type": 4, "message": sent.data}
                if request["type"] == 7:  # the pressed message, updated
                    message_id = wire._originals[token]
                    data = request.get("data") or {}
                    wire._edit(message_id, MultipartParameters(data, None, None))
                    interaction["response_message_id"] = str(message_id)
                    result["resource"] = {"type": 7, "message": wire.messages[message_id].data}
                return result

            async def execute_webhook(
                self, webhook_id: int, token: str, *, wait: bool = False, **kwargs: Any
            ) -> Any:
                params = MultipartParameters(
                    kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files")
                )
                sent = wire._store("followup", params)
                if token not in wire._originals:
                    wire._originals[token] = sent.id  # a deferred command's first followup
                return sent.data if wait else None

            async def edit_original_interaction_response(
                self, application_id: int, token: str, **kwargs: Any
            ) -> Any:
                params = MultipartParameters(
                    kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files")
                )
                return wire._edit(wire._originals[token], params)

            async def edit_webhook_message(
                self, webhook_id: int, token: str, message_id: int, **kwargs: Any
            ) -> Any:
                params = MultipartParameters(
                    kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files")
                )
                return wire._edit(message_id, params)

            async def delete_original_interaction_response(
                self, application_id: int, token: str, **_: Any
            ) -> None:
                message_id = wire._originals.pop(token, None)
                if message_id is not None:
                    wire.messages.pop(message_id, None)

        self.adapter = Adapter()

    @contextmanager
    def _adapter(self) -> Iterator[None]:
        token = async_context.set(self.adapter)  # type: ignore[arg-type]
        try:
            yield
        finally:
            async_context.reset(token)

    # -- payloads -----------------------------------------------------------------------------

    def channel_payload(self) -> dict[str, Any]:
        return {
            "id": str(CHANNEL_ID),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": "backgammon",
            "position": 0,
            "permission_overwrites": [],
        }

    def message_payload(
        self, message_id: int, data: dict[str, Any], author: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return {
            "id": str(message_id),
            "channel_id": str(CHANNEL_ID),
            "guild_id": str(GUILD_ID),
            "author": author or user_payload(BOT_ID, "gammonbot", bot=True),
            "content": data.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags") or 0),
            "components": data.get("components") or [],
        }

    def _interaction(self, person: Person, kind: int, data: dict[str, Any]) -> dict[str, Any]:
        interaction_id = next(_ids)
        return {
            "id": str(interaction_id),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": f"token-{interaction_id}",
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(CHANNEL_ID),
            "channel": self.channel_payload(),
            "member": member_payload(person),
            "data": data,
            "attachment_size_limit": 8 * 1024 * 1024,
            "app_permissions": str(EVERYONE.value),
            "locale": "en-US",
        }

    # -- what users do ------------------------------------------------------------------------

    def join(self, *people: Person) -> None:
        """Put ``people`` in the server's member cache (mentions of them then resolve)."""
        for person in people:
            data = member_payload(person)
            self.guild._add_member(discord.Member(data=data, guild=self.guild, state=self.state))  # type: ignore[arg-type]

    async def type(self, person: Person, content: str) -> list[Sent]:
        """``person`` types ``content`` in the channel; returns the messages it brought."""
        data = {"content": content}
        payload = self.message_payload(next(_ids), data, user_payload(person.id, person.name))
        payload["member"] = member_payload(person)
        message = discord.Message(state=self.state, channel=self.channel, data=payload)  # type: ignore[arg-type]
        return await self._run(self.bot.process_commands(message))

    async def slash(self, person: Person, name: str, **options: str | Person) -> list[Sent]:
        """``person`` uses ``/name`` with ``options``: strings, or people (user options)."""
        listed: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        for option, value in options.items():
            if isinstance(value, Person):
                resolved["users"][str(value.id)] = user_payload(value.id, value.name)
                resolved["members"][str(value.id)] = member_payload(value)
                listed.append({"name": option, "type": 6, "value": str(value.id)})
            else:
                listed.append({"name": option, "type": 3, "value": value})
        data: dict[str, Any] = {"id": str(next(_ids)), "name": name, "type": 1, "options": listed}
        if resolved["users"]:
            data["resolved"] = resolved
        return await self._run_event(self._interaction(person, 2, data))

    async def press(self, person: Person, message: Sent, custom_id: str) -> list[Sent]:
        """``person`` presses the button ``custom_id`` of ``message``."""
        assert custom_id in message.custom_ids, (custom_id, message.custom_ids)
        payload = self._interaction(person, 3, {"custom_id": custom_id, "component_type": 2})
        payload["message"] = message.data
        self._originals[payload["token"]] = message.id  # a press's @original is its message
        self.messages.setdefault(message.id, message)  # Discord keeps it over a bot's restart
        return await self._run_event(payload)

    async def _run_event(self, payload: dict[str, Any]) -> list[Sent]:
        async def event() -> None:
            self.state.parse_interaction_create(payload)  # type: ignore[arg-type]

        return await self._run(event())

    async def _run(self, work: Any) -> list[Sent]:
        """Run ``work`` and every task it starts to the end; the messages it sent."""
        before = len(self.order)
        with self._adapter():
            others = asyncio.all_tasks()
            await work
            while pending := asyncio.all_tasks() - others - {asyncio.current_task()}:
                await asyncio.gather(*pending)
        return [self.messages[i] for i in self.order[before:] if i in self.messages]

    def last(self) -> Sent:
        return self.messages[self.order[-1]]
