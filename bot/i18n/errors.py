"""What the Discord adapter says when discord.py can't read a command (:mod:`bot.cogs.errors`)."""

from __future__ import annotations

from bot.i18n.core import Message as M

USAGE = M("usage", " Usage: `{prefix}{usage}`")
MISSING_ARGUMENT = M("missing_argument", "Missing `{name}`.{hint}")
MEMBER_NOT_FOUND = M(
    "member_not_found", "I can't find the member {argument} here: mention them, e.g. @name.{hint}"
)
NOT_ONE_OF = M("not_one_of", "{argument} is not one of {choices}.{hint}")
SERVER_ONLY = M("server_only", "That works only in a server channel, not in direct messages.")
OWNER_ONLY = M("owner_only", "Only the bot's owner can do that.")
NOT_HERE = M("not_here", "You can't use that command here.")
CANT_USE = M("cant_use", "I can't use {value} there.{hint}")
OUTDATED = M(
    "outdated",
    "The bot's commands are being updated: try again in a minute. (If this keeps happening, "
    "the bot's owner must type `{prefix}sync`.)",
)
SORRY = M("sorry", "Sorry, something went wrong (error {error_id}).")

# -- the database's trouble: nothing changed, and what to do --------------------------------------
RACE_LOST = M(
    "race_lost",
    "The game changed while your command ran: nothing was done. Look at the board and try again.",
)
DATABASE_BUSY = M(
    "database_busy",
    "The database is busy (another program is holding it): nothing changed. Try again in a moment.",
)
DISK_FULL = M(
    "disk_full",
    "The bot can't write to its disk (it is full, or failing): nothing was saved, and the game "
    "is as it was. Try again later; the bot's admin must free some space.",
)
DATABASE_DOWN = M(
    "database_down", "The database is not answering, retrying: try again in a moment."
)
