"""Play notation: GNU Backgammon's printing rules, and the first (syntax) layer of parsing.

Points are numbered from the mover's side: 1-24, 25 = the bar, 0 = off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.errors import InvalidMoveError

BAR = 25
OFF = 0
NO_LEGAL_MOVE = "no legal move"

Step = tuple[int, int]


def format_point(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_play(steps: tuple[Step, ...], opponent: tuple[int, ...]) -> str:
    """What GNU Backgammon prints for a play (a port of its ``FormatMove``).

    ``steps`` are single-die moves ``(from, to)``; ``opponent`` is the opponent's side before the
    play, from its own point of view, so the opponent's count on the mover's point ``p`` is
    ``opponent[24 - p]``. Moves are sorted by source point, the moves of one checker are joined
    (an intermediate point is kept only where it hits), equal moves are counted as ``(n)`` and
    each hit is starred once.
    """
    if not steps:
        return NO_LEGAL_MOVE
    chains = [[source, dest] for source, dest in sorted(steps, key=lambda s: (-s[0], -s[1]))]
    alive = [True] * len(chains)
    for i, chain in enumerate(chains):
        for j in range(i + 1, len(chains)):
            if alive[i] and alive[j] and chain[-1] == chains[j][0]:
                if opponent[24 - chain[-1]]:
                    chain.append(chains[j][-1])
                else:
                    chain[-1] = chains[j][-1]
                alive[j] = False
    live = [chain for chain, keep in zip(chains, alive, strict=True) if keep]
    counted: list[tuple[list[int], int]] = []
    for chain in live:
        for index, (seen, count) in enumerate(counted):
            if seen == chain:
                counted[index] = (seen, count + 1)
                break
        else:
            counted.append((chain, 1))
    starred: set[int] = set()
    parts = []
    for chain, count in counted:
        text = format_point(chain[0])
        for point in chain[1:-1]:
            text += f"/{format_point(point)}*"
            starred.add(point)
        dest = chain[-1]
        text += f"/{format_point(dest)}"
        if dest != OFF and opponent[24 - dest] and dest not in starred:
            text += "*"
            starred.add(dest)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Segment:
    """One typed move of ``count`` checkers along ``path`` (``13/7*/1(2)`` -> (13, 7, 1), 2)."""

    path: tuple[int, ...]
    count: int
    text: str


_POINT_WORDS = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF}
_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>[^()]*)\))?$")
_EXAMPLE = "use from/to like 13/7, bar/22 or 6/off"


def _read_point(word: str, token: str, source: str) -> int:
    word = word.rstrip("*")
    if word in _POINT_WORDS:
        return _POINT_WORDS[word]
    if not word.isdigit() or not word.isascii():
        shown = word or "nothing"
        raise InvalidMoveError(f"{source!r} is not a move: {shown!r} in {token!r} is not a point")
    point = int(word)
    if point > BAR:
        raise InvalidMoveError(f"{source!r} is not a move: there is no point {point} (1-24)")
    return point


def parse_segments(text: str) -> list[Segment]:
    """Read typed moves (gnubg ``13/7* 8/2(2) bar/22 6/off`` or FIBS ``13-7 bar-22``).

    This layer checks only the writing, not the rules: ``bar`` must come first, ``off`` last.
    Raises :class:`InvalidMoveError`, quoting ``text``.
    """
    cleaned = text.strip().lower()
    cleaned = re.sub(r"\s*([/\-(),])\s*", r"\1", cleaned)
    cleaned = re.sub(r"\s+\*", "*", cleaned)
    cleaned = re.sub(r"\)(?=\S)", ") ", cleaned)
    tokens = [token for token in re.split(r"[\s,]+", cleaned) if token]
    if not tokens:
        raise InvalidMoveError(f"{text!r} is not a move: {_EXAMPLE}")
    segments = []
    for token in tokens:
        match = _TOKEN.match(token)
        if match is None:
            raise InvalidMoveError(f"{text!r} is not a move: {token!r} is not from/to, {_EXAMPLE}")
        words = re.split(r"[/\-]", match["path"])
        if len(words) < 2:
            raise InvalidMoveError(f"{text!r} is not a move: {token!r} needs from/to, {_EXAMPLE}")
        path = tuple(_read_point(word, token, text) for word in words)
        count = 1
        if match["count"] is not None:
            if not match["count"].isdigit() or not match["count"].isascii():
                raise InvalidMoveError(f"{text!r} is not a move: write a count like 8/2(2)")
            count = int(match["count"])
            if not 1 <= count <= 4:
                raise InvalidMoveError(f"{text!r} is not a move: a count must be 1 to 4")
        if BAR in path[1:]:
            raise InvalidMoveError(f"{text!r} is not a move: a checker can't move to the bar")
        if OFF in path[:-1]:
            raise InvalidMoveError(f"{text!r} is not a move: 'off' can only come last")
        segments.append(Segment(path, count, token))
    return segments
