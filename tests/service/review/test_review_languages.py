"""A review page in another language, over the stored analyses of real GNU Backgammon exports:
the words change, gnubg's figures, plays and marks (??, ?, ?!) don't, and every page still fits
a Discord message."""

from __future__ import annotations

import re

import pytest

from bot.i18n.core import LANGUAGES, Language
from tests.service.review.test_review_properties import DECISIONS, page

# gnubg's figures and marks, in the text and in its tables' code spans (whose words change)
FIGURES = re.compile(r"[+-]?\d+\.\d+%?|\?\?|\?!|(?<![?!])\?(?![?!])")
ENGLISH_ONLY = (
    "Played:",
    "Best:",
    " to play ",
    "Proper action",
    "gnubg agrees",
    "decision ",
    "Cubeful",
    "played",
)


def test_a_spanish_page_keeps_gnubgs_figures_in_spanish_words() -> None:
    for d, match_play in DECISIONS:
        english = page(d, match_play)
        spanish = page(d, match_play, "es")
        assert FIGURES.findall(spanish) == FIGURES.findall(english)
        assert not [word for word in ENGLISH_ONLY if word in spanish], spanish
        assert "Jugado: **" in spanish and "juego " in spanish.splitlines()[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_discord_in_every_language(language: Language) -> None:
    assert max(len(page(d, match_play, language)) for d, match_play in DECISIONS) <= 2000
