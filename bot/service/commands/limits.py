"""Who gets an answer, and how soon: per-user windows, so one user's flood never delays a game.

Discord lets a bot send about 5 messages per 5 s in one channel, and queues the rest. Every reply
to a spammer is a message the players wait behind, so the bot answers:

* a player (one of the two of the channel's match or of its open challenge, or of its match
  that ended in the last :data:`RECENT_SECONDS`): at most :attr:`Limits.player` commands
  (bursts of fast play are fine); past that, one "slow down" and then silence until the window
  has room again;
* anyone else: at most :attr:`Limits.watcher` replies each, and :attr:`Limits.watchers` for
  all of them together in one channel; past that, silence (a reply saying "slow down" would be
  the very message the players wait behind);
* the bot's owner and the channel's moderators: always (``privileged``).

Silence is for typed commands only: a slash command or a button press must be answered, and
its answer is no channel message, so past its rate it gets the :class:`Check`'s text, for the
user alone. Challenges (their ping can harass) have their own limit in the service
(:mod:`bot.service.matches.challenges`), which a challenge to the bot doesn't count toward.

Everything here is pure and clock-injected: the Discord layer asks :class:`Gate` before running
a command, and does what the :class:`Check` says.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from enum import Enum

from bot.bounded import Bounded
from bot.i18n import reports as words
from bot.i18n.core import Language
from bot.service.models import Place, Rate
from bot.service.records.durations import wait_duration
from bot.settings import PLAYER_COMMANDS, PLAYER_SECONDS
from bot.store import DatabaseDown

MAX_WINDOWS = 100_000  # a few MB at most; only busy users' windows are ever this many
SEATS_KEPT = 10_000
SEATS_TTL = 30.0  # seconds: a challenge that expired unseen stops counting after this
RECENT_SECONDS = 600.0  # a match's players stay players this long after it ended


class Verdict(Enum):
    ALLOW = "allow"
    REFUSE = "refuse"  # answer once, privately: the text says how long to wait
    DROP = "drop"  # a typed command: say nothing (an interaction still gets the text)


@dataclass(frozen=True, slots=True)
class Check:
    verdict: Verdict
    rate: Rate | None = None  # the rate passed (None when allowed)
    wait: float = 0.0  # seconds until one more command is allowed

    def text(self, language: Language) -> str:
        """Why not, and how long to wait, in ``language`` (empty when allowed)."""
        if self.rate is None:
            return ""
        return words.SLOW_DOWN(
            language,
            count=self.rate.count,
            window=wait_duration(self.rate.seconds, language=language),
            wait=wait_duration(self.wait, language=language),
        )


ALLOW = Check(Verdict.ALLOW)


@dataclass(frozen=True, slots=True)
class Limits:
    player: Rate = Rate(PLAYER_COMMANDS, PLAYER_SECONDS)  # each player, per channel
    watcher: Rate = Rate(2, 10.0)  # each non-player, per channel (a `help`, then a challenge)
    watchers: Rate = Rate(3, 10.0)  # all non-players of one channel together
    notice: Rate = Rate(1, 600.0)  # "I lack a permission here", to one user, per channel


class _Window:
    """The times of the last events of one key, up to its rate's count."""

    __slots__ = ("key", "kind", "rate", "times", "warned")

    def __init__(self, kind: str, key: Hashable, rate: Rate) -> None:
        self.kind = kind
        self.key = key
        self.rate = rate
        self.times: deque[float] = deque(maxlen=rate.count)
        self.warned = False

    def wait(self, now: float) -> float:
        """Seconds until one more event fits (0 when it fits now)."""
        if len(self.times) < self.rate.count:
            return 0.0
        return max(0.0, self.times[0] + self.rate.seconds - now)

    def record(self, now: float) -> None:
        self.times.append(now)
        self.warned = False

    def idle(self, now: float) -> bool:
        return not self.times or self.times[-1] + self.rate.seconds <= now


