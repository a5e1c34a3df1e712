"""Numbers as the current language writes them: its decimal mark, its thousands separator and
where its percent sign goes (``16.67%``, ``16,67 %``, ``%16,67``). One helper for every number
the bot computes itself (dice statistics, ratings); the figures GNU Backgammon computes
(equities, chances, error rates, luck) keep gnubg's notation, a point (``+0.049``, ``52.5%``),
as players compare them with gnubg's own output (docs/translating.md, "Numbers")."""

from __future__ import annotations

from bot.i18n.core import Message as M

DECIMAL_MARK = M("number_decimal_mark", ".")
THOUSANDS = M("number_thousands", ",")
PERCENT = M("number_percent", "{number}%")


def decimal(value: float, places: int) -> str:
    """``value`` to ``places`` decimals: ``1510.5``, ``1510,5`` (not grouped: a rating)."""
    return f"{value:.{places}f}".replace(".", DECIMAL_MARK())


def whole(value: int) -> str:
    """A count grouped by thousands: ``12,345``, ``12.345``."""
    return f"{value:,}".replace(",", THOUSANDS())


def percent(value: float, places: int) -> str:
    """``value`` (0-100) as a percentage: ``16.67%``, ``16,67 %``, ``%16,67``."""
    return PERCENT(number=decimal(value, places))
