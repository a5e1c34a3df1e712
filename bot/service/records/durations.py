"""How the service says a duration. One core (:func:`quantity`: a number and its unit, plural
unless it is one) and a variant for each use, because each rounds its own way:

- :func:`setting_duration`: a setting, exact ("10 minutes", "1.5 hours");
- :func:`countdown`: time left or gone in a game, terse and rounded down, never "0"
  ("4 min", "1 h 05 min");
- :func:`wait_duration`: how long to wait before trying again, rounded up so that waiting that
  long is always enough ("59 seconds", "2 minutes");
- :func:`clock_text`: a clock's time per point as typed in a challenge, exact and terse
  ("2 min", "90 s", "1 h").

:data:`UNIT_SECONDS` reads the one-letter units people type (`2m`, `~ 25h`).
"""

from __future__ import annotations

import math

from bot.i18n.core import Language
from bot.i18n.numbers import DECIMAL_MARK
from bot.i18n.reports import HOURS_MINUTES, SHORT_UNITS, UNITS

SECONDS_PER_MINUTE = 60
MINUTES_PER_HOUR = 60
UNIT_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_WAIT_IN_SECONDS_BELOW = 90  # a wait below this is said in seconds, from it in minutes


def _shown(number: float, language: Language) -> str:
    """An int as it is, a float in its shortest form (``:g``), with the language's decimal
    mark."""
    if isinstance(number, int):
        return str(number)
    return f"{number:g}".replace(".", DECIMAL_MARK(language))


def quantity(number: float, unit: str, *, language: Language) -> str:
    """``1 minute``, ``90 seconds``, ``1.5 hours``: the number (:func:`_shown`) and the unit
    (``second``, ``minute``, ``hour``, ``day``) in ``language``, plural unless the number is
    exactly one."""
    return UNITS[unit](language, 1 if number == 1 else 2, count=_shown(number, language))


def short(number: float, unit: str, *, language: Language) -> str:
    """``4 min``, ``15 s``, ``1 h``: a number and its unit's short form (``second``,
    ``minute``, ``hour``) in ``language``."""
    return SHORT_UNITS[unit](language, count=_shown(number, language))


def setting_duration(hours: float, *, language: Language) -> str:
    """A setting, exact: ``10 minutes`` below an hour, else ``1 hour``, ``1.5 hours``."""
    minutes = float(hours) * MINUTES_PER_HOUR
    if minutes < MINUTES_PER_HOUR:
        return quantity(minutes, "minute", language=language)
    return quantity(float(hours), "hour", language=language)


def countdown(seconds: float, *, language: Language) -> str:
    """Time left or gone, rounded down to the minute but at least one: ``4 min``,
    ``1 h 05 min``."""
    minutes = int(seconds // SECONDS_PER_MINUTE)
    if minutes < MINUTES_PER_HOUR:
        return short(max(minutes, 1), "minute", language=language)
    hours, minutes = divmod(minutes, MINUTES_PER_HOUR)
    return HOURS_MINUTES(language, hours=hours, minutes=f"{minutes:02d}")


def wait_duration(seconds: float, *, language: Language) -> str:
    """A wait, rounded up: whole seconds (at least one) below 90, else whole minutes."""
    if seconds < _WAIT_IN_SECONDS_BELOW:
        return quantity(max(1, math.ceil(seconds)), "second", language=language)
    return quantity(math.ceil(seconds / SECONDS_PER_MINUTE), "minute", language=language)


def clock_text(seconds: float, *, language: Language) -> str:
    """``2 min``, ``90 s``, ``1 h``: a clock's time per point as the challenge says it."""
    if seconds % 3600 == 0:
        return short(seconds / 3600, "hour", language=language)
    if seconds % 60 == 0:
        return short(seconds / 60, "minute", language=language)
    return short(seconds, "second", language=language)
