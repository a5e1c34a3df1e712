"""One message per table: Discord's layout components (Components V2) holding the board, the
words of the newest reply and its buttons, edited at each move instead of a new message.

A reply goes into the table's message when it shows the board of a match being played
(:func:`is_table_reply`). It edits that message unless it pings somebody other than the one who
acted: an edit notifies nobody, so the player whose turn it now is gets a new message (it
becomes the table's), and the old one keeps its board without buttons. Ends, doubles answered,
results, analyses and everything else stay messages of their own, so the channel's history
still reads as the match went. The message of each match is stored with what it announced
(``match_announcements.message_id``), so a restarted bot edits the same one.
"""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.bounded import Bounded
from bot.cogs.buttons import decision_view
from bot.cogs.pings import lead_of
from bot.service.models import Reply

log = logging.getLogger(__name__)

BOARD_FILENAME = "board.png"
TEXT_LIMIT = 4000  # characters of text displays a layout message may hold in all
TABLE_COLOUR = discord.Colour(0x2E7D32)  # the board's green
TABLES_KEPT = 10_000  # matches whose table message is remembered (the store has the rest)


def is_table_reply(reply: Reply) -> bool:
    """Whether ``reply`` shows the board of a match at its table, question and all: the
    message that is edited move by move."""
    return (
        reply.image is not None
        and reply.board_viewer is not None
        and reply.announces is not None
        and not reply.private
        and reply.file is None
        and reply.sheet is None
        and reply.job is None
        and not reply.shows_an_end
    )


def _tells(reply: Reply) -> bool:
    """Whether ``reply`` only tells what happened in a match (words, no board, no question):
    the first part of a move's story whose board comes next (the bot's turn after a play)."""
    return (
        reply.announces is not None
        and reply.image is None
        and reply.decision is None
        and not reply.private
        and reply.file is None
        and reply.sheet is None
        and reply.job is None
        and reply.paired is None
        and not reply.shows_an_end
    )


def folded(replies: Sequence[Reply]) -> list[Reply]:
    """``replies`` with the words that lead to a table reply of the same match, at the same
    place, put in front of it: a play and the bot's answer are one state of the table."""
    out: list[Reply] = []
    told: list[Reply] = []
    for reply in replies:
        if _tells(reply):
            told.append(reply)
            continue
        if told and is_table_reply(reply) and reply.announces is not None:
            match_id = reply.announces[0]
            if all(
                r.announces and r.announces[0] == match_id and r.place == reply.place for r in told
            ):
                mention = tuple(dict.fromkeys(m for r in (*told, reply) for m in r.mention))
                text = "\n".join([*(r.text for r in told), reply.text])
                reply = dataclasses.replace(reply, text=text, mention=mention)
                told = []
        out.extend(told)
        told = []
        out.append(reply)
    out.extend(told)
    return out


def pings_only(reply: Reply, user_id: int | str) -> bool:
    """Whether ``reply`` pings nobody but ``user_id`` (an edit can carry it: it notifies nobody
    else either way)."""
    return all(mentioned == str(user_id) for mentioned in reply.mention)


def text_of(reply: Reply) -> str:
    """The words of a table reply, the pings first; past what a layout message holds, its end
    (the table's news and its question: a long run of turns loses its start)."""
    lead = lead_of(reply)
    room = TEXT_LIMIT - (len(lead) + 1 if lead else 0)
    text = reply.text
    if len(text) > room:
        tail = text[-(room - 2) :]
        newline = tail.find("\n")
        if 0 <= newline < room // 2:
            tail = tail[newline + 1 :]
        text = f"…\n{tail}"
    return f"{lead} {text}" if lead else text


def table_view(reply: Reply, *, buttons: bool = True) -> discord.ui.LayoutView:
    """The table's layout: one container with the words, the board (the attached PNG) and the
    question's buttons (none with ``buttons`` false: a question answered or replaced)."""
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=TABLE_COLOUR
    )
    container.add_item(discord.ui.TextDisplay(text_of(reply)))
    container.add_item(
        discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{BOARD_FILENAME}"))
    )
    if buttons and reply.decision is not None and reply.decision_key is not None:
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for item in decision_view(
            reply.decision,
            reply.decision_key,
            money_game=reply.money_game,
            language=reply.language,
        ).children:
            row.add_item(item)
        container.add_item(row)
    view.add_item(container)
    # Presses are answered by the buttons' dynamic items (bot.cogs.buttons.register_buttons):
    # a layout view kept in discord.py's store would answer each one a second time.
    view.stop()
    return view


