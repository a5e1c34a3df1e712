"""The line of bot turns under way in this process (the opponent's back-pressure)."""

from __future__ import annotations

import asyncio

from bot.service.models import Place

SHOWN_EACH_STEP = 5  # a queued turn's place is shown at each step from this many ahead


def next_shown(shown: int) -> int:
    """The place in line below which a queued turn's message, showing ``shown`` ahead, is
    worth changing: each step from :data:`SHOWN_EACH_STEP` ahead, else once half the line
    ahead of it has gone. Messages are edited a few times a wait, not once for each turn that
    ends: at 64 channels every queued turn's follower woke at each of them, 1.5-2 ms of the
    bot's CPU a play (`bench/bot_cpu.py --channels 64`), for edits Discord shows at most every
    2 s (``bot.cogs.progress``)."""
    return shown if shown <= SHOWN_EACH_STEP else max(SHOWN_EACH_STEP + 1, shown // 2 + 1)


class TurnLine:
    """The places whose bot turn is under way, in order. Each turn that ends moves every
    queued turn behind it: their places in line are worked out once for all of them, and only
    the followers waiting for a place that has now come are woken (:meth:`watch`)."""

    def __init__(self) -> None:
        self._places: dict[Place, None] = {}
        self._ahead: dict[Place, int] | None = {}
        self._watches: dict[asyncio.Event, tuple[Place, int]] = {}

    def __len__(self) -> int:
        return len(self._places)

    def __contains__(self, place: Place) -> bool:
        return place in self._places

    def join(self, place: Place) -> None:
        """``place`` at the end of the line, unless it is in line already."""
        if place not in self._places:
            self._places[place] = None
            self._ahead = None

    def leave(self, place: Place) -> None:
        """``place`` out of the line (if in it): those behind it move up, and the watches
        whose place has come are set."""
        if place not in self._places:
            return
        del self._places[place]
        self._ahead = None
        come = [
            wake
            for wake, (watched, below) in self._watches.items()
            if watched == place or (watched in self._places and self.ahead(watched) < below)
        ]
        for wake in come:
            del self._watches[wake]
            wake.set()

    def ahead(self, place: Place) -> int:
        """How many places came before ``place`` (0 for a place not in line)."""
        if self._ahead is None:
            self._ahead = {other: index for index, other in enumerate(self._places)}
        return self._ahead.get(place, 0)

    def watch(self, place: Place, below: int, wake: asyncio.Event) -> None:
        """Set ``wake`` once fewer than ``below`` places are ahead of ``place`` in line (at
        once if that is so now), or when it leaves the line. A place not in line is watched
        for when it leaves again: a follower that woke for it each time it looked would spin."""
        if place in self._places and self.ahead(place) < below:
            wake.set()
        else:
            self._watches[wake] = (place, below)

    def unwatch(self, wake: asyncio.Event) -> None:
        """Forget the watch that sets ``wake`` (its follower stopped waiting)."""
        self._watches.pop(wake, None)
