"""The JSON shapes of Discord's API v10 that the fake sends: users, members, the guild, its
channels, messages and interactions, with the fields discord.py 2.7 reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import discord

from tests.e2e.components import COMPONENTS_V2, components_problem, texts, walk

Json = dict[str, Any]

TIMESTAMP = "2025-01-01T12:00:00.000000+00:00"
EPHEMERAL = 1 << 6  # message flag
LOADING = 1 << 7  # message flag: a deferred "... is thinking"
LIMITED_MESSAGE_CONTENT = 1 << 19  # application flag of an unverified bot with the intent on

# What @everyone may do in the fake guild: all a bot needs to play (see the README's list).
EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    attach_files=True,
    embed_links=True,
    read_message_history=True,
    use_application_commands=True,
    add_reactions=True,
).value

# What a user-installed app may do where it is not installed (a DM or group DM): Discord sends
# these as the interaction's ``app_permissions``; the bot is no member of the channel.
USER_INSTALL = discord.Permissions(
    view_channel=True,
    send_messages=True,
    attach_files=True,
    embed_links=True,
    read_message_history=True,
    use_application_commands=True,
).value

MENTION = re.compile(r"<@!?(\d{15,20})>")

# Channel types (a text channel, the bot's DM with a user, a group DM) and interaction contexts.
TEXT, DM, GROUP_DM, PUBLIC_THREAD = 0, 1, 3, 11
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALLED = 0, 1


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # Discord's locale of the user's interactions

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member(self, *, with_user: bool = True) -> Json:
        member: Json = {
            "roles": [],
            "nick": None,
            "avatar": None,
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }
        if with_user:
            member["user"] = self.payload()
        return member


@dataclass(frozen=True)
class Attachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    content_type: str | None

    def payload(self) -> Json:
        url = f"https://cdn.fake.invalid/attachments/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }


@dataclass
class Message:
    """A message in the fake guild, posted by a user or by the bot (with every later edit)."""

    id: int
    channel_id: int
    guild_id: int | None  # None in a DM or group DM
    author: FakeUser
    content: str = ""
    components: list[Json] = field(default_factory=list)
    embeds: list[Json] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    mentions: list[FakeUser] = field(default_factory=list)
    reference_id: int | None = None
    interaction: Interaction | None = field(default=None, repr=False)  # what it answers
    edits: int = 0
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of the message's buttons (and other components), in order."""
        return [item["custom_id"] for item in walk(self.components) if "custom_id" in item]

    @property
    def layout(self) -> bool:
        """Made of layout components (IS_COMPONENTS_V2): its words are in text displays."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def text(self) -> str:
        """What the message says: its content, or its text displays one per line."""
        return "\n".join(texts(self.components)) if self.layout else self.content

    @property
    def images(self) -> list[Attachment]:
        return [a for a in self.attachments if a.filename.lower().endswith(".png")]

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": TIMESTAMP,
            "edited_timestamp": TIMESTAMP if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [
                user.payload() | {"member": user.member(with_user=False)} for user in self.mentions
            ],
            "mention_roles": [],
            "attachments": [attachment.payload() for attachment in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 0,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
            if not self.author.bot:
                data["member"] = self.author.member(with_user=False)
        if self.reference_id is not None:
            data["type"] = 19  # reply
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel_id),
            }
            if self.guild_id is not None:
                data["message_reference"]["guild_id"] = str(self.guild_id)
        interaction = self.interaction
        if interaction is not None:
            data["webhook_id"] = str(interaction.application_id)
            data["application_id"] = str(interaction.application_id)
            data["type"] = 20 if interaction.type == 2 else 0
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.owners,
            }
        return data


@dataclass
class Interaction:
    """An interaction the fake dispatched, and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 application command, 3 component, 4 autocomplete
    application_id: int
    user: FakeUser
    guild_id: int | None  # None in a DM or group DM
    channel_id: int
    data: Json
    message: Message | None = field(default=None, repr=False)  # whose component was used
    dispatched_at: float = 0.0
    callbacks: list[Json] = field(default_factory=list)  # each POSTed callback body
    callback_at: float | None = None
    # The response message (or, after a component's type 6 or 7, the component's message).
    original: Message | None = field(default=None, repr=False)
    followups: list[Message] = field(default_factory=list, repr=False)
    # Where it was used (GUILD, BOT_DM, PRIVATE_CHANNEL) and which installs it came through:
    # {"0": the server's id} (the bot's server install), {"1": a user's id} (a user install).
    context: int = GUILD
    owners: Json = field(default_factory=dict)

    @property
    def answered(self) -> bool:
        return bool(self.callbacks)

    @property
    def callback_type(self) -> int | None:
        return self.callbacks[0].get("type") if self.callbacks else None

    def payload(self, channel: Json) -> Json:
        data: Json = {
            "id": str(self.id),
            "application_id": str(self.application_id),
            "type": self.type,
            "data": self.data,
            "channel_id": str(self.channel_id),
            "channel": channel,
            "token": self.token,
            "version": 1,
            "app_permissions": str(EVERYONE),
            "locale": self.user.locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": self.owners,
            "context": self.context,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
            data["member"] = self.user.member() | {"permissions": str(EVERYONE)}
            data["guild_locale"] = "en-US"
            data["app_permissions"] = str(EVERYONE)
        else:  # a DM or group DM: a user, no member; what a user install may do there
            data["user"] = self.user.payload()
            data["app_permissions"] = str(USER_INSTALL)
        if self.message is not None:
            data["message"] = self.message.payload()
        return data


def public_thread(
    thread_id: int, parent: Json, name: str, owner_id: int, archive_minutes: int
) -> Json:
    """A public thread of the text channel ``parent``, as THREAD_CREATE and REST show it."""
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": parent["guild_id"],
        "parent_id": parent["id"],
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": archive_minutes,
            "archive_timestamp": "2025-01-01T00:00:00+00:00",
            "locked": False,
        },
    }


