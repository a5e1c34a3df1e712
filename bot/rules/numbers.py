"""Whole numbers as players type them, read one way for every command: the decimal digits of any
script (``12``, ``١٢``; full-width ones are plain digits after the input's NFKC normalisation), at
most :data:`MOST_DIGITS` of them. Anything else is no number: digits that ``str.isdigit`` takes
and ``int`` refuses (``፩``), signs, fractions, exponents, and numbers past every column a
database holds (a PostgreSQL ``integer``), which would otherwise fail deep in the store."""

from __future__ import annotations

MOST_DIGITS = 9  # 999,999,999: below PostgreSQL's integer limit, above anything counted here


def whole_number(word: str) -> int | None:
    """``word`` as a whole number from 0, or None when it is not one as defined above."""
    if not 0 < len(word) <= MOST_DIGITS or not word.isdecimal():
        return None
    return int(word)


def whole_number_in(word: str, low: int, high: int) -> int | None:
    """``word`` as a whole number from ``low`` to ``high``, or None."""
    number = whole_number(word)
    return number if number is not None and low <= number <= high else None


def decimal_number(word: str) -> float | None:
    """``word`` as a number with an optional fraction (``3``, ``1.5``), each part read as
    :func:`whole_number` reads it; None for anything else (signs, exponents, ``nan``, ``inf``)."""
    whole, dot, fraction = word.partition(".")
    if whole_number(whole) is None or (dot and whole_number(fraction) is None):
        return None
    return float(word)  # float() reads the digits of every script, as int() does
