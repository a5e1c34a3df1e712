"""The plays offered while a player types ``/move``: the legal plays of their roll, in gnubg
notation, filtered by what they typed so far and in an order that helps them find theirs.

Pure functions of the legal plays (no engine evaluation: ranking the plays would be a hint).

What was typed is read leniently, one move at a time, in any order: gnubg (``13/7*``,
``8/2(2)``, ``bar/22``, ``6/off``) or FIBS (``13-7``, ``25-22``, ``6-0``). Every move typed
before the last space must be a move of the play; the last one, perhaps half typed (``13/``),
must begin one of its other moves. Plays that lead with the move named first come first. When
nothing fits (a typo, a move that isn't legal), the plays that move a checker from a point named
come first and then the rest, so the list is never empty while the player has a choice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.rules.notation import normalise_play_text
from bot.service.models import User

if TYPE_CHECKING:
    from bot.service.matches.repository import Table

CHOICES_SHOWN = 25  # Discord shows at most 25 autocomplete choices

_COUNT = re.compile(r"^(?P<path>.*?)\((?P<count>\d+)\)$")
_SPELLINGS = {"bar": ("bar", "25"), "25": ("bar", "25"), "off": ("off", "0"), "0": ("off", "0")}


@dataclass(frozen=True, slots=True)
class _Move:
    """One checker's move of a play, in every way a player may write it."""

    start: str  # the point it leaves, as gnubg writes it
    forms: frozenset[str]  # e.g. {"24/18/13", "24/13"}; with "bar"/"25", "off"/"0" both

    def fits(self, word: str) -> bool:
        return word in self.forms

    def begins(self, partial: str) -> bool:
        return any(form.startswith(partial) for form in self.forms)


def _spelled(points: Sequence[str]) -> set[str]:
    """``points`` joined with ``/``, with the bar and off written both ways."""
    forms = [""]
    for point in points:
        forms = [
            f"{form}/{word}" if form else word
            for form in forms
            for word in _SPELLINGS.get(point, (point,))
        ]
    return set(forms)


def _moves(notation: str) -> list[_Move]:
    """The checkers' moves of a play as gnubg prints it (``8/2(2)`` is two moves)."""
    moves: list[_Move] = []
    for segment in notation.split():
        found = _COUNT.match(segment)
        path, count = (found["path"], int(found["count"])) if found else (segment, 1)
        points = path.replace("*", "").split("/")
        forms = _spelled(points) | _spelled([points[0], points[-1]])
        moves.extend([_Move(points[0], frozenset(forms))] * count)
    return moves


@dataclass(frozen=True, slots=True)
class Typed:
    """What was typed so far: whole moves (a ``(n)`` repeats one) and the last, unfinished."""

    moves: tuple[str, ...]
    partial: str

    @classmethod
    def read(cls, text: str) -> Typed:
        plain = normalise_play_text(text).lower().replace("-", "/").replace("*", "")
        words = plain.split()
        partial = ""
        if words and not plain[-1].isspace() and _COUNT.match(words[-1]) is None:
            partial = words.pop().split("(")[0]  # "8/2(": the count is still being typed
        moves: list[str] = []
        for word in words:
            found = _COUNT.match(word)
            count = min(int(found["count"]), 4) if found else 1  # no play moves 5 checkers
            moves.extend([found["path"] if found else word] * count)
        return cls(tuple(moves), partial)

    @property
    def empty(self) -> bool:
        return not self.moves and not self.partial

    @property
    def points(self) -> set[str]:
        """The points typed as a move's start, both spellings of the bar."""
        starts = {word.split("/")[0] for word in (*self.moves, self.partial) if word}
        return {form for start in starts for form in _SPELLINGS.get(start, (start,))}


def _lead(moves: list[_Move], typed: Typed) -> int | None:
    """Where in the play the first move typed is, when every typed move fits the play (the
    last may be half typed); None when the play doesn't fit."""
    left = list(range(len(moves)))
    first: int | None = None
    for word in typed.moves:
        index = next((i for i in left if moves[i].fits(word)), None)
        if index is None:
            return None
        left.remove(index)
        first = index if first is None else first
    if typed.partial:
        index = next((i for i in left if moves[i].begins(typed.partial)), None)
        if index is None:
            return None
        first = index if first is None else first
    return first if first is not None else 0


def play_choices(notations: Iterable[str], text: str, limit: int = CHOICES_SHOWN) -> list[str]:
    """The plays (their gnubg notation, as given: legal plays in the engine's order) to offer
    for ``text``, at most ``limit``."""
    plays = list(dict.fromkeys(notations))
    typed = Typed.read(text)
    if typed.empty:
        return plays[:limit]
    fitting: list[tuple[int, int, str]] = []
    for order, notation in enumerate(plays):
        lead = _lead(_moves(notation), typed)
        if lead is not None:
            fitting.append((lead, order, notation))
    if fitting:
        return [notation for _, _, notation in sorted(fitting)][:limit]
    named = typed.points
    using = [p for p in plays if any(move.start in named for move in _moves(p))]
    chosen = set(using)
    return (using + [p for p in plays if p not in chosen])[:limit]


def plays_for(table: Table | None, user: User, text: str) -> list[str]:
    """The choices for ``user`` at ``table``: none unless it is their move."""
    if table is None:
        return []
    match = table.match
    seat = table.seat(user)
    if seat is None or match.phase != "move" or match.turn != seat:
        return []
    return play_choices((play.notation for play in match.legal_plays()), text)
