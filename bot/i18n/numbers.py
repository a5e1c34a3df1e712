"""Numbers as a language writes them: its decimal mark, its thousands separator and
where its percent sign goes (``16.67%``, ``16,67 %``, ``%16,67``). One helper for every number
the bot computes itself (dice statistics, ratings); the figures GNU Backgammon computes
(equities, chances, error rates, luck) keep gnubg's notation, a point (``+0.049``, ``52.5%``),
as players compare them with gnubg's own output (docs/translating.md, "Numbers")."""

from __future__ import annotations

from bot.i18n.core import Language
from bot.i18n.core import Message as M

DECIMAL_MARK = M("number_decimal_mark", ".")
THOUSANDS = M("number_thousands", ",")
PERCENT = M("number_percent", "{number}%")


def decimal(value: float, places: int, language: Language) -> str:
    """``value`` to ``places`` decimals: ``1510.5``, ``1510,5`` (not grouped: a rating)."""
    return f"{value:.{places}f}".replace(".", DECIMAL_MARK(language))


def whole(value: int, language: Language) -> str:
    """A count grouped by thousands: ``12,345``, ``12.345``."""
    return f"{value:,}".replace(",", THOUSANDS(language))


def percent(value: float, places: int, language: Language) -> str:
    """``value`` (0-100) as a percentage: ``16.67%``, ``16,67 %``, ``%16,67``."""
    return PERCENT(language, number=decimal(value, places, language))
