"""The catalog is complete: every language has every entry English has, of the same kind (a
plural has two forms), filling in the same fields; no language has an entry English lacks."""

# ruff: noqa: RUF001 (Greek and Turkish letters)
from __future__ import annotations

import re

import pytest

from bot.i18n.catalog import entries
from bot.i18n.core import (
    ENGLISH,
    LANGUAGES,
    Language,
    Message,
    Plural,
    euphonic,
    fields_of,
    language_of,
)
from bot.i18n.languages import TABLES

TRANSLATED = [language for language in LANGUAGES if language != ENGLISH]


def test_every_language_has_a_table() -> None:
    assert sorted(TABLES) == sorted(TRANSLATED)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_entry_is_missing_or_unknown(language: str) -> None:
    table, english = TABLES[language], entries()
    assert sorted(set(english) - set(table)) == [], f"{language} lacks these"
    assert sorted(set(table) - set(english)) == [], f"{language} has entries English lacks"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_translation_fills_in_the_same_fields(language: str) -> None:
    wrong = []
    for key, entry in entries().items():
        found = TABLES[language][key]
        if isinstance(entry, Message):
            if not isinstance(found, str) or fields_of(found) != fields_of(entry.en):
                wrong.append(key)
            continue
        if not isinstance(found, tuple) or len(found) != 2:
            wrong.append(key)
            continue
        for form, source in zip(found, entry.en, strict=True):
            if fields_of(form) - {"n"} != fields_of(source) - {"n"}:
                wrong.append(key)
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_formats(language: Language) -> None:
    """Braces are balanced and every field is named: each entry fills in with any values."""
    for entry in entries().values():
        if isinstance(entry, Plural):
            fields = {name: "x" for form in entry.en for name in fields_of(form) - {"n"}}
            assert entry(language, 1, **fields) and entry(language, 3, **fields)
        else:
            assert entry(language, **{name: "x" for name in fields_of(entry.en)})


def test_a_message_is_worded_in_the_language_given() -> None:
    from bot.i18n.rules import CHECKERS, MATCH_OVER

    assert MATCH_OVER("en") == "the match is over"
    assert MATCH_OVER("de") == "das Match ist vorbei"
    assert CHECKERS("de", 1) == "ein Stein" and CHECKERS("de", 3) == "3 Steine"
    assert MATCH_OVER("tr") == "maç bitti"
    assert CHECKERS("en", 2) == "2 checkers"


def test_a_said_value_is_worded_later_with_its_nested_fields() -> None:
    """What the rules raise: an entry and its fields (themselves values), worded in whichever
    language reads it; ``str()`` is the English."""
    from bot.i18n.rules import AND, BLOCKED, PIPS

    said = BLOCKED.said(2, hop="13/7", listed=AND.said(a="10", b="9"))
    assert said == BLOCKED.said(2, hop="13/7", listed=AND.said(a="10", b="9"))
    assert str(said) == said.worded("en") == BLOCKED("en", 2, hop="13/7", listed="10 and 9")
    assert said.worded("de") == BLOCKED("de", 2, hop="13/7", listed=AND("de", a="10", b="9"))
    assert said.worded("de") != str(said)
    assert PIPS.said(3).worded("it") == PIPS("it", 3)


@pytest.mark.parametrize(
    ("code", "language"),
    [
        ("de", "de"),
        ("DE", "de"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("el", "el"),
        ("en-US", "en"),
        ("ja", None),
        ("", None),
        (None, None),
        ("tr", "tr"),
        ("it", "it"),
    ],
)
def test_language_of_a_code(code: str | None, language: str | None) -> None:
    assert language_of(code) == language


def test_a_sentence_starts_with_the_languages_capital() -> None:
    from bot.i18n.words import sentence

    assert sentence("iki zarı da oynamalısın", "en") == "Iki zarı da oynamalısın."
    assert sentence("iki zarı da oynamalısın", "tr") == "İki zarı da oynamalısın."
    assert sentence("ılık", "tr") == "Ilık."
    assert sentence("ο αγώνας τελείωσε", "el") == "Ο αγώνας τελείωσε."


def _prose(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


@pytest.mark.parametrize(("language", "mark"), [("el", ";"), ("es", "¿")])
def test_a_question_is_marked_as_the_language_marks_it(language: str, mark: str) -> None:
    """Greek's question mark is ';' (a semicolon there is '·'), and Spanish opens a question
    with '¿': each entry has as many as English has questions."""
    wrong = []
    for key, entry in entries().items():
        found = TABLES[language][key]
        for form, source in zip(
            (found,) if isinstance(found, str) else found,
            (entry.en,) if isinstance(entry.en, str) else entry.en,
            strict=True,
        ):
            if _prose(form).count(mark) != _prose(source).count("?"):
                wrong.append(key)
    assert wrong == []


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("alice", "Tocca ad alice muovere 3-1"),
        ("Anna", "Tocca ad Anna muovere 3-1"),
        ("Àlex", "Tocca ad Àlex muovere 3-1"),
        ("Oscar", "Tocca a Oscar muovere 3-1"),  # the d only before the same vowel
        ("bob", "Tocca a bob muovere 3-1"),
    ],
)
def test_italian_a_and_e_take_a_d_before_a_name_of_the_same_vowel(name: str, said: str) -> None:
    from bot.i18n.play import TO_MOVE

    assert TO_MOVE("it", who=name, dice="3-1", form="x").startswith(said)
    assert TO_MOVE("es", who="alice", dice="3-1", form="x").startswith("Le toca mover a alice")
    pair = euphonic("{first} e {second}, a {n} punti", {"second": "Eva", "n": 5}, "it")
    assert pair == "{first} ed {second}, a {n} punti"
