"""When a server's daily puzzle is posted: a time of day in the server's time zone.

A post belongs to the server's local date of the time it was due, so two hosts agree on it
whatever their own clocks' zones. When the bot was stopped over several due times, only the
latest is posted (:func:`latest_due`), and the next is the first after now (:func:`next_due`).
A local time that a daylight-saving change skips is read as Python does (the offset before the
change), one that it repeats as its first occurrence.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.i18n import puzzles as say
from bot.i18n.core import Language

DEFAULT_ZONE = "UTC"
_TIME = re.compile(r"(?P<hour>[01]?\d|2[0-3])[:h.](?P<minute>[0-5]\d)")


def read_time(text: str) -> int | None:
    """``09:00`` (or ``9:00``, ``9h00``): minutes after midnight; None when it is no time of
    day."""
    found = _TIME.fullmatch(text.strip().lower())
    return None if found is None else int(found["hour"]) * 60 + int(found["minute"])


def time_text(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def read_zone(name: str) -> ZoneInfo | None:
    """The time zone called ``name`` (an IANA name: ``Europe/Paris``, ``UTC``), or None."""
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        return None


def zone_of(name: str | None) -> ZoneInfo:
    """A server's stored time zone (None: :data:`DEFAULT_ZONE`)."""
    return read_zone(name or DEFAULT_ZONE) or ZoneInfo(DEFAULT_ZONE)


def due_on(zone: ZoneInfo, minute: int, day: date) -> float:
    """The moment (seconds since the epoch) of ``minute`` on the local date ``day``."""
    local = datetime.combine(day, time(minute // 60, minute % 60), tzinfo=zone)
    return local.timestamp()


def local_day(zone: ZoneInfo, moment: float) -> date:
    return datetime.fromtimestamp(moment, UTC).astimezone(zone).date()


def latest_due(zone: ZoneInfo, minute: int, now: float) -> tuple[date, float]:
    """The latest due time at or before ``now``: its local date and its moment."""
    day = local_day(zone, now)
    for back in range(3):  # a zone's offset moves the local date by one day at most
        at = due_on(zone, minute, day - timedelta(days=back))
        if at <= now:
            return day - timedelta(days=back), at
    raise AssertionError("no due time in the last three days")  # pragma: no cover


def next_due(zone: ZoneInfo, minute: int, now: float) -> float:
    """The first due time after ``now``."""
    day = local_day(zone, now)
    for ahead in range(3):
        at = due_on(zone, minute, day + timedelta(days=ahead))
        if at > now:
            return at
    raise AssertionError("no due time in the next three days")  # pragma: no cover


def day_text(day: date, *, language: Language) -> str:
    """``Fri 27 Nov 2026``."""
    weekday, month = say.WEEKDAYS[day.isoweekday()](language), say.MONTHS[day.month](language)
    return say.DAY(language, weekday=weekday, day=day.day, month=month, year=day.year)
