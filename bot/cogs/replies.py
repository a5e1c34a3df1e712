"""From Discord to the service and back: places, users, and replies turned into messages.

Every reply of every command and button goes out through :func:`send_replies`: the text (cut to
Discord's limit), the board PNG, a file, the decision's buttons, and a ping for the player who
must act, and nobody else.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.cogs.buttons import decision_view
from bot.cogs.errors import tell_interaction
from bot.service.commands.limits import Gate, Verdict
from bot.service.keys import Key
from bot.service.models import Decision, Place, Reply, Sheet, User
from bot.service.table import TableService

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # characters of message content Discord accepts
DEFER_AFTER = 2.0  # seconds: a slash command must be answered within 3
BOARD_FILENAME = "board.png"
LIVE_KEPT = 10_000  # channels whose newest buttons are remembered (least recently used go)
NO_ATTACH = "(I can't attach the board here: I need the Attach Files permission in this channel.)"
TOO_LARGE = "(The attachment was too large to upload.)"


def place_of(guild_id: int | None, channel_id: int) -> Place:
    """The table of a channel; a thread is a channel of its own, a DM is in no server."""
    server = str(guild_id) if guild_id is not None else "dm"
    return Place(server_id=server, channel_id=str(channel_id))


def user_of(user: discord.abc.User) -> User:
    return User(id=str(user.id), name=user.display_name)


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, at a line end when there is one near."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    newline = cut.rfind("\n")
    if newline > limit // 2:
        cut = cut[:newline]
    return cut + "…"


EMBED_COLOUR = discord.Colour(0x2E7D32)  # the board's green


def sheet_embed(sheet: Sheet) -> discord.Embed:
    """A :class:`Sheet` as an embed: a field per section (each within Discord's 1,024)."""
    embed = discord.Embed(title=sheet.title, description=sheet.description, colour=EMBED_COLOUR)
    for section in sheet.sections:
        embed.add_field(name=section.title, value=fit("\n".join(section.lines), 1024), inline=False)
    return embed


def mention_ids(reply: Reply) -> list[int]:
    return [int(user_id) for user_id in reply.mention if user_id.isdigit()]


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """The keyword arguments of ``send`` for one public reply."""
    pinged = mention_ids(reply)
    lead = " ".join(f"<@{user_id}>" for user_id in pinged)
    text = "" if reply.sheet is not None else reply.text
    kwargs: dict[str, Any] = {
        "content": fit(f"{lead} {text}" if lead else text),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user_id) for user_id in pinged],
        ),
    }
    if reply.sheet is not None:
        kwargs["embed"] = sheet_embed(reply.sheet)
    files = []
    if reply.image is not None:
        files.append(discord.File(io.BytesIO(reply.image), filename=BOARD_FILENAME))
    if reply.file is not None:
        files.append(discord.File(io.BytesIO(reply.file.data), filename=reply.file.filename))
    if files:
        kwargs["files"] = files
    if reply.decision is not None and reply.decision_key is not None:
        kwargs["view"] = decision_view(
            reply.decision, reply.decision_key, money_game=reply.money_game
        )
    return kwargs


async def deliver(
    send: Callable[..., Awaitable[Any]], reply: Reply, *, attach: bool = True, **extra: Any
) -> Any:
    """Send one public reply; returns the message, or None when it could not be sent (logged).

    Without Attach Files (``attach`` false, or the upload refused with 403 or 413), the text goes
    alone: it says what happened, and a note says why the board is missing. A Discord 5xx is
    tried once more; a reply that still fails leaves its match unannounced, to be re-posted at
    the next start.
    """
    note = None if attach else NO_ATTACH
    retried = False
    while True:
        kwargs = message_kwargs(reply)
        if note is not None and "files" in kwargs:
            del kwargs["files"]
            kwargs["content"] = fit(f"{kwargs['content']}\n{note}")
        try:
            return await send(**kwargs, **extra)
        except discord.HTTPException as error:
            if note is None and "files" in kwargs and error.status in (403, 413):
                log.warning("Sending a reply without its files: %s %s", error.status, error.text)
                note = NO_ATTACH if error.status == 403 else TOO_LARGE
                continue
            if error.status >= 500 and not retried:
                retried = True
                continue
            log.warning(
                "Could not send a reply (%s %s): %r", error.status, error.text, reply.text[:80]
            )
            return None


class Target(Protocol):
    """Where replies go: a command's context, or a button's interaction."""

    async def send(self, reply: Reply) -> discord.Message | None: ...


