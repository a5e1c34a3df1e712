"""A fake Discord at the HTTP edge, for a real :class:`BackgammonBot`.

Gateway events (a typed message, a slash command, an autocomplete, a button press) go in as the
payloads Discord sends; everything the bot sends, edits, opens or deletes comes back through the
REST calls discord.py makes (its one ``HTTPClient.request``, and the interaction webhooks),
recorded here as Discord would store the messages. Everything between is discord.py's own code:
contexts, the command tree, the view store and its dispatch of button presses.

One server, with a text channel to begin with; more channels, threads and forums may be added,
permissions denied in a channel, and any REST call made to fail with the status Discord would
answer.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import re
from collections.abc import Coroutine, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, TypeVar, cast

import aiohttp
import discord
from discord.http import MultipartParameters, Route
from discord.webhook.async_ import async_context

from bot.discord_bot import BackgammonBot
from bot.service.commands.limits import Limiter
from bot.service.table import TableService
from bot.settings import Settings
from tests.e2e.components import walk

SEED = 3  # the dice of every cog test's service
PNG = b"\x89PNG\r\n\x1a\n"
GUILD_ID = 900
CHANNEL_ID = 901
APPLICATION_ID = 4000
BOT_ID = 300000000000004001  # a snowflake: mentions of the bot resolve
TIMESTAMP = "2025-01-01T00:00:00+00:00"
MODERATOR_ROLE_ID = 902
BOT_ROLE_ID = 903
# What @everyone may do: all the bot and the players need; moderators also manage messages.
EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    attach_files=True,
    read_message_history=True,
    use_application_commands=True,
)
MODERATOR = EVERYONE | discord.Permissions(manage_messages=True, manage_guild=True)
# The bot's own role: it may also open threads for matches (and tidy them away).
BOT = EVERYONE | discord.Permissions(create_public_threads=True, manage_threads=True)

# REST calls, as discord.py names its routes: what ``refuse`` and ``calls`` take.
SEND = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
GET_MESSAGE = "GET /channels/{channel_id}/messages/{message_id}"
GET_CHANNEL = "GET /channels/{channel_id}"
EDIT_CHANNEL = "PATCH /channels/{channel_id}"
DELETE_CHANNEL = "DELETE /channels/{channel_id}"
THREAD_FROM_MESSAGE = "POST /channels/{channel_id}/messages/{message_id}/threads"
THREAD_ALONE = "POST /channels/{channel_id}/threads"
OPEN_DM = "POST /users/@me/channels"

T = TypeVar("T")

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


def member_payload(
    person: Person, permissions: discord.Permissions | None = None
) -> dict[str, Any]:
    if permissions is None:
        permissions = MODERATOR if person.moderator else EVERYONE
    return {
        "user": user_payload(person.id, person.name, bot=person.bot),
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


def contents(files: Sequence[discord.File] | None) -> list[tuple[str, bytes]]:
    """The name and the bytes of each file, as the upload carries them."""
    out = []
    for file in files or ():
        file.reset()
        out.append((file.filename or "", file.fp.read()))
        file.reset()
    return out


def http_error(status: int, text: str = "refused") -> discord.HTTPException:
    """The error discord.py raises for a Discord answer of ``status``."""
    # the status and the reason are all discord.py reads of the response
    response = cast(aiohttp.ClientResponse, SimpleNamespace(status=status, reason=text))
    if status == 403:
        return discord.Forbidden(response, text)
    if status == 404:
        return discord.NotFound(response, text)
    if status >= 500:
        return discord.DiscordServerError(response, text)
    return discord.HTTPException(response, text)


@dataclass
class Sent:
    """A message as Discord keeps it, and how it came to be."""

    id: int
    via: str  # "channel", "response", "followup"
    data: dict[str, Any]
    request: dict[str, Any]  # what the bot sent (allowed mentions, a reference...)
    files: list[str] = field(default_factory=list)
    ephemeral: bool = False
    blobs: dict[str, bytes] = field(default_factory=dict)  # each attachment's bytes, by name

    def as_seen(self) -> Sent:
        """The message as a user's screen shows it now (later edits may not reach it)."""
        return copy.deepcopy(self)

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def custom_ids(self) -> list[str]:
        """Its buttons' ids, in action rows at the top or inside layout containers."""
        return [c["custom_id"] for c in walk(self.data.get("components") or []) if "custom_id" in c]

    @property
    def attachments(self) -> list[str]:
        """The names of the files the message shows now."""
        return [a["filename"] for a in self.data.get("attachments") or []]


