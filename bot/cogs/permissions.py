"""The bot's permissions in a channel, and who may skip a rate limit: what a command needs that
the bot lacks, the refusal that names it, the bot's owner and a channel's moderators."""

from __future__ import annotations

from collections.abc import Sequence

import discord

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
