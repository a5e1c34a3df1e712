"""Who a reply pings: the player who must act, as Discord's ``<@id>`` mentions."""

from __future__ import annotations

from bot.service.models import Reply


def mention_ids(reply: Reply) -> list[int]:
    """The Discord users ``reply`` pings (the console's names are not Discord users)."""
    return [int(user_id) for user_id in reply.mention if user_id.isdigit()]


def lead_of(reply: Reply) -> str:
    """The pings a public reply starts with: the player who must act, nobody else."""
    return " ".join(f"<@{user_id}>" for user_id in mention_ids(reply))
