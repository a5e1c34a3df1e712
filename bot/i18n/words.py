"""Small pieces every layer words the same way, in a language given: points, resignation levels
(as a value for the rules' refusals, :func:`level_said`), sentences."""

from __future__ import annotations

from bot.i18n import rules as say
from bot.i18n.core import Language, Text, capital, worded

_LEVELS = (say.LEVEL_SINGLE, say.LEVEL_GAMMON, say.LEVEL_BACKGAMMON)


def points_text(points: int, language: Language) -> str:
    """``1 point``, ``2 points`` in ``language``."""
    return say.POINTS(language, points)


def level_said(level: int) -> Text:
    """A resignation level 1-3 as ``a single game``, ``a gammon`` or ``a backgammon``, to be
    worded in the reader's language."""
    return _LEVELS[level - 1].said() if 1 <= level <= len(_LEVELS) else ""


def level_text(level: int, language: Language) -> str:
    """:func:`level_said` in ``language``."""
    return worded(level_said(level), language)


def sentence(text: str, language: Language) -> str:
    """``text`` as a sentence: trimmed, a capital first (as ``language`` writes it) and a full
    stop last (unless it already ends with ``.``, ``!`` or ``?``)."""
    text = text.strip()
    if not text:
        return text
    text = capital(text[0], language) + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
