"""No English word is drawn in an image of another language: every kind of image
(tests/render/image_kinds.py: boards in each phase, a review's board, charts, brackets,
standings, a crosstable, report charts) is drawn in each language, and a word of a
non-English image that English images draw too fails, unless :data:`SHARED` lists it for that
language: a word both languages write the same. Names, numbers, dice, plays and gnubg's marks
(``PR``, ``ply``) are no words of the catalog's and are left out."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

import pytest

from bot.i18n.core import ENGLISH, LANGUAGES, Language
from tests.render.image_kinds import NAMES, Drawn, every_image

TRANSLATED = tuple(language for language in LANGUAGES if language != ENGLISH)
# Words the same in English and a language: the term the glossary settles on (docs/translating.md:
# gammon, backgammon, match, pip, beaver), a name (Crawford, Buchholz), gnubg's notation, and
# the language's own words that English writes the same (Turkish and Spanish "final", Italian
# "in", Spanish "no").
EVERYWHERE = {"crawford", "buchholz", "pr", "ply", "beaver", "backgammon"}
SHARED: dict[Language, set[str]] = {
    "el": set(),
    "tr": {"mp", "final", "gammon"},
    "it": {"gammon", "match", "in"},
    "de": {"gammon", "match", "matches", "pips", "mp"},
    "es": {"gammon", "match", "matches", "pips", "final", "no"},
}
WORD = re.compile(r"[^\W\d_]{2,}")


def words(drawn: Iterable[Drawn]) -> dict[str, str]:
    """Each word drawn (lower case), with the first image it is drawn in; names left out."""
    found: dict[str, str] = {}
    for image in drawn:
        for label in image.labels:
            text = label.text
            for name in sorted(NAMES, key=len, reverse=True):
                text = text.replace(name, " ")
            for word in WORD.findall(text):
                found.setdefault(word.casefold(), f"{image.kind}: {label.text!r}")
    return found


@cache
def english() -> dict[str, str]:
    return words(every_image(ENGLISH))


def test_the_english_images_draw_their_words() -> None:
    """The check sees what it checks: the English images' words, but no name."""
    drawn = english()
    for word in ("roll", "double", "pips", "score", "winner", "played", "best", "other"):
        assert word in drawn
    for word in ("blunder", "doubtful", "cube", "game", "final", "champion", "luck", "withdrawn"):
        assert word in drawn
    assert not {"alice", "bob", "björn", "zürich"} & set(drawn)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_word_is_drawn_in_another_language(language: Language) -> None:
    found = words(every_image(language))
    shared = EVERYWHERE | SHARED[language]
    stray = {
        word: where for word, where in found.items() if word in english() and word not in shared
    }
    assert not stray, "\n".join(f"{word}: {where}" for word, where in sorted(stray.items()))


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_shared_word_is_drawn(language: Language) -> None:
    """:data:`SHARED` lists no word the language no longer draws."""
    found = words(every_image(language))
    assert SHARED[language] <= set(found) & set(english())