@dataclass
class Call:
    """One REST call of the bot: its route, the ids in its path, its body and files."""

    route: str
    ids: dict[str, int]
    json: dict[str, Any]
    files: list[discord.File]
    blobs: list[tuple[str, bytes]]
    status: int = 200  # what Discord answered


@dataclass(frozen=True)
class Person:
    id: int  # 15 to 20 digits, as Discord's: mentions of shorter ids don't resolve
    name: str
    moderator: bool = False  # may Manage Messages in the channel
    bot: bool = False


@dataclass
class _Refusal:
    route: str
    statuses: list[int]
    files_only: bool


def _pattern(route: str) -> re.Pattern[str]:
    path = route.split(" ", 1)[1]
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>\\d+)", re.escape(path)) + "$")


class Wire:
    """Discord for one bot and one server: its channels, threads and direct messages."""

    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot
        self.state = bot._connection
        self.messages: dict[int, Sent] = {}
        self.order: list[int] = []
        self.responses: list[dict[str, Any]] = []  # every interaction callback, in order
        self.locale = "en-US"  # the Discord locale of the users' interactions
        self.edits: list[tuple[int, dict[str, Any]]] = []
        self.original_edits: list[dict[str, Any]] = []  # edits of an interaction's @original
        self.calls: list[Call] = []  # every REST call, refused ones too
        self.typed: list[int] = []  # the ids of the messages people typed
        self._refusals: list[_Refusal] = []
        self._originals: dict[str, int] = {}  # interaction token -> its response message
        self._token_channels: dict[str, int] = {}  # interaction token -> its channel
        self._channel_data: dict[int, dict[str, Any]] = {}
        self.state.user = discord.ClientUser(
            state=self.state,
            data=user_payload(BOT_ID, "gammonbot", bot=True),  # type: ignore[arg-type]
        )
        self.state.application_id = APPLICATION_ID
        self.guild = self.state._get_or_create_unavailable_guild(GUILD_ID)
        self.state._add_guild(self.guild)
        for role in (
            role_payload(GUILD_ID, "@everyone", EVERYONE),
            role_payload(MODERATOR_ROLE_ID, "moderators", MODERATOR),
            role_payload(BOT_ROLE_ID, "gammonbot", BOT),
        ):
            self.guild._add_role(discord.Role(guild=self.guild, state=self.state, data=role))  # type: ignore[arg-type]
        self.channel = self.add_channel(CHANNEL_ID, "backgammon")
        me = discord.Member._from_client_user(
            user=self.state.user, guild=self.guild, state=self.state
        )
        me._roles = discord.utils.SnowflakeList([BOT_ROLE_ID])
        self.guild._add_member(me)
        self._install_http()

    # -- the server -----------------------------------------------------------------------------

    def add_channel(
        self,
        channel_id: int,
        name: str,
        *,
        kind: discord.ChannelType = discord.ChannelType.text,
        parent: int | None = None,
    ) -> Any:
        """A channel of the server (a thread when ``kind`` says so, in ``parent``)."""
        data: dict[str, Any] = {
            "id": str(channel_id),
            "type": kind.value,
            "guild_id": str(GUILD_ID),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
        }
        if kind in (discord.ChannelType.public_thread, discord.ChannelType.private_thread):
            data |= {
                "parent_id": str(parent or CHANNEL_ID),
                "owner_id": str(BOT_ID),
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": TIMESTAMP,
                    "locked": False,
                },
                "message_count": 0,
                "member_count": 1,
            }
            self._channel_data[channel_id] = data
            thread = discord.Thread(guild=self.guild, state=self.state, data=data)  # type: ignore[arg-type]
            self.guild._add_thread(thread)
            return thread
        self._channel_data[channel_id] = data
        factory, _ = discord.channel._guild_channel_factory(kind.value)
        assert factory is not None
        channel = factory(state=self.state, guild=self.guild, data=data)
        self.guild._add_channel(channel)
        return channel

    def forget_channel(self, channel_id: int) -> None:
        """Take a channel or thread out of discord.py's cache (Discord still has it)."""
        found = self.guild.get_channel_or_thread(channel_id)
        if isinstance(found, discord.Thread):
            self.guild._remove_thread(found)
        elif found is not None:
            self.guild._remove_channel(found)

    def deny(self, channel: Any, **permissions: bool) -> None:
        """Deny @everyone (the bot too) ``permissions`` in ``channel``, as an overwrite."""
        denied = discord.Permissions(**{name: True for name, on in permissions.items() if not on})
        data = self._channel_data[channel.id]
        data["permission_overwrites"] = [
            {"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": str(denied.value)}
        ]
        channel._update(self.guild, data)

    def join(self, *people: Person) -> None:
        """Put ``people`` in the server's member cache (mentions of them then resolve)."""
        for person in people:
            data = member_payload(person)
            self.guild._add_member(discord.Member(data=data, guild=self.guild, state=self.state))  # type: ignore[arg-type]

    def refuse(self, route: str, *statuses: int, files_only: bool = False) -> None:
        """Discord answers the next calls of ``route`` with ``statuses``, one each (only the
        calls that upload files, with ``files_only``); later calls succeed."""
        self._refusals.append(_Refusal(route, list(statuses), files_only))

    def allow(self) -> None:
        """Discord answers every call again."""
        self._refusals.clear()

    def calls_of(self, route: str) -> list[Call]:
        return [call for call in self.calls if call.route == route]

    # -- what the bot sends -------------------------------------------------------------------

    def _attachments(self, blobs: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
        return [
            {
                "id": str(next(_ids)),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.example/{name}",
                "proxy_url": f"https://cdn.example/{name}",
            }
            for name, data in blobs
        ]

    def _store(
        self,
        via: str,
        channel_id: int,
        data: dict[str, Any],
        files: Sequence[discord.File] | None,
        *,
        ephemeral: bool = False,
    ) -> Sent:
        data = data.get("data", data)  # an interaction callback wraps the message
        blobs = contents(files)
        message_id = next(_ids)
        payload = self.message_payload(message_id, data, channel_id=channel_id)
        payload["attachments"] = self._attachments(blobs)
        flags = int(data.get("flags") or 0)
        sent = Sent(
            message_id,
            via,
            payload,
            data,
            [name for name, _ in blobs],
            ephemeral=ephemeral or bool(flags & 64),
            blobs=dict(blobs),
        )
        self.messages[message_id] = sent
        self.order.append(message_id)
        return sent

    def _edit(
        self, message_id: int, change: dict[str, Any] | None, files: Sequence[discord.File] | None
    ) -> dict[str, Any]:
        sent = self.messages[message_id]
        if change is not None:
            self.edits.append((message_id, change))
            change = dict(change)
            kept = change.pop("attachments", None)
            sent.data.update(change)
            blobs = contents(files)
            if blobs:
                sent.data["attachments"] = self._attachments(blobs)
                sent.blobs = dict(blobs)
                sent.files = [name for name, _ in blobs]
            elif kept is not None:
                ids = {str(a.get("id")) for a in kept}
                sent.data["attachments"] = [a for a in sent.data["attachments"] if a["id"] in ids]
        return sent.data

    def _thread(self, channel_id: int, request: dict[str, Any]) -> dict[str, Any]:
        """A thread Discord opens in ``channel_id``; the gateway then tells the bot of it."""
        thread_id = next(_ids)
        self.add_channel(
            thread_id, request["name"], kind=discord.ChannelType.public_thread, parent=channel_id
        )
        return self._channel_data[thread_id]

    def _may_send(self, channel_id: int, files: bool) -> None:
        """Discord refuses (403) a message the bot may not send there, or its files."""
        found = self.guild.get_channel_or_thread(channel_id)
        if found is None:
            return  # a direct message, or a channel out of the cache: allowed
        perms = found.permissions_for(self.guild.me)
        thread = isinstance(found, discord.Thread)
        if not perms.view_channel or not (
            perms.send_messages_in_threads if thread else perms.send_messages
        ):
            raise http_error(403, "Missing Permissions")
        if files and not perms.attach_files:
            raise http_error(403, "Missing Permissions")

    async def _answer(self, call: Call) -> Any:
        ids, request = call.ids, call.json
        if call.route == SEND:
            channel_id = ids["channel_id"]
            self._may_send(channel_id, bool(call.files))
            return self._store("channel", channel_id, request, call.files).data
        if call.route == EDIT:
            return self._edit(ids["message_id"], request, call.files)
        if call.route == GET_MESSAGE:
            sent = self.messages.get(ids["message_id"])
            if sent is None:
                raise http_error(404)
            return sent.data
        if call.route == GET_CHANNEL:
            found = self._channel_data.get(ids["channel_id"])
            if found is None:
                raise http_error(404)
            return found
        if call.route in (THREAD_FROM_MESSAGE, THREAD_ALONE):
            return self._thread(ids["channel_id"], request)
        if call.route == DELETE_CHANNEL:
            self.forget_channel(ids["channel_id"])
            return self._channel_data.pop(ids["channel_id"])
        if call.route == EDIT_CHANNEL:
            data = self._channel_data[ids["channel_id"]]
            if "archived" in request:
                data["thread_metadata"]["archived"] = request["archived"]
            return data
        if call.route == OPEN_DM:
            recipient = int(request["recipient_id"])
            member = self.guild.get_member(recipient)
            name = member.name if member is not None else str(recipient)
            return {
                "id": str(recipient + 1),  # a DM channel of its own
                "type": 1,
                "recipients": [user_payload(recipient, name)],
                "last_message_id": None,
            }
        raise AssertionError(f"the wire does not know {call.route}")

    def _install_http(self) -> None:
        wire = self
        http = self.bot.http
        patterns = [
            (route, _pattern(route))
            for route in (
                SEND,
                EDIT,
                GET_MESSAGE,
                GET_CHANNEL,
                EDIT_CHANNEL,
                DELETE_CHANNEL,
                THREAD_FROM_MESSAGE,
                THREAD_ALONE,
                OPEN_DM,
            )
        ]

        async def request(
            route: Route,
            *,
            files: Sequence[discord.File] | None = None,
            form: Iterable[dict[str, Any]] | None = None,
            **kwargs: Any,
        ) -> Any:
            path = route.url.removeprefix(Route.BASE)
            key = route.key
            found = [
                (name, match)
                for name, pattern in patterns
                if name.split(" ")[0] == route.method and (match := pattern.match(path))
            ]
            assert found, f"the wire does not know {key}"
            name, match = found[0]
            payload = kwargs.get("json")
            fields = list(form or ())
            if payload is None and fields:
                payload = json.loads(fields[0]["value"])
            call = Call(
                name,
                {k: int(v) for k, v in match.groupdict().items()},
                dict(payload or {}),
                list(files or ()),
                contents(files),
            )
            wire.calls.append(call)
            for refusal in wire._refusals:
                if refusal.route == name and refusal.statuses and (files or not refusal.files_only):
                    call.status = refusal.statuses.pop(0)
                    raise http_error(call.status)
            try:
                return await wire._answer(call)
            except discord.HTTPException as error:
                call.status = error.status
                raise

        async def query_members(guild: discord.Guild, query: str | None, *_: Any, **__: Any) -> Any:
            # A member search over the gateway (a name that is no mention): by name, as Discord.
            name = (query or "").lower()
            return [m for m in guild.members if name and m.name.lower().startswith(name)]

        http.request = request  # type: ignore[method-assign]
        self.state.query_members = query_members  # type: ignore[method-assign]

        class Adapter:
            async def create_interaction_response(
                self, interaction_id: int, token: str, *, params: MultipartParameters, **_: Any
            ) -> dict[str, Any]:
                request = body(params)
                wire.responses.append(request)
                interaction: dict[str, Any] = {"id": str(interaction_id), "type": 2}
                result: dict[str, Any] = {"interaction": interaction}
                channel_id = wire._token_channels[token]
                if request["type"] == 4:  # a message
                    sent = wire._store("response", channel_id, request, params.files)
                    wire._originals[token] = sent.id
                    interaction["response_message_id"] = str(sent.id)
                    result["resource"] = {"type": 4, "message": sent.data}
                if request["type"] == 7:  # the pressed message, updated
                    message_id = wire._originals[token]
                    wire._edit(message_id, request.get("data") or {}, params.files)
                    interaction["response_message_id"] = str(message_id)
                    result["resource"] = {"type": 7, "message": wire.messages[message_id].data}
                return result

            async def execute_webhook(
                self, webhook_id: int, token: str, *, wait: bool = False, **kwargs: Any
            ) -> Any:
                params = MultipartParameters(
                    kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files")
                )
                channel_id = wire._token_channels[token]
                sent = wire._store("followup", channel_id, body(params), params.files)
                if token not in wire._originals:
                    wire._originals[token] = sent.id  # a deferred command's first followup
                return sent.data if wait else None

            async def edit_original_interaction_response(
                self, application_id: int, token: str, **kwargs: Any
            ) -> Any:
                params = MultipartParameters(
                    kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files")
                )
                wire.original_edits.append(body(params))
                return wire._edit(wire._originals[token], body(params), params.files)

            async def edit_webhook_message(
                self, webhook_id: int, token: str, message_id: int, **kwargs: Any
            ) -> Any:
                params = MultipartParameters(
                    kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files")
                )
                return wire._edit(message_id, body(params), params.files)

            async def delete_original_interaction_response(
                self, application_id: int, token: str, **_: Any
            ) -> None:
                wire.responses.append({"deleted": "@original"})
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

    def channel_payload(self, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
        return self._channel_data[channel_id]

    def message_payload(
        self,
        message_id: int,
        data: dict[str, Any],
        author: dict[str, Any] | None = None,
        *,
        channel_id: int = CHANNEL_ID,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
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
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags") or 0),
            "components": data.get("components") or [],
        }
        if channel_id not in self._channel_data:
            del payload["guild_id"]  # a direct message
        return payload

    def _place(self, channel_id: int) -> Any:
        found = self.guild.get_channel_or_thread(channel_id)
        assert found is not None, f"no channel {channel_id}"
        return found

    def _permissions(self, person: Person, channel_id: int) -> discord.Permissions:
        member = self.guild.get_member(person.id)
        if member is None:
            return MODERATOR if person.moderator else EVERYONE
        perms: discord.Permissions = self._place(channel_id).permissions_for(member)
        return perms

    def _interaction(
        self, person: Person, kind: int, data: dict[str, Any], channel_id: int = CHANNEL_ID
    ) -> dict[str, Any]:
        interaction_id = next(_ids)
        token = f"token-{interaction_id}"
        self._token_channels[token] = channel_id
        me = self.guild.me
        return {
            "id": str(interaction_id),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": self.channel_payload(channel_id),
            "member": member_payload(person, self._permissions(person, channel_id)),
            "data": data,
            "attachment_size_limit": 8 * 1024 * 1024,
            "app_permissions": str(self._place(channel_id).permissions_for(me).value),
            "locale": self.locale,
        }

    # -- what users do ------------------------------------------------------------------------

    async def type(
        self, person: Person, content: str, *, channel: int = CHANNEL_ID, settle: bool = True
    ) -> list[Sent]:
        """``person`` types ``content`` in the channel; returns the messages it brought.
        ``settle``: wait for the tasks it started too (not for a job left running)."""
        data = {"content": content}
        author = user_payload(person.id, person.name, bot=person.bot)
        payload = self.message_payload(next(_ids), data, author, channel_id=channel)
        payload["member"] = member_payload(person)
        message = discord.Message(state=self.state, channel=self._place(channel), data=payload)  # type: ignore[arg-type]
        self.typed.append(message.id)
        return await self.run(self.bot.process_commands(message), settle=settle)

    def _options(
        self, options: dict[str, str | Person]
    ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        listed: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        for option, value in options.items():
            if isinstance(value, Person):
                resolved["users"][str(value.id)] = user_payload(value.id, value.name, bot=value.bot)
                resolved["members"][str(value.id)] = member_payload(value)
                listed.append({"name": option, "type": 6, "value": str(value.id)})
            else:
                listed.append({"name": option, "type": 3, "value": value})
        return listed, resolved

    async def slash(self, person: Person, name: str, **options: str | Person) -> list[Sent]:
        """``person`` uses ``/name`` with ``options`` (strings, or people for user options) in
        the first channel."""
        return await self.slash_in(CHANNEL_ID, person, name, **options)

    async def slash_in(
        self, channel: int | None, person: Person, name: str, **options: str | Person
    ) -> list[Sent]:
        """``person`` uses ``/name`` in ``channel``, or (None) in their direct messages with
        the bot."""
        listed, resolved = self._options(options)
        data: dict[str, Any] = {"id": str(next(_ids)), "name": name, "type": 1, "options": listed}
        if resolved["users"]:
            data["resolved"] = resolved
        payload = (
            self._dm_interaction(person, data)
            if channel is None
            else self._interaction(person, 2, data, channel)
        )
        return await self._run_event(payload)

    def _dm_interaction(self, person: Person, data: dict[str, Any]) -> dict[str, Any]:
        """A slash command in ``person``'s direct messages: no server, no member."""
        interaction_id = next(_ids)
        token = f"token-{interaction_id}"
        dm_id = person.id + 1
        self._token_channels[token] = dm_id
        return {
            "id": str(interaction_id),
            "application_id": str(APPLICATION_ID),
            "type": 2,
            "token": token,
            "version": 1,
            "channel_id": str(dm_id),
            "channel": {
                "id": str(dm_id),
                "type": 1,
                "recipients": [user_payload(BOT_ID, "gammonbot", bot=True)],
            },
            "user": user_payload(person.id, person.name, bot=person.bot),
            "data": data,
            "attachment_size_limit": 8 * 1024 * 1024,
            "app_permissions": str(EVERYONE.value),
            "context": 1,
            "locale": self.locale,
        }

    async def autocomplete(
        self, person: Person, name: str, option: str, current: str, *, channel: int = CHANNEL_ID
    ) -> list[dict[str, Any]]:
        """``person`` types ``current`` in ``/name``'s ``option``; the choices Discord shows."""
        focused = {"name": option, "type": 3, "value": current, "focused": True}
        data = {"id": str(next(_ids)), "name": name, "type": 1, "options": [focused]}
        before = len(self.responses)
        await self._run_event(self._interaction(person, 4, data, channel))
        [answer] = self.responses[before:]
        assert answer["type"] == 8, answer  # an autocomplete result
        choices: list[dict[str, Any]] = answer["data"]["choices"]
        return choices

    async def press(self, person: Person, message: Sent, custom_id: str) -> list[Sent]:
        """``person`` presses the button ``custom_id`` of ``message``."""
        assert custom_id in message.custom_ids, (custom_id, message.custom_ids)
        payload = self._interaction(
            person, 3, {"custom_id": custom_id, "component_type": 2}, message.channel_id
        )
        payload["message"] = message.data
        self._originals[payload["token"]] = message.id  # a press's @original is its message
        self.messages.setdefault(message.id, message)  # Discord keeps it over a bot's restart
        return await self._run_event(payload)

    async def _run_event(self, payload: dict[str, Any]) -> list[Sent]:
        async def event() -> None:
            self.state.parse_interaction_create(payload)  # type: ignore[arg-type]

        return await self.run(event())

    async def run(self, work: Coroutine[Any, Any, Any], *, settle: bool = True) -> list[Sent]:
        """Run ``work`` (and, with ``settle``, every task it starts) to the end; the messages
        it sent."""
        _, sent = await self.outcome(work, settle=settle)
        return sent

    async def outcome(
        self, work: Coroutine[Any, Any, T], *, settle: bool = True
    ) -> tuple[T, list[Sent]]:
        """What ``work`` returned, and the messages it sent (as :meth:`run`)."""
        before = len(self.order)
        with self._adapter():
            others = asyncio.all_tasks()
            value = await work
            while settle and (pending := asyncio.all_tasks() - others - {asyncio.current_task()}):
                await asyncio.gather(*pending)
        return value, [self.messages[i] for i in self.order[before:] if i in self.messages]

    def message(self, sent: Sent) -> discord.Message:
        """The message as discord.py holds it for the bot (its edits go through the wire)."""
        channel = self.state._get_private_channel(sent.channel_id) or self._place(sent.channel_id)
        return discord.Message(state=self.state, channel=channel, data=sent.data)  # type: ignore[arg-type]

    async def post(self, content: str = "", *, channel: int = CHANNEL_ID) -> discord.Message:
        """A message of the bot's own in ``channel`` (sent through the wire)."""
        message: discord.Message = await self._place(channel).send(content)
        return message

    def last(self) -> Sent:
        return self.messages[self.order[-1]]

    def in_channel(self, channel_id: int) -> list[Sent]:
        sent = [self.messages[i] for i in self.order if i in self.messages]
        return [message for message in sent if message.channel_id == channel_id]

    async def close(self) -> None:
        await self.bot.stop_deadlines()


async def start(
    service: TableService,
    settings: Settings,
    *people: Person,
    limiter: Limiter | None = None,
) -> Wire:
    """A real bot over ``service``, set up as at login, on a wire with ``people`` in its server."""
    bot = BackgammonBot(service, settings, limiter=limiter)
    await bot._async_setup_hook()
    await bot.setup_hook()
    wire = Wire(bot)
    wire.join(*people)
    return wire


def file_bytes(file: discord.File) -> bytes:
    file.reset()
    data = file.fp.read()
    file.reset()
    return data
