"""The catalog's machinery: a message (English, the source), the languages, the language of the
command being carried out, and the text of a message in it.

The language is a context variable: an adapter sets it around a command (:func:`speaking`) and
every message looked up while the command runs, from the rules' refusals to the service's
prompts, comes in it. Tasks started meanwhile (the bot's turn after a move) inherit it; anything
else speaks English.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias, get_args

from bot.i18n.languages import TABLES

Language: TypeAlias = Literal["en", "el", "tr", "it", "de", "es"]
ENGLISH: Final[Language] = "en"
LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
# Each language's own name, as `!settings language` lists them.
LANGUAGE_NAMES: Final[Mapping[Language, str]] = {
    "en": "English",
    "el": "Ελληνικά",
    "tr": "Türkçe",
    "it": "Italiano",
    "de": "Deutsch",
    "es": "Español",
}
# Discord's locale codes (``interaction.locale``) of the languages the catalog has.
DISCORD_LOCALES: Final[Mapping[str, Language]] = {
    "en-US": "en",
    "en-GB": "en",
    "el": "el",
    "tr": "tr",
    "it": "it",
    "de": "de",
    "es-ES": "es",
    "es-419": "es",
}

# One translation: a message's text, or a plural message's (one, other) forms.
Translation: TypeAlias = str | tuple[str, str]

DOTLESS_I, DOTTED_CAPITAL_I = "\u0131", "\u0130"  # Turkish's own i's

_current: ContextVar[Language] = ContextVar("language", default=ENGLISH)


@dataclass(frozen=True, slots=True)
class Message:
    """A text the bot says, in English (``str.format`` fields in braces), known by ``key``."""

    key: str
    en: str

    def __call__(self, **fields: object) -> str:
        """The text in the current language, its fields filled in."""
        found = _tables().get(current(), {}).get(self.key)
        template = found if isinstance(found, str) else self.en
        return template.format(**fields)


@dataclass(frozen=True, slots=True)
class Plural:
    """A text that depends on a count: English ``one`` and ``other`` forms (``{n}`` the count).
    Each of the catalog's languages has exactly these two forms."""

    key: str
    one: str
    other: str

    def __call__(self, n: int, **fields: object) -> str:
        found = _tables().get(current(), {}).get(self.key)
        forms = found if isinstance(found, tuple) else (self.one, self.other)
        return forms[0 if n == 1 else 1].format(n=n, **fields)

    @property
    def en(self) -> tuple[str, str]:
        return self.one, self.other


Entry: TypeAlias = Message | Plural


def current() -> Language:
    """The language of the command being carried out (English outside one)."""
    return _current.get()


@contextmanager
def speaking(language: Language) -> Iterator[None]:
    """Messages looked up inside come in ``language``."""
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)


def capital(letter: str) -> str:
    """``letter`` in upper case, as the current language writes it (Turkish dotted and dotless
    i: i is a capital I with a dot, the dotless i a plain I)."""
    if current() == "tr" and letter in ("i", DOTLESS_I):
        return DOTTED_CAPITAL_I if letter == "i" else "I"
    return letter.upper()


def language_of(code: str | None) -> Language | None:
    """The language a code names: ours (``de``), Discord's (``es-ES``), or None."""
    if code is None:
        return None
    word = code.strip()
    for language in LANGUAGES:
        if word.lower() == language:
            return language
    return DISCORD_LOCALES.get(word) or DISCORD_LOCALES.get(word[:2])


def fields_of(template: str) -> frozenset[str]:
    """The ``{field}`` names ``template`` fills in."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def _tables() -> Mapping[str, Mapping[str, Translation]]:
    return TABLES
