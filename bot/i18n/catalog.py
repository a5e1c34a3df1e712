"""Every entry of the catalog, from the modules that declare them (their English is the source):
what a translation must cover (``tests/i18n`` checks each language against it)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import ModuleType

from bot.i18n import (
    drills,
    errors,
    gnubg,
    help,
    help_details,
    images,
    numbers,
    pasted,
    play,
    posting,
    puzzles,
    records,
    reports,
    review,
    rules,
    server,
    tournaments,
)
from bot.i18n.core import Entry, Message, Plural

MODULES: tuple[ModuleType, ...] = (
    rules,
    play,
    server,
    errors,
    puzzles,
    records,
    help,
    gnubg,
    review,
    drills,
    tournaments,
    reports,
    numbers,
    help_details,
    images,
    pasted,
    posting,
)


def _entries(module: ModuleType) -> Iterator[Entry]:
    for value in vars(module).values():
        if isinstance(value, Message | Plural):
            yield value
        elif isinstance(value, Mapping):
            yield from (item for item in value.values() if isinstance(item, Message | Plural))


def entries() -> dict[str, Entry]:
    """Every entry by key."""
    found: dict[str, Entry] = {}
    for module in MODULES:
        for entry in _entries(module):
            if entry.key in found and found[entry.key] != entry:
                raise ValueError(f"Two entries are called {entry.key!r}")
            found[entry.key] = entry
    return found