def table_kwargs(reply: Reply) -> dict[str, Any]:
    """The keyword arguments of ``send`` (or, ``files`` as ``attachments``, of an edit) for a
    table reply: its layout, its board, its pings."""
    assert reply.image is not None
    return {
        "view": table_view(reply),
        "files": [discord.File(io.BytesIO(reply.image), filename=BOARD_FILENAME)],
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(int(u)) for u in reply.mention if u.isdigit()],
        ),
    }


def is_layout(message: discord.Message | None) -> bool:
    """Whether ``message`` is made of layout components (a table message)."""
    return message is not None and message.flags.components_v2


class Announcements(Protocol):
    async def table_message(self, match_id: int) -> tuple[str | None, int] | None: ...


class TableMessages:
    """The table message of each match and the newest version of it shown: remembered as sent,
    else read from the store (after a restart). ``enabled`` false: there are none, every reply
    is a message of its own."""

    def __init__(
        self, service: Announcements, *, enabled: bool = True, kept: int = TABLES_KEPT
    ) -> None:
        self.enabled = enabled
        self._service = service
        self._known: Bounded[int, tuple[int | None, int]] = Bounded(kept)

    def shown(self, match_id: int, version: int, message_id: int | None = None) -> None:
        """Version ``version`` of the match was shown (by its table message ``message_id``)."""
        old = self._known.peek(match_id)
        kept = old[0] if old is not None else None
        newest = max(version, old[1]) if old is not None else version
        self._known.put(match_id, (message_id if message_id is not None else kept, newest))

    async def _read(self, match_id: int) -> tuple[int | None, int] | None:
        known = self._known.peek(match_id)
        if known is not None:
            return known
        stored = await self._service.table_message(match_id)
        if stored is None:
            return None
        message_id, version = stored
        self.shown(
            match_id, version, int(message_id) if message_id and message_id.isdigit() else None
        )
        return self._known.peek(match_id)

    async def message_id(self, match_id: int) -> int | None:
        """The id of the match's table message, if it has one."""
        known = await self._read(match_id)
        return known[0] if known is not None else None

    def editable(self, reply: Reply, actor: int) -> bool:
        """Whether ``reply``, answering ``actor``, may edit its match's table message."""
        return self.enabled and is_table_reply(reply) and pings_only(reply, actor)

    async def edit(
        self, channel: discord.abc.Messageable, reply: Reply, actor: int
    ) -> discord.Message | None:
        """Show ``reply`` by editing its match's table message in ``channel`` (one REST call);
        None when it can't (no such message, deleted, refused), or when the reply shows no
        newer state (``!board``: the board asked again is posted anew, next to the question,
        and becomes the table's)."""
        if not self.editable(reply, actor) or reply.announces is None:
            return None
        match_id, version = reply.announces
        known = await self._read(match_id)
        partial = getattr(channel, "get_partial_message", None)
        if known is None or known[0] is None or version <= known[1] or partial is None:
            return None
        message_id = known[0]
        kwargs = table_kwargs(reply)
        files = kwargs.pop("files")
        try:
            edited: discord.Message = await partial(message_id).edit(attachments=files, **kwargs)
        except discord.HTTPException as error:
            log.info("Could not edit table message %s (%s): a new one", message_id, error.status)
            self._known.put(match_id, (None, known[1]))
            return None
        return edited


async def send_table(send: Any, reply: Reply, **extra: Any) -> tuple[discord.Message | None, bool]:
    """Send a table reply as a new layout message: (the message, True); a layout refused
    (413, 403 on the files, a 400) gives (None, False) and the caller sends it as before."""
    try:
        message: discord.Message | None = await send(**table_kwargs(reply), **extra)
    except discord.HTTPException as error:
        log.warning("A table message was refused (%s %s): sent as before", error.status, error.text)
        return None, False
    return message, True


async def without_buttons(message: discord.Message, reply: Reply) -> None:
    """Take the buttons off table ``message`` that shows ``reply`` (its board stays)."""
    await message.edit(view=table_view(reply, buttons=False))
