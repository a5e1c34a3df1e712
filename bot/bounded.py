"""A dict of bounded size that drops its least recently used entries: what the cogs, the
service and the renderer keep in memory (each channel's buttons, players' names, boards'
tiles...), each a :class:`Bounded`."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """At most ``size`` entries; with ``weigh``, entries whose weights sum to at most ``size``
    (a value heavier than that is not kept). A :meth:`put` beyond it drops the least recently
    used: :meth:`get` and :meth:`put` make an entry the most recently used, :meth:`peek` and
    ``in`` leave the order as it is (an entry never read again but by them goes in the order it
    was put). None is what a key not kept reads as: keep no None values to read.

    Not thread-safe: an instance shared by threads is used under its owner's lock."""

    __slots__ = ("_entries", "_weigh", "size", "weight")

    def __init__(self, size: int, *, weigh: Callable[[V], int] | None = None) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ValueError(f"a bound is a whole number, 0 or more, not {size!r}")
        self.size = size
        self.weight = 0  # the sum of the values' weights, with ``weigh``
        self._weigh = weigh
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used), or None."""
        entries = self._entries
        value = entries.get(key)
        if value is not None:
            entries.move_to_end(key)
        return value

    def peek(self, key: K) -> V | None:
        """The value kept under ``key``, or None; the order of use left as it is."""
        return self._entries.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the most recently used, dropping the least recently
        used beyond the bound."""
        entries = self._entries
        weigh = self._weigh
        if weigh is None:
            entries[key] = value
            entries.move_to_end(key)
            while len(entries) > self.size:
                entries.popitem(last=False)
            return
        weight = weigh(value)
        if weight > self.size:
            return
        self.pop(key)
        entries[key] = value
        self.weight += weight
        while self.weight > self.size:
            self.weight -= weigh(entries.popitem(last=False)[1])

    def pop(self, key: K) -> V | None:
        """Drop ``key``'s entry: its value, or None if none was kept."""
        if key not in self._entries:
            return None
        value = self._entries.pop(key)
        if self._weigh is not None:
            self.weight -= self._weigh(value)
        return value

    def clear(self) -> None:
        self._entries.clear()
        self.weight = 0

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[K]:
        """The keys, the least recently used first."""
        return iter(self._entries)
