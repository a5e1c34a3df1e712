"""The plays offered while a player types ``/move``: the legal plays of their roll, in gnubg
notation, filtered by what they typed so far and in an order that helps them find theirs.

Pure functions of the legal plays (no engine evaluation: ranking the plays would be a hint).

What was typed is read leniently, one move at a time, in any order: gnubg (``13/7*``,
``8/2(2)``, ``bar/22``, ``6/off``) or FIBS (``13-7``, ``25-22``, ``6-0``). Every move typed
before the last space must be a move of the play; the last one, perhaps half typed (``13/``),
must begin one of its other moves. Plays that lead with the move named first come first. When
nothing fits (a typo, a move that isn't legal), the plays that move a checker from a point named
come first and then the rest, so the list is never empty while the player has a choice.

``/drill`` offers the same for a checker drill (:func:`position_plays`: the plays of its
position and roll, never ranked) and its words for the others (:func:`word_choices`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.rules.match import Match
from bot.rules.notation import normalise_play_text
from bot.rules.position import Position

CHOICES_SHOWN = 25  # Discord shows at most 25 autocomplete choices
# An answer is mostly reading plays and holding what was typed against them: both are kept.
PLAYS_READ = 4096  # plays, read into their moves
TEXTS_READ = 256  # texts typed, read
LEADS_KEPT = 512  # for each text: whether and where it fits a play
POSITIONS_READ = 256  # drills' positions and rolls, read into their legal plays

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


@lru_cache(maxsize=PLAYS_READ)
def _moves(notation: str) -> tuple[_Move, ...]:
    """The checkers' moves of a play as gnubg prints it (``8/2(2)`` is two moves)."""
    moves: list[_Move] = []
    for segment in notation.split():
        found = _COUNT.match(segment)
        path, count = (found["path"], int(found["count"])) if found else (segment, 1)
        points = path.replace("*", "").split("/")
        forms = _spelled(points) | _spelled([points[0], points[-1]])
        moves.extend([_Move(points[0], frozenset(forms))] * count)
    return tuple(moves)


@lru_cache(maxsize=PLAYS_READ)
def _starts(notation: str) -> frozenset[str]:
    """The points a play moves checkers from, as gnubg writes them."""
    return frozenset(move.start for move in _moves(notation))


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


@dataclass(frozen=True, slots=True)
class _Reading:
    """A text typed, read once, and where it fits each play it was held against so far:
    players type the same starts (``13/``, ``8/``) against the same plays, position after
    position."""

    typed: Typed
    leads: dict[str, int | None]

    def lead(self, notation: str) -> int | None:
        if notation not in self.leads:
            if len(self.leads) >= LEADS_KEPT:
                self.leads.clear()
            self.leads[notation] = _lead(_moves(notation), self.typed)
        return self.leads[notation]


@lru_cache(maxsize=TEXTS_READ)
def _reading(text: str) -> _Reading:
    return _Reading(Typed.read(text), {})


def _lead(moves: tuple[_Move, ...], typed: Typed) -> int | None:
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
    reading = _reading(text)
    typed = reading.typed
    if typed.empty:
        return plays[:limit]
    fitting: list[tuple[int, int, str]] = []
    for order, notation in enumerate(plays):
        lead = reading.lead(notation)
        if lead is not None:
            fitting.append((lead, order, notation))
    if fitting:
        return [notation for _, _, notation in sorted(fitting)][:limit]
    named = typed.points
    using = [p for p in plays if not named.isdisjoint(_starts(p))]
    chosen = set(using)
    return (using + [p for p in plays if p not in chosen])[:limit]


def plays_for(
    match: Match, seat: int | None, text: str, plays: Sequence[str] | None = None
) -> list[str]:
    """The choices for the player at ``seat`` (None: a spectator) of ``match``: none unless it
    is their move. ``plays``: the notation of its legal plays, when known already."""
    if seat is None or match.phase != "move" or match.turn != seat:
        return []
    if plays is None:
        plays = [play.notation for play in match.legal_plays()]
    return play_choices(plays, text)


def word_choices(words: Iterable[str], text: str, limit: int = CHOICES_SHOWN) -> list[str]:
    """The ``words`` (answers such as ``no double``, in the order given) that begin with what
    was typed, read leniently (any case, spaces and ``-`` ignored: ``nod`` is ``no double``).
    When none does (a typo), all of them: the list is never empty while there is a choice."""
    offered = list(dict.fromkeys(words))
    typed = re.sub(r"[\s-]+", "", text.lower())
    fitting = [word for word in offered if re.sub(r"[\s-]+", "", word).startswith(typed)]
    return (fitting or offered)[:limit]


@lru_cache(maxsize=POSITIONS_READ)
def position_plays(position_id: str, dice: tuple[int, int]) -> tuple[str, ...]:
    """The notation of the legal plays of a gnubg Position ID (its player on roll to move) and
    roll, in the rules' order, as ``/move`` offers them. Raises ValueError for a bad ID or roll."""
    position = Position.from_position_id(position_id)
    return tuple(play.notation for play in position.legal_plays(*dice))
