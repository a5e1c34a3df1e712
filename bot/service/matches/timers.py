"""Time in a match: the reminder of a player who hasn't acted, and the optional clock.

Pure functions over :class:`~bot.store.matches.TimerRow` values;
:mod:`bot.service.matches.repository` writes them in the transaction that saves the match,
:mod:`bot.service.matches.deadlines` acts on those that fall due.

The clock is the one of backgammon sites: each player has a bank (the challenge's time per point
times the match length); each decision first gets a free ``delay``, then the bank of the player
to act runs; a player whose bank runs out loses the match.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.rules.errors import excerpt
from bot.rules.events import Event, OpeningRoll, Rolled
from bot.rules.match import Match
from bot.rules.numbers import decimal_number
from bot.rules.text import bank_text
from bot.service.records.durations import UNIT_SECONDS
from bot.store.matches import TimerRow

CLOCK_WORD = "clock"
MAX_CLOCK_SECONDS = 3600.0  # an hour per point: longer is correspondence play, no clock needed
MIN_CLOCK_SECONDS = 10.0
_TIME = re.compile(r"^([\d.]+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?$")


class ClockTermsError(ValueError):
    """A clock typed in a challenge that can't be read; the text quotes it."""


def read_clock(text: str) -> float:
    """Seconds per point from ``2m``, ``90s``, ``1.5 min`` or ``2`` (minutes)."""
    found = _TIME.match(text.strip().lower())
    number = decimal_number(found[1]) if found else None
    if found is None or number is None:
        raise ClockTermsError(f"{excerpt(text)} is not a time per point: say e.g. `2m` or `90s`")
    seconds = number * UNIT_SECONDS[(found[2] or "m")[0]]
    if not MIN_CLOCK_SECONDS <= seconds <= MAX_CLOCK_SECONDS:
        raise ClockTermsError(
            f"{excerpt(text)} per point is out of range: from {MIN_CLOCK_SECONDS:g} seconds to "
            f"{MAX_CLOCK_SECONDS / 60:g} minutes"
        )
    return seconds


def _runs(match: Match, engine_seat: int | None) -> int | None:
    """The seat whose bank runs now: the player to act, unless nobody or the engine is."""
    turn = match.turn
    return None if turn is None or turn == engine_seat or match.is_over else turn


def first_timer(
    match_id: int,
    match: Match,
    now: float,
    *,
    clock_seconds: float | None,
    delay: float,
    engine_seat: int | None = None,
) -> TimerRow:
    """The timer of a match created at ``now`` (a clock of ``clock_seconds`` per point)."""
    if clock_seconds is None or match.length == 0:
        return TimerRow(match_id, now, False, None, None, None)
    bank = clock_seconds * match.length
    timer = TimerRow(match_id, now, False, (bank, bank), delay, None)
    return _with_flag(timer, _runs(match, engine_seat))


def _with_flag(timer: TimerRow, running: int | None) -> TimerRow:
    if timer.banks is None or timer.delay is None or running is None:
        return replace(timer, flag_at=None)
    return replace(timer, flag_at=timer.turn_started_at + timer.delay + timer.banks[running])


@dataclass(frozen=True, slots=True)
class ClockReading:
    """A match's clock at some moment: what is left of each bank; ``running``: the seat whose
    decision is under way (its ``delay_left`` first, then its bank), None when no bank runs
    (GNU Backgammon to act)."""

    banks: tuple[float, float]
    running: int | None
    delay_left: float


def clock_reading(timer: TimerRow | None, match: Match, now: float) -> ClockReading | None:
    """The clock of ``match`` at ``now`` (None: it has none): the bank of the player to act
    less the time it has run past the delay."""
    if timer is None or timer.banks is None or timer.delay is None:
        return None
    banks = timer.banks
    running = match.turn if timer.flag_at is not None else None
    if running is None:
        return ClockReading(banks, None, 0.0)
    elapsed = max(0.0, now - timer.turn_started_at)
    left = max(0.0, banks[running] - max(0.0, elapsed - timer.delay))
    banks = (left, banks[1]) if running == 0 else (banks[0], left)
    return ClockReading(banks, running, max(0.0, timer.delay - elapsed))


def clock_line(names: tuple[str, str], reading: ClockReading) -> str:
    """``Clock: alice 9:41 · bob 10:00 (alice's runs after 15 s of delay)``."""
    banks = " · ".join(f"{names[seat]} {bank_text(reading.banks[seat])}" for seat in (0, 1))
    running = reading.running
    if running is None:
        return f"Clock: {banks}."
    if reading.delay_left > 0:
        how = f"runs after {math.ceil(reading.delay_left)} s of delay"
    else:
        how = "is running"
    return f"Clock: {banks} ({names[running]}'s {how})."


def flagged(timer: TimerRow | None, now: float) -> bool:
    """The player to act has run out of time by ``now``."""
    return timer is not None and timer.flag_at is not None and now >= timer.flag_at


def next_timer(
    timer: TimerRow, before: Match, after: Match, now: float, *, engine_seat: int | None = None
) -> TimerRow:
    """The timer once the player to act in ``before`` acted at ``now``, making ``after``: their
    bank pays for the time past the delay, and the next decision begins (not yet reminded)."""
    banks = timer.banks
    acted = _runs(before, engine_seat)
    if banks is not None and timer.delay is not None and acted is not None:
        used = max(0.0, now - timer.turn_started_at - timer.delay)
        left = max(0.0, banks[acted] - used)
        banks = (left, banks[1]) if acted == 0 else (banks[0], left)
    started = replace(timer, turn_started_at=now, reminded=False, banks=banks)
    return _with_flag(started, _runs(after, engine_seat))


@dataclass(frozen=True, slots=True)
class DiceTally:
    """Dice seen in some events: ``faces[n - 1]`` showed ``n``; two-dice ``rolls``, and the
    ``doubles`` among them."""

    faces: tuple[int, int, int, int, int, int]
    rolls: int
    doubles: int


def tally_dice(events: Iterable[Event]) -> DiceTally:
    """Every die rolled in ``events``: both dice of each roll, one die per player of each
    opening roll (a tie's too)."""
    faces = [0] * 6
    rolls = doubles = 0
    for event in events:
        if isinstance(event, OpeningRoll):
            for die in event.dice:
                faces[die - 1] += 1
        elif isinstance(event, Rolled):
            first, second = event.dice
            faces[first - 1] += 1
            faces[second - 1] += 1
            rolls += 1
            doubles += first == second
    return DiceTally((faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]), rolls, doubles)
