"""Replies turned into Discord messages, and old buttons taken away."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.cogs.buttons import button_ids
from bot.cogs.replies import MESSAGE_LIMIT, LiveButtons, fit, message_kwargs, remove_buttons
from bot.service.models import Attachment, Decision, Pending, Reply
from tests.cogs.fakes import PLACE, FakeMessage, file_bytes


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
        decision_key="m7.53",
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

    async def mark_announced(self, match_id: int, version: int) -> None:
        pass


def asked(decision: Decision, user_id: str = "1", key: str = "m1.1") -> Reply:
    return Reply("?", decision=decision, decision_for=user_id, decision_key=key)


async def test_live_buttons_go_when_a_newer_question_is_asked() -> None:
    service = FakeService()
    live = LiveButtons(service)  # type: ignore[arg-type]
    first, second = FakeMessage(), FakeMessage()
    await live.update(PLACE, [(asked(Decision.TURN), first)])  # type: ignore[list-item]
    assert live.message_id(PLACE) == first.id
    await live.update(PLACE, [(asked(Decision.DOUBLE, "2"), second)])  # type: ignore[list-item]
    assert first.edits == [{"view": None}] and second.edits == []
    assert live.message_id(PLACE) == second.id


async def test_live_buttons_go_when_the_question_is_answered_by_typing() -> None:
    service = FakeService()
    live = LiveButtons(service)  # type: ignore[arg-type]
    message = FakeMessage()
    await live.update(PLACE, [(asked(Decision.TURN), message)])  # type: ignore[list-item]
    service.pending = Pending(Decision.TURN, "1", "alice", "m1.1")
    await live.update(PLACE, [(Reply("Pips ..."), FakeMessage())])  # type: ignore[list-item]
    assert message.edits == []  # still the question: the buttons stay
    service.pending = Pending(Decision.TURN, "1", "alice", "m1.3")  # the same kind, but newer
    await live.update(PLACE, [(Reply("..."), FakeMessage())])  # type: ignore[list-item]
    assert message.edits == [{"view": None}]
    message.edits.clear()
    await live.update(PLACE, [(asked(Decision.TURN, key="m1.3"), message)])  # type: ignore[list-item]
    service.pending = None
    await live.update(PLACE, [(Reply("alice rolls 6-5."), FakeMessage())])  # type: ignore[list-item]
    assert message.edits == [{"view": None}]
    assert live.message_id(PLACE) is None


async def test_live_buttons_ignore_refusals() -> None:
    live = LiveButtons(FakeService())  # type: ignore[arg-type]
    await live.update(PLACE, [(Reply("No.", private=True, decision=Decision.TURN), FakeMessage())])  # type: ignore[list-item]
    assert live.message_id(PLACE) is None


class Failing(FakeMessage):
    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    async def edit(self, **kwargs: Any) -> FakeMessage:
        raise self.error


class _Response:
    status = 404
    reason = "Not Found"


@pytest.mark.parametrize("status", [404, 500])
async def test_removing_buttons_never_raises(status: int) -> None:
    response = _Response()
    response.status = status
    kind = discord.NotFound if status == 404 else discord.HTTPException
    error = kind(response, "gone")
    await remove_buttons(Failing(error))  # type: ignore[arg-type]
