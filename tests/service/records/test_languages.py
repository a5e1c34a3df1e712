"""The server's records in another language: the leaderboard, ``!stats`` and ``!dice`` come from
the catalog in the language of the command, and English outside one."""

from __future__ import annotations

from dataclasses import replace

from bot.service.matches.presentation import leaderboard_text, stats_text
from bot.service.records.dicestats import dice_reply
from bot.service.table import TableService
from bot.store import PlayerRow
from bot.store.dice import DiceCounts
from bot.store.players import MatchCounts
from tests.service.conftest import ALICE, PLACE

ALICE_ROW = PlayerRow(PLACE.server_id, ALICE.id, "alice", 1523.4, 12, 7, 5, 12, 1, 0, 0, 0.0)


def test_a_greek_leaderboard() -> None:
    text = leaderboard_text([ALICE_ROW], "bob", None, "!", language="el")
    assert text.splitlines() == [
        "**Κατάταξη** (βαθμολογία FIBS)",
        "1. alice 1523,4 (νίκες 7, ήττες 5)",
        "bob: χωρίς κατάταξη ακόμα (τελείωσε έναν βαθμολογημένο αγώνα).",
    ]
    english = leaderboard_text([ALICE_ROW], "alice", (1, 3), "!", language="en")
    assert english.endswith("alice: #1 of 3.")


def test_german_stats() -> None:
    counts = MatchCounts(finished=12, aborted=1, playing=1)
    text = stats_text(ALICE_ROW, (2, 9), counts, language="de")
    assert text.startswith("alice: Wertung 1523,4 (Platz 2 von 9), Erfahrung 12;"), text


async def test_an_italian_stats_refusal(service: TableService) -> None:
    italian = replace(ALICE, language="it")
    replies = await service.run(PLACE, italian, "!stats", users=lambda word: None)
    assert replies[0].text.startswith("Qui non hai ancora un bilancio"), replies[0].text


def test_spanish_dice_keep_their_columns() -> None:
    counts = DiceCounts((40, 5, 5, 5, 5, 5), rolls=32, doubles=20)
    english = dice_reply(counts, language="en").text
    spanish = dice_reply(counts, language="es").text
    assert spanish.startswith("Dados tirados en los matches de este servidor: 65 dados")
    assert "muy inusual para dados justos" in spanish and "very unusual" in english
    faces = [line.split("```")[1].splitlines()[2:8] for line in (english, spanish)]
    # The same columns, each number as the language writes it.
    assert [len(line) for line in faces[0]] == [len(line) for line in faces[1]], faces
    assert faces[0][0].endswith(" 61.54%") and faces[1][0].endswith(" 61,54%"), faces
    assert "chi cuadrado" in spanish.split("```")[1]
