"""The Discord bot: a ``commands.Bot`` over one :class:`TableService`.

``setup_hook`` loads the cogs, registers the persistent buttons, warms up the renderer and, only
when ``DEV_GUILD_ID`` is set, syncs the slash commands to that server. Global sync is the owner's
``!sync``, never a start-up step.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.cogs.admin import AdminCog
from bot.cogs.buttons import register_buttons
from bot.cogs.errors import ErrorsCog
from bot.cogs.presses import ButtonPresses
from bot.cogs.replies import LiveButtons
from bot.cogs.table import TableCog
from bot.service.table import TableService
from bot.settings import Settings

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


class BackgammonBot(commands.Bot):
    def __init__(
        self,
        service: TableService,
        settings: Settings,
        *,
        intents: discord.Intents | None = None,
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
        )
        self.service = service
        self.settings = settings
        self.live = LiveButtons(service)

    async def setup_hook(self) -> None:
        await self.add_cog(TableCog(self.service, self.live))
        await self.add_cog(ErrorsCog(self))
        await self.add_cog(AdminCog(self))
        register_buttons(self, ButtonPresses(self.service, self.live))
        await self.service.warm_up()
        if not self.intents.message_content:
            log.warning(NO_MESSAGE_CONTENT)
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

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "Logged in as %s (id %s), in %d servers",
            user,
            user.id if user else "?",
            len(self.guilds),
        )