def dm_channel(channel_id: int, user: FakeUser) -> Json:
    """The bot's DM with ``user``."""
    return {
        "id": str(channel_id),
        "type": DM,
        "last_message_id": None,
        "flags": 0,
        "recipients": [user.payload()],
    }


def group_dm(channel_id: int, name: str, users: list[FakeUser]) -> Json:
    """A group DM of ``users`` (the first owns it); no bot can be a member of one."""
    return {
        "id": str(channel_id),
        "type": GROUP_DM,
        "name": name,
        "icon": None,
        "owner_id": str(users[0].id),
        "last_message_id": None,
        "flags": 0,
        "recipients": [user.payload() for user in users],
    }


def text_channel(channel_id: int, guild_id: int, name: str, position: int) -> Json:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }


def guild(guild_id: int, owner: FakeUser, me: FakeUser, channels: list[Json]) -> Json:
    """GUILD_CREATE's data. Without the members intent Discord lists only the bot itself."""
    return {
        "id": str(guild_id),
        "name": "Backgammon Club",
        "owner_id": str(owner.id),
        "unavailable": False,
        "large": False,
        "member_count": 4,
        "joined_at": TIMESTAMP,
        "icon": None,
        "splash": None,
        "banner": None,
        "description": None,
        "features": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "system_channel_id": None,
        "system_channel_flags": 0,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": str(EVERYONE),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "channels": [c for c in channels if c["type"] != 11],
        "members": [me.member()],
        "threads": [c for c in channels if c["type"] == 11],  # the active ones
        "voice_states": [],
        "presences": [],
        "emojis": [],
        "stickers": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def application(app_id: int, owner: FakeUser) -> Json:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(app_id),
        "name": "Backgammon",
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": owner.payload(),
        "team": None,
        "verify_key": "0" * 64,
        "flags": LIMITED_MESSAGE_CONTENT,
        "interactions_endpoint_url": None,
    }


def error(code: int, message: str) -> Json:
    return {"code": code, "message": message}


MAX_CONTENT = 2000
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
COMMAND_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


