"""Small pieces of text every layer words the same way: counts, points, resignation
levels and sentences. The rules' messages use them, and so do the service's replies."""

from __future__ import annotations

from bot.i18n import rules as say
from bot.i18n.core import Language, Text, capital, worded

_LEVELS = (say.LEVEL_SINGLE, say.LEVEL_GAMMON, say.LEVEL_BACKGAMMON)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 pip``, ``2 pips``, ``0 pips``; ``1 match``, ``2 matches``; ``many``: the plural
    where it is not the word and an s or es (``die``, ``dice``)."""
    if count == 1:
        return f"{count} {word}"
    if many is None:
        many = f"{word}es" if word.endswith(("s", "x", "ch", "sh")) else f"{word}s"
    return f"{count} {many}"


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


def bank_text(seconds: float) -> str:
    """A clock's bank as a clock shows it: ``9:45``, ``1:02:03``; never below ``0:00``."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def quote(text: str, limit: int = 40) -> str:
    """A short excerpt of what someone typed, quoted (never the whole of a long paste)."""
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")
