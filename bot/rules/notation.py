"""Play notation: GNU Backgammon's printing rules, and the first (syntax) layer of parsing;
the dice as players write them (``6-1``); and whole numbers as players type them
(:func:`whole_number`, below).

Points are numbered from the mover's side: 1-24, 25 = the bar, 0 = off.
"""

from __future__ import annotations

import itertools
import operator
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.i18n import rules as say
from bot.i18n.core import Said
from bot.rules.dice import Dice
from bot.rules.errors import InvalidMoveError, excerpt, typed

# Whole numbers as players type them, read one way for every command: the decimal digits of any
# script (``12``, ``١٢``; full-width ones are plain digits after the input's NFKC normalisation), at
# most :data:`MOST_DIGITS` of them. Anything else is no number: digits that ``str.isdigit`` takes
# and ``int`` refuses (``፩``), signs, fractions, exponents, and numbers past every column a
# database holds (a PostgreSQL ``integer``), which would otherwise fail deep in the store.
MOST_DIGITS = 9  # 999,999,999: below PostgreSQL's integer limit, above anything counted here


def whole_number(word: str) -> int | None:
    """``word`` as a whole number from 0, or None when it is not one as defined above."""
    if not 0 < len(word) <= MOST_DIGITS or not word.isdecimal():
        return None
    return int(word)


def whole_number_in(word: str, low: int, high: int) -> int | None:
    """``word`` as a whole number from ``low`` to ``high``, or None."""
    number = whole_number(word)
    return number if number is not None and low <= number <= high else None


def decimal_number(word: str) -> float | None:
    """``word`` as a number with an optional fraction (``3``, ``1.5``), each part read as
    :func:`whole_number` reads it; None for anything else (signs, exponents, ``nan``, ``inf``)."""
    whole, dot, fraction = word.partition(".")
    if whole_number(whole) is None or (dot and whole_number(fraction) is None):
        return None
    return float(word)  # float() reads the digits of every script, as int() does


BAR = 25
OFF = 0
NO_LEGAL_MOVE = "no legal move"

Step = tuple[int, int]


_POINT_TEXT = ("off", *(str(point) for point in range(1, BAR)), "bar")  # by point number


def format_point(point: int) -> str:
    return _POINT_TEXT[point]


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
    # Every legal play's notation is shown (autocomplete) after each roll: kept plain and fast.
    chains = [[source, dest] for source, dest in sorted(steps, reverse=True)]
    if len(chains) > 1:
        live: list[list[int]] = []
        joined = [False] * len(chains)
        for i, chain in enumerate(chains):
            if joined[i]:
                continue
            for j in range(i + 1, len(chains)):
                if not joined[j] and chain[-1] == chains[j][0]:
                    if opponent[24 - chain[-1]]:
                        chain.append(chains[j][-1])
                    else:
                        chain[-1] = chains[j][-1]
                    joined[j] = True
            live.append(chain)
        chains = live
    counted: list[list[int]] = []
    counts: list[int] = []
    for chain in chains:
        if counted and counted[-1] == chain:  # sorted: equal chains are neighbours
            counts[-1] += 1
        elif chain in counted:
            counts[counted.index(chain)] += 1
        else:
            counted.append(chain)
            counts.append(1)
    starred: set[int] = set()
    parts = []
    text_of = _POINT_TEXT
    for chain, count in zip(counted, counts, strict=True):
        text = text_of[chain[0]]
        for point in chain[1:-1]:
            text += "/" + text_of[point] + "*"
            starred.add(point)
        dest = chain[-1]
        text += "/" + text_of[dest]
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
# The typed play's layout, compiled once (each is used at every play typed, the bot's included):
_AROUND_MARK = re.compile(r"\s*([/\-(),])\s*")  # spaces around a mark go
_BEFORE_STAR = re.compile(r"\s+\*")
_AFTER_COUNT = re.compile(r"\)(?=\S)")  # ``(2)`` ends a move
_BETWEEN_MOVES = re.compile(r"[\s,]+")
_BETWEEN_POINTS = re.compile(r"[/\-]")
_MARK = operator.itemgetter(1)

# Characters players type for "-", "/" and "*" that NFKC leaves alone: dashes and the minus sign
# (FIBS 13-7 typed with an en dash), division and fraction slashes, asterisk and star look-alikes.
_LOOK_ALIKES = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u2796", "-"),
        **dict.fromkeys("\u2044\u2215\u29f8\u2571", "/"),
        **dict.fromkeys("\u066d\u204e\u2217\u22c6\u2605\u2731\u2732\u2733\u273b", "*"),
    }
)


def normalise_typed(text: str) -> str:
    """What anyone typed, in the compatibility forms' plain equivalents (NFKC: full-width digits,
    slashes and brackets, non-breaking spaces, ligatures): the first step of reading any input,
    a play (:func:`normalise_play_text`) or the service's commands' arguments."""
    return unicodedata.normalize("NFKC", text)


def normalise_play_text(text: str) -> str:
    """``text`` with the look-alikes a keyboard may give mapped to ASCII: :func:`normalise_typed`,
    then any script's decimal digits, dashes, slashes and stars; invisible format characters
    (zero-width spaces, joiners) are dropped."""
    text = normalise_typed(text)
    if text.isascii():  # the usual play: nothing to map but the look-alikes
        return text.translate(_LOOK_ALIKES)
    chars = []
    for ch in text:
        if ch.isascii():
            chars.append(ch)
        elif unicodedata.category(ch) == "Cf":
            continue
        else:
            digit = unicodedata.decimal(ch, None)
            chars.append(ch if digit is None else str(digit))
    return "".join(chars).translate(_LOOK_ALIKES)


