"""Counting what a gnubg worker asks gnubg (pickled by name, so not in a test module):
:func:`install` puts a counting stand-in in front of the worker's ``gnubg`` module (the worker
looks it up in ``sys.modules`` at each call), :func:`counts` reads the tally."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

# gnubg's searches and evaluations; ``command`` is counted by its first word ("hint", "set")
COUNTED = frozenset({"find_best_move", "find_best_moves", "evaluate", "command"})


class CountingGnubg:
    def __init__(self, real: Any) -> None:
        self.real = real
        self.tally: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.real, name)
        if name not in COUNTED:
            return found

        def counted(*args: Any) -> Any:
            if name == "command":
                self.tally[f"command {str(args[0]).split()[0]}"] += 1
            elif name == "evaluate":
                self.tally[f"evaluate {args[2]['plies']}-ply"] += 1
            else:
                self.tally[name] += 1
            return found(*args)

        return counted


def install() -> None:
    """In a worker: count from now on (once per worker)."""
    if not isinstance(sys.modules["gnubg"], CountingGnubg):
        sys.modules["gnubg"] = CountingGnubg(sys.modules["gnubg"])  # type: ignore[assignment]


def counts() -> Counter[str]:
    """In a worker: the calls counted so far."""
    counting = sys.modules["gnubg"]
    assert isinstance(counting, CountingGnubg), "install() first"
    return Counter(counting.tally)