def message_problem(
    body: Json | None, files: list[Attachment], *, new: bool, message: Message | None = None
) -> str | None:
    """Why Discord would refuse this message body (400 Invalid Form Body), or None; ``message``:
    the message an edit changes (its flags and the attachments it keeps count)."""
    body = body or {}
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        return f"content: {len(content)} characters, at most {MAX_CONTENT}"
    if len(files) > MAX_FILES:
        return f"files: {len(files)}, at most {MAX_FILES}"
    for file in files:
        if len(file.data) > MAX_FILE_BYTES:
            return f"file {file.filename}: {len(file.data)} bytes, at most {MAX_FILE_BYTES}"
    embed_problem = embeds_problem(body.get("embeds") or [])
    if embed_problem is not None:
        return embed_problem
    names = {file.filename for file in files}
    flags = int(body.get("flags") or 0)
    if message is not None:
        if flags & COMPONENTS_V2 != message.flags & COMPONENTS_V2 and "flags" in body:
            return "IS_COMPONENTS_V2 can't be set or cleared by an edit"
        flags |= message.flags & COMPONENTS_V2
        kept = {str(a["id"]) for a in body.get("attachments") or []}
        names |= {
            a.filename
            for a in message.attachments
            if "attachments" not in body or str(a.id) in kept
        }
    if "components" in body or (flags & COMPONENTS_V2 and new):
        problem = components_problem(body | {"flags": flags}, names)
        if problem is not None:
            return problem
    rows = body.get("components") or []
    if new and not (content or files or rows or body.get("embeds") or body.get("poll")):
        return "Cannot send an empty message"
    return None


EMBED_LIMITS = {"title": 256, "description": 4096, "footer": 2048, "author": 256}


def embeds_problem(embeds: list[Json]) -> str | None:
    """Why Discord would refuse these embeds: at most 10, title 256, description 4,096,
    25 fields of name 256 and value 1,024, 6,000 characters in all of them."""
    if len(embeds) > 10:
        return f"embeds: {len(embeds)}, at most 10"
    total = 0
    for embed in embeds:
        texts = {
            "title": embed.get("title") or "",
            "description": embed.get("description") or "",
            "footer": (embed.get("footer") or {}).get("text") or "",
            "author": (embed.get("author") or {}).get("name") or "",
        }
        for name, text in texts.items():
            if len(text) > EMBED_LIMITS[name]:
                return f"embed {name}: {len(text)} characters, at most {EMBED_LIMITS[name]}"
        fields = embed.get("fields") or []
        if len(fields) > 25:
            return f"embed fields: {len(fields)}, at most 25"
        for item in fields:
            if not 1 <= len(item.get("name") or "") <= 256:
                return f"embed field name {item.get('name')!r}: 1 to 256 characters"
            if not 1 <= len(item.get("value") or "") <= 1024:
                return f"embed field {item['name']!r}: value of 1 to 1,024 characters"
        total += sum(map(len, texts.values()))
        total += sum(len(item["name"]) + len(item["value"]) for item in fields)
    if total > 6000:
        return f"embeds: {total} characters in all, at most 6,000"
    return None


def command_problem(command: Json) -> str | None:
    """Why Discord would refuse this application command, or None."""
    for item in [command, *command.get("options", [])]:
        if not COMMAND_NAME.match(item.get("name", "")):
            return f"name {item.get('name')!r}: 1-32 lowercase letters, digits, - or _"
        if not 1 <= len(item.get("description", "")) <= 100:
            return f"{item['name']}: description of 1 to 100 characters"
        if len(item.get("choices") or []) > 25:
            return f"{item['name']}: at most 25 choices"
    if len(command.get("options", [])) > 25:
        return f"{command['name']}: at most 25 options"
    installs, contexts = command.get("integration_types"), command.get("contexts")
    if installs is not None and not (installs and set(installs) <= {0, 1}):
        return f"{command['name']}: integration_types {installs!r}, of 0 (guild) and 1 (user)"
    if contexts is not None and not (contexts and set(contexts) <= {0, 1, 2}):
        return f"{command['name']}: contexts {contexts!r}, of 0, 1 and 2"
    return None


def usable(command: Json, context: int, install: int) -> bool:
    """Whether Discord offers ``command`` in ``context`` through ``install``: a command that
    says nothing is a server install's, in servers and (unless ``dm_permission`` is false) the
    bot's DM, as before user installs."""
    installs = command.get("integration_types") or [GUILD_INSTALL]
    contexts = command.get("contexts")
    if contexts is None:
        contexts = [GUILD, BOT_DM] if command.get("dm_permission", True) else [GUILD]
    return install in installs and context in contexts
