"""When a drill comes back: SM-2 (SuperMemo 2, as Anki and Mnemosyne use it), with a right or
wrong answer instead of SM-2's grades 0-5.

A drill starts with ease :data:`START_EASE` (2.5), no streak, and is due at once.

* **Right** (SM-2's grade 4): the streak grows; the next interval is :data:`FIRST_DAYS` (1 day)
  after the first right answer in a row, :data:`SECOND_DAYS` (6 days) after the second, then the
  last interval times the ease, rounded to whole days (always at least one day more than the
  last). The ease stays as it is.
* **Wrong** (a miss): the streak resets, the interval goes back to 1 day, and the ease drops by
  :data:`EASE_PENALTY` (0.2), never below :data:`MIN_EASE` (1.3).

A drill whose interval reaches :data:`LEARNED_DAYS` (21 days) counts as learned. Pure functions:
the store keeps the state, the caller passes the time.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import drills as say
from bot.i18n.core import Language

DAY = 86_400.0
START_EASE = 2.5
MIN_EASE = 1.3
EASE_PENALTY = 0.2
FIRST_DAYS = 1.0
SECOND_DAYS = 6.0
LEARNED_DAYS = 21.0


@dataclass(frozen=True, slots=True)
class Schedule:
    """A drill's spaced-repetition state: right answers in a row, the interval in days until it
    is due again, the ease (the factor intervals grow by), answers given and misses."""

    streak: int = 0
    interval_days: float = 0.0
    ease: float = START_EASE
    reps: int = 0
    lapses: int = 0

    @property
    def learned(self) -> bool:
        return self.interval_days >= LEARNED_DAYS

    def due_after(self, now: float) -> float:
        """When the drill is due again, answered at ``now``."""
        return now + self.interval_days * DAY


def answered(state: Schedule, right: bool) -> Schedule:
    """The state after one answer."""
    if not right:
        return Schedule(
            streak=0,
            interval_days=FIRST_DAYS,
            ease=max(MIN_EASE, state.ease - EASE_PENALTY),
            reps=state.reps + 1,
            lapses=state.lapses + 1,
        )
    streak = state.streak + 1
    if streak == 1:
        interval = FIRST_DAYS
    elif streak == 2:
        interval = SECOND_DAYS
    else:
        interval = max(state.interval_days + 1, float(round(state.interval_days * state.ease)))
    return Schedule(
        streak=streak,
        interval_days=interval,
        ease=max(MIN_EASE, state.ease),
        reps=state.reps + 1,
        lapses=state.lapses,
    )


def in_days(days: float, *, language: Language) -> str:
    """``tomorrow``, ``in 6 days``."""
    whole = round(days)
    return say.TOMORROW(language) if whole <= 1 else say.IN_DAYS(language, days=whole)
