"""The fake's REST API: routes, bodies (JSON or multipart with files) and the handlers.

A mixin of :class:`tests.e2e.fake_discord.FakeDiscord`, which holds the state it works on.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from tests.e2e import payloads as p
from tests.e2e.components import COMPONENTS_V2
from tests.e2e.payloads import Attachment, FakeUser, Interaction, Json, Message

log = logging.getLogger("fake_discord")

INTERACTION_DEADLINE = 3.0  # seconds Discord gives a bot to answer an interaction
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction's token serves its followups and edits
MAX_FOLLOWUPS = 5  # followup messages one interaction may send


@dataclass(frozen=True)
class Call:
    """One REST request the bot made."""

    method: str
    route: str  # the template, e.g. "/channels/{channel}/messages"
    path: str
    query: dict[str, str]
    body: Any  # the JSON body, or a multipart request's payload_json
    files: list[Attachment]
    status: int
    at: float

    def __str__(self) -> str:
        said = self.body.get("content") if isinstance(self.body, dict) else None
        return f"{self.method} {self.route} -> {self.status}" + (f" {said[:50]!r}" if said else "")


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Attachment]


Handler = Callable[[Request], Awaitable[web.Response]]
Route = tuple[str, re.Pattern[str], str, Handler]


def answer(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json", no charset: discord.py reads anything else as text.
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def refuse(status: int, code: int, message: str) -> web.Response:
    return answer(p.error(code, message), status)


UNKNOWN_APPLICATION = (404, 10002, "Unknown Application")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
MISSING_ACCESS = (403, 50001, "Missing Access")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
TOO_MANY_FOLLOWUPS = (
    400,
    40094,
    "This interaction has hit the maximum number of follow up messages",
)


def invalid(problem: str) -> web.Response:
    log.error("FAKE DISCORD: 400 Invalid Form Body: %s", problem)
    return refuse(400, 50035, f"Invalid Form Body: {problem}")


def wants(request: Request, name: str) -> bool:
    return request.query.get(name, "").lower() in ("1", "true")


class RestApi:
    # The state, set up by FakeDiscord.
    token: str
    bot_user: FakeUser
    alice: FakeUser
    application_id: int
    guild_id: int
    channels: dict[int, Json]
    messages: dict[int, Message]
    interactions: dict[str, Interaction]
    commands: dict[tuple[int | None, str], Json]
    calls: list[Call]
    unknown_routes: list[str]
    _routes: list[Route]
    _last_call_at: float

    @property
    def gateway_url(self) -> str:
        raise NotImplementedError

    def snowflake(self) -> int:
        raise NotImplementedError

    def guild_of(self, channel_id: int) -> int | None:
        raise NotImplementedError

    def bot_is_in(self, channel_id: int) -> bool:
        raise NotImplementedError

    async def changed(self) -> None:
        raise NotImplementedError

    def route_table(self) -> list[Route]:
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._patch_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_message),
            ("POST", "/channels/{channel}/messages/{message}/threads", self._start_thread),
            ("POST", "/channels/{channel}/threads", self._start_thread),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._patch_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message),
        ]
        return [
            (method, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", t) + "$"), t, h)
            for method, t, h in table
        ]

    async def rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await read_body(request)
        handler: Handler = self._unknown
        template, params = path, {}
        for method, pattern, route, route_handler in self._routes:
            match = pattern.match(path)
            if method == request.method and match:
                template, handler, params = route, route_handler, match.groupdict()
                break
        call = Request(request.method, path, params, dict(request.query), body, files)
        bot_route = not template.startswith(("/webhooks/", "/interactions/"))
        if bot_route and request.headers.get("Authorization") != f"Bot {self.token}":
            response = refuse(401, 0, "401: Unauthorized")
        elif "channel" in params and (shut := self._shut_out(call)) is not None:
            response = shut
        else:
            response = await handler(call)
        now = time.monotonic()
        self.calls.append(
            Call(request.method, template, path, call.query, body, files, response.status, now)
        )
        self._last_call_at = now
        await self.changed()
        return response

    async def _unknown(self, request: Request) -> web.Response:
        route = f"{request.method} {request.path}"
        log.error("FAKE DISCORD: unknown route %s (answered 404)", route)
        self.unknown_routes.append(route)
        return refuse(404, 0, f"404: Not Found (the fake has no {route})")

    # -- login ----------------------------------------------------------------------------

    async def _get_gateway(self, request: Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return answer({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def _get_me(self, request: Request) -> web.Response:
        extra = {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
        return answer(self.bot_user.payload() | extra)

    async def _get_application(self, request: Request) -> web.Response:
        return answer(p.application(self.application_id, self.alice))

    # -- application commands -------------------------------------------------------------

    @staticmethod
    def _scope(request: Request) -> int | None:
        return int(request.params["guild"]) if "guild" in request.params else None

    async def _put_commands(self, request: Request) -> web.Response:
        """Bulk overwrite: the body is the whole new list; ids stay fixed per name."""
        if int(request.params["app"]) != self.application_id:
            return refuse(*UNKNOWN_APPLICATION)
        problems = [p.command_problem(command) for command in request.body]
        if any(problems):
            return invalid("; ".join(problem for problem in problems if problem))
        scope = self._scope(request)
        old = {name: c for (g, name), c in self.commands.items() if g == scope}
        for name in old:
            del self.commands[(scope, name)]
        result = []
        for command in request.body:
            kept = old.get(command["name"])
            stored = command | {
                "id": kept["id"] if kept else str(self.snowflake()),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
                "type": command.get("type", 1),
                "default_member_permissions": command.get("default_member_permissions"),
            }
            if scope is not None:
                stored["guild_id"] = str(scope)
            self.commands[(scope, command["name"])] = stored
            result.append(stored)
        return answer(result)

    async def _get_commands(self, request: Request) -> web.Response:
        if int(request.params["app"]) != self.application_id:
            return refuse(*UNKNOWN_APPLICATION)
        scope = self._scope(request)
        return answer([c for (g, _), c in self.commands.items() if g == scope])

    # -- messages -------------------------------------------------------------------------

    def _new_message(
        self, channel_id: int, body: Json, files: list[Attachment], interaction: Interaction | None
    ) -> Message:
        reference = (body.get("message_reference") or {}).get("message_id")
        message = Message(
            self.snowflake(),
            channel_id,
            self.guild_of(channel_id),
            self.bot_user,
            flags=int(body.get("flags") or 0) & (p.EPHEMERAL | COMPONENTS_V2),
            reference_id=int(reference) if reference else None,
            interaction=interaction,
        )
        self._apply(message, body, files)
        message.edits = 0
        self.messages[message.id] = message
        return message

    def _apply(self, message: Message, body: Json | None, files: list[Attachment]) -> None:
        """Edit ``message`` as PATCH does: only the fields the body names change."""
        body = body or {}
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        new = [Attachment(self.snowflake(), f.filename, f.data, f.content_type) for f in files]
        if "attachments" in body:
            keep = {str(a["id"]) for a in body["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments += new
        message.flags &= ~p.LOADING
        message.flags |= int(body.get("flags") or 0) & COMPONENTS_V2  # a deferral's followup
        message.edits += 1

    def _shut_out(self, request: Request) -> web.Response | None:
        """403 for the channel API in a channel the bot is no member of (a group DM, where a
        user-installed app can only answer interactions), logged loudly: tests notice."""
        channel_id = int(request.params["channel"])
        if channel_id not in self.channels or self.bot_is_in(channel_id):
            return None
        log.error(
            "FAKE DISCORD: %s %s in a channel the bot is not in", request.method, request.path
        )
        return refuse(*MISSING_ACCESS)

    def _channel_message(self, request: Request) -> Message | None:
        message = self.messages.get(int(request.params["message"]))
        if message is None or message.deleted:
            return None
        return message if message.channel_id == int(request.params["channel"]) else None

    async def _post_message(self, request: Request) -> web.Response:
        channel_id = int(request.params["channel"])
        if channel_id not in self.channels:
            return refuse(*UNKNOWN_CHANNEL)
        if problem := p.message_problem(request.body, request.files, new=True):
            return invalid(problem)
        message = self._new_message(channel_id, request.body or {}, request.files, None)
        return answer(message.payload())

    async def _get_message(self, request: Request) -> web.Response:
        message = self._channel_message(request)
        return answer(message.payload()) if message else refuse(*UNKNOWN_MESSAGE)

    async def _patch_message(self, request: Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return refuse(*UNKNOWN_MESSAGE)
        if problem := p.message_problem(request.body, request.files, new=False, message=message):
            return invalid(problem)
        self._apply(message, request.body, request.files)
        return answer(message.payload())

    async def thread_created(self, thread: Json) -> None:
        raise NotImplementedError

    async def _start_thread(self, request: Request) -> web.Response:
        """A public thread, from a message (its id is the message's, as on Discord) or alone;
        announced with THREAD_CREATE."""
        parent = self.channels.get(int(request.params["channel"]))
        if parent is None or parent["type"] != 0:
            return refuse(*UNKNOWN_CHANNEL)
        body = request.body or {}
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            return invalid(f"a thread's name is 1-100 characters, not {name!r}")
        if body.get("auto_archive_duration", 4320) not in (60, 1440, 4320, 10080):
            return invalid(f"no auto_archive_duration {body['auto_archive_duration']!r}")
        if "message" in request.params:
            message = self._channel_message(request)
            if message is None:
                return refuse(*UNKNOWN_MESSAGE)
            if message.id in self.channels:
                return refuse(400, 160004, "A thread has already been created for this message")
            thread_id = message.id
        else:
            if body.get("type") != 11:
                return invalid(f"only public threads (type 11) here, not {body.get('type')!r}")
            thread_id = self.snowflake()
        archive = int(body.get("auto_archive_duration", 4320))
        thread = p.public_thread(thread_id, parent, name, self.bot_user.id, archive)
        self.channels[thread_id] = thread
        await self.thread_created(thread)
        return answer(thread)

    async def _delete_message(self, request: Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return refuse(*UNKNOWN_MESSAGE)
        message.deleted = True
        return no_content()

    # -- interactions ---------------------------------------------------------------------

    async def _callback(self, request: Request) -> web.Response:
        interaction = self.interactions.get(request.params["token"])
        if interaction is None or str(interaction.id) != request.params["interaction"]:
            return refuse(*UNKNOWN_INTERACTION)
        if interaction.answered:
            return refuse(*ALREADY_ACKNOWLEDGED)
        if time.monotonic() - interaction.dispatched_at > INTERACTION_DEADLINE:
            log.error("FAKE DISCORD: interaction %s answered after 3 s", interaction.id)
            return refuse(*UNKNOWN_INTERACTION)
        body = request.body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        component = interaction.message
        resource: Json = {"type": kind}
        edited = component if kind == 7 else None
        if kind in (4, 7) and (
            problem := p.message_problem(data, request.files, new=kind == 4, message=edited)
        ):
            return invalid(problem)
        if kind == 4:
            interaction.original = self._new_message(
                interaction.channel_id, data, request.files, interaction
            )
        elif kind == 5:
            thinking = self._new_message(interaction.channel_id, data, [], interaction)
            thinking.flags |= p.LOADING
            interaction.original = thinking
        elif kind in (6, 7) and component is not None:
            interaction.original = component
            if kind == 7:
                self._apply(component, data, request.files)
        elif kind not in (8, 9):
            return refuse(400, 50035, f"Invalid Form Body: callback type {kind!r} here")
        interaction.callbacks.append(body)
        interaction.callback_at = time.monotonic()
        if not wants(request, "with_response"):
            return no_content()
        original = interaction.original
        summary: Json = {"id": str(interaction.id), "type": interaction.type}
        if original is not None:
            summary["response_message_id"] = str(original.id)
            summary["response_message_loading"] = bool(original.flags & p.LOADING)
            summary["response_message_ephemeral"] = original.ephemeral
            if kind in (4, 5, 7):
                resource["message"] = original.payload()
        return answer({"interaction": summary, "resource": resource})

    def _webhook_interaction(self, request: Request) -> Interaction | None:
        interaction = self.interactions.get(request.params["token"])
        if interaction is None or int(request.params["app"]) != interaction.application_id:
            return None
        return interaction if interaction.answered else None

    @staticmethod
    def _expired(interaction: Interaction) -> bool:
        """Past its token's 15 minutes: its followups and edits are refused (logged)."""
        if time.monotonic() - interaction.dispatched_at <= TOKEN_LIFETIME:
            return False
        log.error("FAKE DISCORD: interaction %s's token used after 15 minutes", interaction.id)
        return True

    def _token_expired(self, request: Request) -> bool:
        interaction = self._webhook_interaction(request)
        return interaction is not None and self._expired(interaction)

    async def _followup(self, request: Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        if interaction is None:
            return refuse(*UNKNOWN_WEBHOOK)
        if self._expired(interaction):
            return refuse(*INVALID_WEBHOOK_TOKEN)
        if len(interaction.followups) >= MAX_FOLLOWUPS:
            log.error("FAKE DISCORD: interaction %s's followup past 5", interaction.id)
            return refuse(*TOO_MANY_FOLLOWUPS)
        if problem := p.message_problem(request.body, request.files, new=True):
            return invalid(problem)
        original = interaction.original
        if original is not None and original.flags & p.LOADING and not original.deleted:
            # After a "thinking" defer, Discord turns the first followup into that message.
            self._apply(original, request.body, request.files)
            message = original
        else:
            message = self._new_message(
                interaction.channel_id, request.body or {}, request.files, interaction
            )
            interaction.followups.append(message)
        return answer(message.payload()) if wants(request, "wait") else no_content()

    def _webhook_message(self, request: Request) -> Message | None:
        interaction = self._webhook_interaction(request)
        if interaction is None:
            return None
        wanted = request.params["message"]
        if wanted == "@original":
            message = interaction.original
        else:
            message = next((m for m in interaction.followups if str(m.id) == wanted), None)
            if message is None and interaction.original and str(interaction.original.id) == wanted:
                message = interaction.original
        return message if message is not None and not message.deleted else None

    async def _get_webhook_message(self, request: Request) -> web.Response:
        if self._token_expired(request):
            return refuse(*INVALID_WEBHOOK_TOKEN)
        message = self._webhook_message(request)
        return answer(message.payload()) if message else refuse(*UNKNOWN_MESSAGE)

    async def _patch_webhook_message(self, request: Request) -> web.Response:
        if self._token_expired(request):
            return refuse(*INVALID_WEBHOOK_TOKEN)
        message = self._webhook_message(request)
        if message is None:
            return refuse(*UNKNOWN_MESSAGE)
        if problem := p.message_problem(request.body, request.files, new=False, message=message):
            return invalid(problem)
        self._apply(message, request.body, request.files)
        return answer(message.payload())

    async def _delete_webhook_message(self, request: Request) -> web.Response:
        if self._token_expired(request):
            return refuse(*INVALID_WEBHOOK_TOKEN)
        message = self._webhook_message(request)
        if message is None:
            return refuse(*UNKNOWN_MESSAGE)
        message.deleted = True
        return no_content()


async def read_body(request: web.Request) -> tuple[Any, list[Attachment]]:
    """The JSON body, or a multipart body's ``payload_json`` and its ``files[n]``."""
    if not request.body_exists:
        return None, []
    if request.content_type != "multipart/form-data":
        text = await request.text()
        return (json.loads(text) if text else None), []
    body: Any = None
    files: list[Attachment] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, aiohttp.BodyPartReader):
            continue
        if part.name == "payload_json":
            body = json.loads(await part.text())
        else:
            content_type = part.headers.get("Content-Type")
            files.append(
                Attachment(0, part.filename or "file", bytes(await part.read()), content_type)
            )
    return body, files
