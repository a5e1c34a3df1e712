"""The catalog's machinery: a message (English, the source), the languages, and the text of a
message in a language.

The language is always given explicitly: an entry is worded by calling it with the language first
(``say.MOVED(language, who=...)``). Code that must not know the language (the rules' refusals)
keeps an entry and its fields as a value instead (``say.MATCH_OVER.said()``, a :class:`Said`),
which whoever answers the command words in its language (:meth:`Said.worded`); ``str()`` of it is
the English text.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from collections.abc import Iterable, Mapping
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
_NO_TABLE: Mapping[str, Translation] = {}  # English's: its texts are the messages' own

DOTLESS_I, DOTTED_CAPITAL_I = "\u0131", "\u0130"  # Turkish's own i's


@dataclass(frozen=True, slots=True)
class Message:
    """A text the bot says, in English (``str.format`` fields in braces), known by ``key``."""

    key: str
    en: str

    def __call__(self, language: Language, /, **fields: object) -> str:
        """The text in ``language``, its fields filled in (a :class:`Said` field worded in it)."""
        found = TABLES.get(language, _NO_TABLE).get(self.key)
        template = found if isinstance(found, str) else self.en
        filled = _worded_fields(fields, language)
        return euphonic(template, filled, language).format(**filled)

    def said(self, **fields: object) -> Said:
        """The text as a value, to be worded later in the language of whoever reads it."""
        return Said(self, tuple(fields.items()))


@dataclass(frozen=True, slots=True)
class Plural:
    """A text that depends on a count: English ``one`` and ``other`` forms (``{n}`` the count).
    Each of the catalog's languages has exactly these two forms."""

    key: str
    one: str
    other: str

    def __call__(self, language: Language, n: int, /, **fields: object) -> str:
        found = TABLES.get(language, _NO_TABLE).get(self.key)
        forms = found if isinstance(found, tuple) else (self.one, self.other)
        filled = _worded_fields(fields, language)
        return euphonic(forms[0 if n == 1 else 1], filled, language).format(n=n, **filled)

    def said(self, n: int, **fields: object) -> Said:
        """The text as a value (see :meth:`Message.said`)."""
        return Said(self, tuple(fields.items()), n)

    @property
    def en(self) -> tuple[str, str]:
        return self.one, self.other


Entry: TypeAlias = Message | Plural


@dataclass(frozen=True, slots=True)
class Said:
    """An entry with its fields (which may be :class:`Said` themselves), not yet worded: what the
    rules raise and return, so that they never choose a language. ``str()`` is the English."""

    entry: Entry
    fields: tuple[tuple[str, object], ...] = ()
    n: int | None = None  # a :class:`Plural`'s count

    def worded(self, language: Language) -> str:
        """The text in ``language``."""
        fields = dict(self.fields)
        if isinstance(self.entry, Plural):
            return self.entry(language, self.n if self.n is not None else 0, **fields)
        return self.entry(language, **fields)

    def __str__(self) -> str:
        return self.worded(ENGLISH)


# A text that may still need wording: a :class:`Said`, or a plain text that needs none.
Text: TypeAlias = Said | str


def worded(text: Text, language: Language) -> str:
    """``text`` in ``language`` (a plain text as it is)."""
    return text.worded(language) if isinstance(text, Said) else text


def chained(entry: Message, items: Iterable[Text]) -> Text:
    """``items`` joined two by two by ``entry`` (``{a} and {b}``, then that and the next)."""
    return functools.reduce(lambda a, b: entry.said(a=a, b=b), items)


def _worded_fields(fields: dict[str, object], language: Language) -> dict[str, object]:
    """``fields`` with each :class:`Said` worded in ``language`` (``fields`` itself when none is:
    most messages' fields are plain, and a message is worded 15 times a bot play)."""
    for value in fields.values():
        if isinstance(value, Said):
            return {
                name: value.worded(language) if isinstance(value, Said) else value
                for name, value in fields.items()
            }
    return fields


# Italian's "a" and "e" just before a field, e.g. "Tocca a {name}".
_BEFORE_A_FIELD = re.compile(r"(?<![\w'])([aAeE]) \{(\w+)\}")


def euphonic(template: str, fields: Mapping[str, object], language: Language) -> str:
    """``template`` with Italian's euphonic d where a field's text starts with the vowel of the
    "a" or "e" before it: "Tocca ad alice", "alice ed Eva", but "Tocca a Oscar", "a 5 punti"
    (the Accademia della Crusca's rule: the d before the same vowel only). Other languages' as
    they are."""
    if language != "it":
        return template

    def joined(found: re.Match[str]) -> str:
        vowel, name = found[1], found[2]
        start = unicodedata.normalize("NFD", str(fields.get(name, ""))[:1])[:1]
        return f"{vowel}d {{{name}}}" if start.lower() == vowel.lower() else found[0]

    return _BEFORE_A_FIELD.sub(joined, template)


def capital(letter: str, language: Language) -> str:
    """``letter`` in upper case, as ``language`` writes it (Turkish dotted and dotless i: i is a
    capital I with a dot, the dotless i a plain I)."""
    if language == "tr" and letter in ("i", DOTLESS_I):
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
