"""Small stand-ins for the discord.py objects the cogs touch (contexts, interactions)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

from bot.service.models import Place

SEED = 3
GUILD_ID = 900
CHANNEL_ID = 901
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
PNG = b"\x89PNG\r\n\x1a\n"

_ids = itertools.count(5000)


@dataclass(frozen=True)
class FakeMember:
    id: int
    display_name: str
    bot: bool = False

    def __str__(self) -> str:
        return self.display_name


ALICE = FakeMember(101, "alice")
BOB = FakeMember(102, "bob")
CAROL = FakeMember(103, "carol")
ME = FakeMember(100, "Backgammon", bot=True)  # the bot itself (ctx.me)


@dataclass
class FakeObject:
    id: int


@dataclass
class FakeMessage:
    id: int = field(default_factory=lambda: next(_ids))
    edits: list[dict[str, Any]] = field(default_factory=list)
    channel: Any = None

    async def edit(self, **kwargs: Any) -> FakeMessage:
        self.edits.append(kwargs)
        return self


def file_bytes(file: discord.File) -> bytes:
    file.fp.seek(0)
    return file.fp.read()


class FakeResponse:
    def __init__(self) -> None:
        self.done = False
        self.deferred = False
        self.sent: list[dict[str, Any]] = []
        self.edited: list[dict[str, Any]] = []  # edit_message: the pressed message updated
        self.choices: list[Any] | None = None  # autocomplete

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **kwargs: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.edited.append(kwargs)

    async def autocomplete(self, choices: list[Any]) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.choices = choices

    async def defer(self, **kwargs: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = self.deferred = True

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.sent.append({"content": content, **kwargs})


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.messages: list[FakeMessage] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        self.sent.append({"content": content, **kwargs})
        message = FakeMessage()
        self.messages.append(message)
        return message


class FakeInteraction:
    """A button press (or a slash command) by ``user`` in the test channel."""

    def __init__(
        self,
        user: FakeMember,
        *,
        guild_id: int | None = GUILD_ID,
        channel_id: int = CHANNEL_ID,
        message: FakeMessage | None = None,
    ) -> None:
        self.user = user
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.message = message if message is not None else FakeMessage()
        self.response = FakeResponse()
        self.followup = FakeFollowup()
        self.original_edits: list[dict[str, Any]] = []
        self.deleted_original = False
        self.command: Any = None
        self.permissions = discord.Permissions.none()  # the user's, in the channel
        self.client: Any = SimpleNamespace(owner_id=None, owner_ids=None, application=None)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.original_edits.append(kwargs)

    async def delete_original_response(self) -> None:
        self.deleted_original = True

    @property
    def everything_sent(self) -> list[dict[str, Any]]:
        return self.response.sent + self.followup.sent


class FakeCtx:
    """A hybrid command's context: slash (with an interaction) or prefix."""

    def __init__(
        self,
        author: FakeMember,
        *,
        slash: bool = True,
        guild_id: int | None = GUILD_ID,
        channel_id: int = CHANNEL_ID,
    ) -> None:
        self.author = author
        self.me = ME
        self.guild = FakeObject(guild_id) if guild_id is not None else None
        self.channel = FakeObject(channel_id)
        self.interaction = (
            FakeInteraction(author, guild_id=guild_id, channel_id=channel_id) if slash else None
        )
        self.bot: Any = SimpleNamespace(get_channel=lambda channel_id: None)  # no threads
        self.sent: list[dict[str, Any]] = []
        self.replied: list[dict[str, Any]] = []
        self.deferred = False
        self.command: Any = None
        self.clean_prefix = "!"
        self.invoked_with: str | None = None
        self.message = SimpleNamespace(id=0, content="")

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        if self.interaction is not None:
            self.interaction.response.done = True
        self.sent.append({"content": content, **kwargs})
        return FakeMessage()

    async def reply(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        self.replied.append({"content": content, **kwargs})
        return FakeMessage()

    async def defer(self, *, ephemeral: bool = False) -> None:
        self.deferred = True
        if self.interaction is not None:
            await self.interaction.response.defer()
