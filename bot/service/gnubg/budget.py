"""GNU Backgammon's time, shared fairly: how much engine work one user may have going at once.

The workers are few (``ENGINE_WORKERS``) and each position takes them a fraction of a second to
a few seconds, so one user's twenty ``!eval`` would queue everybody's bot turns behind them.
Per user, on Discord and in the console alike:

* at most :attr:`EngineBudget.bot_games` games against the bot being played at once;
* at most :attr:`EngineBudget.requests` ``!eval`` and ``!hint`` in progress at once;
* at most :attr:`EngineBudget.analyses` analyses asked for and not yet done.

Past that a command is refused with what to do; a request that had to wait behind many others
says so in its reply. Only work in progress counts, so this is kept in memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bot.i18n import gnubg as say
from bot.service.models import Refusal, User


@dataclass(frozen=True, slots=True)
class EngineBudget:
    bot_games: int = 3  # games against the bot one user plays at once
    requests: int = 2  # !eval and !hint of one user in progress at once
    analyses: int = 3  # analyses one user asked for that are queued or running


class EngineRequests:
    """The ``!eval`` and ``!hint`` in progress, per user and in all."""

    def __init__(self, budget: EngineBudget, workers: int) -> None:
        self.budget = budget
        self._workers = workers
        self._by_user: Counter[str] = Counter()
        self._total = 0

    @property
    def in_progress(self) -> int:
        return self._total

    @contextmanager
    def taken(self, user: User) -> Iterator[str]:
        """One request of ``user`` while the block runs; raises :class:`Refusal` past their
        budget. Yields a note for the reply ('' unless many requests were ahead of it)."""
        language = user.language
        most = self.budget.requests
        if self._by_user[user.id] >= most:
            raise Refusal(say.BUSY(language, most=most))
        ahead = self._total
        self._by_user[user.id] += 1
        self._total += 1
        try:
            yield busy_note(ahead, self._workers)
        finally:
            self._total -= 1
            self._by_user[user.id] -= 1
            if not self._by_user[user.id]:
                del self._by_user[user.id]


def busy_note(ahead: int, workers: int) -> str:
    """What a reply says of the queue it waited in: nothing while every request had a worker."""
    if ahead < workers:
        return ""
    return f"(GNU Backgammon was busy: {ahead} requests were ahead of yours.)"