def _not_a_move(reason: Said, source: str, *, quoted: bool = False) -> InvalidMoveError:
    """``quoted``: the reason already quotes all of ``source``."""
    reason = say.NOT_A_MOVE.said(reason=reason)
    return InvalidMoveError(reason if quoted else typed(reason, source))


def _read_point(word: str, token: str, source: str, *, whole: bool) -> int:
    word = word.rstrip("*")
    if len(word) <= 2 and word.isascii() and word.isdigit() and int(word) <= BAR:
        return int(word)  # the usual point, read as below at a fifth of the cost
    if word in _POINT_WORDS:
        return _POINT_WORDS[word]
    if not word:
        reason = say.MISSING_POINT.said(token=excerpt(token), example=say.PLAY_EXAMPLE.said())
        raise _not_a_move(reason, source, quoted=whole)
    if not word.isdigit() or not word.isascii():
        reason = say.NOT_A_POINT.said(
            word=excerpt(word), token=excerpt(token), example=say.PLAY_EXAMPLE.said()
        )
        raise _not_a_move(reason, source, quoted=whole)
    point = whole_number(word)
    if point is None or point > BAR:  # None: more digits than any number
        shown = str(point) if point is not None and point < 1000 else say.THAT_HIGH.said()
        raise _not_a_move(say.NO_POINT.said(shown=shown), source)
    return point


def parse_segments(text: str) -> list[Segment]:
    """Read typed moves (gnubg ``13/7* 8/2(2) bar/22 6/off`` or FIBS ``13-7 bar-22``), after
    :func:`normalise_play_text`.

    This layer checks only the writing, not the rules: ``bar`` must come first, ``off`` last.
    Raises :class:`InvalidMoveError`, quoting the start of ``text``.
    """
    return list(_segments(text))


# The same plays are typed again and again (``8/5 6/5``, the bot's own): read once each, a
# cache hit costing a fiftieth of a reading. Errors are raised again each time, not kept.
@lru_cache(maxsize=4096)
def _segments(text: str) -> tuple[Segment, ...]:
    cleaned = normalise_play_text(text).strip().lower()
    cleaned = _AROUND_MARK.sub(_MARK, cleaned)
    cleaned = _BEFORE_STAR.sub("*", cleaned)
    cleaned = _AFTER_COUNT.sub(") ", cleaned)
    tokens = [token for token in _BETWEEN_MOVES.split(cleaned) if token]
    if not tokens:
        raise _not_a_move(say.PLAY_EXAMPLE.said(), text)
    segments = []
    whole = len(tokens) == 1
    for token in tokens:
        match = _TOKEN.match(token)
        if match is None:
            reason = say.NOT_FROM_TO.said(token=excerpt(token), example=say.PLAY_EXAMPLE.said())
            raise _not_a_move(reason, text, quoted=whole)
        words = _BETWEEN_POINTS.split(match["path"])
        if len(words) < 2:
            reason = say.NEEDS_FROM_TO.said(token=excerpt(token), example=say.PLAY_EXAMPLE.said())
            raise _not_a_move(reason, text, quoted=whole)
        path = tuple([_read_point(word, token, text, whole=whole) for word in words])
        count = 1
        if match["count"] is not None:
            if not match["count"].isdigit() or not match["count"].isascii():
                raise _not_a_move(say.COUNT_LIKE.said(), text)
            count = whole_number_in(match["count"], 1, 4) or 0
            if not count:
                raise _not_a_move(say.COUNT_RANGE.said(), text)
        if BAR in path[1:]:
            raise _not_a_move(say.NOT_TO_BAR.said(), text)
        if OFF in path[:-1]:
            raise _not_a_move(say.OFF_LAST.said(), text)
        segments.append(Segment(path, count, token))
    return tuple(segments)


def dice_text(dice: Dice) -> str:
    """``6-1``: the dice as players write them."""
    return f"{dice[0]}-{dice[1]}"


# -- what a typed play breaks whatever the position: checked before it is matched ----------------

Hop = tuple[int, int]


def hops_of(segments: Sequence[Segment]) -> list[Hop]:
    """Every single move typed, ``(n)`` counted n times: ``24/18/13(2)`` is four hops."""
    return [
        hop
        for segment in segments
        for _ in range(segment.count)
        for hop in itertools.pairwise(segment.path)
    ]


def all_dice(dice: Dice) -> list[int]:
    return [dice[0]] * 4 if dice[0] == dice[1] else list(dice)


def backwards_reason(segments: Sequence[Segment]) -> Said | None:
    for segment in segments:
        if any(dest >= source for source, dest in itertools.pairwise(segment.path)):
            return say.BACKWARDS.said(move=segment.text)
    return None


def too_many_moves_reason(dice: Dice, segments: Sequence[Segment]) -> Said | None:
    """More single moves than the roll has dice."""
    hops = hops_of(segments)
    available = all_dice(dice)
    if len(hops) <= len(available):
        return None
    repeated = [s for s in segments if s.count > 1]
    hint = (
        say.REPEATS_ONLY.said(count=repeated[0].count, move=repeated[0].text)
        if repeated and len(segments) > 1
        else ""
    )
    return say.TOO_MANY_MOVES.said(
        dice=dice_text(dice),
        dice_count=say.DICE.said(len(available)),
        moves=say.MOVES.said(len(hops)),
        hint=hint,
    )
