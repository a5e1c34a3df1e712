"""Puzzles: a decision whose answer is clear, with GNU Backgammon's whole ranking of it, so an
answer is graded without asking the engine.

A :class:`Puzzle` is a state in play (a :class:`~bot.rules.pasted.PastedPosition`: the board,
the dice or the cube question, the match length, score, cube, Crawford, Jacoby and beavers) and
gnubg's figures at 2-ply (:data:`PLIES`) for the one who must decide:

* ``"checker"``: the dice are rolled; ``plays`` is every legal play with its cubeful equity
  (EMG in match play), best first.
* ``"double"``: before the roll, the player on roll doubles or doesn't; ``cube`` holds gnubg's
  no double, double/take and double/pass equities, from the doubler's side.
* ``"take"``: a double is offered; the other player takes or passes (same equities).

The rule that makes a puzzle (:func:`qualifies`): gnubg's best play beats the second by at least
:data:`MIN_GAP` EMG, or the wrong cube action costs at least :data:`MIN_GAP`. A puzzle's first
rating (:func:`first_rating`) comes from that gap: the smaller, the harder.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.i18n import rules as say
from bot.i18n.core import chained
from bot.rules.errors import InvalidMoveError
from bot.rules.pasted import PastedPosition, from_gnubg_id

CHECKER, DOUBLE, TAKE = "checker", "double", "take"
KINDS = (CHECKER, DOUBLE, TAKE)
PLIES = 2
MIN_GAP = 0.05  # EMG: the least a puzzle's wrong answer costs
DATA_VERSION = 1

# The first rating: a gap of GAP_AT_DEFAULT is rated DEFAULT_RATING, each tripling of the gap
# is RATING_PER_TRIPLING easier; kept within FIRST_RATINGS.
GAP_AT_DEFAULT = 0.15
RATING_PER_TRIPLING = 500.0
FIRST_RATINGS = (800.0, 2300.0)

# The answers to a cube puzzle, as typed or pressed, by kind: the word and what it means.
DOUBLE_WORDS = {"double": True, "redouble": True, "no double": False, "no redouble": False}
TAKE_WORDS = {"take": True, "beaver": True, "pass": False, "drop": False}
# Their names in a verdict
DOUBLE_NAMES = {True: "Double", False: "No double"}
TAKE_NAMES = {True: "Take", False: "Pass"}


class PuzzleDataError(ValueError):
    """Stored puzzle data that can't be read (the text says why)."""


@dataclass(frozen=True, slots=True)
class Ranked:
    """One answer with gnubg's equity for it, from the side of the one who decides."""

    answer: str
    equity: float


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """gnubg's cubeful equities of a cube decision, for the doubler."""

    no_double: float
    double_take: float
    double_pass: float

    @property
    def doubling(self) -> float:
        """The doubler's equity when they double and the taker answers right."""
        return min(self.double_take, self.double_pass)

    @property
    def double(self) -> bool:
        """Doubling is right."""
        return self.doubling > self.no_double

    @property
    def take(self) -> bool:
        """Taking a double is right."""
        return self.double_take < self.double_pass


