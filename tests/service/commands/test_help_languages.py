"""``!help`` in another language: the list's frame, each command's line (its slash command's
description in that language), one command's example, and the words typed by habit."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n.commands import de
from bot.i18n.core import Language
from bot.service.table import TableService
from tests.service.conftest import ALICE, PLACE


async def _said(service: TableService, text: str, language: Language = "en") -> str:
    user = replace(ALICE, language=language)
    replies = await service.run(PLACE, user, text, users=lambda word: None)
    assert len(replies) == 1, replies
    return replies[0].text


async def test_the_german_help_list(service: TableService) -> None:
    sheet = await _said(service, "!help", "de")
    assert "Backgammon-Befehle" in sheet and "Herausforderungen und Matches" in sheet
    assert f"- {de.COMMANDS['challenge'][1]}" in sheet, sheet
    assert "`!help <Befehl>` für mehr." in sheet
    english = await _said(service, "!help")
    assert "Backgammon commands" in english and "offer a match to N points" in english


async def test_one_command_in_greek_and_a_habit_in_turkish(service: TableService) -> None:
    move = await _said(service, "!help move", "el")
    unknown = await _said(service, "!help nothing", "el")
    assert "Παράδειγμα: `!move " in move, move
    assert unknown.startswith("Δεν υπάρχει εντολή 'nothing'."), unknown
    undo = await _said(service, "!undo", "tr")
    assert undo.startswith("Bir hamle gönderildiği anda kesinleşir: geri alma yok."), undo
