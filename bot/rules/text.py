"""Small pieces of text every layer writes the same way, in no language of the catalog's: English
counts, a clock's bank, a quote of what someone typed (the words a player reads in their language
are :mod:`bot.i18n.words`)."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 pip``, ``2 pips``, ``0 pips``; ``1 match``, ``2 matches``; ``many``: the plural
    where it is not the word and an s or es (``die``, ``dice``)."""
    if count == 1:
        return f"{count} {word}"
    if many is None:
        many = f"{word}es" if word.endswith(("s", "x", "ch", "sh")) else f"{word}s"
    return f"{count} {many}"


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
