"""The fake's gateway: one websocket session per connection, compressed as the client asks."""

from __future__ import annotations

import json
import logging
import secrets
import zlib
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.e2e.payloads import LIMITED_MESSAGE_CONTENT, Json

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord

log = logging.getLogger("fake_discord")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME = 0, 1, 2, 3, 6
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
MESSAGE_CONTENT_INTENT = 1 << 15
HEARTBEAT_INTERVAL_MS = 41_250


class Compressor:
    """Transport compression: one stream per connection, each message flushed whole."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib = zlib.compressobj() if kind == "zlib-stream" else None
        self._zstd: Any = None
        if kind == "zstd-stream":
            import zstandard  # only when discord.py asks: it asks when it has zstandard too

            self._zstd = zstandard.ZstdCompressor().compressobj()
        elif kind not in (None, "zlib-stream"):
            raise ValueError(f"unknown gateway compression {kind!r}")

    def pack(self, text: str) -> str | bytes:
        raw = text.encode()
        if self._zlib is not None:
            return self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None:
            import zstandard

            flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
            packed: bytes = self._zstd.compress(raw) + self._zstd.flush(flush)
            return packed
        return text


class GatewaySession:
    """One websocket connection from the bot."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, query: dict[str, str]):
        self.fake = fake
        self.ws = ws
        self.query = query
        self.compressor = Compressor(query.get("compress"))
        self.session_id = secrets.token_hex(16)
        self.sequence = 0
        self.identify: Json | None = None
        self.ready = False
        self.heartbeats = 0

    @property
    def closed(self) -> bool:
        return self.ws.closed

    @property
    def shard(self) -> tuple[int, int] | None:
        """(shard id, shard count) the bot identified with; None when it isn't sharded."""
        named = (self.identify or {}).get("shard")
        return (int(named[0]), int(named[1])) if named else None

    def serves(self, guild_id: int) -> bool:
        return guild_id in self.fake.guilds_of(self.shard)

    @property
    def first_shard(self) -> bool:
        """Whether it gets what is in no server (DMs): Discord sends those to shard 0."""
        return self.shard is None or self.shard[0] == 0

    @property
    def intents(self) -> int:
        return int((self.identify or {}).get("intents", 0))

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        message: Json = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self.sequence += 1
            message["s"] = self.sequence
        packed = self.compressor.pack(json.dumps(message))
        if isinstance(packed, bytes):
            await self.ws.send_bytes(packed)
        else:
            await self.ws.send_str(packed)

    async def dispatch(self, event: str, data: Json) -> None:
        await self.send(DISPATCH, data, event)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.ws.closed:
            await self.ws.close(code=code, message=reason.encode())

    async def run(self) -> None:
        await self.send(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        async for message in self.ws:
            if message.type is not WSMsgType.TEXT:
                log.error("FAKE DISCORD: gateway got a %s frame; closing", message.type)
                await self.close(4002, "Decode error")
                break
            payload = json.loads(message.data)
            await self.handle(payload["op"], payload.get("d"))

    async def handle(self, op: int, data: Any) -> None:
        if op == HEARTBEAT:
            self.heartbeats += 1
            await self.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(data)
        elif op == RESUME:
            # No replay buffer here: refuse, and discord.py identifies again.
            await self.send(INVALID_SESSION, False)
        elif op == PRESENCE:
            pass
        elif op == REQUEST_MEMBERS:
            await self._members_chunk(data)
        else:
            log.error("FAKE DISCORD: unknown gateway op %s: %r", op, data)

    async def _identify(self, data: Json) -> None:
        fake = self.fake
        self.identify = data
        if data.get("token") != fake.token:
            await self.close(4004, "Authentication failed.")
            return
        if fake.refuse_message_content and self.intents & MESSAGE_CONTENT_INTENT:
            await self.close(4014, "Disallowed intent(s).")
            return
        user = fake.bot_user.payload() | {"verified": True, "mfa_enabled": False}
        ready = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g), "unavailable": True} for g in fake.guilds_of(self.shard)],
            "session_id": self.session_id,
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": LIMITED_MESSAGE_CONTENT},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }
        if "shard" in data:  # a sharded client names its shard; READY echoes it
            ready["shard"] = list(data["shard"])
        await self.dispatch("READY", ready)
        for guild_id in fake.guilds_of(self.shard):
            await self.dispatch("GUILD_CREATE", fake.guild_payload(guild_id))
        self.ready = True
        await fake.session_ready(self)

    async def _members_chunk(self, data: Json) -> None:
        fake = self.fake
        wanted = {int(i) for i in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        found = [
            u
            for u in fake.users.values()
            if (u.id in wanted) or (not wanted and u.name.lower().startswith(query))
        ][: int(data.get("limit") or 100) or None]
        chunk = {
            "guild_id": data["guild_id"],
            "members": [u.member() for u in found],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(i) for i in wanted - {u.id for u in found}],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)


async def accept_gateway(fake: FakeDiscord, request: web.Request) -> web.WebSocketResponse:
    query = dict(request.query)
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    if query.get("v") != "10" or query.get("encoding") != "json":
        log.error("FAKE DISCORD: gateway query %r: expected v=10&encoding=json", query)
        await ws.close(code=4012, message=b"Invalid API version")
        return ws
    session = GatewaySession(fake, ws, query)
    try:
        await session.run()
    finally:
        await fake.changed()
    return ws
