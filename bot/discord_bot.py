"""The Discord bot: a ``commands.Bot`` over one :class:`TableService`, auto-sharded in production
(:class:`ShardedBackgammonBot`; the plain one is what the cog tests drive, tests/cogs/wire.py).

``setup_hook`` sets the slash commands' translator, loads the cogs, registers the persistent
buttons, warms up the renderer and, only when ``DEV_GUILD_ID`` is set, syncs the slash commands to
that server. Global sync is the owner's ``!sync``, never a start-up step. Every command passes the
:class:`Gate` (rate limits) before it runs; once connected, the bot re-posts the state of matches
whose last message never went out.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.admin import AdminCog
from bot.cogs.admission import admit_command, admit_interaction
from bot.cogs.buttons import dispatch_press, lost_press, register_buttons
from bot.cogs.errors import ErrorsCog
from bot.cogs.presses import ButtonPresses
from bot.cogs.replies import LiveButtons
from bot.cogs.sending import ChannelTarget, Sent, place_of, send_replies
from bot.cogs.table import TableCog
from bot.cogs.threads import DiscordThreads
from bot.cogs.translator import CatalogTranslator
from bot.service.commands.limits import Gate, Limiter, Limits
from bot.service.models import Place, Rate, Reply
from bot.service.table import TableService
from bot.settings import Settings
from bot.store import DatabaseDown

log = logging.getLogger(__name__)

NO_MESSAGE_CONTENT = (
    "Message Content intent not granted: prefix commands are off (except when they start with a "
    "mention of the bot), slash commands and buttons still work. Turn it on at "
    "https://discord.com/developers/applications (Bot -> Message Content Intent) to use them."
)


def bot_intents(*, message_content: bool = True) -> discord.Intents:
    """Default intents (no members, no presences), plus message content for prefix commands."""
    intents = discord.Intents.default()
    intents.message_content = message_content
    return intents


REPOSTED = "(Re-posted after a restart.)"


class GatedTree(app_commands.CommandTree["BackgammonBot"]):
    """Slash commands pass the bot's :class:`Gate` before they run."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.command
        if interaction.type is not discord.InteractionType.application_command or command is None:
            return True  # autocomplete: no reply to send, nothing to limit
        return await admit_interaction(
            self.client.gate, interaction, self.client.service.server.languages
        )