@dataclass(frozen=True, slots=True)
class Verdict:
    """An answer graded: ``answer`` as read (gnubg's spelling of a play), its equity, gnubg's
    best, the top three and the equity lost (0 when right)."""

    answer: Ranked
    best: Ranked
    top: tuple[Ranked, ...]

    @property
    def loss(self) -> float:
        return max(0.0, round(self.best.equity - self.answer.equity, 3))

    @property
    def right(self) -> bool:
        return self.answer.answer == self.best.answer


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A decision and gnubg's ranking of it (see the module text). ``state``'s dice say a
    checker puzzle, its ``doubled`` a take puzzle; else a double puzzle."""

    state: PastedPosition
    plays: tuple[Ranked, ...] = ()
    cube: CubeEquities | None = None
    plies: int = PLIES

    def __post_init__(self) -> None:
        if self.kind == CHECKER:
            if len(self.plays) < 2 or self.cube is not None:
                raise ValueError("a checker puzzle ranks two plays or more, and has no cube")
            if any(a.equity < b.equity for a, b in zip(self.plays, self.plays[1:], strict=False)):
                raise ValueError("a checker puzzle's plays are ranked best first")
        elif self.cube is None or self.plays:
            raise ValueError("a cube puzzle has the cube's equities and no plays")

    @property
    def kind(self) -> str:
        if self.state.dice is not None:
            return CHECKER
        return TAKE if self.state.doubled else DOUBLE

    @property
    def decider(self) -> int:
        """The player who must answer (0 or 1, as gnubg numbers them)."""
        return self.state.turn

    @property
    def gnubg_id(self) -> str:
        return self.state.gnubg_id()

    @property
    def xgid(self) -> str:
        return self.state.xgid()

    @property
    def key(self) -> str:
        """A short stable name: the state and the money rules the gnubg ID doesn't carry."""
        text = f"{self.gnubg_id}:{int(self.state.jacoby)}{int(self.state.beavers)}"
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def ranking(self) -> tuple[Ranked, ...]:
        """Every answer, best first, with its equity for the decider."""
        if self.kind == CHECKER:
            return self.plays
        cube = self.cube
        assert cube is not None
        if self.kind == DOUBLE:
            answers = [
                Ranked(DOUBLE_NAMES[True], cube.doubling),
                Ranked(DOUBLE_NAMES[False], cube.no_double),
            ]
        else:  # the taker's equity is the doubler's, turned round
            answers = [
                Ranked(TAKE_NAMES[True], -cube.double_take + 0.0),
                Ranked(TAKE_NAMES[False], -cube.double_pass + 0.0),
            ]
        return tuple(sorted(answers, key=lambda ranked: -ranked.equity))

    @property
    def best(self) -> Ranked:
        return self.ranking()[0]

    @property
    def gap(self) -> float:
        """What the second-best answer loses against the best."""
        first, second = self.ranking()[:2]
        return round(first.equity - second.equity, 3)

    @property
    def first_rating(self) -> float:
        """Its rating before anyone answers it (:func:`first_rating`)."""
        return first_rating(self.gap)

    def grade(self, answer: str) -> Verdict:
        """The verdict on ``answer``: a play in any spelling :meth:`Position.parse_play` reads
        (its errors, :class:`~bot.rules.errors.MoveError`, say what is wrong), or a cube answer
        (``double``/``no double``, ``take``/``pass``; :class:`InvalidMoveError` otherwise)."""
        ranking = self.ranking()
        if self.kind == CHECKER:
            dice = self.state.dice
            assert dice is not None
            name = self.state.position.parse_play(answer, dice).notation
        else:
            words = DOUBLE_WORDS if self.kind == DOUBLE else TAKE_WORDS
            meaning = words.get(" ".join(answer.lower().split()))
            if meaning is None:
                listed = chained(say.OR, map(repr, words))
                raise InvalidMoveError(
                    say.PUZZLE_ANSWER_WORDS.said(words=listed, quoted=repr(answer.strip()))
                )
            name = (DOUBLE_NAMES if self.kind == DOUBLE else TAKE_NAMES)[meaning]
        chosen = next((ranked for ranked in ranking if ranked.answer == name), None)
        if chosen is None:  # the ranking is every legal play: this can't happen to a good one
            raise PuzzleDataError(f"puzzle {self.key} does not rank {name!r}")
        return Verdict(answer=chosen, best=ranking[0], top=ranking[:3])

    # -- storage ------------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.gnubg_id, "plies": self.plies}
        if self.state.beavers:
            data["beavers"] = 1
        if self.cube is not None:
            data["cube"] = [self.cube.no_double, self.cube.double_take, self.cube.double_pass]
        else:
            data["plays"] = [[ranked.answer, ranked.equity] for ranked in self.plays]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Puzzle:
        try:
            position_id, _, match_id = str(data["id"]).partition(":")
            state = from_gnubg_id(data["id"], position_id, match_id)
            if data.get("beavers"):  # the one rule a gnubg ID doesn't carry
                state = replace(state, beavers=True)
            cube = CubeEquities(*(float(v) for v in data["cube"])) if "cube" in data else None
            plays = tuple(Ranked(str(p), float(e)) for p, e in data.get("plays", ()))
            return cls(state, plays, cube, int(data["plies"]))
        except (KeyError, TypeError, ValueError) as error:
            raise PuzzleDataError(f"not a puzzle: {error}") from None


def qualifies(puzzle: Puzzle) -> bool:
    """The rule that makes a decision a puzzle: its second-best answer loses at least
    :data:`MIN_GAP` (checker plays: the best beats the second; the cube: the wrong action)."""
    return puzzle.gap >= MIN_GAP


def first_rating(gap: float) -> float:
    """A puzzle's rating before anyone answers it, from its gap (equity): :data:`GAP_AT_DEFAULT`
    is 1500, each tripling of the gap :data:`RATING_PER_TRIPLING` easier."""
    if gap <= 0:
        return FIRST_RATINGS[1]
    rating = 1500.0 + RATING_PER_TRIPLING * math.log(GAP_AT_DEFAULT / gap, 3)
    return round(min(max(rating, FIRST_RATINGS[0]), FIRST_RATINGS[1]), 1)


def encode_pool(puzzles: Iterable[Puzzle]) -> bytes:
    """A pool as gzipped JSON lines, a header line first; the same puzzles give the same bytes
    (no time in the gzip header)."""
    lines = [json.dumps({"puzzles": DATA_VERSION}, separators=(",", ":"))]
    lines += [json.dumps(p.to_data(), separators=(",", ":")) for p in puzzles]
    return gzip.compress(("\n".join(lines) + "\n").encode(), compresslevel=9, mtime=0)


def decode_pool(data: bytes) -> tuple[Puzzle, ...]:
    """The puzzles :func:`encode_pool` wrote; :class:`PuzzleDataError` if they aren't."""
    try:
        header, *lines = gzip.decompress(data).decode().splitlines()
        if json.loads(header) != {"puzzles": DATA_VERSION}:
            raise PuzzleDataError(f"not a puzzle pool of version {DATA_VERSION}: {header[:80]!r}")
        return tuple(Puzzle.from_data(json.loads(line)) for line in lines)
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError, ValueError) as error:
        if isinstance(error, PuzzleDataError):
            raise
        raise PuzzleDataError(f"not a puzzle pool: {error}") from None