class Limiter:
    """Decides, per (place, user, command, is a player), whether a command gets an answer.

    Memory is bounded: each kind of window is kept in the order of its newest event, so the
    idle ones (nothing left in their window: forgetting them changes nothing) are at the front
    and go as time passes; past ``max_windows`` of a kind the oldest go even if not idle.
    """

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_windows: int = MAX_WINDOWS,
    ) -> None:
        self.limits = limits or Limits()
        self._clock = clock
        self._max = max_windows
        self._kinds: dict[str, OrderedDict[Hashable, _Window]] = {}

    @property
    def size(self) -> int:
        """How many windows are kept (no ``__len__``: an empty limiter is still a limiter)."""
        return sum(len(windows) for windows in self._kinds.values())

    def check(self, place: Place, user_id: str, *, is_player: bool) -> Check:
        now = self._clock()
        self._evict(now)
        limits = self.limits
        if is_player:
            own = [self._window("player", (place, user_id), limits.player)]
            rate = limits.player
        else:
            own = [
                self._window("watcher", (place, user_id), limits.watcher),
                self._window("watchers", place, limits.watchers),
            ]
            rate = limits.watcher
        waits = [window.wait(now) for window in own]
        if any(waits):
            if is_player:
                return self._refuse_once(own[0], rate, max(waits))
            return Check(Verdict.DROP, rate, max(waits))
        for window in own:
            self._record(window, now)
        return ALLOW

    def notice(self, place: Place, user_id: str) -> bool:
        """Whether to tell the user now about a problem of the channel (a missing permission):
        at most :attr:`Limits.notice`, so a broken channel never floods anyone's DMs."""
        now = self._clock()
        self._evict(now)
        window = self._window("notice", (place, user_id), self.limits.notice)
        if window.wait(now):
            return False
        self._record(window, now)
        return True

    @staticmethod
    def _refuse_once(window: _Window, rate: Rate, wait: float) -> Check:
        if window.warned:
            return Check(Verdict.DROP, rate, wait)
        window.warned = True
        return Check(Verdict.REFUSE, rate, wait)

    def _window(self, kind: str, key: Hashable, rate: Rate) -> _Window:
        windows = self._kinds.setdefault(kind, OrderedDict())
        window = windows.get(key)
        if window is None:
            window = windows[key] = _Window(kind, key, rate)
            while len(windows) > self._max:
                windows.popitem(last=False)
        return window

    def _record(self, window: _Window, now: float) -> None:
        window.record(now)
        self._kinds[window.kind].move_to_end(window.key)

    def _evict(self, now: float) -> None:
        for windows in self._kinds.values():
            while windows:
                window = next(iter(windows.values()))
                if not window.idle(now):
                    break
                del windows[window.key]


Seats = Callable[[Place], Awaitable[frozenset[str]]]


class SeatCache:
    """Who plays at each table, as last read, kept ``ttl`` seconds (at most ``max_places``)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        ttl: float = SEATS_TTL,
        max_places: int = SEATS_KEPT,
    ) -> None:
        self._clock = clock
        self._ttl = ttl
        self._seats: Bounded[Place, tuple[float, frozenset[str]]] = Bounded(max_places)

    @property
    def size(self) -> int:
        return len(self._seats)

    def get(self, place: Place) -> frozenset[str] | None:
        kept = self._seats.get(place)
        if kept is None:
            return None
        if kept[0] <= self._clock():
            self._seats.pop(place)
            return None
        return kept[1]

    def put(self, place: Place, seated: frozenset[str]) -> None:
        self._seats.put(place, (self._clock() + self._ttl, seated))

    def forget(self, place: Place) -> None:
        self._seats.pop(place)


class Gate:
    """The limiter plus who is a player where: one cached read per table, not per command.

    An allowed command may seat or unseat someone (a challenge, its answer, a match's end), so
    it forgets the table's seats: the next command reads them afresh. A flood of dropped
    commands never reaches the store.
    """

    def __init__(self, limiter: Limiter, seats: Seats, cache: SeatCache | None = None) -> None:
        self.limiter = limiter
        self._seats = seats
        self._cache = cache if cache is not None else SeatCache()

    async def seated(self, place: Place) -> frozenset[str]:
        seated = self._cache.get(place)
        if seated is None:
            try:
                seated = await self._seats(place)
            except DatabaseDown:  # nobody seated, for now: the command says it is down
                return frozenset()
            self._cache.put(place, seated)
        return seated

    async def check(self, place: Place, user_id: str, *, privileged: bool = False) -> Check:
        """``privileged``: the bot's owner or a moderator of the channel, never held back."""
        if privileged:
            self._cache.forget(place)
            return ALLOW
        is_player = user_id in await self.seated(place)
        result = self.limiter.check(place, user_id, is_player=is_player)
        if result.verdict is Verdict.ALLOW:
            self._cache.forget(place)
        return result

    def changed(self, place: Place) -> None:
        """Call after a command ran: the table's players may have changed."""
        self._cache.forget(place)