class BackgammonBot(commands.Bot):
    def __init__(
        self,
        service: TableService,
        settings: Settings,
        *,
        intents: discord.Intents | None = None,
        limiter: Limiter | None = None,
    ) -> None:
        # The bot has no voice: spare the log the warnings about missing voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned_or(settings.command_prefix),
            intents=intents if intents is not None else bot_intents(),
            help_command=None,  # ``help`` is a table command
            case_insensitive=True,
            strip_after_prefix=True,
            allowed_mentions=discord.AllowedMentions.none(),  # each reply names whom it pings
            tree_cls=GatedTree,
            **self.shard_options(settings),
        )
        self.service = service
        self.settings = settings
        self.live = LiveButtons(service, client=self, layout=settings.table_layout)
        if limiter is None:
            player = Rate(settings.player_commands, settings.player_seconds)
            limiter = Limiter(Limits(player=player))
        self.gate = Gate(limiter, service.seated)
        self._reposted = False
        self._deadlines: asyncio.Task[None] | None = None

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        """No shards: one connection for all servers (Discord allows up to 2,500)."""
        return {}

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())  # before the cogs add the commands
        await self.add_cog(TableCog(self.service, self.live))
        await self.add_cog(ErrorsCog(self))
        await self.add_cog(AdminCog(self))
        register_buttons(self, ButtonPresses(self.service, self.live, self.gate))
        await self.service.warm_up()
        self._deadlines = asyncio.create_task(self._watch_deadlines(), name="deadlines")
        if not self.intents.message_content:
            log.warning(NO_MESSAGE_CONTENT)
        log.info(
            "Shards: %s of %s",
            ", ".join(map(str, self.settings.shard_ids)) if self.settings.shard_ids else "all",
            self.settings.shard_count or "Discord's recommended count",
        )
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d slash commands to DEV_GUILD_ID %s", len(synced), guild_id)
        else:
            log.info(
                "Slash commands are not synced at start: the owner types `%ssync` once to "
                "publish them (and again after commands change).",
                self.settings.command_prefix,
            )

    async def process_commands(self, message: discord.Message, /) -> None:
        """As ``commands.Bot`` does, with the :class:`Gate` between parsing and running: a
        command past its rate is refused once or dropped before it touches anything."""
        if message.author.bot:
            return
        ctx = await self.get_context(message)
        if ctx.command is not None and not await admit_command(
            self.gate, ctx, self.service.server.languages
        ):
            return
        await self.invoke(ctx)
        if ctx.command is not None:
            self.gate.changed(place_of(ctx.guild.id if ctx.guild else None, ctx.channel.id))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press on a button its message has lost is answered too (see :func:`lost_press`)."""
        lost = lost_press(interaction)
        if lost is not None:
            await dispatch_press(interaction, *lost)

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "Logged in as %s (id %s), in %d servers, shards %s of %s",
            user,
            user.id if user else "?",
            len(self.guilds),
            ", ".join(map(str, getattr(self, "shard_ids", None) or ())) or "all",
            self.shard_count,
        )
        if not self._reposted:
            self._reposted = True
            await self.resume_engine_turns()
            await self.repost_unannounced()
            waiting = await self.service.resume_analyses()
            if waiting:
                log.info("Match analyses in the queue: %d", waiting)

    async def close(self) -> None:
        await self.stop_deadlines()
        await super().close()

    async def stop_deadlines(self) -> None:
        """Stop the background task of :meth:`post_due` (at close)."""
        if self._deadlines is not None:
            self._deadlines.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._deadlines
            self._deadlines = None

    async def _watch_deadlines(self) -> None:
        """The background task: every ``DEADLINE_POLL_SECONDS``, what fell due is done and
        posted."""
        await self.wait_until_ready()
        down = False  # the database stopped answering: said once, and once when it is back
        while True:
            try:
                await self.post_due()
                if down:
                    log.warning("The database answers again")
                    down = False
            except DatabaseDown as error:
                if not down:
                    log.warning("Deadlines: %s; retrying every poll", error)
                    down = True
            except Exception:  # one bad turn must not stop reminders and clocks for good
                log.exception("Deadlines: what fell due could not be done or posted")
            await asyncio.sleep(self.settings.deadline_poll_seconds)

    async def post_due(self) -> int:
        """Do what fell due in this process's servers (reminders, clocks run out, challenges
        expired, daily puzzles) and post it where it happened; returns how many messages went
        out."""
        by_place: dict[Place, list[Reply]] = {}
        threads = DiscordThreads(
            self, self.live, self.service.server.languages
        )  # a tournament's new round gets its threads
        for place, reply in await self.service.due(self._serves, threads=threads):
            # A reply may name its own place: a thread's result goes to the thread's channel.
            by_place.setdefault(reply.place or place, []).append(reply)
        posted = 0
        for place, replies in by_place.items():
            sent = await self._post(place, replies)
            await self.service.sent(reply for reply, message in sent if message is not None)
            posted += sum(message is not None for _, message in sent)
        return posted

    async def repost_unannounced(self) -> int:
        """Post the status of every match of this process's servers whose newest state was
        never shown (its message failed, or the bot stopped first); returns how many."""
        posted = 0
        for place, match_id, version in await self.service.unannounced():
            channel = await self._reach(place)
            if channel is None:
                continue  # another shard's server, or one the bot has left
            perms = channel.permissions_for(channel.guild.me)
            thread = isinstance(channel, discord.Thread)
            if not perms.view_channel or not (
                perms.send_messages_in_threads if thread else perms.send_messages
            ):
                log.warning("Can't re-post match %s in channel %s: no permission", match_id, place)
                continue
            replies = [
                dataclasses.replace(reply, text=f"{REPOSTED} {reply.text}")
                for reply in await self.service.current_status(place)
            ]
            sent = await send_replies(
                ChannelTarget(channel, attach=perms.attach_files, tables=self.live.tables), replies
            )
            await self.live.update(place, sent)
            if any(message is not None for _, message in sent):
                posted += 1
                log.info("Re-posted match %s (version %s) in %s", match_id, version, place)
        return posted

    async def resume_engine_turns(self) -> int:
        """Let GNU Backgammon take the turns it owes in this process's servers (it was thinking
        when the bot stopped, or failed) and post them; returns in how many channels. A reply
        that can't be posted leaves its match unannounced: :meth:`repost_unannounced` shows it."""
        posted = 0
        turns = await self.service.resume_engine(self._serves)
        for place, replies in turns.items():
            posted += any(message is not None for _, message in await self._post(place, replies))
        return posted

    async def _post(self, place: Place, replies: list[Reply]) -> Sent:
        """Send ``replies`` to ``place`` outside any command (nothing when it can't be
        reached), and keep its buttons live."""
        channel = await self._reach(place)
        if channel is None:
            return []
        perms = channel.permissions_for(channel.guild.me)
        sent = await send_replies(
            ChannelTarget(channel, attach=perms.attach_files, tables=self.live.tables), replies
        )
        await self.live.update(place, sent)
        return sent

    def _serves(self, place: Place) -> bool:
        """Whether ``place`` is in one of this process's servers (its shards')."""
        return place.server_id.isdigit() and self.get_guild(int(place.server_id)) is not None

    async def _reach(self, place: Place) -> discord.TextChannel | discord.Thread | None:
        """``place``'s channel or thread, from the cache or else from Discord's API: a thread
        archived after a week of quiet is not in the cache (posting there reopens it)."""
        channel = self._channel_of(place)
        if channel is not None or not self._serves(place) or not place.channel_id.isdigit():
            return channel
        try:
            found = await self.fetch_channel(int(place.channel_id))
        except (discord.NotFound, discord.Forbidden):
            return None  # deleted, or out of the bot's sight
        except discord.HTTPException as error:
            log.warning("Could not fetch channel %s (%s %s)", place, error.status, error.text)
            return None
        return found if isinstance(found, discord.TextChannel | discord.Thread) else None

    def _channel_of(self, place: Place) -> discord.TextChannel | discord.Thread | None:
        if not (place.server_id.isdigit() and place.channel_id.isdigit()):
            return None  # a direct message or a console table
        guild = self.get_guild(int(place.server_id))
        if guild is None:
            return None
        channel = guild.get_channel_or_thread(int(place.channel_id))
        return channel if isinstance(channel, discord.TextChannel | discord.Thread) else None


class ShardedBackgammonBot(BackgammonBot, commands.AutoShardedBot):
    """The bot as ``python -m bot`` runs it: one gateway connection per shard, Discord's
    recommended number of them unless ``SHARD_COUNT`` says, all of them or ``SHARD_IDS``."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        options: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:  # discord.py reads an empty list as "no shards"
            options["shard_ids"] = list(settings.shard_ids)
        return options
