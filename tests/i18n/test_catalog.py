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
    fields_of,
    language_of,
    speaking,
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
    with speaking(language):
        for entry in entries().values():
            if isinstance(entry, Plural):
                fields = {name: "x" for form in entry.en for name in fields_of(form) - {"n"}}
                assert entry(1, **fields) and entry(3, **fields)
            else:
                assert entry(**{name: "x" for name in fields_of(entry.en)})


def test_a_message_speaks_the_current_language() -> None:
    from bot.i18n.rules import CHECKERS, MATCH_OVER

    assert MATCH_OVER() == "the match is over"
    with speaking("de"):
        assert MATCH_OVER() == "das Match ist vorbei"
        assert CHECKERS(1) == "ein Stein" and CHECKERS(3) == "3 Steine"
        with speaking("tr"):
            assert MATCH_OVER() == "maç bitti"
        assert MATCH_OVER() == "das Match ist vorbei"
    assert CHECKERS(2) == "2 checkers"


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
    from bot.rules.text import sentence

    assert sentence("iki zarı da oynamalısın") == "Iki zarı da oynamalısın."
    with speaking("tr"):
        assert sentence("iki zarı da oynamalısın") == "İki zarı da oynamalısın."
        assert sentence("ılık") == "Ilık."
    with speaking("el"):
        assert sentence("ο αγώνας τελείωσε") == "Ο αγώνας τελείωσε."


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
