"""A small fake of Discord for running the real bot (``python -m bot``) in tests.

One aiohttp server on 127.0.0.1 (an ephemeral port) plays Discord's API v10 as far as
discord.py 2.7 uses it for this bot:

* the gateway websocket (``gateway_url``): HELLO; IDENTIFY -> READY (one unavailable guild)
  then GUILD_CREATE (text channels, an @everyone role whose permissions let the bot send and
  attach files, and the bot as the only member, as Discord does without the members intent);
  heartbeats ACKed; RESUME answered with INVALID_SESSION so the client identifies again;
  transport compression exactly as the client's query string asks (``zlib-stream``, or
  ``zstd-stream`` when the ``zstandard`` package is there); a wrong token closes with 4004.
* REST (``api_url``): GET /gateway, /gateway/bot, /users/@me, /oauth2/applications/@me;
  application commands (PUT and GET, global and per guild; ids stay fixed per name);
  messages (POST json or multipart with files, GET, PATCH, DELETE); interaction callbacks
  (types 4-9; a callback later than 3 s gets Discord's 404 "Unknown interaction", a second one
  400 "already acknowledged"); webhook followups and the @original response (POST, GET, PATCH,
  DELETE; after a type 5 defer the first followup fills the "thinking" message, as on Discord).
  A wrong bot token is 401. Anything else is logged loudly, kept in ``unknown_routes`` and
  answered 404, so tests notice.
* user installs: a DM with the bot (``add_dm``) and group DMs (``add_group_dm``), whose
  interactions carry their ``context`` (1 the bot's DM, 2 a private channel) and
  ``authorizing_integration_owners`` (``{"1": user}``), a user and no member; there only the
  global commands published for user installs and that context are offered. The bot is no
  member of a group DM: the channel API there is 403 and its messages never reach the bot. An
  interaction's token takes at most 5 followups, and none, nor an edit, after 15 minutes.

Every REST call is kept in ``calls`` (method, route template, body, files), to count the API
calls a command costs (``mark`` / ``calls_since``). The test side::

    fake = FakeDiscord(); await fake.start()       # then run the bot with fake.api_url,
    ...                                            # fake.gateway_url and fake.token
    channel = await fake.create_channel("table")
    typed = await fake.send_message(fake.alice, f"!challenge <@{fake.bob.id}> 3", channel)
    [reply] = await fake.wait_for_messages(1, channel, after=typed.id)
    press = await fake.press(fake.bob, reply, reply.custom_ids[0])  # bg:accept:c1
    await fake.wait_for_callback(press)            # within Discord's 3 s, or AssertionError
    used = await fake.slash(fake.alice, "board", channel, {})  # options by name
    await fake.quiet()                             # no REST call for 0.3 s

Messages (``Message``: content, custom_ids, attachments with their bytes, ephemeral, edits,
deleted) are kept in ``messages``; ``bot_messages(channel, after=id)`` lists the bot's.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

from aiohttp import web

from tests.e2e import payloads as p
from tests.e2e.gateway import GatewaySession, accept_gateway
from tests.e2e.payloads import FakeUser, Interaction, Json, Message
from tests.e2e.rest import INTERACTION_DEADLINE, Call, RestApi

DISCORD_EPOCH_MS = 1_420_070_400_000
OPTION_TYPES = {3: str, 4: int, 5: bool, 10: float}  # string, integer, boolean, number
USER_OPTION = 6
SlashOptions = dict[str, str | int | float | bool | FakeUser]  # a slash command's options


class FakeDiscord(RestApi):
    """Discord for one bot, one guild, and the users alice (the bot's owner), bob and carol."""

    def __init__(self, *, refuse_message_content: bool = False) -> None:
        self.token = "fake." + secrets.token_hex(12)
        # Like an unapproved bot asking for the Message Content intent: IDENTIFY closes 4014.
        self.refuse_message_content = refuse_message_content
        self._last_id = 0
        self.bot_user = FakeUser(self.snowflake(), "Backgammon", bot=True)
        self.application_id = self.bot_user.id
        self.alice = FakeUser(self.snowflake(), "alice")  # the application's owner
        self.bob = FakeUser(self.snowflake(), "bob")
        self.carol = FakeUser(self.snowflake(), "carol")
        self.users = {u.id: u for u in (self.bot_user, self.alice, self.bob, self.carol)}
        self.guild_id = self.snowflake()  # the first server; add_guild makes more
        self.guild_ids = [self.guild_id]
        self.channels: dict[int, Json] = {}
        self.add_channel("general")
        self.calls: list[Call] = []
        self.unknown_routes: list[str] = []
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, Interaction] = {}  # by token
        self.commands: dict[tuple[int | None, str], Json] = {}  # (guild or None, name)
        self.sessions: list[GatewaySession] = []  # every IDENTIFY answered with READY
        self._changed = asyncio.Condition()
        self._last_call_at = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes = self.route_table()

    # -- the server -----------------------------------------------------------------------

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        for session in self.sessions:
            await session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def snowflake(self) -> int:
        """A new id, increasing, made of the time now as Discord's are: discord.py reads an
        interaction's age from its id (an old one counts as expired)."""
        now = ((time.time_ns() // 1_000_000 - DISCORD_EPOCH_MS) << 22) | 1
        self._last_id = max(now, self._last_id + 1)
        return self._last_id

    async def changed(self) -> None:
        """Wake every :meth:`wait_for`: something happened."""
        async with self._changed:
            self._changed.notify_all()

    # -- the test side --------------------------------------------------------------------

    def add_guild(self, *, shard: tuple[int, int]) -> int:
        """Another server, with a #general, that Discord puts on shard ``(id, count)`` (its
        id's timestamp decides: ``(guild_id >> 22) % count``). Add it before the bots start."""
        shard_id, count = shard
        guild_id = self.snowflake()
        while (guild_id >> 22) % count != shard_id:
            self._last_id += 1 << 22  # the next millisecond's ids
            guild_id = self.snowflake()
        self.guild_ids.append(guild_id)
        self.add_channel("general", guild_id)
        return guild_id

    def add_channel(self, name: str, guild_id: int | None = None) -> int:
        """A new text channel (known to the bot from its next GUILD_CREATE, or at once with
        :meth:`create_channel`), in the first server unless ``guild_id`` names another."""
        channel_id = self.snowflake()
        self.channels[channel_id] = p.text_channel(
            channel_id, guild_id or self.guild_id, name, len(self.channels)
        )
        return channel_id

    async def create_channel(self, name: str, guild_id: int | None = None) -> int:
        """A new text channel, announced to the connected bot with CHANNEL_CREATE."""
        channel_id = self.add_channel(name, guild_id)
        await self.session_for(self.guild_of(channel_id)).dispatch(
            "CHANNEL_CREATE", self.channels[channel_id]
        )
        return channel_id

    def guild_of(self, channel_id: int) -> int | None:
        """The server of ``channel_id``; None for a DM or group DM."""
        guild = self.channels[channel_id].get("guild_id")
        return int(guild) if guild is not None else None

    def add_dm(self, user: FakeUser) -> int:
        """The bot's DM with ``user`` (who installed the app to their account)."""
        channel_id = self.snowflake()
        self.channels[channel_id] = p.dm_channel(channel_id, user)
        return channel_id

    def add_group_dm(self, name: str, *users: FakeUser) -> int:
        """A group DM of ``users``: the bot is no member (a user install may answer the
        interactions there, never post in it)."""
        channel_id = self.snowflake()
        self.channels[channel_id] = p.group_dm(channel_id, name, list(users))
        return channel_id

    def bot_is_in(self, channel_id: int) -> bool:
        """Whether the bot may use the channel API there: any channel but a group DM."""
        return bool(self.channels[channel_id]["type"] != p.GROUP_DM)

    @property
    def session(self) -> GatewaySession:
        """The bot's newest connection (the one serving the first server when it is sharded)."""
        return self.session_for(self.guild_id)

    def session_for(self, guild_id: int | None) -> GatewaySession:
        """The newest open connection whose shard serves ``guild_id`` (None, a DM: shard 0)."""
        for session in reversed(self.sessions):
            if session.closed:
                continue
            if session.serves(guild_id) if guild_id is not None else session.first_shard:
                return session
        raise RuntimeError(f"no bot is connected to the fake gateway for server {guild_id}")

    def guilds_of(self, shard: tuple[int, int] | None) -> list[int]:
        """The servers a connection identified with ``shard`` gets (all, unsharded)."""
        if shard is None:
            return list(self.guild_ids)
        shard_id, count = shard
        return [g for g in self.guild_ids if (g >> 22) % count == shard_id]

    async def thread_created(self, thread: Json) -> None:
        await self.session.dispatch("THREAD_CREATE", thread | {"newly_created": True})

    def threads_of(self, channel_id: int) -> list[Json]:
        """The threads opened in the channel, oldest first."""
        return [c for c in self.channels.values() if c.get("parent_id") == str(channel_id)]

    def guild_payload(self, guild_id: int | None = None) -> Json:
        guild_id = guild_id or self.guild_id
        channels = [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)]
        return p.guild(guild_id, self.alice, self.bot_user, channels)

    async def send_message(self, author: FakeUser, content: str, channel_id: int) -> Message:
        """``author`` types ``content`` in the channel: MESSAGE_CREATE."""
        mentioned = [self.users[int(i)] for i in p.MENTION.findall(content) if int(i) in self.users]
        message = Message(
            self.snowflake(),
            channel_id,
            self.guild_of(channel_id),
            author,
            content,
            mentions=mentioned,
        )
        self.messages[message.id] = message
        if self.bot_is_in(channel_id):  # a group DM's messages never reach the bot
            await self.session_for(message.guild_id).dispatch("MESSAGE_CREATE", message.payload())
        return message

    async def slash(
        self,
        author: FakeUser,
        name: str,
        channel_id: int,
        options: SlashOptions | None = None,
    ) -> Interaction:
        """``author`` uses the slash command ``name`` as the bot synced it to the guild; in a DM
        or group DM, as it synced it globally for user installs there (else Discord would not
        offer it)."""
        command = self._command_at(name, channel_id)
        declared = {option["name"]: option for option in command.get("options", [])}
        sent: list[Json] = []
        resolved: Json = {}
        for key, value in (options or {}).items():
            if key not in declared:
                raise AssertionError(f"/{name} has no option {key!r}: {sorted(declared)}")
            kind = declared[key]["type"]
            if isinstance(value, FakeUser):
                if kind != USER_OPTION:
                    raise AssertionError(f"/{name} {key} is not a user option")
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if self.guild_of(channel_id) is not None:  # no members out of a server
                    members = resolved.setdefault("members", {})
                    members[str(value.id)] = value.member(with_user=False) | {"permissions": "0"}
                sent.append({"name": key, "type": kind, "value": str(value.id)})
            else:
                sent.append({"name": key, "type": kind, "value": OPTION_TYPES[kind](value)})
        data: Json = {"id": command["id"], "name": name, "type": 1, "options": sent}
        if self.guild_of(channel_id) is not None:
            data["guild_id"] = str(self.guild_id)
        if resolved:
            data["resolved"] = resolved
        return await self._interact(2, author, channel_id, data, None)

    async def autocomplete(
        self, author: FakeUser, name: str, channel_id: int, option: str, typed: str
    ) -> Interaction:
        """``author`` types ``typed`` into the string option ``option`` of ``/name``: Discord
        asks the bot for choices (an interaction of type 4, answered by a type 8 callback)."""
        guild = self._guild_at(channel_id)
        command = self._command_at(name, channel_id)
        declared = {o["name"]: o for o in command.get("options", [])}
        if not declared.get(option, {}).get("autocomplete"):
            raise AssertionError(f"/{name} {option} does not autocomplete: {declared}")
        data: Json = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": [{"name": option, "type": 3, "value": typed, "focused": True}],
        }
        if self.guild_of(channel_id) is not None:
            data["guild_id"] = str(guild)
        return await self._interact(4, author, channel_id, data, None)

    def _command_at(self, name: str, channel_id: int) -> Json:
        """``/name`` as Discord offers it in the channel: the server's own copy, else the
        global one; in a DM or group DM only a global one published there for user installs."""
        guild = self.guild_of(channel_id)
        if guild is None:
            command = self.commands.get((None, name))
            context = p.BOT_DM if self.bot_is_in(channel_id) else p.PRIVATE_CHANNEL
            if command is None or not p.usable(command, context, p.USER_INSTALLED):
                raise AssertionError(
                    f"/{name} is not offered to a user install in context {context}"
                )
            return command
        command = next(
            (self.commands[key] for key in ((guild, name), (None, name)) if key in self.commands),
            # The same command synced to the first server (a shard syncs only its own).
            self.commands.get((self.guild_id, name)),
        )
        if command is None:
            raise AssertionError(f"/{name} was never synced: {sorted(n for _, n in self.commands)}")
        return command

    async def press(
        self, author: FakeUser, message: Message, custom_id: str, *, lagging: bool = False
    ) -> Interaction:
        """``author`` presses the button ``custom_id`` on ``message`` (as it is now; or, from a
        ``lagging`` client, as it was: a button the message has lost since)."""
        if message.deleted or (custom_id not in message.custom_ids and not lagging):
            raise AssertionError(
                f"no button {custom_id!r} on message {message.id}: "
                f"{message.custom_ids} (deleted: {message.deleted})"
            )
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, author, message.channel_id, data, message)

    async def _interact(
        self, kind: int, author: FakeUser, channel_id: int, data: Json, message: Message | None
    ) -> Interaction:
        guild = self.guild_of(channel_id)
        if guild is not None:
            context, owners = p.GUILD, {"0": str(guild)}
        else:  # a user install's: the command's user, or whoever used the pressed message's
            context = p.BOT_DM if self.bot_is_in(channel_id) else p.PRIVATE_CHANNEL
            used = message.interaction if message is not None else None
            owners = used.owners if used is not None else {"1": str(author.id)}
        interaction = Interaction(
            id=self.snowflake(),
            token="fake-interaction." + secrets.token_urlsafe(24),
            type=kind,
            application_id=self.application_id,
            user=author,
            guild_id=guild,
            channel_id=channel_id,
            data=data,
            message=message,
            dispatched_at=time.monotonic(),
            context=context,
            owners=owners,
        )
        self.interactions[interaction.token] = interaction
        payload = interaction.payload(self.channels[channel_id])
        await self.session_for(guild).dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _guild_at(self, channel_id: int) -> int:
        """The server of ``channel_id`` (an interaction there goes to its shard's session)."""
        return self.guild_of(channel_id) or self.guild_id

    def bot_messages(self, channel_id: int, after: int = 0) -> list[Message]:
        """What the bot posted in the channel (interaction responses too) after id ``after``."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and m.author.bot and m.id > after
        ]

    async def wait_for(self, predicate: Callable[[], bool], what: str, timeout: float) -> None:
        """Wait until ``predicate()`` holds; an AssertionError naming ``what`` after ``timeout``."""
        try:
            async with asyncio.timeout(timeout), self._changed:
                await self._changed.wait_for(predicate)
        except TimeoutError:
            recent = "\n  ".join(str(call) for call in self.calls[-10:])
            said = [m for m in self.messages.values() if m.author.bot][-1:]
            last = f"\nthe bot's last message, in full:\n{said[0].content}" if said else ""
            raise AssertionError(
                f"timed out after {timeout} s waiting for {what}; last REST calls:\n  {recent}"
                f"{last}"
            ) from None

    async def wait_connected(self, sessions: int = 1, timeout: float = 15.0) -> GatewaySession:
        """Wait for the ``sessions``-th IDENTIFY to be answered (READY and GUILD_CREATE sent)."""
        await self.wait_for(
            lambda: len(self.sessions) >= sessions and self.sessions[sessions - 1].ready,
            f"gateway session {sessions}",
            timeout,
        )
        return self.sessions[sessions - 1]

    async def wait_for_messages(
        self, count: int, channel_id: int, after: int = 0, timeout: float = 5.0
    ) -> list[Message]:
        """The first ``count`` messages the bot posts in the channel after id ``after``
        (a user message, an interaction or a mark from :meth:`snowflake`)."""
        await self.wait_for(
            lambda: len(self.bot_messages(channel_id, after)) >= count,
            f"{count} bot message(s) in channel {channel_id}",
            timeout,
        )
        return self.bot_messages(channel_id, after)[:count]

    async def wait_for_callback(
        self, interaction: Interaction, timeout: float = INTERACTION_DEADLINE
    ) -> Json:
        """The bot's first callback to ``interaction``: it must come within Discord's 3 s."""
        await self.wait_for(
            lambda: interaction.answered, f"a callback to interaction {interaction.id}", timeout
        )
        return interaction.callbacks[0]

    async def quiet(self, period: float = 0.3, timeout: float = 5.0) -> None:
        """Wait until the bot has made no REST call for ``period`` seconds (counted from now at
        the earliest: a command just sent may not have reached the bot yet)."""
        start = time.monotonic()
        deadline = start + timeout
        while (idle := time.monotonic() - max(self._last_call_at, start)) < period:
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot kept calling the API for {timeout} s")
            await asyncio.sleep(period - idle)

    def mark(self) -> int:
        """A position in :attr:`calls`, for :meth:`calls_since`."""
        return len(self.calls)

    def calls_since(self, mark: int) -> list[Call]:
        return self.calls[mark:]

    # -- the gateway ----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        return await accept_gateway(self, request)

    async def session_ready(self, session: GatewaySession) -> None:
        self.sessions.append(session)
        await self.changed()
