"""Replies turned into Discord messages, and old buttons taken away (the bot's own messages,
edited through :mod:`tests.cogs.wire`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import discord
import pytest

from bot.cogs.buttons import button_ids
from bot.cogs.replies import LiveButtons
from bot.cogs.sending import MESSAGE_LIMIT, fit, message_kwargs, remove_buttons
from bot.service.keys import Key, MatchKey
from bot.service.models import Attachment, Decision, Pending, Place, Reply
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, EDIT, GUILD_ID, Wire, file_bytes, start

PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings)
    yield wire
    await wire.close()


def edits(wire: Wire, message: discord.Message) -> list[dict[str, Any]]:
    """The edits Discord made to ``message``."""
    return [
        call.json
        for call in wire.calls_of(EDIT)
        if call.ids["message_id"] == message.id and call.status == 200
    ]


def buttons_removed(edit: dict[str, Any]) -> bool:
    return edit.get("components") == [] and "content" not in edit


def test_fit_keeps_short_texts_and_cuts_long_ones() -> None:
    assert fit("hello") == "hello"
    long = "\n".join(f"line {n} " + "x" * 50 for n in range(100))
    cut = fit(long)
    assert len(cut) <= MESSAGE_LIMIT and cut.endswith("…")
    assert cut[:-1] == long[: len(cut) - 1]  # a prefix, cut at a line end
    assert long[len(cut) - 1] == "\n"
    assert len(fit("y" * 5000)) == MESSAGE_LIMIT


def test_a_status_reply_becomes_text_board_buttons_and_one_ping() -> None:
    reply = Reply(
        "bob doubles.",
        image=b"\x89PNG...",
        mention=("102",),
        decision=Decision.DOUBLE,
        decision_for="102",
        decision_key=MatchKey(7, 53),
        board_viewer=1,
    )
    kwargs = message_kwargs(reply)
    assert kwargs["content"] == "<@102> bob doubles."
    mentions: discord.AllowedMentions = kwargs["allowed_mentions"]
    assert [user.id for user in mentions.users] == [102]  # type: ignore[union-attr]
    assert mentions.everyone is False and mentions.roles is False
    assert mentions.replied_user is False
    [board] = kwargs["files"]
    assert board.filename == "board.png" and file_bytes(board) == b"\x89PNG..."
    assert button_ids(kwargs["view"]) == ["bg:take:m7.53", "bg:drop:m7.53"]


def test_a_plain_reply_pings_nobody() -> None:
    kwargs = message_kwargs(Reply("Pips: alice 167, bob 167 (alice even)."))
    assert kwargs["content"] == "Pips: alice 167, bob 167 (alice even)."
    assert kwargs["allowed_mentions"].users == []
    assert "files" not in kwargs and "view" not in kwargs


def test_an_export_carries_its_file_and_a_long_text_is_cut() -> None:
    reply = Reply("x" * 3000, file=Attachment("match-1.mat", b"; [Site]"))
    kwargs = message_kwargs(reply)
    assert len(kwargs["content"]) <= MESSAGE_LIMIT
    [mat] = kwargs["files"]
    assert mat.filename == "match-1.mat" and file_bytes(mat) == b"; [Site]"


class FakeService:
    def __init__(self) -> None:
        self.pending: Pending | None = None

    async def pending_decision(self, place: object) -> Pending | None:
        return self.pending

    async def mark_all_announced(
        self, shown: Mapping[int, int], messages: Mapping[int, str] | None = None
    ) -> None:
        pass


def asked(decision: Decision, user_id: str = "1", key: Key | None = None) -> Reply:
    key = MatchKey(1, 1) if key is None else key
    return Reply("?", decision=decision, decision_for=user_id, decision_key=key)


async def test_live_buttons_go_when_a_newer_question_is_asked(wire: Wire) -> None:
    service = FakeService()
    live = LiveButtons(service)  # type: ignore[arg-type]
    first, second = await wire.post("?"), await wire.post("?")
    await live.update(PLACE, [(asked(Decision.TURN), first)])
    assert live.message_id(PLACE) == first.id
    await live.update(PLACE, [(asked(Decision.DOUBLE, "2"), second)])
    [edit] = edits(wire, first)
    assert buttons_removed(edit) and edits(wire, second) == []
    assert live.message_id(PLACE) == second.id


async def test_live_buttons_go_when_the_question_is_answered_by_typing(wire: Wire) -> None:
    service = FakeService()
    live = LiveButtons(service)  # type: ignore[arg-type]
    message = await wire.post("?")
    await live.update(PLACE, [(asked(Decision.TURN), message)])
    service.pending = Pending(Decision.TURN, "1", "alice", MatchKey(1, 1))
    await live.update(PLACE, [(Reply("Pips ..."), await wire.post("Pips ..."))])
    assert edits(wire, message) == []  # still the question: the buttons stay
    service.pending = Pending(
        Decision.TURN, "1", "alice", MatchKey(1, 3)
    )  # the same kind, but newer
    await live.update(PLACE, [(Reply("..."), await wire.post("..."))])
    [edit] = edits(wire, message)
    assert buttons_removed(edit)
    await live.update(PLACE, [(asked(Decision.TURN, key=MatchKey(1, 3)), message)])
    service.pending = None
    await live.update(PLACE, [(Reply("alice rolls 6-5."), await wire.post("alice rolls 6-5."))])
    [_, again] = edits(wire, message)
    assert buttons_removed(again)
    assert live.message_id(PLACE) is None


async def test_live_buttons_ignore_refusals(wire: Wire) -> None:
    live = LiveButtons(FakeService())  # type: ignore[arg-type]
    refusal = Reply("No.", private=True, decision=Decision.TURN)
    await live.update(PLACE, [(refusal, await wire.post("No."))])
    assert live.message_id(PLACE) is None


@pytest.mark.parametrize("status", [404, 500])
async def test_removing_buttons_never_raises(wire: Wire, status: int) -> None:
    message = await wire.post("?")
    wire.refuse(EDIT, status, status)  # deleted, or Discord failing
    await remove_buttons(message)
    assert [call.status for call in wire.calls_of(EDIT)] == [status]  # tried once, no raise