class CommandTarget:
    """Replies to a prefix or slash command (a hybrid command's context)."""

    def __init__(self, ctx: commands.Context[Any], *, deferred: bool = False) -> None:
        self.ctx = ctx
        self.deferred = deferred
        self.sent = 0

    async def send(self, reply: Reply) -> discord.Message | None:
        ctx = self.ctx
        self.sent += 1
        if reply.private:
            if ctx.interaction is None:
                return await ctx.reply(
                    fit(reply.text),
                    mention_author=False,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            if self.deferred and self.sent == 1:
                # A public "thinking..." would turn the first followup public: remove it.
                try:
                    await ctx.interaction.delete_original_response()
                except discord.HTTPException:
                    log.debug("Could not delete the deferred response", exc_info=True)
            return await ctx.send(
                fit(reply.text), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        message: discord.Message | None = await deliver(ctx.send, reply)
        return message


class InteractionTarget:
    """Replies to a button press, as followups (the press was deferred)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    async def send(self, reply: Reply) -> discord.Message | None:
        followup = self.interaction.followup
        if reply.private:
            return await followup.send(
                fit(reply.text),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                wait=True,
            )
        message: discord.Message | None = await deliver(followup.send, reply, wait=True)
        return message


class ChannelTarget:
    """Public replies posted straight to a channel (a re-post after a restart)."""

    def __init__(self, channel: discord.abc.Messageable, *, attach: bool = True) -> None:
        self.channel = channel
        self.attach = attach

    async def send(self, reply: Reply) -> discord.Message | None:
        if reply.private:
            return None  # meant for one user, and there is nobody to tell here
        message: discord.Message | None = await deliver(
            self.channel.send, reply, attach=self.attach
        )
        return message


Sent = list[tuple[Reply, discord.Message | None]]


async def send_replies(target: Target, replies: Sequence[Reply]) -> Sent:
    """Send each reply as one message; returns what was sent, for :class:`LiveButtons`."""
    sent: Sent = []
    for reply in replies:
        sent.append((reply, await target.send(reply)))
    return sent


def messageable(client: discord.Client, place: Place) -> ChannelTarget | None:
    """Where to post at ``place``: its channel or thread (one just opened may not be in the
    cache yet: then by its id alone); None for a place that is not Discord's."""
    if not place.channel_id.isdigit():
        return None
    channel = client.get_channel(int(place.channel_id))
    if isinstance(channel, discord.TextChannel | discord.Thread):
        return ChannelTarget(channel, attach=channel.permissions_for(channel.guild.me).attach_files)
    guild_id = int(place.server_id) if place.server_id.isdigit() else None
    return ChannelTarget(client.get_partial_messageable(int(place.channel_id), guild_id=guild_id))


async def send_routed(
    target: Target,
    place: Place,
    replies: Sequence[Reply],
    live: LiveButtons,
    elsewhere: Callable[[Place], Target | None],
) -> None:
    """Send ``replies`` of a command at ``place``: through ``target``, except those meant for
    another place (a match's new thread, a thread's result for its channel), posted there;
    then :meth:`LiveButtons.update` for each place."""
    sent: dict[Place, Sent] = {place: []}
    targets: dict[Place, Target | None] = {place: target}
    for reply in replies:
        at = reply.place if reply.place is not None else place
        if at not in targets:
            targets[at] = elsewhere(at)
        to = targets[at]
        message = await to.send(reply) if to is not None else None
        sent.setdefault(at, []).append((reply, message))
    for at, posted in sent.items():
        await live.update(at, posted)


async def open_rounds(
    client: discord.Client, service: TableService, replies: Sequence[Reply], live: LiveButtons
) -> None:
    """The matches of each tournament round ``replies`` paired (their ``opens``), opened in
    threads of the tournament's channel and announced there."""
    from bot.cogs.threads import DiscordThreads  # it imports this module

    for tournament in dict.fromkeys(r.opens for r in replies if r.opens is not None):
        more = await service.open_tournament_matches(tournament, DiscordThreads(client, live))
        by_place: dict[Place, list[Reply]] = {}
        for reply in more:
            if reply.place is not None:
                by_place.setdefault(reply.place, []).append(reply)
        for at, said in by_place.items():
            target = messageable(client, at)
            if target is not None:
                await live.update(at, await send_replies(target, said))


async def within_deadline(
    ctx: commands.Context[Any], work: Awaitable[list[Reply]]
) -> tuple[list[Reply], bool]:
    """Run ``work``; a slash command still running after :data:`DEFER_AFTER` is deferred
    (Discord drops interactions not answered within 3 s). Returns (replies, deferred)."""
    if ctx.interaction is None:
        return await work, False
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if done:
        return task.result(), False
    await ctx.defer()
    return await task, True


@dataclass(slots=True)
class _Live:
    message: discord.Message
    key: Key | None  # the question its buttons answer (see :class:`Pending`)


# Questions that are not the table's: a tournament's sign-up, a review's page, an analysis'
# Review button, a drill (the channel's game keeps its own buttons while they are asked).
UNTRACKED = (
    None,
    Decision.SIGNUP,
    Decision.REVIEW,
    Decision.REVIEW_ERRORS,
    Decision.ANALYSED,
    Decision.DRILL_DOUBLE,
    Decision.DRILL_TAKE,
)


class LiveButtons:
    """The newest message with buttons in each channel.

    When a newer question is asked, or the question is answered some other way (typed, not
    pressed), the old message loses its buttons: one edit instead of stale buttons piling up.
    Only a nicety: after a restart it is empty, and a stale press is still refused. It keeps the
    ``kept`` most recently active channels.

    It also records which state of a match was shown: a sent reply that ``announces`` one marks
    it in the store, so a state whose message failed is re-posted at the next start; and hands
    a sent reply that shows a background job to :attr:`progress`, which edits it as it goes.
    """

    def __init__(
        self,
        service: TableService,
        *,
        kept: int = LIVE_KEPT,
        client: discord.Client | None = None,
    ) -> None:
        """``client``: the bot, to reach the channels a job's last replies name (none without
        it: they go beside the job's message)."""
        from bot.cogs.progress import LiveProgress  # it reads this module's helpers

        self.service = service
        self._client = client
        self._kept = kept
        self._live: OrderedDict[Place, _Live] = OrderedDict()
        # messages that show a job's progress, and what a queued bot turn ends with
        self.progress = LiveProgress(service, post=self._post_after)

    @property
    def size(self) -> int:
        """How many channels' buttons are remembered."""
        return len(self._live)

    def message_id(self, place: Place) -> int | None:
        live = self._live.get(place)
        return live.message.id if live else None

    def message(self, place: Place, key: Key | None) -> discord.Message | None:
        """The message at ``place`` whose buttons answer the question ``key``, if known."""
        live = self._live.get(place)
        return live.message if live is not None and key is not None and live.key == key else None

    def forget(self, place: Place, message_id: int) -> None:
        live = self._live.get(place)
        if live is not None and live.message.id == message_id:
            del self._live[place]

    def _remember(self, place: Place, live: _Live) -> None:
        self._live[place] = live
        self._live.move_to_end(place)
        while len(self._live) > self._kept:
            self._live.popitem(last=False)

    async def _post_after(self, message: discord.Message, replies: list[Reply]) -> None:
        """What a job yields after its outcome (a queued bot turn's replies), as new messages
        beside the job's ``message`` (or where a reply says), buttons and pings as any."""
        guild = message.guild
        place = place_of(guild.id if guild is not None else None, message.channel.id)
        client = self._client

        def elsewhere(at: Place) -> Target | None:
            return None if client is None else messageable(client, at)

        await send_routed(ChannelTarget(message.channel), place, replies, self, elsewhere)

    async def update(self, place: Place, sent: Sent) -> None:
        self.progress.follow(sent)
        await self._mark_announced(sent)
        newest = None
        for reply, message in sent:
            # A tournament's sign-up is no question of the table: anyone answers it, for as long
            # as it is open, so its message keeps its buttons whatever is said after it.
            if reply.decision not in UNTRACKED and not reply.private and message:
                newest = _Live(message, reply.decision_key)
        old = self._live.get(place)
        if newest is not None:
            self._remember(place, newest)
            if old is not None and old.message.id != newest.message.id:
                await remove_buttons(old.message)
            return
        if old is None:
            return
        pending = await self.service.pending_decision(place)
        if pending is None or pending.key != old.key:
            self._live.pop(place, None)
            await remove_buttons(old.message)

    async def _mark_announced(self, sent: Sent) -> None:
        shown: dict[int, int] = {}
        for reply, message in sent:
            if reply.announces is not None and message is not None and not reply.private:
                match_id, version = reply.announces
                shown[match_id] = max(version, shown.get(match_id, 0))
        for match_id, version in shown.items():
            await self.service.mark_announced(match_id, version)


async def remove_buttons(message: discord.Message) -> None:
    """Edit ``message`` to drop its buttons; a failure only leaves stale (harmless) buttons."""
    try:
        await message.edit(view=None)
        return
    except discord.NotFound:
        return  # deleted
    except discord.HTTPException:
        if not isinstance(message, discord.WebhookMessage | discord.InteractionMessage):
            log.debug("Could not edit message %s", message.id, exc_info=True)
            return
    # An interaction's message outlives its 15-minute token: edit it as the bot instead.
    partial = getattr(message.channel, "get_partial_message", None)
    if partial is None:
        return
    try:
        await partial(message.id).edit(view=None)
    except discord.HTTPException:
        log.debug("Could not remove the buttons of message %s", message.id, exc_info=True)


# -- before a command runs: rate limits and the bot's permissions ------------------------------

PERMISSION_NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "read_message_history": "Read Message History",  # a refusal is a reply to the command
    "attach_files": "Attach Files",
}
FILE_COMMANDS = frozenset({"board", "export"})  # their file is the answer: no text instead


def missing_permissions(perms: discord.Permissions, command: str, *, thread: bool) -> list[str]:
    """The channel permissions a prefix command needs that the bot lacks, as Discord names them.

    Without Attach Files other commands still run: their replies go as text (:func:`deliver`).
    """
    needed = [
        "view_channel",
        "send_messages_in_threads" if thread else "send_messages",
        "read_message_history",
    ]
    if command in FILE_COMMANDS:
        needed.append("attach_files")
    return [PERMISSION_NAMES[name] for name in needed if not getattr(perms, name)]


def missing_text(missing: Sequence[str], command: str, prefix: str, *, slash: bool) -> str:
    names = ", ".join(missing)
    them = "them" if len(missing) > 1 else "it"
    plural = "s" if len(missing) > 1 else ""
    text = (
        f"I can't run `{prefix}{command}` here: I need the {names} permission{plural} in this "
        f"channel. Ask a server admin for {them}"
    )
    if slash:
        return f"{text}, or use `/{command}`, which works without {them}."
    return f"{text}."


def owns(client: discord.Client, user_id: int) -> bool:
    """Whether ``user_id`` owns the bot, from what login already fetched (no request)."""
    if user_id == getattr(client, "owner_id", None):
        return True
    if user_id in (getattr(client, "owner_ids", None) or ()):
        return True
    application = client.application
    if application is None:
        return False
    if application.team is not None:
        return any(member.id == user_id for member in application.team.members)
    return application.owner.id == user_id


def privileged(client: discord.Client, user_id: int, permissions: discord.Permissions) -> bool:
    """The bot's owner, or a moderator of the channel (Manage Messages, as for ``void``)."""
    return permissions.manage_messages or owns(client, user_id)


async def admit_command(gate: Gate, ctx: commands.Context[Any]) -> bool:
    """Whether a prefix command may run. Call before ``invoke``: nothing has happened yet.

    Past its rate a command is refused once (a reply) and then dropped silently; the owner and
    the channel's moderators never are. In a channel where the bot lacks a permission the
    command needs, it is refused naming the permission: in the channel when the bot can still
    write there, else in a direct message (at most once per :attr:`Limits.notice` per user and
    channel; then silently).
    """
    command = ctx.command
    assert command is not None
    name = command.qualified_name
    place = place_of(ctx.guild.id if ctx.guild is not None else None, ctx.channel.id)
    chosen = privileged(ctx.bot, ctx.author.id, ctx.permissions)
    check = await gate.check(place, str(ctx.author.id), privileged=chosen)
    if check.verdict is Verdict.DROP:
        return False
    missing: list[str] = []
    if ctx.guild is not None:
        thread = isinstance(ctx.channel, discord.Thread)
        missing = missing_permissions(ctx.bot_permissions, name, thread=thread)
    if missing:
        if not gate.limiter.notice(place, str(ctx.author.id)):
            return False
        slash = isinstance(command, commands.HybridCommand)
        text = missing_text(missing, name, ctx.clean_prefix, slash=slash)
        can_write = not {"View Channel", "Send Messages", "Send Messages in Threads"} & set(missing)
        try:
            if can_write:
                await ctx.send(text, allowed_mentions=discord.AllowedMentions.none())
            else:
                await ctx.author.send(text)
        except discord.HTTPException:
            log.warning("Could not tell %s: %s", ctx.author, text, exc_info=True)
        return False
    if check.verdict is Verdict.REFUSE:
        await ctx.reply(
            check.text, mention_author=False, allowed_mentions=discord.AllowedMentions.none()
        )
        return False
    return True


async def admit_interaction(gate: Gate, interaction: discord.Interaction[Any]) -> bool:
    """Whether a slash command or a button press may run. Past its rate it is answered all the
    same, for the user alone, with how long to wait: Discord shows "This interaction failed" for
    one left unanswered, and the answer costs no channel message. No permission check: replies
    through an interaction need none of the channel's."""
    if interaction.channel_id is None:
        return True
    place = place_of(interaction.guild_id, interaction.channel_id)
    chosen = privileged(interaction.client, interaction.user.id, interaction.permissions)
    check = await gate.check(place, str(interaction.user.id), privileged=chosen)
    if check.verdict is Verdict.ALLOW:
        return True
    await tell_interaction(interaction, check.text)
    return False
