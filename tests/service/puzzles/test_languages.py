"""``!puzzle`` in another language: the question, the verdict, the ratings and the refusals come
from the catalog, in the language of the command."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from bot.service.puzzles.schedule import day_text
from bot.service.table import TableService
from bot.store import Store
from tests.service.conftest import ALICE
from tests.service.puzzles.test_puzzles import answer_of, awaited, say


async def test_a_german_puzzle_verdict(service: TableService, store: Store) -> None:
    alice = replace(ALICE, language="de")
    question = await say(service, "!puzzle", alice)
    assert "**Rätsel für alice**" in question.text, question.text
    _, puzzle = await awaited(store)
    wrong = await say(service, f"!puzzle {answer_of(puzzle, False)}", alice)
    graded = puzzle.grade(answer_of(puzzle, False))
    assert f"verliert {graded.loss:.3f}; gnubgs bester: **{puzzle.best.answer}**" in wrong.text
    assert "Deine Rätsel-Wertung: 1500?" in wrong.text, wrong.text
    assert "Verpasst: es ist jetzt eine deiner Übungen (`!drill`)" in wrong.text
    assert "loses" not in wrong.text and "rating" not in wrong.text.replace("`", "")


async def test_a_greek_rating_and_a_turkish_refusal(service: TableService, store: Store) -> None:
    alice = replace(ALICE, language="tr")
    refused = await say(service, "!puzzle 13/7 8/7", alice)
    none_waiting = "Cevab\u0131n\u0131 bekleyen bulmaca yok"  # "No puzzle waits for your answer"
    assert refused.private and refused.text.startswith(none_waiting), refused.text
    await say(service, "!puzzle", alice)
    _, puzzle = await awaited(store)
    await say(service, f"!puzzle {answer_of(puzzle, True)}", alice)
    alice = replace(ALICE, language="el")
    rating = await say(service, "!puzzle rating", alice)
    assert rating.text.startswith("**Βαθμολογία γρίφων του alice**"), rating.text
    assert "1 απάντηση" in rating.text


async def test_an_italian_storm(service: TableService) -> None:
    alice = replace(ALICE, language="it")
    started = await say(service, "!puzzle storm", alice)
    refused = await say(service, "!puzzle storm now", alice)
    assert started.text.startswith("⚡ **Tempesta di problemi per alice**: 3:00"), started.text
    assert "**Tempesta di alice**: mancano 3:00 · punti 0 · problema 1" in started.text
    assert refused.private and refused.text.startswith("`!puzzle storm` avvia una tempesta")


async def test_spanish_daily_refusals(service: TableService) -> None:
    alice = replace(ALICE, language="es")
    none_yet = await say(service, "!puzzle daily", alice)
    bad_time = await say(service, "!puzzle daily #general 25:99", alice)
    assert none_yet.text.startswith("Este servidor aún no tiene problema del día"), none_yet.text
    assert bad_time.text == "`25:99` no es una hora del día: escríbela como `09:00` (24 horas)."


def test_a_day_in_english_is_as_strftime_wrote_it_and_in_german_as_germans_do() -> None:
    first = date(2026, 1, 1)
    for day in (first + timedelta(days=n) for n in range(366)):
        assert day_text(day, language="en") == f"{day:%a} {day.day} {day:%b %Y}"
    assert day_text(date(2026, 11, 27), language="de") == "Fr, 27. Nov. 2026"
